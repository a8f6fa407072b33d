import {
  BOOKING_SCOPE_FIELDS,
  type BookingDoc,
  bookingsCollection,
  DEVICE_WINDOW_MONTHS,
  type Viewer,
} from '@ops/shared';
import { seesAllBookings } from '@ops/shared/rules/schedules/policy';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { ServerCollection } from '../../sync/registry.ts';
import { monthsAgo, tableSource } from '../../sync/table-source.ts';
import { type NamingRows, namingSource } from '../../db/naming-rows.ts';
import { presentBooking } from './schedules.presenter.ts';
import './schedules.tables.ts';

const columns = (db: Kysely<DB>) =>
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
    ]);

const query = (db: Kysely<DB>, companyId: string) => columns(db).where('s.company_id', '=', companyId);

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

/**
 * The shared booking rule (`bookingVisible`) said in SQL, for the `schedules`
 * table as `s`: null when the viewer sees every booking, else "the viewer
 * flies, teaches or made it", one column of BOOKING_SCOPE_FIELDS each. A null
 * column never equals the viewer, as in the rule.
 * test/integration/schedules/booking-visibility.test.ts compares it with the
 * rule over a mixed set of bookings and every role, on both databases.
 */
export function bookingVisibleSql(viewer: Pick<Viewer, 'userId' | 'role'>): RawBuilder<boolean> | null {
  if (seesAllBookings(viewer.role)) return null;
  return sql<boolean>`(${sql.join(
    BOOKING_SCOPE_FIELDS.map((f) => sql`${sql.ref(`s.${f}`)} = ${viewer.userId}`),
    sql` or `,
  )})`;
}

/** The columns of the booking rule a pilot's, student's or instructor's bookings are read by. */
export const bookingNaming: NamingRows = { table: 'schedules', alias: 's', columns: BOOKING_SCOPE_FIELDS };

/**
 * Bookings of the company. A pilot's, student's or instructor's load from
 * nothing (and its count) reads their bookings per column of the rule
 * (`namingSource`, one index range of migration 0147 each), instead of reading
 * the company's 50,000 bookings and applying the rule in JS; office loads and
 * every later pull are the table source's, which checks each row with the rule.
 */
const bookingsSource = namingSource(
  tableSource({
    tables: ['schedules'],
    alias: 's',
    rows: bookingsCollection.rows,
    query,
    toDoc: toBookingDoc,
    firstPull: bookingsFirstPull,
  }),
  {
    ...bookingNaming,
    naming: (viewer) => !seesAllBookings(viewer.role),
    bound: (viewer) => bookingsFirstPull(viewer),
    load: (db, ids) => columns(db).where('s.id', 'in', ids).execute(),
    toDoc: toBookingDoc,
  },
);

/** The `bookings` collection: read-only replication of the `schedules` table (writes are `schedule.book`). */
export const bookingsServerCollection: ServerCollection<BookingDoc> = {
  def: bookingsCollection,
  sources: [bookingsSource],
  async load(db, companyId, id) {
    const r = await query(db, companyId).where('s.id', '=', id).executeTakeFirst();
    return r ? toBookingDoc(r) : null;
  },
};
