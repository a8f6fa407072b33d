/**
 * Booking sanity on the server (issue 28 item 4): reads what the shared checks
 * of `rules/schedules/sanity.ts` need (the pilot's flags, the saved operating
 * hours) and asks them. Used by `decideBooking`, so REST and the offline
 * `schedule.book` command give the same answer as the device.
 */
import { hoursRefusal, pilotRefusal, type SanityRefusal, timeRefusal } from '@ops/shared/rules/schedules/sanity';
import { DateTime } from 'luxon';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { Actor } from '../../http/actor.ts';
import { rowsForResolution } from '../company/operating-hours.repository.ts';

/** The pilot's seat: an active user with `pilot` on. Unknown users are left to the reference check (400). */
export async function pilotSeatRefusal(db: Kysely<DB>, actor: Actor, pilotId: string): Promise<SanityRefusal | null> {
  const u = await db
    .selectFrom('users')
    .select(['name', 'surname', 'pilot', 'active'])
    .where('company_id', '=', actor.companyId)
    .where('id', '=', pilotId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!u) return null;
  return pilotRefusal({ name: `${u.name} ${u.surname}`, pilot: !!u.pilot, active: !!u.active });
}

/** Not in the past (unless a booking under way keeps its start), not beyond the horizon. */
export function startRefusal(
  actor: Actor,
  span: { start: number; end: number },
  now: number,
  keptStart: number | null,
  horizonDays: number | null,
): SanityRefusal | null {
  return timeRefusal({ span, now, zone: actor.company.timezone, keptStart, horizonDays });
}

/** The whole span inside the saved operating hours of the booking's base (company zone). */
export async function operatingHoursRefusal(
  db: Kysely<DB>,
  actor: Actor,
  baseId: string | null,
  span: { start: number; end: number },
): Promise<SanityRefusal | null> {
  const zone = actor.company.timezone;
  const from = DateTime.fromSeconds(span.start, { zone }).toISODate() as string;
  const to = DateTime.fromSeconds(span.end, { zone }).toISODate() as string;
  const rows = await rowsForResolution(db, actor.companyId, baseId, from, to);
  return hoursRefusal({ rows, baseId, span, zone });
}
