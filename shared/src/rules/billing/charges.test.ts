import { describe, expect, it } from 'vitest';
import { chargedUser, flightCharges, instructorOf } from './charges.ts';

const flight = {
  status: 'LANDED',
  aircraft_id: 'A',
  pic_id: 'I',
  sic_id: 'S',
  supervisor_id: null,
  block_time: 5400,
  flight_time: 4500,
};
const dual = { pic: 'fi', sic: 'dual', supervisor: 'none' };
const base = {
  flight,
  seats: dual,
  billed: new Set(['S', 'P']),
  aircraftRates: new Map([['A', 12000]]),
  instructorRates: new Map([['I', 4000]]),
  basis: 'block' as const,
  taxBp: 2100,
  pools: [],
};

describe('flight charges', () => {
  it('charges the dual student for the aircraft and the instructor, block time, with tax', () => {
    const c = flightCharges(base);
    expect(c.userId).toBe('S');
    // 1.5 h x 120.00 = 180.00 + 37.80 tax; 1.5 h x 40.00 = 60.00 + 12.60.
    expect(c.lines.map((l) => [l.kind, l.amount, l.tax, l.seconds])).toEqual([
      ['flight', -21780, -3780, 5400],
      ['instructor', -7260, -1260, 5400],
    ]);
  });
  it('uses flight time when the basis says so', () => {
    expect(flightCharges({ ...base, basis: 'flight' }).lines[0].amount).toBe(-18150);
  });
  it('uses the aircraft package first, then any-aircraft hours, then money', () => {
    const c = flightCharges({
      ...base,
      pools: [
        { aircraft_id: null, seconds: 1800 },
        { aircraft_id: 'A', seconds: 1800 },
        { aircraft_id: 'B', seconds: 9999 },
      ],
    });
    expect(c.lines.map((l) => [l.kind, l.aircraft_id, l.amount, l.package_seconds])).toEqual([
      ['package', 'A', 0, -1800],
      ['package', null, 0, -1800],
      ['flight', 'A', -7260, 0],
      ['instructor', 'A', -7260, 0],
    ]);
  });
  it('charges the PIC without a dual or picus seat; nobody unbilled or unlanded; no instructor for a sup seat', () => {
    const solo = { ...flight, pic_id: 'P', sic_id: null };
    expect(chargedUser(solo, { pic: 'pic', sic: 'none', supervisor: 'sup' }, new Set(['P']))).toBe('P');
    expect(instructorOf({ ...solo, supervisor_id: 'I' }, { pic: 'pic', sic: 'none', supervisor: 'sup' })).toBeNull();
    expect(flightCharges({ ...base, billed: new Set() })).toEqual({ userId: null, lines: [] });
    expect(flightCharges({ ...base, flight: { ...flight, status: 'DELETED' } })).toEqual({ userId: null, lines: [] });
    expect(
      chargedUser({ ...flight, sic_id: 'S' }, { pic: 'exa', sic: 'picus', supervisor: 'none' }, new Set(['S'])),
    ).toBe('S');
    expect(chargedUser(flight, null, new Set(['I']))).toBe('I');
  });
  it('does not charge instructors for their own instruction, and books nothing at a zero rate', () => {
    const c = flightCharges({ ...base, flight: { ...flight, sic_id: null }, billed: new Set(['I']) });
    expect(c.lines.map((l) => l.kind)).toEqual(['flight']);
    expect(flightCharges({ ...base, aircraftRates: new Map([['A', 0]]), instructorRates: new Map() }).lines).toEqual(
      [],
    );
  });
});
