import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  calendarDays,
  checkDuty,
  dutyReport,
  dutySpanOf,
  exceededAfter,
  levelOf,
  mergeSpans,
  rangeProblem,
  reportWindow,
} from './duty.ts';
import { translator } from '../../i18n/index.ts';
import { renderText } from '../readiness/text.ts';
import { mayViewBoard, mayViewDuty } from './policy.ts';

const H = 3600;
const M = 'Europe/Madrid';
const at = (iso: string) => DateTime.fromISO(iso, { zone: M }).toUnixInteger();
const none = { max_duty_hours: null, max_flight_hours_year: null };

describe('mergeSpans', () => {
  it('joins overlapping and touching spans, drops empty ones', () => {
    expect(
      mergeSpans([
        { start: 5, end: 8 },
        { start: 0, end: 5 },
        { start: 10, end: 12 },
        { start: 11, end: 11 },
        { start: 7, end: 9 },
      ]),
    ).toEqual([
      { start: 0, end: 9 },
      { start: 10, end: 12 },
    ]);
  });
});

describe('calendarDays', () => {
  it('knows the 23- and 25-hour days of Europe/Madrid', () => {
    const spring = calendarDays('2026-03-28', '2026-03-30', M).map((d) => (d.end - d.start) / H);
    const autumn = calendarDays('2026-10-24', '2026-10-26', M).map((d) => (d.end - d.start) / H);
    expect(spring).toEqual([24, 23, 24]);
    expect(autumn).toEqual([24, 25, 24]);
  });
});

describe('rangeProblem', () => {
  it('wants real dates in order, at most 400 days', () => {
    expect(rangeProblem('2026-01-01', '2026-12-31')).toBeNull();
    expect(rangeProblem('2026-02-30', '2026-03-01')?.field).toBe('from');
    expect(rangeProblem('2026-01-01', 'tomorrow')?.field).toBe('to');
    expect(rangeProblem('2026-03-02', '2026-03-01')?.message).toMatch(/before/);
    expect(rangeProblem('2026-01-01', '2027-02-04')).toBeNull();
    expect(rangeProblem('2026-01-01', '2027-02-05')?.message).toMatch(/400/);
  });
});

describe('dutyReport', () => {
  const flight = (off: string, on: string, flightHours: number, simulator = false) => ({
    offblocks: at(off),
    onblocks: at(on),
    flight_time: flightHours * H,
    simulator,
  });

  it('puts 30 minutes before off-blocks and 15 after on-blocks, unites with DUTY entries, counts flights by off-blocks day', () => {
    const r = dutyReport(
      {
        entries: [{ start: at('2026-06-10T08:00'), end: at('2026-06-10T12:00') }],
        flights: [
          flight('2026-06-10T11:00', '2026-06-10T13:00', 1.5),
          flight('2026-06-10T15:00', '2026-06-10T16:00', 0.8),
        ],
        zone: M,
        limits: { max_duty_hours: 5, max_flight_hours_year: 1000 },
      },
      '2026-06-09',
      '2026-06-11',
    );
    // 08:00-13:15 and 14:30-16:15
    expect(r.days).toEqual([
      {
        date: '2026-06-10',
        duty_seconds: 5.25 * H + 1.75 * H,
        flight_seconds: 2.3 * H,
        flights: 2,
        limit_seconds: 5 * H,
        exceeded: true,
      },
    ]);
    expect(r.year).toEqual({ flight_seconds: 2.3 * H, limit_seconds: 1000 * H });
    expect(r.rolling.duty_7d_seconds).toBe(7 * H);
  });

  it('counts an interval over midnight on both days', () => {
    const r = dutyReport(
      { entries: [], flights: [flight('2026-06-10T22:30', '2026-06-11T01:00', 2)], zone: M, limits: none },
      '2026-06-10',
      '2026-06-11',
    );
    expect(r.days.map((d) => [d.date, d.duty_seconds / 60, d.flights])).toEqual([
      ['2026-06-10', 120, 1],
      ['2026-06-11', 75, 0],
    ]);
    expect(r.days[1].flight_seconds).toBe(0);
    expect(r.days[0].exceeded).toBe(false);
  });

  it('counts the whole 25-hour and 23-hour days', () => {
    const long = dutyReport(
      {
        entries: [{ start: at('2026-10-25T00:00'), end: at('2026-10-26T00:00') }],
        flights: [],
        zone: M,
        limits: { max_duty_hours: 24, max_flight_hours_year: null },
      },
      '2026-10-25',
      '2026-10-25',
    );
    expect(long.days[0]).toMatchObject({ duty_seconds: 25 * H, exceeded: true });
    const short = dutyReport(
      {
        entries: [{ start: at('2026-03-29T00:00'), end: at('2026-03-30T00:00') }],
        flights: [],
        zone: M,
        limits: { max_duty_hours: 24, max_flight_hours_year: null },
      },
      '2026-03-29',
      '2026-03-29',
    );
    expect(short.days[0]).toMatchObject({ duty_seconds: 23 * H, exceeded: false });
  });

  it('counts simulator sessions as duty but never as flight time', () => {
    const r = dutyReport(
      { entries: [], flights: [flight('2026-06-10T10:00', '2026-06-10T12:00', 2, true)], zone: M, limits: none },
      '2026-06-10',
      '2026-06-10',
    );
    expect(r.days[0]).toMatchObject({ duty_seconds: 2.75 * H, flight_seconds: 0, flights: 1 });
    expect(r.year.flight_seconds).toBe(0);
    expect(r.rolling.flight_28d_seconds).toBe(0);
  });

  it('rolls 7 and 28 days of duty, 28 days and 12 months of flight, ending with `to`; the year is the calendar year of `to`', () => {
    const flights = [
      flight('2025-12-20T10:00', '2025-12-20T11:00', 1), // 12 months, not the year 2026
      flight('2026-01-03T10:00', '2026-01-03T11:00', 1), // year, 12 months, not 28 days
      flight('2026-01-20T10:00', '2026-01-20T11:00', 1), // 28 days, not 7
      flight('2026-02-01T10:00', '2026-02-01T11:00', 1), // 7 days
      flight('2024-12-20T10:00', '2024-12-20T11:00', 1), // outside everything
    ];
    const r = dutyReport({ entries: [], flights, zone: M, limits: none }, '2026-02-01', '2026-02-01');
    expect(r.year.flight_seconds).toBe(3 * H);
    expect(r.rolling).toEqual({
      duty_7d_seconds: 1.75 * H,
      duty_28d_seconds: 3.5 * H,
      flight_28d_seconds: 2 * H,
      flight_12m_seconds: 4 * H,
    });
    const w = reportWindow('2026-02-01', '2026-02-01', M);
    expect(w.start).toBe(at('2025-02-02T00:00'));
    expect(w.end).toBe(at('2026-02-02T00:00'));
  });
});

describe('checkDuty', () => {
  const base = { name: 'Ivan Instructor', plannedFlightSeconds: 0, yearFlightSeconds: 0, zone: M };
  it('refuses a plan that takes the day past the limit, with the numbers', () => {
    const duty = [dutySpanOf(at('2026-06-10T08:00'), at('2026-06-10T15:00'))]; // 07:30-15:15
    const ok = checkDuty({
      ...base,
      planned: { start: at('2026-06-10T16:00'), end: at('2026-06-10T17:00') },
      duty,
      limits: { max_duty_hours: 10, max_flight_hours_year: null },
    });
    expect(ok).toBeNull(); // 7:45 + 1:45 = 9:30
    const over = checkDuty({
      ...base,
      planned: { start: at('2026-06-10T16:00'), end: at('2026-06-10T18:00') },
      duty,
      limits: { max_duty_hours: 10, max_flight_hours_year: null },
    });
    expect(over).toMatchObject({ code: 'DUTY_LIMIT', date: '2026-06-10', seconds: 10.5 * H, limit_seconds: 10 * H });
    expect(over?.message).toBe(
      'Ivan Instructor would be on duty 10:30 hours on 2026-06-10, over the daily limit of 10:00 hours.',
    );
  });
  it('allows reaching the limit exactly, and counts an overlapping plan once', () => {
    const duty = [{ start: at('2026-06-10T08:00'), end: at('2026-06-10T16:00') }];
    expect(
      checkDuty({
        ...base,
        planned: { start: at('2026-06-10T16:30'), end: at('2026-06-10T17:45') },
        duty,
        limits: { max_duty_hours: 10, max_flight_hours_year: null },
      }),
    ).toBeNull();
    expect(
      checkDuty({
        ...base,
        planned: { start: at('2026-06-10T09:00'), end: at('2026-06-10T10:00') },
        duty,
        limits: { max_duty_hours: 8, max_flight_hours_year: null },
      }),
    ).toBeNull();
  });
  it('checks the next day of a plan over midnight', () => {
    const duty = [{ start: at('2026-06-11T00:30'), end: at('2026-06-11T09:30') }];
    const r = checkDuty({
      ...base,
      planned: { start: at('2026-06-10T22:00'), end: at('2026-06-11T00:00') },
      duty,
      limits: { max_duty_hours: 9, max_flight_hours_year: null },
    });
    expect(r).toMatchObject({ code: 'DUTY_LIMIT', date: '2026-06-11', seconds: 9.25 * H });
  });
  it('refuses a plan that takes the year past the flight-hour limit, not a simulator', () => {
    const limits = { max_duty_hours: null, max_flight_hours_year: 100 };
    const planned = { start: at('2026-06-10T10:00'), end: at('2026-06-10T12:00') };
    expect(
      checkDuty({ ...base, planned, plannedFlightSeconds: 2 * H, yearFlightSeconds: 98 * H, duty: [], limits }),
    ).toBeNull();
    expect(
      checkDuty({ ...base, planned, plannedFlightSeconds: 2 * H, yearFlightSeconds: 98 * H + 60, duty: [], limits }),
    ).toMatchObject({ code: 'FLIGHT_HOURS_LIMIT', seconds: 100 * H + 60, limit_seconds: 100 * H });
    expect(
      checkDuty({ ...base, planned, plannedFlightSeconds: 0, yearFlightSeconds: 120 * H, duty: [], limits }),
    ).toBeNull();
  });
  it('ignores null, zero and negative limits', () => {
    const planned = { start: at('2026-06-10T00:00'), end: at('2026-06-10T23:00') };
    for (const v of [null, 0, -3])
      expect(
        checkDuty({
          ...base,
          planned,
          plannedFlightSeconds: 99 * H,
          yearFlightSeconds: 9999 * H,
          duty: [],
          limits: { max_duty_hours: v, max_flight_hours_year: v },
        }),
      ).toBeNull();
  });
});

describe('exceededAfter and levels', () => {
  it('lists each limit a flown flight took the person past', () => {
    const flown = { start: at('2026-06-10T10:00'), end: at('2026-06-10T20:00') };
    const w = exceededAfter({
      name: 'P',
      flown,
      duty: [],
      yearFlightSeconds: 101 * H,
      zone: M,
      limits: { max_duty_hours: 10, max_flight_hours_year: 100 },
    });
    expect(w.map((x) => x.code)).toEqual(['DUTY_LIMIT', 'FLIGHT_HOURS_LIMIT']);
    expect(
      exceededAfter({
        name: 'P',
        flown,
        duty: [],
        yearFlightSeconds: 10 * H,
        zone: M,
        limits: { max_duty_hours: 11, max_flight_hours_year: 100 },
      }),
    ).toEqual([]);
  });
  it('colours near (90 %) and over', () => {
    expect([levelOf(8 * H, 10 * H), levelOf(9 * H, 10 * H), levelOf(10.1 * H, 10 * H), levelOf(99 * H, null)]).toEqual([
      'ok',
      'near',
      'over',
      'ok',
    ]);
  });
});

describe('duty policy', () => {
  it('lets everyone see their own duty and the office everyone', () => {
    expect(mayViewDuty({ userId: 'a', role: 190 }, 'a')).toBe(true);
    expect(mayViewDuty({ userId: 'a', role: 190 }, 'b')).toBe(false);
    expect(mayViewDuty({ userId: 'a', role: 150 }, 'b')).toBe(true);
    expect(mayViewDuty({ userId: 'a', role: 170 }, 'b')).toBe(true);
    expect(mayViewDuty({ userId: 'a', role: 200 }, 'b')).toBe(false);
    expect([mayViewBoard({ userId: 'a', role: 170 }), mayViewBoard({ userId: 'a', role: 190 })]).toEqual([true, false]);
  });
});

describe('duty sentences in other languages (issue 33)', () => {
  it('each refusal and warning carries its message id: English renders the same bytes, German differs', () => {
    const limits = { max_duty_hours: 10, max_flight_hours_year: 100 };
    const planned = { start: at('2026-06-10T08:00'), end: at('2026-06-10T19:00') };
    const name = 'Ivan Instructor';
    const found = [
      checkDuty({ name, planned, plannedFlightSeconds: 0, yearFlightSeconds: 0, duty: [], zone: M, limits }),
      checkDuty({
        name,
        planned: { start: at('2026-06-10T08:00'), end: at('2026-06-10T09:00') },
        plannedFlightSeconds: 2 * H,
        yearFlightSeconds: 99 * H,
        duty: [],
        zone: M,
        limits,
      }),
      ...exceededAfter({ name, flown: planned, duty: [], yearFlightSeconds: 101 * H, zone: M, limits }),
    ];
    expect(found.map((r) => r?.text.id)).toEqual([
      'duty.refusalDutyLimit',
      'duty.refusalFlightHours',
      'duty.exceededDutyLimit',
      'duty.exceededFlightHours',
    ]);
    for (const r of found) {
      if (!r) continue;
      expect(renderText(translator('en'), r.text)).toBe(r.message);
      const de = renderText(translator('de'), r.text, 'de');
      expect(de).not.toBe(r.message);
      expect(de).toContain(name);
    }
  });
});
