import { describe, expect, it } from 'vitest';
import { translator } from '../../i18n/index.ts';
import type { HoursRow } from '../company/operating-hours.ts';
import { cancelRefusal, mayBookLesson, mayChangeBooking } from './policy.ts';
import { renderText } from '../readiness/text.ts';
import { DEFAULT_BOOKING_HORIZON_DAYS, hoursRefusal, pilotRefusal, timeRefusal } from './sanity.ts';

const H = 3600;
const DAY = 86_400;
const ZONE = 'Europe/Madrid';
/** Monday 2026-11-23 00:00 in Madrid (UTC+1). */
const MONDAY = Date.UTC(2026, 10, 22, 23, 0) / 1000;

/** Skyline's demo week: weekdays 08:00-20:00, Saturday 09:00-14:00, Sunday closed. */
const week: HoursRow[] = [
  ...[0, 1, 2, 3, 4].map((weekday) => ({
    base_id: null,
    weekday,
    override_date: null,
    closed: false,
    start_minute: 8 * 60,
    end_minute: 20 * 60,
  })),
  { base_id: null, weekday: 5, override_date: null, closed: false, start_minute: 9 * 60, end_minute: 14 * 60 },
  { base_id: null, weekday: 6, override_date: null, closed: true, start_minute: 0, end_minute: 0 },
];

describe('pilotRefusal', () => {
  it('refuses a non-pilot and an inactive account with a sentence naming them', () => {
    expect(pilotRefusal({ name: 'Marco Mechanic', pilot: false, active: true })).toMatchObject({
      code: 'NOT_ALLOWED',
      message: 'Marco Mechanic is not a pilot and cannot be booked as pilot.',
    });
    expect(pilotRefusal({ name: 'Old Pilot', pilot: true, active: false })?.message).toMatch(/inactive/);
    expect(pilotRefusal({ name: 'Paula Pilot', pilot: true, active: true })).toBeNull();
  });
});

describe('timeRefusal', () => {
  const now = MONDAY + 10 * H;
  const at = (start: number) => ({ span: { start, end: start + H }, now, zone: ZONE });

  it('PAST for a start before now, in the company zone', () => {
    const r = timeRefusal(at(now - 3600));
    expect(r?.code).toBe('PAST');
    expect(r?.message).toBe(
      'The booking would start in the past (2026-11-23 09:00 Europe/Madrid); pick a time from now on.',
    );
    expect(timeRefusal(at(now))).toBeNull();
  });

  it('a booking under way may be changed while its start stays put, not moved to another past time', () => {
    expect(timeRefusal({ ...at(now - H), keptStart: now - H })).toBeNull();
    expect(timeRefusal({ ...at(now - 2 * H), keptStart: now - H })?.code).toBe('PAST');
  });

  it('HORIZON beyond 365 days by default, or the given horizon', () => {
    expect(DEFAULT_BOOKING_HORIZON_DAYS).toBe(365);
    expect(timeRefusal(at(now + 365 * DAY))).toBeNull();
    const far = timeRefusal(at(now + 365 * DAY + 300));
    expect(far?.code).toBe('HORIZON');
    expect(far?.message).toMatch(/at most 365 days ahead \(until 2027-11-23\)/);
    expect(timeRefusal({ ...at(now + 31 * DAY), horizonDays: 30 })?.code).toBe('HORIZON');
    // 2099, as the office once booked.
    expect(timeRefusal(at(Date.UTC(2099, 0, 5, 9) / 1000))?.code).toBe('HORIZON');
  });
});

describe('hoursRefusal', () => {
  const span = (day: number, from: number, to: number) => ({
    start: MONDAY + day * DAY + from * H,
    end: MONDAY + day * DAY + to * H,
  });
  const check = (s: { start: number; end: number }, rows = week) =>
    hoursRefusal({ rows, baseId: null, span: s, zone: ZONE });

  it('inside the hours is fine; no rows at all is open around the clock', () => {
    expect(check(span(0, 9, 11))).toBeNull();
    expect(check(span(6, 9, 11), [])).toBeNull();
  });

  it('a closed Sunday is named as such', () => {
    expect(check(span(6, 9, 11))).toMatchObject({
      code: 'OUTSIDE_HOURS',
      message: 'The base is closed on Sunday 2026-11-29.',
    });
  });

  it('over the closing time gives the open hours', () => {
    expect(check(span(5, 13, 15))).toMatchObject({
      code: 'OUTSIDE_HOURS',
      message: '2026-11-28 13:00–15:00 is outside the operating hours of the base (open 09:00–14:00 Europe/Madrid).',
    });
  });

  it('in the reader language on the device (issue 33); the English translator words it as the server does', () => {
    const inLang = (l: 'en' | 'es' | 'fr', sp: { start: number; end: number }) =>
      hoursRefusal({ rows: week, baseId: null, span: sp, zone: ZONE, t: translator(l) })?.message;
    expect(inLang('en', span(6, 9, 11))).toBe('The base is closed on Sunday 2026-11-29.');
    expect(inLang('en', span(5, 13, 15))).toBe(check(span(5, 13, 15))?.message);
    expect(inLang('es', span(6, 9, 11))).toBe('La base está cerrada el domingo 2026-11-29.');
    expect(inLang('fr', span(5, 13, 15))).toBe(
      '2026-11-28 13:00–15:00 est en dehors des horaires d’ouverture de la base (ouverte 09:00–14:00 Europe/Madrid).',
    );
    const es = translator('es');
    expect(pilotRefusal({ name: 'Marta Mecánica', pilot: false, active: true }, es)?.message).toBe(
      'Marta Mecánica no es piloto y no se le puede reservar como piloto.',
    );
    expect(pilotRefusal({ name: '', pilot: true, active: false }, translator('en'))?.message).toBe(
      pilotRefusal({ name: '', pilot: true, active: false })?.message,
    );
  });
});

describe('schedules policy for the screens', () => {
  const pilot = { userId: 'p', role: 190 };
  const office = { userId: 'o', role: 170 };
  const own = { pilot_id: 'p', user_id: 'o', start: 2_000 };

  it('"Book a lesson" is for pilots and students only: not staff, not the auditor, not mechanics', () => {
    expect([190, 200].map(mayBookLesson)).toEqual([true, true]);
    expect([100, 170, 250, 300].map(mayBookLesson)).toEqual([false, false, false, false]);
  });

  it('the auditor and mechanics change nothing; a pilot only their own', () => {
    expect(mayChangeBooking({ userId: 'a', role: 250 }, own)).toBe(false);
    expect(mayChangeBooking({ userId: 'm', role: 300 }, own)).toBe(false);
    expect(mayChangeBooking(pilot, own)).toBe(true);
    expect(mayChangeBooking({ userId: 'x', role: 190 }, own)).toBe(false);
    expect(mayChangeBooking(office, own)).toBe(true);
  });

  it('a pilot cancels their own future booking, not one under way nor another pilot’s; the office any', () => {
    expect(cancelRefusal(pilot, own, 1_000)).toBeNull();
    expect(cancelRefusal(pilot, own, 2_000)?.code).toBe('PAST');
    expect(cancelRefusal({ userId: 'x', role: 200 }, own, 1_000)?.code).toBe('NOT_ALLOWED');
    expect(cancelRefusal({ userId: 'a', role: 250 }, own, 1_000)?.code).toBe('NOT_ALLOWED');
    expect(cancelRefusal(office, own, 3_000)).toBeNull();
  });
});

describe('the server’s sanity refusals carry a message id (issue 33)', () => {
  const en = translator('en');
  const at = (day: number, from: number, to: number) => ({
    start: MONDAY + day * DAY + from * H,
    end: MONDAY + day * DAY + to * H,
  });
  const refusals = [
    pilotRefusal({ name: 'Marco Mechanic', pilot: false, active: true }),
    pilotRefusal({ name: 'Ana', pilot: true, active: false }),
    pilotRefusal({ name: ' ', pilot: true, active: false }),
    timeRefusal({ span: at(0, 9, 10), now: MONDAY + 12 * H, zone: ZONE }),
    timeRefusal({ span: at(40, 9, 10), now: MONDAY, zone: ZONE, horizonDays: 30 }),
    hoursRefusal({ rows: week, baseId: null, span: at(6, 9, 11), zone: ZONE }),
    hoursRefusal({ rows: week, baseId: null, span: at(5, 13, 15), zone: ZONE }),
    cancelRefusal({ userId: 'u2', role: 200 }, { pilot_id: 'u1', user_id: 'u1', start: MONDAY }, MONDAY - H),
  ];

  it('English renders the very bytes of the message; the other languages say it in theirs', () => {
    for (const r of refusals) {
      expect(r).not.toBeNull();
      if (!r) continue;
      expect(renderText(en, r.text)).toBe(r.message);
      for (const l of ['es', 'fr', 'de']) expect(renderText(translator(l), r.text, l)).not.toBe(r.message);
    }
  });

  it('the server’s text in Spanish is the device’s sentence', () => {
    const es = translator('es');
    const horizon = timeRefusal({ span: at(40, 9, 10), now: MONDAY, zone: ZONE, horizonDays: 30 });
    expect(horizon?.code).toBe('HORIZON');
    expect(horizon && renderText(es, horizon.text, 'es')).toBe(
      timeRefusal({ span: at(40, 9, 10), now: MONDAY, zone: ZONE, horizonDays: 30, t: es })?.message,
    );
    expect(horizon && renderText(es, horizon.text, 'es')).toContain('30');
    const closed = hoursRefusal({ rows: week, baseId: null, span: at(6, 9, 11), zone: ZONE });
    expect(closed && renderText(es, closed.text, 'es')).toBe('La base está cerrada el domingo 2026-11-29.');
    // A blank name is "This person" in the reader's language, not an English value.
    const blank = pilotRefusal({ name: '', pilot: false, active: true });
    expect(blank && renderText(es, blank.text, 'es')).toBe(
      pilotRefusal({ name: '', pilot: false, active: true }, es)?.message,
    );
  });
});
