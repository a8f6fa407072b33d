import {
  checkDuty,
  type DutyCode,
  type DutyRefusal,
  type DutyReport,
  dateOf,
  dayStart,
  dutyReport,
  dutySpanOf,
  exceededAfter,
  levelOf,
  limitSeconds,
  rangeProblem,
  reportWindow,
  type Span,
} from '@ops/shared/rules/duty/duty';
import { dutyGates, mayViewBoard, mayViewDuty } from '@ops/shared/rules/duty/policy';
import type { Kysely } from 'kysely';
import { DateTime } from 'luxon';
import type { AppContext } from '../../context.ts';
import type { DB } from '../../db/schema.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import { forbidden, invalid, notFound } from '../../http/errors.ts';
import { notify } from '../notifications/notifications.notify.ts';
import { emitWebhook } from '../webhooks/outbox.service.ts';
import {
  companyLimits,
  crewFlights,
  crewOf,
  dutyEntries,
  findUser,
  flightSecondsBy,
  plannedBookings,
} from './duty.repository.ts';

const DAY = 86_400;

/** GET /duty/{userId}.json (CONTRACT 7): 404 for a user of another company first, then 403, then the range. */
export async function dutyOf(
  ctx: AppContext,
  actor: Actor,
  userId: string,
  q: { from?: string; to?: string },
): Promise<DutyReport> {
  const user = await findUser(ctx.db, actor.companyId, userId);
  if (!user) throw notFound('User not found');
  if (!mayViewDuty(actor, userId)) throw forbidden('You can only see your own duty');
  const zone = actor.company.timezone;
  const to = q.to ?? (DateTime.now().setZone(zone).toISODate() as string);
  const from = q.from ?? (DateTime.fromISO(to, { zone }).minus({ days: 6 }).toISODate() as string);
  const problem = rangeProblem(from, to);
  if (problem) throw invalid({ [problem.field]: [problem.message] });
  const w = reportWindow(from, to, zone);
  const [limits, entries, flights] = await Promise.all([
    companyLimits(ctx.db, actor.companyId),
    dutyEntries(ctx.db, actor.companyId, [userId], w.start, w.end),
    crewFlights(ctx.db, actor.companyId, [userId], w.start, w.end, ['LANDED']),
  ]);
  return dutyReport({ entries, flights, zone, limits }, from, to);
}

/** Duty spans of each of `userIds` around [start, end): DUTY entries, flown and dispatched flights, live bookings (six indexed range reads for all of them). */
async function dutyAround(
  db: Kysely<DB>,
  companyId: string,
  userIds: readonly string[],
  start: number,
  end: number,
  except: { bookingId?: string; flightId?: string },
): Promise<Map<string, Span[]>> {
  // Independent reads: on PostgreSQL they run side by side on the pool.
  const [entries, flights, bookings] = await Promise.all([
    dutyEntries(db, companyId, userIds, start, end),
    crewFlights(db, companyId, userIds, start, end, ['LANDED', 'DISPATCHED'], except.flightId),
    plannedBookings(db, companyId, userIds, start, end, except),
  ]);
  const out = new Map<string, Span[]>(userIds.map((u) => [u, []]));
  for (const e of entries) out.get(e.user_id)?.push(e);
  for (const f of flights) out.get(f.user_id)?.push(dutySpanOf(f.offblocks, f.onblocks));
  for (const b of bookings) out.get(b.user_id)?.push(dutySpanOf(b.start, b.end));
  return out;
}

export interface PlannedDuty {
  /** Pilot, instructor or crew ids. */
  people: readonly string[];
  span: Span;
  /** Simulator sessions add no flight time (a lookup still running is awaited beside the other reads). */
  simulator: boolean | Promise<boolean>;
  /** The booking being moved and its flight (left out of the person's other duty). */
  bookingId?: string;
  flightId?: string;
}

/**
 * The duty check of a booking or a dispatch (CONTRACT 7): the first person
 * of `people` the plan would take past a limit, or null. Reads only the days
 * the plan touches and the year's flight seconds of each person.
 */
export async function plannedDutyRefusal(
  db: Kysely<DB>,
  actor: Actor,
  plan: PlannedDuty,
): Promise<(DutyRefusal & { user_id: string }) | null> {
  const [limits, simulator] = await Promise.all([companyLimits(db, actor.companyId), plan.simulator]);
  const dayLimit = limitSeconds(limits.max_duty_hours);
  const yearLimit = limitSeconds(limits.max_flight_hours_year);
  if (dayLimit === null && yearLimit === null) return null;
  const zone = limits.timezone;
  const padded = dutySpanOf(plan.span.start, plan.span.end);
  const start = dayStart(dateOf(padded.start, zone), zone);
  const end = DateTime.fromSeconds(padded.end - 1, { zone })
    .plus({ days: 1 })
    .startOf('day')
    .toUnixInteger();
  const year = DateTime.fromSeconds(plan.span.start, { zone }).startOf('year');
  const people = [...new Set(plan.people)];
  const [years, names, around] = await Promise.all([
    yearLimit !== null && !simulator
      ? flightSecondsBy(db, actor.companyId, people, year.toUnixInteger(), year.plus({ years: 1 }).toUnixInteger())
      : Promise.resolve(new Map<string, number>()),
    db
      .selectFrom('users')
      .select(['id', 'name', 'surname'])
      .where('company_id', '=', actor.companyId)
      .where('id', 'in', people)
      .execute(),
    dayLimit === null
      ? Promise.resolve(new Map<string, Span[]>())
      : dutyAround(db, actor.companyId, people, start, end, { bookingId: plan.bookingId, flightId: plan.flightId }),
  ]);
  for (const userId of people) {
    const duty = around.get(userId) ?? [];
    const u = names.find((n) => n.id === userId);
    const refusal = checkDuty({
      name: u ? `${u.name} ${u.surname}`.trim() : 'This person',
      planned: plan.span,
      plannedFlightSeconds: simulator ? 0 : plan.span.end - plan.span.start,
      duty,
      yearFlightSeconds: years.get(userId) ?? 0,
      zone,
      limits,
    });
    if (refusal) return { ...refusal, user_id: userId };
  }
  return null;
}

async function isSimulator(db: Kysely<DB>, companyId: string, aircraftId: string | null): Promise<boolean> {
  if (!aircraftId) return false;
  const a = await db
    .selectFrom('aircraft')
    .select('simulator')
    .where('company_id', '=', companyId)
    .where('id', '=', aircraftId)
    .executeTakeFirst();
  return Number(a?.simulator ?? 0) === 1;
}

/** Hook of the booking rule (schedules): would this booking take its pilot or instructor past a limit? */
export async function bookingDutyRefusal(
  db: Kysely<DB>,
  actor: Actor,
  b: {
    pilot_id: string;
    instructor_id: string | null;
    aircraft_id: string;
    start: number;
    end: number;
    bookingId?: string;
    flightId?: string;
  },
): Promise<Pick<DutyRefusal, 'code' | 'message' | 'text'> | null> {
  const r = await plannedDutyRefusal(db, actor, {
    people: [b.pilot_id, ...(b.instructor_id ? [b.instructor_id] : [])],
    span: { start: b.start, end: b.end },
    simulator: isSimulator(db, actor.companyId, b.aircraft_id),
    bookingId: b.bookingId,
    flightId: b.flightId,
  });
  // The text too, so the booking refusal reads in the app's language (issue 33).
  return r ? { code: r.code, message: r.message, text: r.text } : null;
}

/** Hook of dispatch (flights): the crew of a flight against both limits; the message names the person and the limit. */
export async function dispatchDutyRefusal(
  db: Kysely<DB>,
  actor: Actor,
  f: {
    id: string;
    aircraft_id: string | null;
    pic_id: string | null;
    sic_id: string | null;
    supervisor_id: string | null;
    offblocks: number | null;
    onblocks: number | null;
  },
): Promise<Pick<DutyRefusal, 'code' | 'message' | 'text'> | null> {
  if (f.offblocks === null || f.onblocks === null) return null;
  const people = [f.pic_id, f.sic_id, f.supervisor_id].filter((x): x is string => !!x);
  const r = await plannedDutyRefusal(db, actor, {
    people,
    span: { start: Number(f.offblocks), end: Number(f.onblocks) },
    simulator: isSimulator(db, actor.companyId, f.aircraft_id),
    flightId: f.id,
  });
  if (!r) return null;
  return {
    code: r.code,
    message: `Dispatch refused: ${r.message}`,
    text: { id: 'duty.dispatchRefused', lists: { reason: [r.text] } },
  };
}

export interface DutyWarning {
  code: DutyCode;
  user_id: string;
  message: string;
}

/**
 * Hook of confirm (flights), after the flight is LANDED in the same
 * transaction: each crew member's limits on the flight's day and year. A
 * confirm is never refused; each exceeded limit is a warning, operations are
 * notified and `duty.exceeded` goes to webhooks.
 */
export async function confirmDutyWarnings(uow: UnitOfWork, actor: Actor, flightId: string): Promise<DutyWarning[]> {
  const db = uow.trx;
  const limits = await companyLimits(db, actor.companyId);
  if (limitSeconds(limits.max_duty_hours) === null && limitSeconds(limits.max_flight_hours_year) === null) return [];
  const f = await db
    .selectFrom('flights')
    .select(['id', 'pic_id', 'sic_id', 'supervisor_id', 'offblocks', 'onblocks', 'date'])
    .where('company_id', '=', actor.companyId)
    .where('id', '=', flightId)
    .executeTakeFirst();
  if (!f || f.offblocks === null || f.onblocks === null) return [];
  const zone = limits.timezone;
  const flown = { start: Number(f.offblocks), end: Number(f.onblocks) };
  const people = [...new Set([f.pic_id, f.sic_id, f.supervisor_id].filter((x): x is string => !!x))];
  const padded = dutySpanOf(flown.start, flown.end);
  const start = dayStart(dateOf(padded.start, zone), zone);
  const end = DateTime.fromSeconds(padded.end - 1, { zone })
    .plus({ days: 1 })
    .startOf('day')
    .toUnixInteger();
  const year = DateTime.fromSeconds(flown.start, { zone }).startOf('year');
  const [years, names] = await Promise.all([
    flightSecondsBy(db, actor.companyId, people, year.toUnixInteger(), year.plus({ years: 1 }).toUnixInteger()),
    db
      .selectFrom('users')
      .select(['id', 'name', 'surname'])
      .where('company_id', '=', actor.companyId)
      .where('id', 'in', people.length ? people : [''])
      .execute(),
  ]);
  const warnings: DutyWarning[] = [];
  for (const userId of people) {
    const [entries, flights] = await Promise.all([
      dutyEntries(db, actor.companyId, [userId], start, end),
      crewFlights(db, actor.companyId, [userId], start, end, ['LANDED']),
    ]);
    const u = names.find((n) => n.id === userId);
    const found = exceededAfter({
      name: u ? `${u.name} ${u.surname}`.trim() : 'A crew member',
      flown,
      duty: [...entries, ...flights.map((x) => dutySpanOf(x.offblocks, x.onblocks))],
      yearFlightSeconds: years.get(userId) ?? 0,
      zone,
      limits,
    });
    for (const w of found) warnings.push({ code: w.code, user_id: userId, message: w.message });
  }
  if (!warnings.length) return warnings;
  const managers = await db
    .selectFrom('users')
    .select('id')
    .where('company_id', '=', actor.companyId)
    .where('deleted', '=', 0)
    .where('active', '=', 1)
    .where('user_group_id', '<=', dutyGates.notified.maxRole ?? 0)
    .execute();
  await notify(uow, {
    companyId: actor.companyId,
    userIds: managers.map((m) => m.id),
    title: `Duty limit exceeded on flight of ${f.date}`,
    titleId: 'notifications.dutyExceeded',
    titleValues: { date: f.date },
    body: warnings.map((w) => w.message).join('\n'),
    link: `/flights/view/${f.id}`,
  });
  await emitWebhook(uow, actor.companyId, 'duty.exceeded', 'Flight', f.id, async () => ({
    flight_id: f.id,
    date: f.date,
    warnings,
  }));
  return warnings;
}

export interface BoardPerson {
  user_id: string;
  name: string;
  role: number;
  days: {
    date: string;
    duty_seconds: number;
    flight_seconds: number;
    flights: number;
    level: 'over' | 'near' | 'ok';
  }[];
  week_duty_seconds: number;
  year_flight_seconds: number;
  year_level: 'over' | 'near' | 'ok';
  /** The worst of the week's days and the year. */
  level: 'over' | 'near' | 'ok';
}

/**
 * GET /duty/board.json: everyone's week (7 days from `from`) for the office,
 * flown and planned duty (bookings count as planned), and the year's flight
 * hours against the limit. Three indexed range reads for the whole crew.
 */
export async function dutyBoard(ctx: AppContext, actor: Actor, q: { from?: string }) {
  if (!mayViewBoard(actor)) throw forbidden('The crew duty board is for the office');
  const zone = actor.company.timezone;
  const from = q.from ?? (DateTime.now().setZone(zone).startOf('week').toISODate() as string);
  const to = DateTime.fromISO(from, { zone }).plus({ days: 6 }).toISODate() as string;
  const problem = rangeProblem(from, to);
  if (problem) throw invalid({ from: [problem.message] });
  const limits = await companyLimits(ctx.db, actor.companyId);
  const crew = await crewOf(ctx.db, actor.companyId, null);
  const ids = crew.map((c) => c.id);
  const start = dayStart(from, zone);
  const end = dayStart(to, zone) + 2 * DAY;
  const year = DateTime.fromISO(to, { zone }).startOf('year');
  const [entries, flights, bookings, years] = await Promise.all([
    dutyEntries(ctx.db, actor.companyId, ids, start, end),
    crewFlights(ctx.db, actor.companyId, ids, start, end, ['LANDED', 'DISPATCHED']),
    plannedBookings(ctx.db, actor.companyId, ids, start, end),
    flightSecondsBy(ctx.db, actor.companyId, ids, year.toUnixInteger(), year.plus({ years: 1 }).toUnixInteger()),
  ]);
  const group = <T extends { user_id: string }>(rows: T[]) => {
    const m = new Map<string, T[]>();
    for (const r of rows) m.set(r.user_id, [...(m.get(r.user_id) ?? []), r]);
    return m;
  };
  const e = group(entries);
  const f = group(flights);
  const b = group(bookings);
  const dayLimit = limitSeconds(limits.max_duty_hours);
  const yearLimit = limitSeconds(limits.max_flight_hours_year);
  const rank = { ok: 0, near: 1, over: 2 } as const;
  const people: BoardPerson[] = crew.map((c) => {
    const mine = f.get(c.id) ?? [];
    const r = dutyReport(
      {
        entries: [...(e.get(c.id) ?? []), ...(b.get(c.id) ?? []).map((x) => dutySpanOf(x.start, x.end))],
        flights: mine.map((x) => (x.status === 'LANDED' ? x : { ...x, flight_time: 0 })),
        zone,
        limits,
      },
      from,
      to,
      { allDays: true },
    );
    const yearSeconds = years.get(c.id) ?? 0;
    const days = r.days.map((d) => ({
      date: d.date,
      duty_seconds: d.duty_seconds,
      flight_seconds: d.flight_seconds,
      flights: d.flights,
      level: levelOf(d.duty_seconds, dayLimit),
    }));
    const yearLevel = levelOf(yearSeconds, yearLimit);
    const worst = [yearLevel, ...days.map((d) => d.level)].reduce(
      (a, x) => (rank[x] > rank[a] ? x : a),
      'ok' as 'over' | 'near' | 'ok',
    );
    return {
      user_id: c.id,
      name: `${c.name} ${c.surname}`.trim(),
      role: Number(c.user_group_id),
      days,
      week_duty_seconds: days.reduce((s, d) => s + d.duty_seconds, 0),
      year_flight_seconds: yearSeconds,
      year_level: yearLevel,
      level: worst,
    };
  });
  return { from, to, limits: { duty_seconds: dayLimit, year_flight_seconds: yearLimit }, people };
}
