import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { Actor } from '../../http/actor.ts';
import { HttpError } from '../../http/errors.ts';
import { said } from '../../http/messages.ts';
import { DEFAULT_OVERLAP_LIMIT, findOverlaps, MAX_BLOCK_SECONDS } from '@ops/shared/rules/flights/flight-times';

/** Part B 8: at most 20 conflicts are returned. */
export const MAX_CONFLICTS = DEFAULT_OVERLAP_LIMIT;
/** Guard on a pathological data set; the total in the message is then a lower bound. */
const MAX_CANDIDATES = 1000;

export interface OverlapConflict {
  id: string;
  callsign: string | null;
  date: string;
  offblocks_time: number;
  onblocks_time: number;
  link: string | null;
}

/**
 * LANDED flights of an aircraft overlapping [off, on). Deliberately not
 * company-scoped (hence `unsafe`): an aircraft flown by several companies
 * conflicts across them, and Part B 4.6 item 4 lists those conflicts without a
 * link. Aircraft ids are global UUIDs, so no other aircraft can match.
 */
async function unsafeLandedOverlaps(db: Kysely<DB>, aircraftId: string, excludeId: string, off: number, on: number) {
  return db
    .selectFrom('flights')
    .select(['id', 'company_id', 'callsign', 'date', 'offblocks', 'onblocks'])
    .where('aircraft_id', '=', aircraftId)
    .where('status', '=', 'LANDED')
    .where('deleted', '=', 0)
    .where('id', '!=', excludeId)
    .where('offblocks', '<', on)
    .where('offblocks', '>', off - MAX_BLOCK_SECONDS)
    .where('onblocks', '>', off)
    .orderBy('offblocks')
    .orderBy('id')
    .limit(MAX_CANDIDATES)
    .execute();
}

/** 400 with `code`, `message`, `url` and the conflicts when a LANDED flight would overlap another of its aircraft. */
export async function assertNoOverlap(
  db: Kysely<DB>,
  actor: Actor,
  f: { id: string; aircraft_id: string | null; offblocks: number | null; onblocks: number | null; date: string },
): Promise<void> {
  if (!f.aircraft_id || f.offblocks === null || f.onblocks === null) return;
  const candidates = await unsafeLandedOverlaps(db, f.aircraft_id, f.id, f.offblocks, f.onblocks);
  // The shared rule decides what overlaps, the order and the cap, as offline clients do.
  const { overlaps: rows, total } = findOverlaps(
    { id: f.id, aircraft_id: f.aircraft_id, offblocks: f.offblocks, onblocks: f.onblocks },
    candidates.map((r) => ({
      ...r,
      aircraft_id: f.aircraft_id as string,
      offblocks: Number(r.offblocks),
      onblocks: Number(r.onblocks),
    })),
    MAX_CONFLICTS,
  );
  if (!rows.length) return;
  const conflicts: OverlapConflict[] = rows.map((r) => ({
    id: r.id,
    callsign: r.callsign,
    date: r.date,
    offblocks_time: r.offblocks,
    onblocks_time: r.onblocks,
    link: r.company_id === actor.companyId ? `/flights/view/${r.id}.json` : null,
  }));
  throw new HttpError(400, {
    result: false,
    code: 'FLIGHT_OVERLAP',
    ...(total > rows.length
      ? said('errors.flightOverlapsListed', { total, shown: rows.length })
      : said('errors.flightOverlaps', { total })),
    url: `/flights/load/aircraft:${f.aircraft_id}/from:${f.date}/to:${f.date}.json`,
    conflicts,
  });
}
