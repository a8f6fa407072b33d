import type { DutyFlight, DutyLimits, Span } from '@ops/shared/rules/duty/duty';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

/**
 * Company-scoped SQL of the duty area. Every query is bounded by the person
 * (or the listed people) and a time window on an index that leads with
 * `company_id`; nothing loads a whole table.
 */

/** Entries and bookings longer than this are not looked for before a window (bounds the index range). */
const LONGEST_ENTRY_SECONDS = 8 * 86_400;
/** A flight's duty starts at most this long before the window it touches (24 h block plus margins). */
const LONGEST_FLIGHT_SECONDS = 25 * 3600;

const SEATS = ['pic_id', 'sic_id', 'supervisor_id'] as const;

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

/**
 * Flights in `statuses` on which any of `userIds` sits (PIC, SIC or
 * supervisor) with off-blocks in [start - 25 h, end): one indexed range per
 * seat (company_id, seat, starts), so each person costs three range scans.
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
  const out: PersonFlight[] = [];
  const seen = new Set<string>();
  for (const seat of SEATS) {
    let q = db
      .selectFrom('flights as f')
      .leftJoin('aircraft as a', (j) => j.onRef('a.id', '=', 'f.aircraft_id').on('a.company_id', '=', companyId))
      .select(['f.id', `f.${seat} as user_id`, 'f.status', 'f.offblocks', 'f.onblocks', 'f.flight_time', 'a.simulator'])
      .where('f.company_id', '=', companyId)
      .where(`f.${seat}`, 'in', [...userIds])
      .where('f.starts', '>=', start - LONGEST_FLIGHT_SECONDS)
      .where('f.starts', '<', end)
      .where('f.status', 'in', [...statuses])
      .where('f.deleted', '=', 0)
      .where('f.offblocks', 'is not', null)
      .where('f.onblocks', 'is not', null);
    if (exceptFlightId) q = q.where('f.id', '!=', exceptFlightId);
    for (const r of await q.execute()) {
      const key = `${r.id}:${r.user_id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({
        id: r.id,
        user_id: r.user_id as string,
        status: r.status,
        offblocks: Number(r.offblocks),
        onblocks: Number(r.onblocks),
        flight_time: Number(r.flight_time),
        simulator: Number(r.simulator ?? 0) === 1,
      });
    }
  }
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
  const rows = await db
    .selectFrom('base_schedules')
    .select(['user_id', 'start_at', 'end_at'])
    .where('company_id', '=', companyId)
    .where('user_id', 'in', [...userIds])
    .where('start_at', '>=', start - LONGEST_ENTRY_SECONDS)
    .where('start_at', '<', end)
    .where('end_at', '>', start)
    .where('type', '=', 'DUTY')
    .where('always', '=', 0)
    .where('deleted', '=', 0)
    .execute();
  return rows.map((r) => ({ user_id: r.user_id, start: Number(r.start_at), end: Number(r.end_at) }));
}

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
  const out: PersonSpan[] = [];
  for (const seat of ['pilot_id', 'instructor_id'] as const) {
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
    for (const r of await q.execute()) {
      if (r.flight_status && ['LANDED', 'CANCELED', 'DELETED', 'DISPATCHED'].includes(r.flight_status)) continue;
      out.push({ user_id: r.user_id as string, start: Number(r.start_at), end: Number(r.end_at) });
    }
  }
  return out;
}

/** Flight seconds (simulators left out) of each person's LANDED flights with off-blocks in [start, end). */
export async function flightSecondsBy(
  db: Kysely<DB>,
  companyId: string,
  userIds: readonly string[],
  start: number,
  end: number,
): Promise<Map<string, number>> {
  const totals = new Map<string, number>();
  if (!userIds.length) return totals;
  for (const seat of SEATS) {
    const rows = await db
      .selectFrom('flights as f')
      .leftJoin('aircraft as a', (j) => j.onRef('a.id', '=', 'f.aircraft_id').on('a.company_id', '=', companyId))
      .select([`f.${seat} as user_id`, (eb) => eb.fn.sum<number | string>('f.flight_time').as('seconds')])
      .where('f.company_id', '=', companyId)
      .where(`f.${seat}`, 'in', [...userIds])
      .where('f.starts', '>=', start)
      .where('f.starts', '<', end)
      .where('f.status', '=', 'LANDED')
      .where('f.deleted', '=', 0)
      .where('f.offblocks', 'is not', null)
      .where((eb) => eb.or([eb('a.simulator', 'is', null), eb('a.simulator', '=', 0)]))
      .groupBy(`f.${seat}`)
      .execute();
    for (const r of rows)
      totals.set(r.user_id as string, (totals.get(r.user_id as string) ?? 0) + Number(r.seconds ?? 0));
  }
  return totals;
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
