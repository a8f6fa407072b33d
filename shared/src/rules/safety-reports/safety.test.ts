import { describe, expect, it } from 'vitest';
import {
  assessRisk,
  deriveSeverity,
  formatIdn,
  childIdn,
  icaoRiskMatrix,
  isRiskMatrix,
  trailDiff,
  textSize,
} from './safety.ts';

describe('safety report rules', () => {
  it('derives severity', () => {
    expect(deriveSeverity('OCCURRENCE', 'hazard', 'none', 'none')).toBe('incident');
    expect(deriveSeverity('OCCURRENCE', null, 'important', null)).toBe('accident');
    expect(deriveSeverity('OCCURRENCE', null, 'minimal', 'casualties')).toBe('accident');
    expect(deriveSeverity('OCCURRENCE', null, null, 'serious')).toBe('accident');
    expect(deriveSeverity('INFORMATION', 'hazard', 'catastrophic', null)).toBe('hazard');
    expect(deriveSeverity('INFORMATION', 'accident', 'catastrophic', null)).toBe('information');
  });

  it('formats numbers', () => {
    expect(formatIdn(2026, 7)).toBe('2026/00007');
    expect(childIdn('2026/00007', 2)).toBe('2026/00007-2');
  });

  it('assesses risk on the ICAO matrix and on a company matrix', () => {
    expect(assessRisk('likely', 'catastrophic')).toEqual({ index: '5A', tolerability: 'intolerable' });
    expect(assessRisk('possible', 'critical')).toEqual({ index: '3C', tolerability: 'tolerable' });
    expect(assessRisk('remote', 'negligible')).toEqual({ index: '1E', tolerability: 'acceptable' });
    expect(assessRisk('remote', 'catastrophic')).toEqual({ index: '1A', tolerability: 'tolerable' });
    expect(assessRisk(null, 'critical')).toBeNull();
    expect(assessRisk('often', 'critical')).toBeNull();
    const own = icaoRiskMatrix();
    own.cells['3C'] = 'intolerable';
    expect(assessRisk('possible', 'critical', own)?.tolerability).toBe('intolerable');
    expect(isRiskMatrix(own)).toBe(true);
    expect(isRiskMatrix({ cells: { '5A': 'intolerable' } })).toBe(false);
    expect(Object.keys(icaoRiskMatrix().cells)).toHaveLength(25);
  });

  it('diffs tracked fields: narratives by size, markup alone is nothing, sets as sorted ids', () => {
    expect(textSize('<p>Hello&nbsp;<b>world</b></p>')).toBe(11);
    const before = { name: 'A', events: '<p>Engine rough</p>', aircraft: ['2', '1'], modified: 1 };
    expect(trailDiff(before, { name: 'A', events: 'Engine <i>rough</i>', aircraft: ['1', '2'], modified: 2 })).toEqual(
      [],
    );
    const d = trailDiff(before, { name: 'B', events: 'Engine rough, then smooth', aircraft: ['3'] }, (f, v) =>
      f === 'name' ? `label ${v}` : null,
    );
    expect(d).toEqual([
      { field: 'name', label: 'Name', from: 'A', to: 'B', from_label: 'label A', to_label: 'label B' },
      { field: 'events', label: 'Events', kind: 'text', from: 12, to: 25 },
      { field: 'aircraft', label: 'Aircraft', kind: 'set', from: ['1', '2'], to: ['3'] },
    ]);
    expect(trailDiff(null, { name: 'N', events: 'abc' }).map((e) => [e.field, e.from, e.to])).toEqual([
      ['name', null, 'N'],
      ['events', null, 3],
    ]);
  });
});

describe('event date', () => {
  const now = Date.UTC(2026, 10, 26, 12, 0, 0);
  it('refuses a date in the future, beyond the clock slack', async () => {
    const { eventDateProblem, EVENT_IN_FUTURE } = await import('./safety.ts');
    expect(eventDateProblem('2090-06-01', now)).toBe(EVENT_IN_FUTURE);
    expect(eventDateProblem('2026-11-26 13:00:00', now)).toBe(EVENT_IN_FUTURE);
    expect(eventDateProblem('2026-11-26T12:10', now)).toBeNull();
    expect(eventDateProblem('2026-11-26T13:30+02:00', now)).toBeNull();
    expect(eventDateProblem('2026-05-04 09:30:00', now)).toBeNull();
    expect(eventDateProblem('not a date', now)).toBeNull();
  });
});
