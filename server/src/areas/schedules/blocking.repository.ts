import { melItemLabel, melItemText, type TimedMelItem } from '@ops/shared/rules/schedules/booking';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { aircraftBlockState, openMelItemsQuery } from '../aircraft-reports/aircraft-block.service.ts';

/**
 * Rule 3 input: an aircraft's open MEL/CDL items with their status at `at`,
 * derived by the fleet area's own rule (aircraftBlockState: an EXPIRED item
 * blocks dispatch), in the shape the shared booking rules take.
 */
export async function timedMelItems(
  db: Kysely<DB>,
  companyId: string,
  aircraftId: string,
  at: number,
): Promise<TimedMelItem[]> {
  const block = await aircraftBlockState(db, companyId, aircraftId, at);
  return block.items.map((i) => ({
    label: melItemLabel(i),
    labelText: melItemText(i),
    expiredAtStart: i.status === 'EXPIRED',
    expires: i.deadline.kind === 'time' ? i.deadline.expires : null,
  }));
}

/** `timedMelItems` of several aircraft; one query finds which have open items at all (most have none). */
export async function timedMelItemsOf(
  db: Kysely<DB>,
  companyId: string,
  aircraftIds: readonly string[],
  at: number,
): Promise<Map<string, TimedMelItem[]>> {
  const out = new Map<string, TimedMelItem[]>();
  if (!aircraftIds.length) return out;
  const open = await openMelItemsQuery(db, companyId)
    .where('r.aircraft_id', 'in', [...aircraftIds])
    .execute();
  for (const id of new Set(open.map((r) => r.aircraft_id))) out.set(id, await timedMelItems(db, companyId, id, at));
  return out;
}
