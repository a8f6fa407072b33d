import type { AircraftDoc, AircraftReportDoc, CommandDoc, MelItemDoc } from '@ops/shared';
import { translator } from '@ops/shared/i18n/index';
import { describe, expect, it } from 'vitest';
import { closeEffect, fleetBoard, itemView, openItems, provisionalReport } from './techlog.ts';

const utc = (iso: string) => Date.parse(`${iso}Z`) / 1000;
const NOW = utc('2025-11-20T10:00:00');

const aircraft = (over: Partial<AircraftDoc> = {}): AircraftDoc => ({
  id: 'a1',
  registration: 'EC-ABC',
  model_name: 'Cessna 172S',
  model_icao: 'C172',
  manufacturer_name: 'Cessna',
  multiengine: false,
  multipilot: false,
  simulator: false,
  active: true,
  hours: 100,
  landings: 50,
  flights: 10,
  user_id: null,
  base_id: null,
  ...over,
});

const item = (over: Partial<MelItemDoc> = {}): MelItemDoc => ({
  id: 'm1',
  aircraft_report_id: 'r1',
  mel_reference: '33-1',
  category: 'B',
  interval_type: 'CALENDAR_DAYS',
  interval_value: 3,
  starts: utc('2025-11-18T23:00:00'),
  expires: utc('2025-11-21T23:00:00'),
  baseline_flights: null,
  baseline_cycles: null,
  placard_fitted: true,
  procedures: null,
  released_by: 'u1',
  released: utc('2025-11-18T10:00:00'),
  extended: false,
  extended_by: null,
  extended_until: null,
  extension_reason: null,
  MelItemLimitation: [],
  status: 'OPEN',
  derived_at: utc('2025-11-18T10:00:00'),
  ...over,
});

const report = (over: Partial<AircraftReportDoc> = {}): AircraftReportDoc => ({
  id: 'r1',
  aircraft_id: 'a1',
  flight_id: null,
  user_id: 'u1',
  type: 'MEL',
  title: 'Beacon light inoperative',
  description: null,
  ata_chapter: '33',
  system: null,
  severity: 'LOW',
  aircraft_status: 'FLYABLE',
  dispatch_condition: 'MEL',
  status: 'OPEN',
  hours: null,
  cycles: null,
  deferred_until: null,
  deferred_reference: null,
  created: utc('2025-11-18T10:00:00'),
  modified: utc('2025-11-18T10:00:00'),
  closed: null,
  closed_by: null,
  maintenance_job_id: null,
  MelItem: item(),
  ...over,
});

const command = (name: string, args: Record<string, unknown>, over: Partial<CommandDoc> = {}): CommandDoc => ({
  id: `c-${name}`,
  name,
  args,
  client_time: utc('2025-11-20T09:00:00') * 1000,
  user_id: 'u1',
  status: 'pending',
  reason: null,
  details: null,
  result: null,
  decided_at: null,
  ...over,
});

const fleet = new Map([['a1', aircraft()]]);

describe('itemView: status recomputed on the device', () => {
  it('an item stored OPEN reads EXPIRING_SOON within 3 days and EXPIRED after its deadline', () => {
    expect(itemView(report(), aircraft(), NOW).status).toBe('EXPIRING_SOON');
    expect(itemView(report(), aircraft(), utc('2025-11-21T23:00:00')).status).toBe('EXPIRED');
    expect(itemView(report(), aircraft(), utc('2025-11-10T00:00:00')).status).toBe('OPEN');
  });

  it('counts flights against a FLIGHTS interval with the aircraft counter', () => {
    const r = report({
      MelItem: item({ category: 'A', interval_type: 'FLIGHTS', interval_value: 3, expires: null, baseline_flights: 8 }),
    });
    const v = itemView(r, aircraft({ flights: 10 }), NOW);
    expect(v.deadline).toMatchObject({ kind: 'counter', remaining: 1, unit: 'flights' });
    expect(v.status).toBe('EXPIRING_SOON');
    expect(itemView(r, aircraft({ flights: 11 }), NOW).status).toBe('EXPIRED');
  });

  it('keeps the server status for FLIGHT_DAYS (the device may not hold every flight)', () => {
    const r = report({
      MelItem: item({ interval_type: 'FLIGHT_DAYS', interval_value: 2, expires: null, status: 'EXPIRING_SOON' }),
    });
    expect(itemView(r, aircraft(), NOW).status).toBe('EXPIRING_SOON');
  });

  it('a plain defect has no item', () => {
    expect(itemView(report({ type: 'DEFECT', MelItem: null }), aircraft(), NOW)).toMatchObject({
      item: null,
      status: null,
    });
  });
});

describe('provisionalReport: a pending mel.raise shown at once', () => {
  it('computes the window as the server will (B: 3 days from the company midnight after raising)', () => {
    const cmd = command('mel.raise', {
      id: 'new-1',
      AircraftReport: { aircraft_id: 'a1', type: 'MEL', title: 'Nav light', ata_chapter: '33' },
      MelItem: { category: 'B', released_by: 'u1' },
      MelItemLimitation: [{ code: 'NO_NIGHT' }],
    });
    const r = provisionalReport(cmd, aircraft(), 'Europe/Madrid');
    expect(r).not.toBeNull();
    // Raised 2025-11-20 10:00 Madrid: starts 2025-11-21 00:00, expires 2025-11-24 00:00 (Madrid, +01:00).
    expect(r?.MelItem?.starts).toBe(utc('2025-11-20T23:00:00'));
    expect(r?.MelItem?.expires).toBe(utc('2025-11-23T23:00:00'));
    expect(r?.MelItem?.MelItemLimitation.map((l) => l.code)).toEqual(['NO_NIGHT']);
    expect(r?.title).toBe('Nav light');
  });

  it('is null for arguments the server will reject anyway', () => {
    expect(
      provisionalReport(
        command('mel.raise', { AircraftReport: { aircraft_id: 'a1', type: 'MEL' } }),
        aircraft(),
        'UTC',
      ),
    ).toBeNull();
    expect(
      provisionalReport(
        command('mel.raise', { id: 'x', AircraftReport: { aircraft_id: 'a1', type: 'DEFECT' } }),
        aircraft(),
        'UTC',
      ),
    ).toBeNull();
  });
});

describe('openItems: server documents and pending commands', () => {
  it('shows a pending raise until the server document with its id arrives', () => {
    const raise = command('mel.raise', {
      id: 'new-1',
      AircraftReport: { aircraft_id: 'a1', type: 'CDL', title: 'Panel missing' },
      MelItem: {},
    });
    const before = openItems([], fleet, [raise], NOW, 'UTC');
    expect(before).toHaveLength(1);
    expect(before[0]).toMatchObject({ pending: 'raise', commandId: raise.id, status: 'OPEN' });
    const after = openItems([report({ id: 'new-1', type: 'CDL' })], fleet, [raise], NOW, 'UTC');
    expect(after).toHaveLength(1);
    expect(after[0].pending).toBeNull();
  });

  it('applies a pending extension and a pending closure', () => {
    const extend = command('mel.extend', {
      report_id: 'r1',
      extended_until: utc('2025-11-24T23:00:00'),
      reason: 'Part on order',
    });
    const [v] = openItems([report()], fleet, [extend], NOW, 'UTC');
    expect(v).toMatchObject({ pending: 'extend', status: 'OPEN' });
    expect(v.deadline).toEqual({ kind: 'time', expires: utc('2025-11-24T23:00:00') });
    const close = command('mel.close', { report_id: 'r1' });
    const [c] = openItems([report()], fleet, [close], NOW, 'UTC');
    expect(c).toMatchObject({ pending: 'close', status: 'CLOSED' });
  });

  it('leaves closed reports out and ignores decided commands', () => {
    const decided = command('mel.close', { report_id: 'r1' }, { status: 'accepted' });
    expect(openItems([report({ status: 'CLOSED' })], fleet, [decided], NOW, 'UTC')).toEqual([]);
  });
});

describe('fleetBoard', () => {
  it('blocks an aircraft with an expired item and names it; orders items by urgency', () => {
    const expired = report({
      id: 'r2',
      title: 'Pitot heat',
      ata_chapter: '30',
      MelItem: item({ id: 'm2', aircraft_report_id: 'r2', expires: utc('2025-11-19T23:00:00') }),
    });
    const far = report({
      id: 'r3',
      MelItem: item({
        id: 'm3',
        aircraft_report_id: 'r3',
        category: 'D',
        interval_value: 120,
        expires: utc('2026-03-01T00:00:00'),
      }),
    });
    const rows = fleetBoard(
      [aircraft(), aircraft({ id: 'a2', registration: 'EC-AAA' })],
      openItems([far, expired], fleet, [], NOW, 'UTC'),
    );
    expect(rows.map((r) => r.aircraft.registration)).toEqual(['EC-AAA', 'EC-ABC']);
    const abc = rows[1];
    expect(abc.blocked).toBe(true);
    expect(abc.blockReason).toBe('MEL item 30 (category B) expired: Pitot heat');
    expect(abc.items.map((v) => v.status)).toEqual(['EXPIRED', 'OPEN']);
    expect(rows[0]).toMatchObject({ blocked: false, items: [] });
  });

  it('marks grounded aircraft, pending work and separates defects; hides inactive aircraft', () => {
    const defect = report({ id: 'd1', type: 'DEFECT', MelItem: null, aircraft_status: 'GROUNDED' });
    const raise = command('mel.raise', {
      id: 'n1',
      AircraftReport: { aircraft_id: 'a1', type: 'CDL', title: 'Fairing' },
    });
    const rows = fleetBoard(
      [aircraft(), aircraft({ id: 'a3', registration: 'EC-OLD', active: false })],
      openItems([defect], fleet, [raise], NOW, 'UTC'),
    );
    expect(rows).toHaveLength(1);
    // Issue 28: a grounding report blocks dispatch (it did not: the board said "0 blocked").
    expect(rows[0]).toMatchObject({ grounded: true, pending: true, blocked: true });
    expect(rows[0].blockReason).toMatch(/grounds the aircraft\.$/);
    expect(rows[0].defects).toHaveLength(1);
    expect(rows[0].items).toHaveLength(1);
  });

  it('counts dispatch_condition GROUNDED as grounding; says what closing a report unblocks', () => {
    const a = report({ id: 'd1', type: 'DEFECT', title: 'Oil leak', MelItem: null, dispatch_condition: 'GROUNDED' });
    const b = report({ id: 'd2', type: 'DEFECT', title: 'Tyre worn', MelItem: null, aircraft_status: 'GROUNDED' });
    const info = report({ id: 'd3', type: 'INFO', title: 'Scratch', MelItem: null });
    const [one] = fleetBoard([aircraft()], openItems([a, info], fleet, [], NOW, 'UTC'));
    expect(one).toMatchObject({ grounded: true, blocked: true });
    expect(closeEffect(one, 'd1')).toEqual({ unblocks: true, sentence: 'EC-ABC becomes dispatchable.' });
    expect(closeEffect(one, 'd3').sentence).toMatch(/^EC-ABC stays blocked: Open defect “Oil leak”/);
    const [two] = fleetBoard([aircraft()], openItems([a, b], fleet, [], NOW, 'UTC'));
    expect(closeEffect(two, 'd1')).toMatchObject({ unblocks: false });
    // In the reader's language (issue 33): the same answer, Spanish words.
    const es = translator('es');
    expect(closeEffect(one, 'd1', es)).toEqual({ unblocks: true, sentence: 'EC-ABC queda apta para el despacho.' });
    expect(closeEffect(one, 'd3', es).sentence).toMatch(/^EC-ABC sigue bloqueada: El defecto abierto «Oil leak»/);
    expect(closeEffect(two, 'd1').sentence).toContain('Tyre worn');
    const [clear] = fleetBoard([aircraft()], openItems([info], fleet, [], NOW, 'UTC'));
    expect(clear.blocked).toBe(false);
    expect(closeEffect(clear, 'd3').unblocks).toBe(false);
  });
});
