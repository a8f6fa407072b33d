import { type BookingDoc, bookingsCollection, DEVICE_WINDOW_MONTHS } from '@ops/shared';
import { seesAllBookings } from '@ops/shared/rules/schedules/policy';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { ServerCollection } from '../../sync/registry.ts';
import { monthsAgo, tableSource } from '../../sync/table-source.ts';
import { presentBooking } from './schedules.presenter.ts';
import './schedules.tables.ts';

const query = (db: Kysely<DB>, companyId: string) =>
  db
    .selectFrom('schedules as s')
    .select([
      's.id',
      's.change_no',
      's.deleted',
      's.aircraft_id',
      's.pilot_id',
      's.instructor_id',
      's.flight_type_id',
      's.base_id',
      's.start_at',
      's.end_at',
      's.status',
      's.flight_id',
      's.remarks',
      's.user_id',
      's.departure_airport',
      's.landing_airport',
      's.modified',
    ])
    .where('s.company_id', '=', companyId);

type Row = Awaited<ReturnType<ReturnType<typeof query>['execute']>>[number];

/** The REST `Schedule` record, stamped with its change time for the client. */
export function toBookingDoc(r: Row): BookingDoc {
  return { ...presentBooking(r), modified: Number(r.modified) };
}

/**
 * What a device loads first (docs/sync.md, "Bounded devices"): a device that
 * sees every booking (office, auditor, mechanics) the bookings starting in the
 * last 12 months and all future ones; a pilot's or student's device all their own.
 */
export const OFFICE_DEVICE_BOOKING_MONTHS = DEVICE_WINDOW_MONTHS.bookings;

const bookingsFirstPull = (viewer: { role: number }) =>
  seesAllBookings(viewer.role) ? sql<boolean>`s.start_at >= ${monthsAgo(OFFICE_DEVICE_BOOKING_MONTHS)}` : null;

/** The `bookings` collection: read-only replication of the `schedules` table (writes are `schedule.book`). */
export const bookingsServerCollection: ServerCollection<BookingDoc> = {
  def: bookingsCollection,
  sources: [
    tableSource({
      tables: ['schedules'],
      alias: 's',
      rows: bookingsCollection.rows,
      query,
      toDoc: toBookingDoc,
      firstPull: bookingsFirstPull,
    }),
  ],
  async load(db, companyId, id) {
    const r = await query(db, companyId).where('s.id', '=', id).executeTakeFirst();
    return r ? toBookingDoc(r) : null;
  },
};
