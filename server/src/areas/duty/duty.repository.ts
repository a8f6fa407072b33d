import type { DutyFlight, DutyLimits, Span } from '@ops/shared/rules/duty/duty';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import './duty.tables.ts';

/**
 * Company-scoped SQL of the duty area. Every query is bounded by the person
 * (or the listed people) and a time window on an index that leads with
 * `company_id`; nothing loads a whole table.
 */

/** Entries and bookings longer than this are not looked for before a window (bounds the index range). */
const LONGEST_ENTRY_SECONDS = 8 * 86_400;
/** A flight's duty starts at most this long before the window it touches (24 h block plus margins). */
const LONGEST_FLIGHT_SECONDS = 25 * 3600;

export async function companyLimits(db: Kysely<DB>, companyId: string): Promise<DutyLimits & { timezone: string }> {
  const c = await db
    .selectFrom('companies')
    .select(['max_duty_hours', 'max_flight_hours_year', 'timezone'])
    .where('id', '=', companyId)
    .executeTakeFirstOrThrow();
  return {
    max_duty_hours: c.max_duty_hours === null ? null : Number(c.max_duty_hours),
    max_flight_hours_year: c.max_flight_hours_year === null ? null : Number(c.max_flight_hours_year),
    timezone: c.timezone,
  };
}

export async function findUser(db: Kysely<DB>, companyId: string, userId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'name', 'surname'])
    .where('company_id', '=', companyId)
    .where('id', '=', userId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
}

export interface PersonFlight extends DutyFlight {
  id: string;
  user_id: string;
  status: string;
}

/** More people than this read the company's whole range instead of a list of index ranges (the board). */
const MANY = 40;

/**
 * Flights in `statuses` (LANDED and/or DISPATCHED) on which any of `userIds`
 * sits (PIC, SIC or supervisor) with off-blocks in [start - 25 h, end).
 * LANDED flights come from `duty_flights` (one row per flight and person, one
 * index range per person, or the company's range for the board);
 * DISPATCHED ones, always few, from the flights' (company, status, starts) index.
 */
export async function crewFlights(
  db: Kysely<DB>,
  companyId: string,
  userIds: readonly string[],
  start: number,
  end: number,
  statuses: readonly string[],
  exceptFlightId?: string,
): Promise<PersonFlight[]> {
  if (!userIds.length) return [];
  const others = statuses.filter((x) => x !== 'LANDED');
  return crewFlightsOf(userIds, {
    landed: statuses.includes('LANDED')
      ? await landedCrewQuery(db, companyId, userIds, start, end, exceptFlightId).execute()
      : [],
    others: others.length ? await otherCrewQuery(db, companyId, others, start, end, exceptFlightId).execute() : [],
  });
}

/** LANDED flights of `crewFlights` (one `duty_flights` row per flight and person); readiness folds it into its statement. */
export function landedCrewQuery(
  db: Kysely<DB>,
  companyId: string,
  userIds: readonly string[],
  start: number,
  end: number,
  exceptFlightId?: string,
) {
  let q = db
    .selectFrom('duty_flights')
    .select(['flight_id', 'user_id', 'offblocks', 'onblocks', 'flight_time', 'simulator'])
    .where('company_id', '=', companyId)
    .where('offblocks', '>=', start - LONGEST_FLIGHT_SECONDS)
    .where('offblocks', '<', end);
  if (userIds.length <= MANY) q = q.where('user_id', 'in', [...userIds]);
  if (exceptFlightId) q = q.where('flight_id', '!=', exceptFlightId);
  return q;
}

/** Flights of `crewFlights` in other statuses (DISPATCHED), from the flights' (company, status, starts) index. */
export function otherCrewQuery(
  db: Kysely<DB>,
  companyId: string,
  statuses: readonly string[],
  start: number,
  end: number,
  exceptFlightId?: string,
) {
  let q = db
    .selectFrom('flights as f')
    .leftJoin('aircraft as a', (j) => j.onRef('a.id', '=', 'f.aircraft_id').on('a.company_id', '=', companyId))
    .select([
      'f.id',
      'f.status',
      'f.pic_id',
      'f.sic_id',
      'f.supervisor_id',
      'f.offblocks',
      'f.onblocks',
      'f.flight_time',
      'a.simulator',
    ])
    .where('f.company_id', '=', companyId)
    .where('f.status', 'in', [...statuses])
    .where('f.starts', '>=', start - LONGEST_FLIGHT_SECONDS)
    .where('f.starts', '<', end)
    .where('f.deleted', '=', 0)
    .where('f.offblocks', 'is not', null)
    .where('f.onblocks', 'is not', null);
  if (exceptFlightId) q = q.where('f.id', '!=', exceptFlightId);
  return q;
}

type Row<Q extends { execute(): Promise<unknown[]> }> = Awaited<ReturnType<Q['execute']>>[number];
export type LandedCrewRow = Row<ReturnType<typeof landedCrewQuery>>;
export type OtherCrewRow = Row<ReturnType<typeof otherCrewQuery>>;

/** The rows of both crew-flight reads as one person's flights each (numbers may come as text or JSON numbers). */
export function crewFlightsOf(
  userIds: readonly string[],
  rows: { landed: readonly LandedCrewRow[]; others: readonly OtherCrewRow[] },
): PersonFlight[] {
  const wanted = new Set(userIds);
  const out: PersonFlight[] = [];
  for (const r of rows.landed)
    if (wanted.has(r.user_id))
      out.push({
        id: r.flight_id,
        user_id: r.user_id,
        status: 'LANDED',
        offblocks: Number(r.offblocks),
        onblocks: Number(r.onblocks),
        flight_time: Number(r.flight_time),
        simulator: Number(r.simulator) === 1,
      });
  for (const r of rows.others)
    for (const userId of new Set([r.pic_id, r.sic_id, r.supervisor_id]))
      if (userId && wanted.has(userId))
        out.push({
          id: r.id,
          user_id: userId,
          status: r.status,
          offblocks: Number(r.offblocks),
          onblocks: Number(r.onblocks),
          flight_time: Number(r.flight_time),
          simulator: Number(r.simulator ?? 0) === 1,
        });
  return out;
}

export interface PersonSpan extends Span {
  user_id: string;
}

/** DUTY base schedule entries of `userIds` overlapping [start, end). */
export async function dutyEntries(
  db: Kysely<DB>,
  companyId: string,
  userIds: readonly string[],
  start: number,
  end: number,
): Promise<PersonSpan[]> {
  if (!userIds.length) return [];
  return entrySpansOf(await dutyEntriesQuery(db, companyId, userIds, start, end).execute());
}

/** The statement of `dutyEntries` (readiness folds it into its own). */
export function dutyEntriesQuery(
  db: Kysely<DB>,
  companyId: string,
  userIds: readonly string[],
  start: number,
  end: number,
) {
  return db
    .selectFrom('base_schedules')
    .select(['user_id', 'start_at', 'end_at'])
    .where('company_id', '=', companyId)
    .where('user_id', 'in', [...userIds])
    .where('start_at', '>=', start - LONGEST_ENTRY_SECONDS)
    .where('start_at', '<', end)
    .where('end_at', '>', start)
    .where('type', '=', 'DUTY')
    .where('always', '=', 0)
    .where('deleted', '=', 0);
}

export const entrySpansOf = (rows: readonly Row<ReturnType<typeof dutyEntriesQuery>>[]): PersonSpan[] =>
  rows.map((r) => ({ user_id: r.user_id, start: Number(r.start_at), end: Number(r.end_at) }));

/**
 * Live bookings of `userIds` (pilot or instructor) overlapping [start, end)
 * whose flight has not flown or been cancelled: their planned span (the
 * flown flight counts instead once it is LANDED).
 */
export async function plannedBookings(
  db: Kysely<DB>,
  companyId: string,
  userIds: readonly string[],
  start: number,
  end: number,
  except: { bookingId?: string; flightId?: string } = {},
): Promise<PersonSpan[]> {
  if (!userIds.length) return [];
  const rows: BookingSeatRow[] = [];
  for (const seat of BOOKING_SEATS)
    rows.push(...(await bookingSeatQuery(db, companyId, seat, userIds, start, end, except).execute()));
  return bookingSpansOf(rows);
}

/** The seats a booking names a person in; `plannedBookings` reads each with its own index. */
export const BOOKING_SEATS = ['pilot_id', 'instructor_id'] as const;

/** One seat's statement of `plannedBookings` (readiness folds both into its own). */
export function bookingSeatQuery(
  db: Kysely<DB>,
  companyId: string,
  seat: (typeof BOOKING_SEATS)[number],
  userIds: readonly string[],
  start: number,
  end: number,
  except: { bookingId?: string; flightId?: string } = {},
) {
  let q = db
    .selectFrom('schedules as s')
    .leftJoin('flights as f', (j) => j.onRef('f.id', '=', 's.flight_id').on('f.company_id', '=', companyId))
    .select(['s.id', `s.${seat} as user_id`, 's.start_at', 's.end_at', 'f.status as flight_status'])
    .where('s.company_id', '=', companyId)
    .where(`s.${seat}`, 'in', [...userIds])
    .where('s.start_at', '>=', start - LONGEST_ENTRY_SECONDS)
    .where('s.start_at', '<', end)
    .where('s.end_at', '>', start)
    .where('s.status', '=', 'BOOKED')
    .where('s.deleted', '=', 0);
  if (except.bookingId) q = q.where('s.id', '!=', except.bookingId);
  if (except.flightId)
    q = q.where((eb) => eb.or([eb('s.flight_id', 'is', null), eb('s.flight_id', '!=', except.flightId as string)]));
  return q;
}
export type BookingSeatRow = Row<ReturnType<typeof bookingSeatQuery>>;

/** Booked spans of the seat rows, leaving out bookings whose flight has flown or ended (the flight counts instead). */
export function bookingSpansOf(rows: readonly BookingSeatRow[]): PersonSpan[] {
  const out: PersonSpan[] = [];
  for (const r of rows) {
    if (r.flight_status && ['LANDED', 'CANCELED', 'DELETED', 'DISPATCHED'].includes(r.flight_status)) continue;
    out.push({ user_id: r.user_id as string, start: Number(r.start_at), end: Number(r.end_at) });
  }
  return out;
}

/** The UTC month boundary nearest to `at` (unix seconds). */
function nearestMonth(at: number): number {
  const d = new Date(at * 1000);
  const first = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000;
  const next = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 1000;
  return at - first <= next - at ? first : next;
}

/**
 * Flight seconds (simulators left out) of each person's LANDED flights with
 * off-blocks in [start, end), from the running totals: the whole UTC months
 * between the month boundaries nearest to `start` and `end` (about 12 rows a
 * person for a year), corrected at each end by the flights between the
 * boundary and the instant (at most half a month; a few hours for a year in
 * any zone). One statement.
 */
export async function flightSecondsBy(
  db: Kysely<DB>,
  companyId: string,
  userIds: readonly string[],
  start: number,
  end: number,
): Promise<Map<string, number>> {
  if (!userIds.length || start >= end) return new Map();
  return secondsByPerson(userIds, await flightSecondsQuery(db, companyId, userIds, start, end).execute());
}

/** The one statement of `flightSecondsBy` (readiness folds it into its own); `start < end`. */
export function flightSecondsQuery(
  db: Kysely<DB>,
  companyId: string,
  userIds: readonly string[],
  start: number,
  end: number,
) {
  const few = userIds.length <= MANY;
  const flown = (from: number, to: number, sign: number) => {
    let q = db
      .selectFrom('duty_flights')
      .select(['user_id', (eb) => eb(eb.fn.sum<number | string>('flight_time'), '*', sign).as('seconds')])
      .where('company_id', '=', companyId)
      .where('offblocks', '>=', from)
      .where('offblocks', '<', to)
      .where('simulator', '=', 0);
    if (few) q = q.where('user_id', 'in', [...userIds]);
    return q.groupBy('user_id');
  };
  const from = nearestMonth(start);
  const to = nearestMonth(end);
  const months = db
    .selectFrom('duty_months')
    .select(['user_id', (eb) => eb.fn.sum<number | string>('flight_seconds').as('seconds')])
    .where('company_id', '=', companyId)
    .where('month', '>=', from)
    .where('month', '<', to);
  return from >= to
    ? flown(start, end, 1)
    : (few ? months.where('user_id', 'in', [...userIds]) : months)
        .groupBy('user_id')
        // Boundary before `start`: its flights up to `start` are in the months, not the range; after it, the other way round. Same at `end`.
        .unionAll(from <= start ? flown(from, start, -1) : flown(start, from, 1))
        .unionAll(to <= end ? flown(to, end, 1) : flown(end, to, -1));
}

/** The partial sums of `flightSecondsQuery` added up per wanted person. */
export function secondsByPerson(
  userIds: readonly string[],
  rows: readonly { user_id: string; seconds: number | string | null }[],
): Map<string, number> {
  const totals = new Map<string, number>();
  const wanted = new Set(userIds);
  for (const r of rows)
    if (wanted.has(r.user_id)) totals.set(r.user_id, (totals.get(r.user_id) ?? 0) + Number(r.seconds ?? 0));
  return totals;
}

const monthOf = (at: number): number => {
  const d = new Date(at * 1000);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000;
};

type DutyFlightRow = DB['duty_flights'];

/** What `duty_flights` should hold for a flight as it is now: one row per crew member of a LANDED flight with blocks. */
async function dutyRowsOf(db: Kysely<DB>, companyId: string, flightId: string): Promise<DutyFlightRow[]> {
  const f = await db
    .selectFrom('flights as f')
    .leftJoin('aircraft as a', (j) => j.onRef('a.id', '=', 'f.aircraft_id').on('a.company_id', '=', companyId))
    .select([
      'f.status',
      'f.deleted',
      'f.pic_id',
      'f.sic_id',
      'f.supervisor_id',
      'f.offblocks',
      'f.onblocks',
      'f.flight_time',
      'a.simulator',
    ])
    .where('f.company_id', '=', companyId)
    .where('f.id', '=', flightId)
    .executeTakeFirst();
  if (f?.status !== 'LANDED' || Number(f.deleted) !== 0 || f.offblocks === null || f.onblocks === null) return [];
  const people = [...new Set([f.pic_id, f.sic_id, f.supervisor_id])].filter((u): u is string => !!u);
  return people.map((user_id) => ({
    company_id: companyId,
    flight_id: flightId,
    user_id,
    offblocks: Number(f.offblocks),
    onblocks: Number(f.onblocks),
    flight_time: Number(f.flight_time),
    simulator: Number(f.simulator ?? 0) === 1 ? 1 : 0,
  }));
}

const sameRow = (a: DutyFlightRow, b: DutyFlightRow) =>
  a.user_id === b.user_id &&
  Number(a.offblocks) === Number(b.offblocks) &&
  Number(a.onblocks) === Number(b.onblocks) &&
  Number(a.flight_time) === Number(b.flight_time) &&
  Number(a.simulator) === Number(b.simulator);

async function addToMonth(db: Kysely<DB>, r: DutyFlightRow, sign: 1 | -1): Promise<void> {
  const seconds = Number(r.simulator) === 1 ? 0 : sign * Number(r.flight_time);
  await db
    .insertInto('duty_months')
    .values({
      company_id: r.company_id,
      user_id: r.user_id,
      month: monthOf(Number(r.offblocks)),
      flight_seconds: seconds,
      flights: sign,
    })
    .onConflict((oc) =>
      oc.columns(['company_id', 'user_id', 'month']).doUpdateSet((eb) => ({
        flight_seconds: eb('duty_months.flight_seconds', '+', eb.ref('excluded.flight_seconds')),
        flights: eb('duty_months.flights', '+', eb.ref('excluded.flights')),
      })),
    )
    .execute();
}

/**
 * Brings the duty running totals of a flight to what it is now, in the
 * caller's transaction (every change of a flight: confirm, edit, revert,
 * cancel, REST or a device's command). Idempotent: when the flight's
 * `duty_flights` rows already match, nothing is written; otherwise its old
 * rows leave their months and the new ones enter theirs.
 */
export async function settleDutyFlight(db: Kysely<DB>, companyId: string, flightId: string): Promise<void> {
  const [want, have] = await Promise.all([
    dutyRowsOf(db, companyId, flightId),
    db
      .selectFrom('duty_flights')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('flight_id', '=', flightId)
      .execute(),
  ]);
  if (want.length === have.length && want.every((w) => have.some((h) => sameRow(w, h)))) return;
  for (const h of have) await addToMonth(db, h, -1);
  if (have.length)
    await db.deleteFrom('duty_flights').where('company_id', '=', companyId).where('flight_id', '=', flightId).execute();
  if (want.length) await db.insertInto('duty_flights').values(want).execute();
  for (const w of want) await addToMonth(db, w, 1);
}

/**
 * The totals as a full recount from the flights would make them (for data
 * written around the flights area: benches, imports). Deletes and refills the
 * company's rows.
 */
export async function rebuildDutyTotals(db: Kysely<DB>, companyId: string): Promise<void> {
  await db.deleteFrom('duty_months').where('company_id', '=', companyId).execute();
  await db.deleteFrom('duty_flights').where('company_id', '=', companyId).execute();
  const { want } = await recountDutyTotals(db, companyId);
  for (let i = 0; i < want.flights.length; i += 500)
    await db
      .insertInto('duty_flights')
      .values(want.flights.slice(i, i + 500))
      .execute();
  for (let i = 0; i < want.months.length; i += 500)
    await db
      .insertInto('duty_months')
      .values(want.months.slice(i, i + 500))
      .execute();
}

/** What the company's totals should be, recounted from its flights (rebuild, and the recount test). */
export async function recountDutyTotals(db: Kysely<DB>, companyId: string) {
  const rows = await db
    .selectFrom('flights as f')
    .leftJoin('aircraft as a', (j) => j.onRef('a.id', '=', 'f.aircraft_id').on('a.company_id', '=', companyId))
    .select([
      'f.id',
      'f.pic_id',
      'f.sic_id',
      'f.supervisor_id',
      'f.offblocks',
      'f.onblocks',
      'f.flight_time',
      'a.simulator',
    ])
    .where('f.company_id', '=', companyId)
    .where('f.status', '=', 'LANDED')
    .where('f.deleted', '=', 0)
    .where('f.offblocks', 'is not', null)
    .where('f.onblocks', 'is not', null)
    .execute();
  const flights: DutyFlightRow[] = [];
  const months = new Map<string, DB['duty_months']>();
  for (const f of rows)
    for (const user_id of new Set([f.pic_id, f.sic_id, f.supervisor_id])) {
      if (!user_id) continue;
      const r = {
        company_id: companyId,
        flight_id: f.id,
        user_id,
        offblocks: Number(f.offblocks),
        onblocks: Number(f.onblocks),
        flight_time: Number(f.flight_time),
        simulator: Number(f.simulator ?? 0) === 1 ? 1 : 0,
      };
      flights.push(r);
      const month = monthOf(r.offblocks);
      const key = `${user_id}|${month}`;
      const m = months.get(key) ?? { company_id: companyId, user_id, month, flight_seconds: 0, flights: 0 };
      m.flight_seconds += r.simulator ? 0 : r.flight_time;
      m.flights += 1;
      months.set(key, m);
    }
  return { want: { flights, months: [...months.values()] } };
}

/** Active crew of the company (pilots, instructors, students) for the board and the alerts. */
export async function crewOf(db: Kysely<DB>, companyId: string, userIds: readonly string[] | null) {
  let q = db
    .selectFrom('users')
    .select(['id', 'name', 'surname', 'user_group_id'])
    .where('company_id', '=', companyId)
    .where('deleted', '=', 0)
    .where('active', '=', 1)
    .where('pilot', '=', 1);
  if (userIds) q = q.where('id', 'in', userIds.length ? [...userIds] : ['']);
  return q.orderBy('surname').orderBy('name').orderBy('id').execute();
}
