import { describe, expect, it } from 'vitest';
import { translator } from '../../i18n/index.ts';
import { resolveRange } from '../company/operating-hours.ts';
import { renderText } from '../readiness/text.ts';
import {
  aircraftBlockedFor,
  aircraftBlockedMessage,
  aircraftBlockedText,
  melItemText,
  melItemLabel,
  blockedFrom,
  documentsDecision,
  findConflict,
  freeWindows,
  insideHours,
  instructorUnavailable,
  seatsFor,
  selfBookingRefusal,
  spanProblem,
  spansOverlap,
} from './booking.ts';
import { bookingVisible } from './policy.ts';

const H = 3600;
const b = (
  id: string,
  start: number,
  end: number,
  aircraft = 'A1',
  pilot = 'P1',
  instructor: string | null = null,
) => ({ id, aircraft_id: aircraft, pilot_id: pilot, instructor_id: instructor, start, end });

describe('spansOverlap', () => {
  it('is half-open: touching ends do not overlap', () => {
    expect(spansOverlap({ start: 0, end: H }, { start: H, end: 2 * H })).toBe(false);
    expect(spansOverlap({ start: 0, end: H + 1 }, { start: H, end: 2 * H })).toBe(true);
    expect(spansOverlap({ start: 0, end: 4 * H }, { start: H, end: 2 * H })).toBe(true);
  });
});

describe('findConflict', () => {
  const existing = [b('x', 10 * H, 12 * H, 'A1', 'P1', 'I1'), b('y', 11 * H, 13 * H, 'A2', 'P2', null)];
  it('checks aircraft first, then pilot, then instructor, listing every competing booking', () => {
    expect(findConflict(b('n', 11 * H, 12 * H, 'A1', 'P9'), existing)).toMatchObject({
      code: 'CONFLICT_AIRCRAFT',
      conflicts: [{ id: 'x' }],
    });
    expect(findConflict(b('n', 11 * H, 12 * H, 'A9', 'P2'), existing)).toMatchObject({
      code: 'CONFLICT_PILOT',
      conflicts: [{ id: 'y' }],
    });
    expect(findConflict(b('n', 11 * H, 12 * H, 'A9', 'P9', 'I1'), existing)).toMatchObject({
      code: 'CONFLICT_INSTRUCTOR',
      conflicts: [{ id: 'x' }],
    });
  });
  it('treats a person as one resource in any seat', () => {
    expect(findConflict(b('n', 11 * H, 12 * H, 'A9', 'I1'), existing)?.code).toBe('CONFLICT_PILOT');
    expect(findConflict(b('n', 11 * H, 12 * H, 'A9', 'P9', 'P2'), existing)?.code).toBe('CONFLICT_INSTRUCTOR');
  });
  it('ignores the booking being moved and touching neighbours', () => {
    expect(findConflict(b('x', 10 * H, 11 * H, 'A1', 'P1', 'I1'), existing)).toBeNull();
    expect(findConflict(b('n', 13 * H, 14 * H, 'A2', 'P2'), existing)).toBeNull();
    expect(findConflict(b('n', 8 * H, 10 * H, 'A1', 'P1', 'I1'), existing)).toBeNull();
  });
  it('lists several competitors by start', () => {
    const many = [b('late', 12 * H, 13 * H), b('early', 9 * H, 10.5 * H)];
    expect(findConflict(b('n', 10 * H, 12.5 * H, 'A1', 'P7'), many)?.conflicts.map((c) => c.id)).toEqual([
      'early',
      'late',
    ]);
  });
});

describe('spanProblem', () => {
  it('wants a positive span on the 5-minute grid, at most a week', () => {
    expect(spanProblem({ start: 3600, end: 7200 })).toBeNull();
    expect(spanProblem({ start: 3600, end: 3600 })).toMatch(/end after/);
    expect(spanProblem({ start: 3601, end: 7200 })).toMatch(/5-minute/);
    expect(spanProblem({ start: 0, end: 8 * 86400 })).toMatch(/7 days/);
  });
});

describe('insideHours', () => {
  const rows = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({
    base_id: null,
    weekday,
    override_date: null,
    closed: false,
    start_minute: 8 * 60,
    end_minute: 18 * 60,
  }));
  const days = resolveRange(rows, null, '2026-07-01', '2026-07-02', 'UTC');
  const at = (iso: string) => Date.parse(`${iso}Z`) / 1000;
  it('accepts a span inside one window and refuses one crossing the closing time', () => {
    expect(insideHours(days, { start: at('2026-07-01T08:00'), end: at('2026-07-01T18:00') })).toBe(true);
    expect(insideHours(days, { start: at('2026-07-01T17:00'), end: at('2026-07-01T18:15') })).toBe(false);
    expect(insideHours(days, { start: at('2026-07-01T07:45'), end: at('2026-07-01T09:00') })).toBe(false);
  });
  it('refuses a span over a closed night, accepts one over joined windows', () => {
    expect(insideHours(days, { start: at('2026-07-01T17:00'), end: at('2026-07-02T09:00') })).toBe(false);
    const open = resolveRange([], null, '2026-07-01', '2026-07-02', 'UTC');
    expect(insideHours(open, { start: at('2026-07-01T22:00'), end: at('2026-07-02T02:00') })).toBe(true);
  });
  it('follows the wall clock of the zone', () => {
    const madrid = resolveRange(rows, null, '2026-07-01', '2026-07-01', 'Europe/Madrid');
    expect(insideHours(madrid, { start: at('2026-07-01T06:00'), end: at('2026-07-01T07:00') })).toBe(true); // 08-09 local
    expect(insideHours(madrid, { start: at('2026-07-01T15:30'), end: at('2026-07-01T16:30') })).toBe(false); // 17:30-18:30 local
  });
});

describe('selfBookingRefusal', () => {
  const base = { actorId: 'me', pilotId: 'me', selfSchedule: true, typeBookable: true };
  it('lets staff book anyone and anything', () => {
    expect(
      selfBookingRefusal({ ...base, role: 170, pilotId: 'other', selfSchedule: false, typeBookable: false }),
    ).toBeNull();
  });
  it('refuses auditors and mechanics', () => {
    expect(selfBookingRefusal({ ...base, role: 250 })?.code).toBe('NOT_ALLOWED');
    expect(selfBookingRefusal({ ...base, role: 300 })?.code).toBe('NOT_ALLOWED');
  });
  it('wants self_schedule, the caller as pilot and a bookable type', () => {
    expect(selfBookingRefusal({ ...base, role: 200 })).toBeNull();
    expect(selfBookingRefusal({ ...base, role: 190, selfSchedule: false })?.message).toMatch(/not enabled/);
    expect(selfBookingRefusal({ ...base, role: 200, pilotId: 'other' })?.message).toMatch(/only book yourself/);
    expect(selfBookingRefusal({ ...base, role: 190, typeBookable: false })?.message).toMatch(/cannot be self-booked/);
  });
});

describe('documentsDecision', () => {
  const d = (o: Partial<Parameters<typeof documentsDecision>[0]>) =>
    documentsDecision({
      selfBooking: true,
      requirePicDocs: true,
      allowNoDocs: false,
      blockWithoutDocs: false,
      missing: ['MED_CLASS2'],
      ...o,
    });
  it('passes when nothing is required or nothing is missing', () => {
    expect(d({ requirePicDocs: false })).toEqual({ ok: true, warning: null });
    expect(d({ missing: [] })).toEqual({ ok: true, warning: null });
  });
  it('blocks a self-booking unless allow_nodocs; block_pic_without_docs always blocks', () => {
    expect(d({}).ok).toBe(false);
    expect(d({ allowNoDocs: true })).toMatchObject({ ok: true, warning: expect.stringMatching(/MED_CLASS2/) });
    expect(d({ allowNoDocs: true, blockWithoutDocs: true }).ok).toBe(false);
  });
  it('lets staff through with a warning unless the company blocks', () => {
    expect(d({ selfBooking: false })).toMatchObject({ ok: true, warning: expect.any(String) });
    expect(d({ selfBooking: false, blockWithoutDocs: true })).toMatchObject({ ok: false, code: 'DOCUMENTS' });
  });
});

describe('instructorUnavailable and aircraftBlockedFor', () => {
  it('only OFF and REST entries overlapping the span count', () => {
    const entries = [
      { start: 0, end: H, type: 'OFF' },
      { start: 2 * H, end: 3 * H, type: 'DUTY' },
      { start: 4 * H, end: 5 * H, type: 'REST' },
      { start: null, end: null, type: 'OFF' },
    ];
    expect(instructorUnavailable(entries, { start: H, end: 2 * H })).toBeNull();
    expect(instructorUnavailable(entries, { start: 2 * H, end: 3 * H })).toBeNull();
    expect(instructorUnavailable(entries, { start: 30 * 60, end: 2 * H })?.type).toBe('OFF');
    expect(instructorUnavailable(entries, { start: 4.5 * H, end: 6 * H })?.type).toBe('REST');
  });
  it('an item expired at the start or expiring before the end blocks', () => {
    expect(aircraftBlockedFor([{ label: 'a', expiredAtStart: true, expires: null }], { start: 0, end: H })?.label).toBe(
      'a',
    );
    expect(
      aircraftBlockedFor([{ label: 'b', expiredAtStart: false, expires: H / 2 }], { start: 0, end: H })?.label,
    ).toBe('b');
    expect(aircraftBlockedFor([{ label: 'c', expiredAtStart: false, expires: H }], { start: 0, end: H })).toBeNull();
    expect(aircraftBlockedFor([{ label: 'd', expiredAtStart: false, expires: null }], { start: 0, end: H })).toBeNull();
  });
  it('blockedFrom: availability ends where aircraftBlockedFor starts refusing', () => {
    const items = [
      { label: 'late', expiredAtStart: false, expires: 9 * H },
      { label: 'early', expiredAtStart: false, expires: 5 * H },
      { label: 'counter', expiredAtStart: false, expires: null },
    ];
    const b1 = blockedFrom(items, 0);
    expect(b1).toEqual({ at: 5 * H, item: items[1] });
    // A span ending at `at` fits, one ending after it is refused: the same answer as the booking rule.
    expect(aircraftBlockedFor(items, { start: 4 * H, end: 5 * H })).toBeNull();
    expect(aircraftBlockedFor(items, { start: 4 * H, end: 5 * H + 300 })?.label).toBe('early');
    expect(blockedFrom([{ label: 'x', expiredAtStart: true, expires: null }, ...items], 2 * H)).toMatchObject({
      at: 2 * H,
      item: { label: 'x' },
    });
    expect(blockedFrom([{ label: 'c', expiredAtStart: false, expires: null }], 0)).toBeNull();
    expect(blockedFrom([], 0)).toBeNull();
    expect(aircraftBlockedMessage('EC-JET', { label: 'MEL item 33: Lamp', expiredAtStart: true, expires: null })).toBe(
      'EC-JET cannot be booked: MEL item 33: Lamp is expired at the start.',
    );
  });

  it('words the MEL refusal in the reader language on the device (issue 33), English as before', () => {
    const item = { type: 'MEL', ata_chapter: '33', category: 'C', title: 'Lamp' };
    const en = translator('en');
    expect(melItemLabel(item, en)).toBe(melItemLabel(item));
    const label = (t: ReturnType<typeof translator>) => ({
      label: melItemLabel(item, t),
      expiredAtStart: false,
      expires: 9,
    });
    expect(aircraftBlockedMessage('EC-JET', label(en), en)).toBe(aircraftBlockedMessage('EC-JET', label(en)));
    const es = translator('es');
    expect(aircraftBlockedMessage('EC-JET', label(es), es)).toBe(
      'No se puede reservar EC-JET: Elemento MEL 33 (categoría C): Lamp vence antes del final.',
    );
  });
});

describe('seatsFor', () => {
  const t = (pic: string, sic: string, sup: string) => ({
    pic_flight_time: pic,
    sic_flight_time: sic,
    supervisor_flight_time: sup,
  });
  it('puts the instructor in the instructor seat of the type', () => {
    expect(seatsFor(t('fi', 'dual', 'none'), 'S', 'I')).toEqual({ pic_id: 'I', sic_id: 'S', supervisor_id: null });
    expect(seatsFor(t('exa', 'picus', 'none'), 'S', 'I')).toEqual({ pic_id: 'I', sic_id: 'S', supervisor_id: null });
    expect(seatsFor(t('pic', 'none', 'sup'), 'S', 'I')).toEqual({ pic_id: 'S', sic_id: null, supervisor_id: 'I' });
    expect(seatsFor(t('pic', 'none', 'none'), 'S', 'I')).toEqual({ pic_id: 'S', sic_id: null, supervisor_id: null });
    expect(seatsFor(t('fi', 'dual', 'none'), 'S', null)).toEqual({ pic_id: 'S', sic_id: null, supervisor_id: null });
  });
});

describe('freeWindows', () => {
  it('subtracts busy spans and drops short pieces', () => {
    const open = [{ start: 0, end: 10 * H }];
    const busy = [
      { start: 2 * H, end: 3 * H },
      { start: 2.5 * H, end: 4 * H },
      { start: 4 * H + 600, end: 5 * H },
      { start: 9 * H, end: 12 * H },
    ];
    expect(freeWindows(open, busy, 30 * 60)).toEqual([
      { start: 0, end: 2 * H },
      { start: 5 * H, end: 9 * H },
    ]);
    expect(freeWindows(open, [])).toEqual(open);
    expect(freeWindows(open, [{ start: -H, end: 11 * H }])).toEqual([]);
  });
});

describe('bookingVisible', () => {
  const row = { pilot_id: 'p', instructor_id: 'i', user_id: 'u' };
  it('managers, the office, the auditor and mechanics see all; others their own', () => {
    for (const role of [1, 100, 120, 170, 250, 300]) expect(bookingVisible(row, { userId: 'x', role })).toBe(true);
    for (const role of [135, 150, 190, 200]) expect(bookingVisible(row, { userId: 'x', role })).toBe(false);
    expect(bookingVisible(row, { userId: 'p', role: 200 })).toBe(true);
    expect(bookingVisible(row, { userId: 'i', role: 150 })).toBe(true);
    expect(bookingVisible(row, { userId: 'u', role: 190 })).toBe(true);
  });
});

describe('the booking refusals carry a message id (issue 33)', () => {
  const en = translator('en');
  const base = { actorId: 'me', pilotId: 'me', selfSchedule: true, typeBookable: true };
  const item = { type: 'MEL', ata_chapter: '33', category: 'C', title: 'Landing light' };
  const mel = { label: melItemLabel(item), labelText: melItemText(item), expiredAtStart: false, expires: 5 };

  it('English renders the very bytes of the message; Spanish, French and German say it in theirs', () => {
    const refusals = [
      findConflict(b('new', 0, H), [b('x', 0, H), b('y', 0, 2 * H)]),
      findConflict(b('new', 0, H), [b('x', 0, H)]),
      findConflict(b('new', 0, H, 'A2'), [b('x', 0, H)]),
      findConflict(b('new', 0, H, 'A2', 'P2', 'I1'), [b('x', 0, H, 'A3', 'P3', 'I1')]),
      selfBookingRefusal({ ...base, role: 250 }),
      selfBookingRefusal({ ...base, role: 190, selfSchedule: false }),
      selfBookingRefusal({ ...base, role: 200, pilotId: 'other' }),
      selfBookingRefusal({ ...base, role: 190, typeBookable: false }),
    ];
    const docs = documentsDecision({
      selfBooking: true,
      requirePicDocs: true,
      allowNoDocs: false,
      blockWithoutDocs: false,
      missing: ['medical', 'sep'],
    });
    const texts = [
      ...refusals.map((r) => ({ message: r?.message, text: r?.text })),
      docs.ok ? { message: undefined, text: undefined } : docs,
      { message: aircraftBlockedMessage('EC-JET', mel), text: aircraftBlockedText('EC-JET', mel) },
      {
        message: aircraftBlockedMessage('EC-JET', { ...mel, expiredAtStart: true }),
        text: aircraftBlockedText('EC-JET', { ...mel, expiredAtStart: true }),
      },
    ];
    for (const { message, text } of texts) {
      expect(text).toBeTruthy();
      if (!text) continue;
      expect(renderText(en, text)).toBe(message);
      for (const l of ['es', 'fr', 'de']) expect(renderText(translator(l), text, l)).not.toBe(message);
    }
  });

  it('the counted conflict and the MEL item read naturally in Spanish', () => {
    const es = translator('es');
    const two = findConflict(b('new', 0, H), [b('x', 0, H), b('y', 0, 2 * H)]);
    expect(two?.text && renderText(es, two.text, 'es')).toBe('La aeronave ya está reservada a esa hora (2 reservas).');
    // The device's own wording of the item (label made with the same translator) is what the server's text gives.
    expect(renderText(es, aircraftBlockedText('EC-JET', mel), 'es')).toBe(
      aircraftBlockedMessage('EC-JET', { ...mel, label: melItemLabel(item, es) }, es),
    );
    // An item known only by its English label is named as written, the rest translated.
    const bare = aircraftBlockedText('EC-JET', { ...mel, labelText: undefined });
    expect(renderText(es, bare, 'es')).toContain('MEL item 33 (category C): Landing light');
  });
});
