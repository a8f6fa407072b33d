import { resolveRange } from '@ops/shared/rules/company/operating-hours';
import { type BookingSpan, blockedFrom, freeWindows, MAX_BOOKING_SECONDS } from '@ops/shared/rules/schedules/booking';
import { LISTED_INSTRUCTOR_ROLES, seesAllBookings } from '@ops/shared/rules/schedules/policy';
import type { Kysely } from 'kysely';
import { DateTime } from 'luxon';
import type { DB } from '../../db/schema.ts';
import type { Actor } from '../../http/actor.ts';
import { notFound, validationFailed } from '../../http/errors.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { rowsForResolution } from '../company/operating-hours.repository.ts';
import { timedMelItemsOf } from './blocking.repository.ts';
import type { TScheduleIndex } from './schedules.schema.ts';
import { presentBooking } from './schedules.presenter.ts';

/** The longest range one index request may cover (a two-month board). */
export const MAX_INDEX_DAYS = 62;

/** `from`/`to` as unix seconds: a date is its start of day (a `to` date: the end of it) in the company zone. */
export function rangeOf(q: Pick<TScheduleIndex, 'from' | 'to'>, zone: string): { from: number; to: number } {
  const at = (v: string | number, end: boolean) => {
    if (typeof v === 'number') return v;
    const d = DateTime.fromISO(v, { zone }).startOf('day');
    return Math.floor((end ? d.plus({ days: 1 }) : d).toSeconds());
  };
  return { from: at(q.from, false), to: at(q.to, true) };
}

/**
 * GET /schedules/index.json (CONTRACT 5): live bookings overlapping [from, to),
 * ordered by start, with their aircraft, pilot, instructor and flight type in
 * one joined query. Pilots, students and instructors get the bookings they
 * fly, teach or made; the office and managers every booking.
 */
export async function listBookings(db: Kysely<DB>, actor: Actor, q: TScheduleIndex) {
  const { from, to } = rangeOf(q, actor.company.timezone);
  if (!(to > from)) throw validationFailed({ to: ['Must be after from'] });
  if (to - from > MAX_INDEX_DAYS * 86_400)
    throw validationFailed({ to: [`A request covers at most ${MAX_INDEX_DAYS} days`] });
  const c = actor.companyId;
  let sel = db
    .selectFrom('schedules as s')
    .select([
      's.id',
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
    ])
    .where('s.company_id', '=', c)
    .where('s.start_at', '<', to)
    .where('s.start_at', '>', from - MAX_BOOKING_SECONDS)
    .where('s.end_at', '>', from)
    .where('s.status', '=', 'BOOKED')
    .where('s.deleted', '=', 0);
  if (q.aircraft_id) sel = sel.where('s.aircraft_id', '=', q.aircraft_id);
  if (q.base_id) sel = sel.where('s.base_id', '=', q.base_id);
  const uid = q.user_id;
  if (uid) sel = sel.where((eb) => eb.or([eb('s.pilot_id', '=', uid), eb('s.instructor_id', '=', uid)]));
  if (!seesAllBookings(actor.role)) {
    const me = actor.userId;
    sel = sel.where((eb) =>
      eb.or([eb('s.pilot_id', '=', me), eb('s.instructor_id', '=', me), eb('s.user_id', '=', me)]),
    );
  }
  const rows = await sel.orderBy('s.start_at').orderBy('s.id').execute();
  // The few aircraft, people and flight types of the page, read once each instead of joined per row.
  const distinct = (xs: Array<string | null>) => [...new Set(xs.filter((x): x is string => !!x))];
  const aircraftIds = distinct(rows.map((r) => r.aircraft_id));
  const userIds = distinct(rows.flatMap((r) => [r.pilot_id, r.instructor_id]));
  const typeIds = distinct(rows.map((r) => r.flight_type_id));
  const [aircraft, users, types] = await Promise.all([
    aircraftIds.length
      ? db
          .selectFrom('aircraft')
          .select(['id', 'registration'])
          .where('company_id', '=', c)
          .where('id', 'in', aircraftIds)
          .execute()
      : [],
    userIds.length
      ? inChunks(userIds, (ids) =>
          db
            .selectFrom('users')
            .select(['id', 'name', 'surname'])
            .where('company_id', '=', c)
            .where('id', 'in', ids)
            .execute(),
        )
      : [],
    typeIds.length
      ? db
          .selectFrom('flight_types')
          .select(['id', 'name', 'color'])
          .where('company_id', '=', c)
          .where('id', 'in', typeIds)
          .execute()
      : [],
  ]);
  const aircraftById = new Map(aircraft.map((a) => [a.id, { id: a.id, registration: a.registration }]));
  const userById = new Map(users.map((u) => [u.id, { id: u.id, name: u.name, surname: u.surname }]));
  const typeById = new Map(types.map((t) => [t.id, { id: t.id, name: t.name, color: t.color }]));
  return {
    schedules: rows.map((r) => ({
      Schedule: presentBooking(r),
      Aircraft: aircraftById.get(r.aircraft_id) ?? { id: r.aircraft_id, registration: null },
      Pilot: userById.get(r.pilot_id) ?? { id: r.pilot_id, name: null, surname: null },
      Instructor: r.instructor_id
        ? (userById.get(r.instructor_id) ?? { id: r.instructor_id, name: null, surname: null })
        : null,
      FlightType: typeById.get(r.flight_type_id) ?? { id: r.flight_type_id, name: null, color: null },
    })),
  };
}

/** Runs an IN query per 500 ids (bound-parameter limits of both databases). */
async function inChunks<T>(ids: string[], run: (ids: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += 500) out.push(...(await run(ids.slice(i, i + 500))));
  return out;
}

/**
 * Rendered board answers by company data version. Every write to a replicated
 * table of the company (bookings, aircraft, users, flight types) takes its next
 * change number, which the credential query reads (`actor.companyVersion`), so
 * an answer rendered at version V is exact while the company is at V: the office
 * board, reloaded all day, costs one lookup until something changes.
 */
const boardCache = new WeakMap<Kysely<DB>, Map<string, { version: number; text: string }>>();
const BOARD_CACHE_ENTRIES = 200;

export async function boardText(db: Kysely<DB>, actor: Actor, q: TScheduleIndex): Promise<string> {
  const version = actor.companyVersion;
  if (version === undefined) return JSON.stringify(await listBookings(db, actor, q));
  let cache = boardCache.get(db);
  if (!cache) {
    cache = new Map();
    boardCache.set(db, cache);
  }
  const key = `${actor.companyId}|${seesAllBookings(actor.role) ? '*' : actor.userId}|${actor.company.timezone}|${q.from}|${q.to}|${q.aircraft_id ?? ''}|${q.user_id ?? ''}|${q.base_id ?? ''}`;
  const hit = cache.get(key);
  if (hit && hit.version === version) return hit.text;
  const text = JSON.stringify(await listBookings(db, actor, q));
  cache.delete(key);
  cache.set(key, { version, text });
  if (cache.size > BOARD_CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
  return text;
}

/** Shortest free window worth offering (a 30-minute lesson). */
export const MIN_FREE_SECONDS = 30 * 60;

/**
 * GET /schedules/availability.json (CONTRACT 5): the resolved operating hours
 * of the base on `date` (company zone), and per aircraft of the base and per
 * instructor (of the base or of none) the free windows inside them. Only
 * times are answered, never who holds the busy ones.
 */
export async function availability(db: Kysely<DB>, actor: Actor, q: { date: string; base_id?: string }) {
  const c = actor.companyId;
  const zone = actor.company.timezone;
  const base = q.base_id
    ? await db
        .selectFrom('bases')
        .select(['id', 'name'])
        .where('company_id', '=', c)
        .where('id', '=', q.base_id)
        .where('deleted', '=', 0)
        .executeTakeFirst()
    : await db
        .selectFrom('bases')
        .select(['id', 'name'])
        .where('company_id', '=', c)
        .where('deleted', '=', 0)
        .orderBy('is_default', 'desc')
        .orderBy('name')
        .executeTakeFirst();
  if (q.base_id && !base) throw notFound('Base not found');
  const baseId = base?.id ?? null;
  const rows = await rowsForResolution(db, c, baseId, q.date, q.date);
  const [day] = resolveRange(rows, baseId, q.date, q.date, zone);
  const open: BookingSpan[] = day.windows.map((w) => ({ start: w.start, end: w.end }));
  const dayStart = Math.floor(DateTime.fromISO(q.date, { zone }).startOf('day').toSeconds());
  const dayEnd = Math.floor(DateTime.fromISO(q.date, { zone }).plus({ days: 1 }).startOf('day').toSeconds());

  const [aircraft, instructors, bookings] = await Promise.all([
    db
      .selectFrom('aircraft')
      .select(['id', 'registration'])
      .where('company_id', '=', c)
      .where('deleted', '=', 0)
      .where('active', '=', 1)
      .$if(baseId !== null, (qb) => qb.where('base_id', '=', baseId as string))
      .orderBy('registration')
      .execute(),
    db
      .selectFrom('users')
      .select(['id', 'name', 'surname'])
      .where('company_id', '=', c)
      .where('deleted', '=', 0)
      .where('active', '=', 1)
      .where('user_group_id', 'in', LISTED_INSTRUCTOR_ROLES)
      .$if(baseId !== null, (qb) =>
        qb.where((eb) => eb.or([eb('base_id', '=', baseId as string), eb('base_id', 'is', null)])),
      )
      .orderBy('surname')
      .orderBy('name')
      .execute(),
    db
      .selectFrom('schedules')
      .select(['aircraft_id', 'pilot_id', 'instructor_id', 'start_at', 'end_at'])
      .where('company_id', '=', c)
      .where('start_at', '<', dayEnd)
      .where('start_at', '>', dayStart - MAX_BOOKING_SECONDS)
      .where('end_at', '>', dayStart)
      .where('status', '=', 'BOOKED')
      .where('deleted', '=', 0)
      .execute(),
  ]);
  const ids = instructors.map((i) => i.id);
  const duty = ids.length
    ? await db
        .selectFrom('base_schedules')
        .select(['user_id', 'start_at', 'end_at'])
        .where('company_id', '=', c)
        .where('user_id', 'in', ids)
        .where('deleted', '=', 0)
        .where('always', '=', 0)
        .where('type', 'in', ['OFF', 'REST'])
        .where('start_at', '<', dayEnd)
        .where('end_at', '>', dayStart)
        .execute()
    : [];
  const span = (r: { start_at: number | null; end_at: number | null }) => ({
    start: Number(r.start_at),
    end: Number(r.end_at),
  });
  // Rule 3 on availability: from the instant an open MEL/CDL item blocks the aircraft, nothing is free (the booking rule would refuse it).
  const melItems = await timedMelItemsOf(
    db,
    c,
    aircraft.map((a) => a.id),
    Math.max(dayStart, nowSeconds()),
  );
  const blocks = new Map(
    aircraft.map((a) => [a.id, blockedFrom(melItems.get(a.id) ?? [], Math.max(dayStart, nowSeconds()))]),
  );
  return {
    date: q.date,
    base_id: baseId,
    hours: { closed: day.closed, windows: open },
    aircraft: aircraft.map((a) => {
      const block = blocks.get(a.id) ?? null;
      const busy = bookings.filter((b) => b.aircraft_id === a.id).map(span);
      if (block) busy.push({ start: block.at, end: Math.max(block.at, dayEnd) });
      const blocked =
        block && block.at < dayEnd
          ? {
              from: block.at,
              reason: `${a.registration}: ${block.item.label} (${block.item.expiredAtStart ? 'expired' : 'expires'})`,
            }
          : null;
      return { id: a.id, registration: a.registration, free: freeWindows(open, busy, MIN_FREE_SECONDS), blocked };
    }),
    instructors: instructors.map((i) => ({
      id: i.id,
      name: i.name,
      surname: i.surname,
      free: freeWindows(
        open,
        [
          ...bookings.filter((b) => b.instructor_id === i.id || b.pilot_id === i.id).map(span),
          ...duty.filter((d) => d.user_id === i.id).map(span),
        ],
        MIN_FREE_SECONDS,
      ),
    })),
  };
}
