import type { CommandDoc, OutcomeDoc } from '@ops/shared';
import { translator } from '@ops/shared/i18n/index';
import { describe, expect, it } from 'vitest';
import { commandsByTarget, commandTarget, conflictsOf, describeCommand, rejections } from './decisions.ts';

const cmd = (over: Partial<CommandDoc>): CommandDoc => ({
  id: 'c1',
  name: 'flight.confirm',
  args: { flight_id: 'f1' },
  client_time: 1_700_000_000_000,
  user_id: 'u1',
  status: 'pending',
  reason: null,
  details: null,
  result: null,
  decided_at: null,
  ...over,
});

const outcome = (over: Partial<OutcomeDoc>): OutcomeDoc => ({
  id: 'o1',
  collection_name: 'aircraft_report',
  document_id: 'r1',
  status: 'rejected',
  reason: 'External auditors have read-only access',
  attempted: { title: 'Oil leak' },
  user_id: 'u1',
  created: 1_700_000_100,
  ...over,
});

describe('conflictsOf', () => {
  it('reads the overlapping flights of a refused confirm', () => {
    const details = {
      code: 'FLIGHT_OVERLAP',
      conflicts: [
        {
          id: 'f9',
          callsign: 'SKY9',
          date: '2025-11-20',
          offblocks_time: 1_763_632_800,
          onblocks_time: 1_763_636_400,
          link: '/flights/view/f9.json',
        },
      ],
    };
    expect(conflictsOf(details)).toEqual([
      { id: 'f9', callsign: 'SKY9', date: '2025-11-20', offblocks: 1_763_632_800, onblocks: 1_763_636_400 },
    ]);
  });

  it('is empty for other details', () => {
    expect(conflictsOf(null)).toEqual([]);
    expect(conflictsOf({ code: 'MEL_EXPIRED' })).toEqual([]);
    expect(conflictsOf({ conflicts: 'no' })).toEqual([]);
  });
});

describe('commands in words and their records', () => {
  it('names what each command does', () => {
    expect(
      describeCommand(cmd({ name: 'mel.raise', args: { AircraftReport: { type: 'CDL', title: 'Fairing missing' } } })),
    ).toBe('Raise CDL item: Fairing missing');
    expect(describeCommand(cmd({ name: 'flight.dispatch' }))).toBe('Dispatch flight');
    expect(describeCommand(cmd({ name: 'future.thing' }))).toBe('future.thing');
  });

  it('says it in the reader’s language: commands, and what a rejected change was', () => {
    const es = translator('es');
    expect(describeCommand(cmd({ name: 'flight.dispatch' }), es)).toBe('Despachar vuelo');
    expect(describeCommand(cmd({ name: 'mel.raise', args: { AircraftReport: { type: 'MEL' } } }), es)).toBe(
      'Abrir elemento MEL: (sin título)',
    );
    const [r] = rejections([outcome({})], [], new Set(), translator('de'));
    expect(r?.what).toBe('Änderung an einem Bordbucheintrag: Oil leak');
    expect(rejections([outcome({ collection_name: 'widgets', attempted: null })], [], new Set(), es)[0]?.what).toBe(
      'Cambio en widgets',
    );
  });

  it('finds the record a command acts on', () => {
    expect(commandTarget(cmd({}))).toEqual({ collection: 'flights', id: 'f1' });
    expect(commandTarget(cmd({ name: 'mel.close', args: { report_id: 'r1' } }))).toEqual({
      collection: 'aircraft_report',
      id: 'r1',
    });
    expect(commandTarget(cmd({ name: 'mel.raise', args: { id: 'r2' } }))).toEqual({
      collection: 'aircraft_report',
      id: 'r2',
    });
    expect(commandTarget(cmd({ name: 'base.set_default', args: { base_id: 'b' } }))).toBeNull();
  });

  it('groups commands by record, newest first', () => {
    const older = cmd({ id: 'a', client_time: 1 });
    const newer = cmd({ id: 'b', client_time: 2, name: 'flight.dispatch' });
    expect(
      commandsByTarget([older, newer])
        .get('flights:f1')
        ?.map((c) => c.id),
    ).toEqual(['b', 'a']);
  });
});

describe('rejections', () => {
  it('lists rejected pushes and rejected commands, newest first, without dismissed ones', () => {
    const rejected = cmd({
      id: 'c2',
      status: 'rejected',
      reason: 'This flight overlaps 1 confirmed flight of the same aircraft',
      decided_at: 1_700_000_200,
      details: { conflicts: [{ id: 'f9', date: '2025-11-20' }] },
    });
    const accepted = cmd({ id: 'c3', status: 'accepted', decided_at: 1_700_000_300 });
    const list = rejections(
      [
        outcome({}),
        outcome({
          id: 'o2',
          status: 'conflict',
          reason: 'Someone else changed this record first',
          created: 1_700_000_050,
        }),
      ],
      [rejected, accepted],
    );
    expect(list.map((r) => r.id)).toEqual(['c2', 'o1', 'o2']);
    expect(list[0]).toMatchObject({
      kind: 'command',
      what: 'Confirm flight',
      target: { collection: 'flights', id: 'f1' },
    });
    expect(list[0].conflicts).toHaveLength(1);
    expect(list[1]).toMatchObject({
      kind: 'outcome',
      what: 'Change to technical log entry: Oil leak',
      conflict: false,
    });
    expect(list[2].conflict).toBe(true);
    expect(rejections([outcome({})], [rejected], new Set(['o1', 'c2']))).toEqual([]);
  });
});
