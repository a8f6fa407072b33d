import { describe, expect, it } from 'vitest';
import { ROLES } from '../../roles.ts';
import {
  aircraftBlockers,
  type BlockerCandidate,
  blockedRefusal,
  blockedRefusalText,
  blockerCode,
  groundsAircraft,
  releasesAircraft,
  withRectification,
} from './blockers.ts';
import { mayCloseAircraftReport } from './policy.ts';
import { translator } from '../../i18n/index.ts';
import { renderText } from '../readiness/text.ts';

const report = (over: Partial<BlockerCandidate> = {}): BlockerCandidate => ({
  id: 'r1',
  type: 'DEFECT',
  title: 'Nose gear shimmy',
  ata_chapter: '32',
  severity: 'CRITICAL',
  status: 'OPEN',
  aircraft_status: 'FLYABLE',
  dispatch_condition: 'NONE',
  created: 100,
  closed: null,
  mel: null,
  ...over,
});

describe('aircraftBlockers', () => {
  it('is empty for an aircraft without grounding or expired reports', () => {
    expect(aircraftBlockers([], 200)).toEqual([]);
    expect(aircraftBlockers([report(), report({ dispatch_condition: 'MONITOR' })], 200)).toEqual([]);
  });

  it('blocks on aircraft_status GROUNDED or dispatch_condition GROUNDED, naming the report', () => {
    const a = aircraftBlockers([report({ aircraft_status: 'GROUNDED' })], 200);
    expect(a).toMatchObject([
      {
        report_id: 'r1',
        kind: 'GROUNDED',
        sentence: 'Open defect “Nose gear shimmy” (ATA 32, CRITICAL) grounds the aircraft.',
      },
    ]);
    const b = aircraftBlockers(
      [report({ id: 'r2', dispatch_condition: 'GROUNDED', ata_chapter: null, severity: 'LOW' })],
      200,
    );
    expect(b[0]).toMatchObject({ report_id: 'r2', sentence: 'Open defect “Nose gear shimmy” grounds the aircraft.' });
    expect(groundsAircraft({ aircraft_status: 'FLYABLE', dispatch_condition: 'MEL' })).toBe(false);
  });

  it('no longer blocks once closed, and blocked at an instant before the closure', () => {
    const closed = report({ aircraft_status: 'GROUNDED', status: 'CLOSED', closed: 150 });
    expect(aircraftBlockers([closed], 200)).toEqual([]);
    expect(aircraftBlockers([closed], 120)).toHaveLength(1);
    // Raised after the instant asked about: not yet a blocker then.
    expect(aircraftBlockers([report({ aircraft_status: 'GROUNDED' })], 50)).toEqual([]);
    // DEFERRED is still open.
    expect(aircraftBlockers([report({ aircraft_status: 'GROUNDED', status: 'DEFERRED' })], 200)).toHaveLength(1);
  });

  it('blocks on an expired MEL or CDL item with the MEL words, after grounding reports', () => {
    const mel = report({
      id: 'm1',
      type: 'MEL',
      title: 'Landing light',
      ata_chapter: '33',
      dispatch_condition: 'MEL',
      mel: { category: 'C', status: 'EXPIRED' },
    });
    const open = report({ id: 'm2', type: 'CDL', dispatch_condition: 'CDL', mel: { category: null, status: 'OPEN' } });
    const ground = report({ id: 'g1', aircraft_status: 'GROUNDED' });
    const out = aircraftBlockers([mel, open, ground], 200);
    expect(out.map((b) => [b.report_id, b.kind])).toEqual([
      ['g1', 'GROUNDED'],
      ['m1', 'MEL_EXPIRED'],
    ]);
    expect(out[1].sentence).toBe('MEL item 33 (category C) expired: Landing light');
    expect(out.map(blockerCode)).toEqual(['AIRCRAFT_GROUNDED', 'MEL_EXPIRED']);
  });

  it('words a refusal naming the first blocker and counting the others', () => {
    expect(blockedRefusal('EC-JET', 'dispatched', [])).toBeNull();
    const two = aircraftBlockers(
      [
        report({ aircraft_status: 'GROUNDED' }),
        report({ id: 'r2', title: 'Oil leak', dispatch_condition: 'GROUNDED' }),
      ],
      200,
    );
    expect(blockedRefusal('EC-JET', 'booked', two)).toBe(
      'EC-JET cannot be booked: Open defect “Nose gear shimmy” (ATA 32, CRITICAL) grounds the aircraft. 1 other open report also blocks it.',
    );
  });
});

describe('releasesAircraft and withRectification', () => {
  const open = { status: 'OPEN', aircraft_status: 'GROUNDED', dispatch_condition: 'NONE' };
  it('is a release when a grounding report is closed or stops grounding while open', () => {
    expect(releasesAircraft(open, { ...open, status: 'CLOSED' })).toBe(true);
    expect(releasesAircraft(open, { ...open, aircraft_status: 'FLYABLE' })).toBe(true);
    expect(releasesAircraft(open, { ...open, status: 'DEFERRED' })).toBe(false);
    expect(releasesAircraft({ ...open, aircraft_status: 'FLYABLE' }, { ...open, status: 'CLOSED' })).toBe(false);
    expect(releasesAircraft({ ...open, status: 'CLOSED' }, { ...open, status: 'CLOSED' })).toBe(false);
    const byCondition = { status: 'OPEN', aircraft_status: 'FLYABLE', dispatch_condition: 'GROUNDED' };
    expect(releasesAircraft(byCondition, { ...byCondition, dispatch_condition: 'MONITOR' })).toBe(true);
  });
  it('records the rectification under the description', () => {
    expect(withRectification(null, ' Damper replaced ')).toBe('Rectification: Damper replaced');
    expect(withRectification('Shimmy on taxi', 'Damper replaced')).toBe(
      'Shimmy on taxi\n\nRectification: Damper replaced',
    );
  });
});

describe('mayCloseAircraftReport', () => {
  const defect = { user_id: 'p1', type: 'DEFECT', aircraft_status: 'FLYABLE', dispatch_condition: 'NONE' };
  const grounding = { ...defect, aircraft_status: 'GROUNDED' };
  it('lets mechanics and managers close any report, a reporter only their own that grounds nothing', () => {
    expect(mayCloseAircraftReport({ userId: 'm', role: ROLES.MECHANIC }, grounding)).toBe(true);
    expect(mayCloseAircraftReport({ userId: 'p1', role: ROLES.PILOT }, defect)).toBe(true);
    expect(mayCloseAircraftReport({ userId: 'p1', role: ROLES.PILOT }, grounding)).toBe(false);
    expect(mayCloseAircraftReport({ userId: 'p2', role: ROLES.PILOT }, defect)).toBe(false);
    expect(mayCloseAircraftReport({ userId: 's', role: ROLES.STUDENT }, defect)).toBe(false);
    expect(mayCloseAircraftReport({ userId: 'p1', role: ROLES.PILOT }, { ...defect, type: 'MEL' })).toBe(false);
    expect(mayCloseAircraftReport({ userId: 'p1', role: ROLES.AUDITOR }, defect)).toBe(false);
  });
});

describe('the blockers rule in the reader language (issue 33)', () => {
  const grounded = [
    report({ aircraft_status: 'GROUNDED' }),
    report({ id: 'r2', title: 'Oil leak', dispatch_condition: 'GROUNDED' }),
  ];
  it('keeps the English sentences byte for byte when the English translator is passed', () => {
    const en = translator('en');
    expect(aircraftBlockers(grounded, 200, en)).toEqual(aircraftBlockers(grounded, 200));
    expect(blockedRefusal('EC-JET', 'booked', aircraftBlockers(grounded, 200, en), en)).toBe(
      blockedRefusal('EC-JET', 'booked', aircraftBlockers(grounded, 200)),
    );
    const expired = [report({ type: 'MEL', ata_chapter: null, mel: { category: 'C', status: 'EXPIRED' } })];
    expect(aircraftBlockers(expired, 200, en)[0]?.sentence).toBe(aircraftBlockers(expired, 200)[0]?.sentence);
    const bare = [report({ type: 'CDL', ata_chapter: '33', mel: { category: null, status: 'EXPIRED' } })];
    expect(aircraftBlockers(bare, 200, en)[0]?.sentence).toBe('CDL item 33 expired: Nose gear shimmy');
  });

  it('words the grounding, the expiry and the refusal in Spanish and German', () => {
    const es = translator('es');
    expect(blockedRefusal('EC-JET', 'booked', aircraftBlockers(grounded, 200, es), es)).toBe(
      'No se puede reservar EC-JET: El defecto abierto «Nose gear shimmy» (ATA 32, CRÍTICA) inmoviliza la aeronave. Otro informe abierto también la bloquea.',
    );
    const de = translator('de');
    const expired = [report({ type: 'MEL', mel: { category: 'C', status: 'EXPIRED' } })];
    expect(blockedRefusal('D-EABC', 'dispatched', aircraftBlockers(expired, 200, de), de)).toBe(
      'D-EABC kann nicht freigegeben werden: MEL-Eintrag 32 (Kategorie C) abgelaufen: Nose gear shimmy.',
    );
  });

  it('the server refusal carries its message id: English renders its bytes, other languages the device words', () => {
    const expired = [report({ type: 'MEL', mel: { category: 'C', status: 'EXPIRED' } })];
    const cases = [grounded, expired, [report({ dispatch_condition: 'GROUNDED', ata_chapter: null, severity: 'LOW' })]];
    for (const reports of cases)
      for (const action of ['booked', 'dispatched'] as const) {
        const text = blockedRefusalText('EC-JET', action, aircraftBlockers(reports, 200));
        expect(text).not.toBeNull();
        if (!text) continue;
        expect(renderText(translator('en'), text)).toBe(
          blockedRefusal('EC-JET', action, aircraftBlockers(reports, 200)),
        );
        for (const l of ['es', 'fr', 'de']) {
          const t = translator(l);
          expect(renderText(t, text, l)).toBe(blockedRefusal('EC-JET', action, aircraftBlockers(reports, 200, t), t));
        }
      }
    expect(blockedRefusalText('EC-JET', 'booked', [])).toBeNull();
  });
});
