import { translator } from '@ops/shared/i18n/index';
import { describe, expect, it } from 'vitest';
import { ROLES } from '@ops/shared';
import {
  cancelEffect,
  confirmProblem,
  emptyForm,
  filtersProblem,
  flightActions,
  flightDocFrom,
  flightsCsv,
  flightsLoadPath,
  NO_FILTERS,
  formOf,
  localOverlaps,
  shownStatus,
} from './flights.ts';

const utc = (iso: string) => Date.parse(`${iso}Z`) / 1000;
const ids = { id: 'f-new', me: 'u-me' };
const TODAY = '2025-11-21';

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
    const r = flightDocFrom(form(), null, ids, 'Europe/Madrid', 1000, TODAY);
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
      TODAY,
    );
    expect(r.ok && r.doc.block_time).toBe(70 * 60);
  });

  it('a flight without times, aircraft or airports is not saved; each field says why (issue 28 item 5)', () => {
    const r = flightDocFrom(
      form({
        aircraft_id: '',
        departure_airport: '',
        landing_airport: '',
        offblocks_time: '',
        takeoff_time: '',
        landing_time: '',
        onblocks_time: '',
      }),
      null,
      ids,
      'UTC',
      0,
      TODAY,
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toEqual({
      aircraft_id: 'Choose the aircraft.',
      departure_airport: 'Give the departure airport (ICAO code such as LECU).',
      landing_airport: 'Give the landing airport (ICAO code such as LECU).',
      offblocks_time: 'Give the off-blocks time (HH:MM).',
      onblocks_time: 'Give the on-blocks time (HH:MM).',
    });
  });

  it('junk dates, landings and a long callsign are refused, not cut', () => {
    const r = flightDocFrom(
      form({ date: '1900-01-01', landings: '999', callsign: 'X'.repeat(25) }),
      null,
      ids,
      'UTC',
      0,
      TODAY,
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.date).toMatch(/1950/);
    expect(r.errors.landings).toMatch(/At most 99/);
    expect(r.errors.callsign).toMatch(/this text has 25/);
  });

  it('reports what the server would refuse, by field', () => {
    const r = flightDocFrom(
      form({ onblocks_time: '', departure_airport: 'MADRID', landings: '-1' }),
      null,
      ids,
      'UTC',
      0,
      TODAY,
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(Object.keys(r.errors).sort()).toEqual(['departure_airport', 'landings', 'onblocks_time']);
  });

  it('an edit keeps the stored status beyond SCHEDULED and the other fields', () => {
    const created = flightDocFrom(form(), null, ids, 'UTC', 0, TODAY);
    if (!created.ok) throw new Error('create failed');
    const dispatched = { ...created.doc, status: 'DISPATCHED', base_id: 'b1' };
    const r = flightDocFrom({ ...formOf(dispatched), remarks: 'Gusty' }, dispatched, ids, 'UTC', 5, TODAY);
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
    const r = flightDocFrom(form(), null, ids, 'UTC', 0, TODAY);
    if (!r.ok) throw new Error('create failed');
    return r.doc;
  };

  const perms = (...keys: string[]) =>
    Object.fromEntries(['Flight.create', 'Flight.edit', 'Flight.confirm'].map((k) => [k, keys.includes(k)])) as Record<
      'Flight.create' | 'Flight.edit' | 'Flight.confirm',
      boolean
    >;
  const office = {
    userId: 'office',
    role: ROLES.DISPATCHER,
    perms: perms('Flight.create', 'Flight.edit', 'Flight.confirm'),
  };
  const student = { userId: 'u-stu', role: ROLES.STUDENT, perms: perms() };

  it('offers the actions the shared policy allows this person, by status', () => {
    expect(flightActions(office, doc(), 0)).toEqual({
      edit: true,
      confirm: true,
      dispatch: true,
      cancel: true,
      delete: false,
    });
    expect(flightActions(office, { ...doc(), status: 'DISPATCHED' }, 0)).toMatchObject({
      edit: true,
      confirm: true,
      dispatch: false,
      cancel: true,
    });
    expect(flightActions(office, { ...doc(), status: 'LANDED' }, 0)).toEqual({
      edit: false,
      confirm: false,
      dispatch: false,
      cancel: false,
      delete: true,
    });
    expect(flightActions(office, { ...doc(), status: 'CANCELED' }, 0)).toMatchObject({ cancel: false, delete: false });
    // A student as SIC of the instructor's lesson gets nothing to press.
    const lesson = { ...doc(), pic_id: 'u-fi', sic_id: 'u-stu', user_id: 'office' };
    expect(Object.values(flightActions(student, lesson, 0)).some(Boolean)).toBe(false);
  });

  it('says what cancelling or deleting does', () => {
    const hhmm = (s: number) => `${Math.floor(s / 3600)}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}`;
    expect(cancelEffect({ ...doc(), status: 'LANDED', flight_time: 4800, landings: 3 }, 'EC-ABC', hhmm)).toBe(
      "This removes the flight from the logbook and takes 1:20 off EC-ABC's hours and 3 landings off its landings.",
    );
    expect(cancelEffect(doc(), 'EC-ABC', hhmm)).toMatch(/stays listed as canceled/);
    const es = translator('es');
    expect(cancelEffect({ ...doc(), status: 'LANDED', flight_time: 4800, landings: 1 }, null, hhmm, es)).toBe(
      'Esto borra el vuelo del libro de vuelo y resta 1:20 a las horas de la aeronave y 1 aterrizaje a sus aterrizajes.',
    );
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

describe('the office flight list', () => {
  it('asks the spec path with only the filters given', () => {
    expect(flightsLoadPath(NO_FILTERS, 1, 25)).toBe('/flights/load/page:1/limit:25.json');
    expect(flightsLoadPath({ ...NO_FILTERS, from: '2025-01-01', aircraft: 'a1', status: 'LANDED' }, 3, 25)).toBe(
      '/flights/load/page:3/limit:25/from:2025-01-01/aircraft:a1/status:LANDED.json',
    );
    expect(filtersProblem({ ...NO_FILTERS, from: '2025-02-01', to: '2025-01-01' })).toMatch(/after/);
  });

  it('writes a CSV with quoted cells and defused formulas', () => {
    const row = {
      Flight: {
        id: 'f1',
        date: '2025-01-02',
        status: 'LANDED',
        callsign: '=SUM(A1)',
        departure_airport: 'LECU',
        landing_airport: 'LELL',
        offblocks_time: '09:00',
        onblocks_time: '10:20',
        block_time: 4800,
        flight_time: 4200,
        landings: 1,
      },
      Aircraft: { registration: 'EC-ABC' },
      FlightType: { name: 'Dual, training' },
      Pic: { UserDetail: { name: 'Ivan', surname: 'Instructor' } },
      Sic: null,
    };
    const csv = flightsCsv([row], (s) => `${s / 60}m`);
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe(
      'Date,Callsign,Aircraft,From,To,Off-blocks,On-blocks,Block time,Flight time,Landings,PIC,SIC,Flight type,Status',
    );
    expect(lines[1]).toBe(
      '2025-01-02,\'=SUM(A1),EC-ABC,LECU,LELL,09:00,10:20,80m,70m,1,Ivan Instructor,,"Dual, training",LANDED',
    );
    // The headers in the reader's language; the cells stay data.
    const [head, cells] = flightsCsv([row], (s) => `${s / 60}m`, translator('de'))
      .trim()
      .split('\r\n');
    expect(head).toBe(
      'Datum,Rufzeichen,Luftfahrzeug,Von,Bis,Off-Block,On-Block,Blockzeit,Flugzeit,Landungen,PIC,Copilot,Flugart,Status',
    );
    expect(cells).toBe(lines[1]);
  });
});
