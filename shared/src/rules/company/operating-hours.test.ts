import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { translator } from '../../i18n/index.ts';
import { type HoursRow, MAX_RANGE_DAYS, resolveDay, resolveRange, validateHoursRows } from './operating-hours.ts';

const MADRID = 'Europe/Madrid';
const NEW_YORK = 'America/New_York';

/** A weekly window row. */
const week = (weekday: number, start: number, end: number, base_id: string | null = null): HoursRow => ({
  base_id,
  weekday,
  override_date: null,
  closed: false,
  start_minute: start,
  end_minute: end,
});
/** A dated override window row. */
const dated = (date: string, start: number, end: number, base_id: string | null = null): HoursRow => ({
  base_id,
  weekday: null,
  override_date: date,
  closed: false,
  start_minute: start,
  end_minute: end,
});
const closedOn = (date: string, base_id: string | null = null): HoursRow => ({
  ...dated(date, 0, 0, base_id),
  closed: true,
});
const closedWeekday = (weekday: number, base_id: string | null = null): HoursRow => ({
  ...week(weekday, 0, 0, base_id),
  closed: true,
});

/** Unix seconds of a wall-clock reading in a zone. */
const local = (iso: string, zone: string): number => DateTime.fromISO(iso, { zone }).toUnixInteger();

/** Monday to Friday 08:00-20:00 for the company. */
const COMPANY_WEEK: HoursRow[] = [0, 1, 2, 3, 4].map((d) => week(d, 480, 1200));

// 2026-06-01 is a Monday; 2026-06-06 a Saturday.
const MONDAY = '2026-06-01';
const TUESDAY = '2026-06-02';
const SATURDAY = '2026-06-06';

describe('validateHoursRows', () => {
  it('accepts a valid set, including windows that only touch and a closed row with no minutes', () => {
    const rows = [week(0, 480, 720), week(0, 720, 1200), week(1, 0, 1440), closedWeekday(6), closedOn('2026-12-25')];
    expect(validateHoursRows(rows)).toEqual([]);
  });

  it('accepts an empty set (posting no rows removes the customisation)', () => {
    expect(validateHoursRows([])).toEqual([]);
  });

  it('rejects a row with both weekday and override date', () => {
    expect(validateHoursRows([{ ...week(0, 480, 600), override_date: '2026-06-01' }])).toEqual([
      'Row 1: give either a weekday or an override date, not both.',
    ]);
  });

  it('rejects a row with neither weekday nor override date (empty date counts as none)', () => {
    const row: HoursRow = { ...week(0, 480, 600), weekday: null };
    expect(validateHoursRows([week(1, 0, 60), row])).toEqual(['Row 2: give a weekday or an override date.']);
    expect(validateHoursRows([{ ...row, override_date: '' }])).toEqual(['Row 1: give a weekday or an override date.']);
  });

  it('rejects a weekday outside 0..6 and a malformed or impossible date', () => {
    expect(validateHoursRows([week(7, 0, 60)])).toEqual([
      'Row 1: the weekday must be a whole number from 0 (Monday) to 6 (Sunday).',
    ]);
    expect(validateHoursRows([week(1.5, 0, 60)])).toHaveLength(1);
    expect(validateHoursRows([dated('2026-02-30', 0, 60), dated('26-1-1', 0, 60)])).toEqual([
      'Row 1: the override date must be a real date written YYYY-MM-DD.',
      'Row 2: the override date must be a real date written YYYY-MM-DD.',
    ]);
  });

  it('rejects an end at or before its start', () => {
    expect(validateHoursRows([week(0, 600, 600), week(1, 600, 585)])).toEqual([
      'Row 1: the end time must be after the start time.',
      'Row 2: the end time must be after the start time.',
    ]);
  });

  it('rejects times off the 15-minute grid', () => {
    expect(validateHoursRows([week(0, 485, 600), week(1, 480, 601)])).toEqual([
      'Row 1: the start time must be on the 15-minute grid.',
      'Row 2: the end time must be on the 15-minute grid.',
    ]);
  });

  it('rejects times outside 0..1440', () => {
    expect(validateHoursRows([week(0, -15, 600), week(1, 480, 1455), week(2, Number.NaN, 600)])).toEqual([
      'Row 1: the start time must be between 0 and 1440 minutes.',
      'Row 2: the end time must be between 0 and 1440 minutes.',
      'Row 3: the start time must be between 0 and 1440 minutes.',
    ]);
  });

  it('ignores the minutes of a closed row', () => {
    expect(validateHoursRows([{ ...closedWeekday(2), start_minute: 7, end_minute: -3 }])).toEqual([]);
  });

  it('rejects two windows overlapping on the same weekday, naming both rows and the day', () => {
    expect(validateHoursRows([week(0, 480, 720), week(1, 480, 720), week(0, 660, 900)])).toEqual([
      'Rows 1 and 3 overlap on Monday.',
    ]);
  });

  it('rejects two windows overlapping on the same override date, and a window inside another', () => {
    expect(
      validateHoursRows([dated('2026-12-24', 480, 1200), dated('2026-12-24', 600, 660), dated('2026-12-31', 600, 660)]),
    ).toEqual(['Rows 1 and 2 overlap on 2026-12-24.']);
  });

  it('reports every overlapping pair in row order', () => {
    expect(validateHoursRows([week(4, 600, 900), week(4, 480, 1200), week(4, 840, 960)])).toEqual([
      'Rows 1 and 2 overlap on Friday.',
      'Rows 2 and 3 overlap on Friday.',
      'Rows 1 and 3 overlap on Friday.',
    ]);
  });

  it('does not compare a weekday with a date on that weekday, nor different scopes', () => {
    expect(validateHoursRows([week(0, 480, 720), dated(MONDAY, 480, 720), week(0, 480, 720, 'b1')])).toEqual([]);
  });

  it('keeps invalid rows out of the overlap check', () => {
    expect(validateHoursRows([week(0, 480, 725), week(0, 600, 900)])).toEqual([
      'Row 1: the end time must be on the 15-minute grid.',
    ]);
  });
});

describe('validateHoursRows in the reader’s language', () => {
  it('words every message with the translator it is given; the same rows, the same checks', () => {
    const rows = [
      { ...week(0, 480, 600), weekday: null },
      week(9, 0, 60),
      dated('2026-02-30', 0, 60),
      week(1, 485, 1455),
    ];
    expect(validateHoursRows(rows, translator('fr'))).toEqual([
      'Ligne 1 : indiquez un jour de la semaine ou une date d’exception.',
      'Ligne 2 : le jour de la semaine doit être un nombre entier de 0 (lundi) à 6 (dimanche).',
      'Ligne 3 : la date d’exception doit être une date réelle écrite AAAA-MM-JJ.',
      'Ligne 4 : l’heure de début doit tomber sur la grille de 15 minutes.',
      'Ligne 4 : l’heure de fin doit être comprise entre 0 et 1440 minutes.',
    ]);
    expect(validateHoursRows([week(5, 480, 720), week(5, 600, 900)], translator('es'))).toEqual([
      'Las filas 1 y 2 se solapan el sábado.',
    ]);
    expect(validateHoursRows([dated('2026-12-24', 480, 720), dated('2026-12-24', 600, 900)], translator('de'))).toEqual(
      ['Die Zeilen 1 und 2 überschneiden sich am 2026-12-24.'],
    );
  });

  it('the English catalogue says exactly what the rule says without a translator', () => {
    const rows = [
      { ...week(0, 480, 600), override_date: '2026-06-01' },
      { ...week(0, 480, 600), weekday: null },
      week(7, 0, 60),
      dated('2026-02-30', 0, 60),
      week(1, -15, 601),
      week(2, 600, 600),
      week(6, 480, 720),
      week(6, 600, 900),
      dated('2026-12-24', 480, 720),
      dated('2026-12-24', 600, 900),
    ];
    const english = validateHoursRows(rows);
    expect(english).toHaveLength(9);
    expect(validateHoursRows(rows, translator('en'))).toEqual(english);
  });
});

describe('resolveDay', () => {
  it('opens a company with no rows at all around the clock', () => {
    expect(resolveDay([], null, MONDAY)).toEqual({ closed: false, windows: [{ start_minute: 0, end_minute: 1440 }] });
    expect(resolveDay([], 'b1', SATURDAY)).toEqual({ closed: false, windows: [{ start_minute: 0, end_minute: 1440 }] });
  });

  it('keeps the company open around the clock on other days when it only has a dated override', () => {
    const rows = [closedOn('2026-12-25')];
    expect(resolveDay(rows, null, '2026-12-25')).toEqual({ closed: true, windows: [] });
    expect(resolveDay(rows, null, '2026-12-26')).toEqual({
      closed: false,
      windows: [{ start_minute: 0, end_minute: 1440 }],
    });
  });

  it('applies the company week, and a weekday without a window is closed', () => {
    expect(resolveDay(COMPANY_WEEK, null, MONDAY)).toEqual({
      closed: false,
      windows: [{ start_minute: 480, end_minute: 1200 }],
    });
    expect(resolveDay(COMPANY_WEEK, null, SATURDAY)).toEqual({ closed: true, windows: [] });
  });

  it('lets a base with no rows follow the company week', () => {
    const rows = [...COMPANY_WEEK, week(5, 600, 720, 'other')];
    expect(resolveDay(rows, 'b1', MONDAY)).toEqual({
      closed: false,
      windows: [{ start_minute: 480, end_minute: 1200 }],
    });
    expect(resolveDay(rows, 'b1', SATURDAY).closed).toBe(true);
  });

  it('lets a base with any weekly row own its whole week: undefined weekdays are closed', () => {
    const rows = [...COMPANY_WEEK, week(5, 540, 840, 'b1')];
    expect(resolveDay(rows, 'b1', SATURDAY)).toEqual({
      closed: false,
      windows: [{ start_minute: 540, end_minute: 840 }],
    });
    // Monday is open for the company but the base defines only Saturday.
    expect(resolveDay(rows, 'b1', MONDAY)).toEqual({ closed: true, windows: [] });
    // The company scope itself is untouched.
    expect(resolveDay(rows, null, MONDAY).closed).toBe(false);
  });

  it('lets a base with only dated overrides keep following the company week', () => {
    const rows = [...COMPANY_WEEK, dated('2026-06-03', 600, 660, 'b1')];
    expect(resolveDay(rows, 'b1', TUESDAY).windows).toEqual([{ start_minute: 480, end_minute: 1200 }]);
    expect(resolveDay(rows, 'b1', '2026-06-03').windows).toEqual([{ start_minute: 600, end_minute: 660 }]);
  });

  it('gives a base dated override priority over a company override and the weeks', () => {
    const rows = [...COMPANY_WEEK, week(0, 420, 1260, 'b1'), dated(MONDAY, 600, 720), dated(MONDAY, 900, 960, 'b1')];
    expect(resolveDay(rows, 'b1', MONDAY)).toEqual({
      closed: false,
      windows: [{ start_minute: 900, end_minute: 960 }],
    });
  });

  it('gives a company dated override priority over the base week and the company week', () => {
    const rows = [...COMPANY_WEEK, week(0, 420, 1260, 'b1'), dated(MONDAY, 600, 720)];
    expect(resolveDay(rows, 'b1', MONDAY)).toEqual({
      closed: false,
      windows: [{ start_minute: 600, end_minute: 720 }],
    });
    expect(resolveDay(rows, null, MONDAY)).toEqual({
      closed: false,
      windows: [{ start_minute: 600, end_minute: 720 }],
    });
    expect(resolveDay(rows, 'b1', '2026-06-08').windows).toEqual([{ start_minute: 420, end_minute: 1260 }]);
  });

  it('ignores the overrides of another base', () => {
    const rows = [...COMPANY_WEEK, closedOn(MONDAY, 'b2')];
    expect(resolveDay(rows, 'b1', MONDAY).closed).toBe(false);
    expect(resolveDay(rows, null, MONDAY).closed).toBe(false);
  });

  it('closes a day with a closed override, even on an open weekday', () => {
    expect(resolveDay([...COMPANY_WEEK, closedOn(MONDAY)], 'b1', MONDAY)).toEqual({ closed: true, windows: [] });
    expect(resolveDay([...COMPANY_WEEK, closedOn(MONDAY, 'b1')], 'b1', MONDAY)).toEqual({ closed: true, windows: [] });
  });

  it('opens a closed weekday with a dated override', () => {
    expect(resolveDay([...COMPANY_WEEK, dated(SATURDAY, 600, 720)], null, SATURDAY).windows).toEqual([
      { start_minute: 600, end_minute: 720 },
    ]);
  });

  it('lets a closed row shut its day even next to windows', () => {
    expect(resolveDay([week(0, 480, 720), closedWeekday(0)], null, MONDAY)).toEqual({ closed: true, windows: [] });
  });

  it('returns several windows of one scope sorted by start', () => {
    const rows = [week(0, 900, 1080), week(0, 480, 720), week(1, 0, 60)];
    expect(resolveDay(rows, null, MONDAY).windows).toEqual([
      { start_minute: 480, end_minute: 720 },
      { start_minute: 900, end_minute: 1080 },
    ]);
  });

  it('resolves an overnight opening stored as two rows (late one day, early the next)', () => {
    // Friday 20:00-24:00 and Saturday 00:00-02:00.
    const rows = [week(4, 1200, 1440), week(5, 0, 120)];
    expect(resolveDay(rows, null, '2026-06-05').windows).toEqual([{ start_minute: 1200, end_minute: 1440 }]);
    expect(resolveDay(rows, null, SATURDAY).windows).toEqual([{ start_minute: 0, end_minute: 120 }]);
    const [fri, sat] = resolveRange(rows, null, '2026-06-05', SATURDAY, MADRID);
    // The late window ends at the instant the early one starts: one continuous opening.
    expect(fri.windows[0].end).toBe(sat.windows[0].start);
    expect(sat.windows[0].end - fri.windows[0].start).toBe(6 * 3600);
  });

  it('maps every calendar weekday (Sunday is 6)', () => {
    const rows = [0, 1, 2, 3, 4, 5, 6].map((d) => week(d, d * 60, d * 60 + 15));
    const dates = ['2026-06-01', '2026-06-02', '2026-06-03', '2026-06-04', '2026-06-05', '2026-06-06', '2026-06-07'];
    dates.forEach((date, d) => {
      expect(resolveDay(rows, null, date).windows).toEqual([{ start_minute: d * 60, end_minute: d * 60 + 15 }]);
    });
  });

  it('rejects an invalid date', () => {
    expect(() => resolveDay([], null, '2026-13-01')).toThrow(RangeError);
  });
});

describe('resolveRange', () => {
  it('returns one entry per date inclusive, with unix instants in the zone', () => {
    const days = resolveRange(COMPANY_WEEK, null, '2026-06-05', '2026-06-08', MADRID);
    expect(days.map((d) => [d.date, d.closed])).toEqual([
      ['2026-06-05', false],
      ['2026-06-06', true],
      ['2026-06-07', true],
      ['2026-06-08', false],
    ]);
    expect(days[0].windows).toEqual([
      {
        start_minute: 480,
        end_minute: 1200,
        start: local('2026-06-05T08:00', MADRID),
        end: local('2026-06-05T20:00', MADRID),
      },
    ]);
    expect(days[1].windows).toEqual([]);
  });

  it('returns nothing when the range is reversed, and one day when from equals to', () => {
    expect(resolveRange([], null, '2026-06-02', '2026-06-01', MADRID)).toEqual([]);
    expect(resolveRange([], null, MONDAY, MONDAY, MADRID)).toHaveLength(1);
  });

  it('treats 1440 as the next midnight', () => {
    const [day] = resolveRange([], null, MONDAY, MONDAY, NEW_YORK);
    expect(day.windows[0]).toEqual({
      start_minute: 0,
      end_minute: 1440,
      start: local('2026-06-01T00:00', NEW_YORK),
      end: local('2026-06-02T00:00', NEW_YORK),
    });
    expect(day.windows[0].end - day.windows[0].start).toBe(86_400);
  });

  it('spans 23 hours around the clock on the Madrid spring-forward day', () => {
    const [day] = resolveRange([], null, '2026-03-29', '2026-03-29', MADRID);
    expect(day.windows[0].start).toBe(Date.parse('2026-03-28T23:00:00Z') / 1000);
    expect(day.windows[0].end - day.windows[0].start).toBe(23 * 3600);
  });

  it('spans 25 hours around the clock on the Madrid fall-back day', () => {
    const [day] = resolveRange([], null, '2026-10-25', '2026-10-25', MADRID);
    expect(day.windows[0].start).toBe(Date.parse('2026-10-24T22:00:00Z') / 1000);
    expect(day.windows[0].end - day.windows[0].start).toBe(25 * 3600);
  });

  it('keeps ordinary windows on DST days at their wall-clock times', () => {
    const rows = [week(6, 480, 1200)]; // Sundays 08:00-20:00
    const [spring] = resolveRange(rows, null, '2026-03-29', '2026-03-29', MADRID);
    expect(spring.windows[0].start).toBe(Date.parse('2026-03-29T06:00:00Z') / 1000);
    expect(spring.windows[0].end).toBe(Date.parse('2026-03-29T18:00:00Z') / 1000);
    const [autumn] = resolveRange(rows, null, '2026-10-25', '2026-10-25', MADRID);
    expect(autumn.windows[0].start).toBe(Date.parse('2026-10-25T07:00:00Z') / 1000);
    expect(autumn.windows[0].end - autumn.windows[0].start).toBe(12 * 3600);
  });

  it('maps a reading skipped by the spring jump to the moment of the jump', () => {
    // 00:00-02:30 and 02:30-05:00 on 2026-03-29: 02:30 does not exist in Madrid (02:00 -> 03:00).
    const rows = [dated('2026-03-29', 0, 150), dated('2026-03-29', 150, 300)];
    const [day] = resolveRange(rows, null, '2026-03-29', '2026-03-29', MADRID);
    const jump = Date.parse('2026-03-29T01:00:00Z') / 1000;
    expect(day.windows[0].end).toBe(jump);
    expect(day.windows[1].start).toBe(jump);
    expect(day.windows[1].end).toBe(Date.parse('2026-03-29T03:00:00Z') / 1000);
  });

  it('covers both passes of a repeated hour on the autumn day (start first, end last)', () => {
    // 02:00-03:00 on 2026-10-25 is shown twice in Madrid (03:00 CEST -> 02:00 CET).
    const [day] = resolveRange(
      [dated('2026-10-25', 120, 180), dated('2026-10-25', 0, 150)],
      null,
      '2026-10-25',
      '2026-10-25',
      MADRID,
    );
    const [early, repeated] = day.windows;
    expect(early.start).toBe(Date.parse('2026-10-24T22:00:00Z') / 1000);
    expect(early.end).toBe(Date.parse('2026-10-25T01:30:00Z') / 1000); // second 02:30 (CET)
    expect(repeated.start).toBe(Date.parse('2026-10-25T00:00:00Z') / 1000); // first 02:00 (CEST)
    expect(repeated.end).toBe(Date.parse('2026-10-25T02:00:00Z') / 1000); // 03:00 CET
    expect(repeated.end - repeated.start).toBe(2 * 3600);
  });

  it('handles the New York DST days', () => {
    const [spring] = resolveRange([], null, '2026-03-08', '2026-03-08', NEW_YORK);
    expect(spring.windows[0].end - spring.windows[0].start).toBe(23 * 3600);
    const [autumn] = resolveRange([], null, '2026-11-01', '2026-11-01', NEW_YORK);
    expect(autumn.windows[0].end - autumn.windows[0].start).toBe(25 * 3600);
  });

  it('resolves a base across a range with overrides', () => {
    const rows = [
      ...COMPANY_WEEK,
      week(0, 600, 720, 'b1'),
      closedOn('2026-06-08', 'b1'),
      dated('2026-06-09', 540, 600),
    ];
    const days = resolveRange(rows, 'b1', MONDAY, '2026-06-09', 'UTC');
    expect(days.map((d) => d.windows.map((w) => [w.start_minute, w.end_minute]))).toEqual([
      [[600, 720]],
      [],
      [],
      [],
      [],
      [],
      [],
      [],
      [[540, 600]],
    ]);
    expect(days[0].windows[0].start).toBe(Date.parse('2026-06-01T10:00:00Z') / 1000);
  });

  it('rejects an unknown zone, invalid dates and an oversized range', () => {
    expect(() => resolveRange([], null, MONDAY, MONDAY, 'Mars/Olympus')).toThrow(RangeError);
    expect(() => resolveRange([], null, 'x', MONDAY, MADRID)).toThrow(RangeError);
    expect(() => resolveRange([], null, '2000-01-01', '2026-01-01', MADRID)).toThrow(`at most ${MAX_RANGE_DAYS} days`);
  });
});

describe('resolveRange across daylight-saving nights in Europe/Madrid', () => {
  // 2026-03-28 and 2026-10-24 are Saturdays (weekday 5); the clocks change early on the Sundays.
  const overnight = [week(5, 1320, 1440), week(6, 0, 240)]; // Saturday 22:00-24:00, Sunday 00:00-04:00

  it('an overnight opening stored as two rows stays continuous and loses the skipped hour in spring', () => {
    const [sat, sun] = resolveRange(overnight, null, '2026-03-28', '2026-03-29', MADRID);
    expect(sat.windows[0].start).toBe(Date.parse('2026-03-28T21:00:00Z') / 1000);
    expect(sat.windows[0].end).toBe(sun.windows[0].start);
    expect(sun.windows[0].end).toBe(Date.parse('2026-03-29T02:00:00Z') / 1000); // 04:00 CEST
    expect(sun.windows[0].end - sat.windows[0].start).toBe(5 * 3600);
  });

  it('an overnight opening stored as two rows gains the repeated hour in autumn', () => {
    const [sat, sun] = resolveRange(overnight, null, '2026-10-24', '2026-10-25', MADRID);
    expect(sat.windows[0].end).toBe(sun.windows[0].start);
    expect(sun.windows[0].end).toBe(Date.parse('2026-10-25T03:00:00Z') / 1000); // 04:00 CET
    expect(sun.windows[0].end - sat.windows[0].start).toBe(7 * 3600);
  });

  it('01:00-05:00 on the spring-forward Sunday is three hours; the same minutes a week later are four', () => {
    const rows = [week(6, 60, 300)];
    const [spring] = resolveRange(rows, null, '2026-03-29', '2026-03-29', MADRID);
    expect(spring.windows[0].end - spring.windows[0].start).toBe(3 * 3600);
    const [next] = resolveRange(rows, null, '2026-04-05', '2026-04-05', MADRID);
    expect(next.windows[0].end - next.windows[0].start).toBe(4 * 3600);
  });

  it('the priority order holds on a DST day: base override, then company override, then the base week', () => {
    const rows = [week(6, 480, 1200, 'b1'), dated('2026-03-29', 600, 660), dated('2026-03-29', 540, 600, 'b1')];
    const [base] = resolveRange(rows, 'b1', '2026-03-29', '2026-03-29', MADRID);
    expect(base.windows).toEqual([
      {
        start_minute: 540,
        end_minute: 600,
        start: local('2026-03-29T09:00', MADRID),
        end: local('2026-03-29T10:00', MADRID),
      },
    ]);
    const [other] = resolveRange(rows, 'b2', '2026-03-29', '2026-03-29', MADRID);
    expect(other.windows.map((w) => [w.start_minute, w.end_minute])).toEqual([[600, 660]]);
    const [company] = resolveRange(rows, null, '2026-03-29', '2026-03-29', MADRID);
    expect(company.windows.map((w) => [w.start_minute, w.end_minute])).toEqual([[600, 660]]);
    const [week2] = resolveRange(rows, 'b1', '2026-04-05', '2026-04-05', MADRID);
    expect(week2.windows.map((w) => [w.start_minute, w.end_minute])).toEqual([[480, 1200]]);
    // The company itself has no weekly rows, only an override: other days it is open around the clock.
    const [companyNext] = resolveRange(rows, null, '2026-04-05', '2026-04-05', MADRID);
    expect(companyNext.windows.map((w) => [w.start_minute, w.end_minute])).toEqual([[0, 1440]]);
  });
});
