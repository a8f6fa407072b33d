import { describe, expect, it } from 'vitest';
import {
  confirmProblem,
  emptyForm,
  flightActions,
  flightDocFrom,
  formOf,
  localOverlaps,
  shownStatus,
} from './flights.ts';

const utc = (iso: string) => Date.parse(`${iso}Z`) / 1000;
const ids = { id: 'f-new', me: 'u-me' };

const form = (over: Partial<ReturnType<typeof emptyForm>> = {}) => ({
  ...emptyForm('u-me', '2025-11-20'),
  aircraft_id: 'a1',
  departure_airport: 'lecu',
  landing_airport: 'LELL',
  offblocks_time: '09:00',
  takeoff_time: '09:10',
  landing_time: '10:10',
  onblocks_time: '10:20',
  ...over,
});

describe('flightDocFrom', () => {
  it('computes instants, block and flight time in the flight zone', () => {
    const r = flightDocFrom(form(), null, ids, 'Europe/Madrid', 1000);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.doc).toMatchObject({
      id: 'f-new',
      user_id: 'u-me',
      pic_id: 'u-me',
      status: 'DRAFT',
      departure_airport: 'LECU',
      offblocks: utc('2025-11-20T08:00:00'),
      onblocks: utc('2025-11-20T09:20:00'),
      block_time: 80 * 60,
      flight_time: 60 * 60,
      starts: utc('2025-11-20T08:00:00'),
      night_flight_time: null,
      modified: 1000,
    });
  });

  it('a flight across midnight ends the next day', () => {
    const r = flightDocFrom(
      form({ offblocks_time: '23:30', takeoff_time: '', landing_time: '', onblocks_time: '00:40' }),
      null,
      ids,
      'UTC',
      0,
    );
    expect(r.ok && r.doc.block_time).toBe(70 * 60);
  });

  it('a draft without times starts at midnight of its date', () => {
    const r = flightDocFrom(
      form({ offblocks_time: '', takeoff_time: '', landing_time: '', onblocks_time: '' }),
      null,
      ids,
      'UTC',
      0,
    );
    expect(r.ok && r.doc).toMatchObject({ offblocks: null, block_time: 0, starts: utc('2025-11-20T00:00:00') });
  });

  it('reports what the server would refuse, by field', () => {
    const r = flightDocFrom(
      form({ onblocks_time: '', departure_airport: 'MADRID', landings: '-1' }),
      null,
      ids,
      'UTC',
      0,
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(Object.keys(r.errors).sort()).toEqual(['departure_airport', 'landings', 'onblocks_time']);
  });

  it('an edit keeps the stored status beyond SCHEDULED and the other fields', () => {
    const created = flightDocFrom(form(), null, ids, 'UTC', 0);
    if (!created.ok) throw new Error('create failed');
    const dispatched = { ...created.doc, status: 'DISPATCHED', base_id: 'b1' };
    const r = flightDocFrom({ ...formOf(dispatched), remarks: 'Gusty' }, dispatched, ids, 'UTC', 5);
    expect(r.ok && r.doc).toMatchObject({
      id: 'f-new',
      status: 'DISPATCHED',
      base_id: 'b1',
      remarks: 'Gusty',
      modified: 5,
    });
  });
});

describe('actions, confirm and overlaps', () => {
  const doc = () => {
    const r = flightDocFrom(form(), null, ids, 'UTC', 0);
    if (!r.ok) throw new Error('create failed');
    return r.doc;
  };

  it('offers actions by status', () => {
    expect(flightActions(doc())).toEqual({ edit: true, confirm: true, dispatch: true, cancel: true });
    expect(flightActions({ ...doc(), status: 'DISPATCHED' })).toEqual({
      edit: true,
      confirm: true,
      dispatch: false,
      cancel: true,
    });
    expect(flightActions({ ...doc(), status: 'LANDED' })).toEqual({
      edit: false,
      confirm: false,
      dispatch: false,
      cancel: true,
    });
    expect(flightActions({ ...doc(), status: 'CANCELED' }).cancel).toBe(false);
  });

  it('names what a confirm lacks', () => {
    expect(confirmProblem(doc())).toBeNull();
    expect(confirmProblem({ ...doc(), aircraft_id: null })).toBe('A confirmed flight needs an aircraft');
    expect(confirmProblem({ ...doc(), onblocks: null })).toBe('A confirmed flight needs its block times');
  });

  it('finds confirmed flights of the same aircraft it overlaps', () => {
    const mine = doc();
    const other = {
      ...mine,
      id: 'f-other',
      status: 'LANDED',
      offblocks: mine.offblocks! + 600,
      onblocks: mine.onblocks! + 600,
    };
    const draft = { ...other, id: 'f-draft', status: 'DRAFT' };
    const elsewhere = { ...other, id: 'f-else', aircraft_id: 'a2' };
    expect(localOverlaps(mine, [mine, other, draft, elsewhere]).map((f) => f.id)).toEqual(['f-other']);
  });

  it('reads a late scheduled flight as DELAYED', () => {
    const scheduled = { ...doc(), status: 'SCHEDULED' };
    expect(shownStatus(scheduled, scheduled.offblocks! + 3601)).toBe('DELAYED');
    expect(shownStatus(scheduled, scheduled.offblocks!)).toBe('SCHEDULED');
  });
});
