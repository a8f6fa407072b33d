import { sql } from 'kysely';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import { nowSeconds } from '../../lib/tokens.ts';

export interface BookEntry {
  aircraft_id: string | null;
  flight_time: number;
  landings: number;
}

/**
 * Aircraft books of a LANDED flight: hours += flight_time / 3600 (air time,
 * take-off to landing, what the airframe hour meter of the maintenance
 * programme counts), landings += landings, flights += 1. `sign` -1 reverses.
 * Hours are kept as a whole number of seconds over 3600 (rounded in SQL), so
 * adding and then removing a flight restores the value bit for bit.
 */
export async function moveBooks(uow: UnitOfWork, companyId: string, entry: BookEntry, sign: 1 | -1): Promise<void> {
  if (!entry.aircraft_id) return;
  const seconds = sign * Math.max(0, Math.trunc(entry.flight_time));
  const landings = sign * Math.max(0, Math.trunc(entry.landings));
  await uow.trx
    .updateTable('aircraft')
    .set({
      hours: sql<number>`round(hours * 3600 + ${seconds}) / 3600.0`,
      landings: sql<number>`landings + ${landings}`,
      flights: sql<number>`flights + ${sign}`,
      modified: nowSeconds(),
      change_no: await uow.changeNo(companyId, 'aircraft'),
    })
    .where('company_id', '=', companyId)
    .where('id', '=', entry.aircraft_id)
    .execute();
}

/** Moves the books from what a LANDED flight was to what it is now (either may be unlanded: null). */
export async function rebook(
  uow: UnitOfWork,
  companyId: string,
  before: BookEntry | null,
  after: BookEntry | null,
): Promise<void> {
  const same =
    before &&
    after &&
    before.aircraft_id === after.aircraft_id &&
    before.flight_time === after.flight_time &&
    before.landings === after.landings;
  if (same) return;
  if (before) await moveBooks(uow, companyId, before, -1);
  if (after) await moveBooks(uow, companyId, after, 1);
}
