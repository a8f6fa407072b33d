import { uuidv7 } from '@ops/shared';

import type { ReadinessLine } from '@ops/shared/rules/readiness/readiness';
import type { RuleText } from '@ops/shared/rules/readiness/text';
import {
  aircraftBlockedFor,
  aircraftBlockedMessage,
  aircraftBlockedText,
  type BookingCode,
  documentsDecision,
  findConflict,
  instructorUnavailable,
  MAX_BOOKING_SECONDS,
  seatsFor,
  selfBookingRefusal,
  spanProblem,
} from '@ops/shared/rules/schedules/booking';
import { bookingVisible, cancelRefusal, isSelfBooker, mayInstruct } from '@ops/shared/rules/schedules/policy';
import type { Kysely } from 'kysely';
import { DateTime } from 'luxon';
import type { AppContext } from '../../context.ts';
import type { DB } from '../../db/schema.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import { badRequest, type FieldErrors, notFound, validationFailed } from '../../http/errors.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { companyFlags } from '../company/company.presenter.ts';
import { bookingDutyRefusal } from '../duty/duty.service.ts';

import { decideReadiness } from '../readiness/readiness.service.ts';
import { seatCompliance } from '@ops/shared/rules/flight-types/compliance';
import { flightZone, wallClock } from '@ops/shared/rules/flights/clock';
import { loadFlightRow, saveFlight } from '../flights/flights.service.ts';
import { cancelFlight } from '../flights/transitions.service.ts';
import { notify } from '../notifications/notifications.notify.ts';
import { timedMelItems } from './blocking.repository.ts';
import { operatingHoursRefusal, pilotSeatRefusal, startRefusal } from './sanity.service.ts';

import { groundingBlockers } from '../aircraft-reports/aircraft-block.service.ts';
import { blockedRefusal, blockedRefusalText } from '@ops/shared/rules/aircraft-reports/blockers';
import type { TScheduleFields } from './schedules.schema.ts';
import type { SchedulesTable } from './schedules.tables.ts';
import { emitBookingWebhook } from './schedules.webhooks.ts';

/** Flight states after which a booking no longer moves or cancels its flight. */
const LOCKED_FLIGHT = ['DISPATCHED', 'LANDED'];

export type BookingRow = Pick<
  SchedulesTable,
  | 'id'
  | 'aircraft_id'
  | 'pilot_id'
  | 'instructor_id'
  | 'flight_type_id'
  | 'base_id'
  | 'start_at'
  | 'end_at'
  | 'status'
  | 'flight_id'
  | 'remarks'
  | 'user_id'
  | 'departure_airport'
  | 'landing_airport'
>;

export interface ConflictEntry {
  id: string;
  aircraft_id: string;
  pilot_id: string;
  instructor_id: string | null;
  start: number;
  end: number;
}

export type BookingAnswer =
  | { result: true; id: string; flight_id: string | null; warning?: string; readiness?: ReadinessLine[] }
  | {
      result: false;
      code: BookingCode;
      /** English, byte for byte what API clients have always read. */
      message: string;
      /** `message` as a message id and values: the app shows it in its reader's language (issue 33). */
      text: RuleText | null;
      conflicts?: ConflictEntry[];
      readiness?: ReadinessLine[];
    };

/** A rule refusal: thrown inside the transaction so nothing it did is kept, answered as `result: false`. */
export class BookingRefused extends Error {
  constructor(readonly answer: Extract<BookingAnswer, { result: false }>) {
    super(answer.message);
  }
}
const refuse = (code: BookingCode, message: string, text: RuleText | null, conflicts?: ConflictEntry[]): never => {
  throw new BookingRefused({ result: false, code, message, text, ...(conflicts ? { conflicts } : {}) });
};
/** A rule's refusal as it comes from the shared rules: code, English message and its text. */
const refuseWith = (r: { code: BookingCode; message: string; text: RuleText | null }): never =>
  refuse(r.code, r.message, r.text);

const BOOKING_COLUMNS = [
  'id',
  'aircraft_id',
  'pilot_id',
  'instructor_id',
  'flight_type_id',
  'base_id',
  'start_at',
  'end_at',
  'status',
  'flight_id',
  'remarks',
  'user_id',
  'departure_airport',
  'landing_airport',
] as const;

export async function loadBooking(db: Kysely<DB>, companyId: string, id: string): Promise<BookingRow | undefined> {
  return db
    .selectFrom('schedules')
    .select(BOOKING_COLUMNS)
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
}

const toEntry = (
  r: Pick<BookingRow, 'id' | 'aircraft_id' | 'pilot_id' | 'instructor_id' | 'start_at' | 'end_at'>,
): ConflictEntry => ({
  id: r.id,
  aircraft_id: r.aircraft_id,
  pilot_id: r.pilot_id,
  instructor_id: r.instructor_id,
  start: Number(r.start_at),
  end: Number(r.end_at),
});

/**
 * Live bookings touching [start, end) of one aircraft or of people, each read
 * through its own (company_id, resource, start_at) index; the start is bounded
 * below by the longest booking so the range scan stays short.
 */
async function competing(
  db: Kysely<DB>,
  companyId: string,
  span: { start: number; end: number },
  aircraftId: string,
  people: string[],
): Promise<ConflictEntry[]> {
  const base = () =>
    db
      .selectFrom('schedules')
      .select(['id', 'aircraft_id', 'pilot_id', 'instructor_id', 'start_at', 'end_at'])
      .where('company_id', '=', companyId)
      .where('start_at', '<', span.end)
      .where('start_at', '>', span.start - MAX_BOOKING_SECONDS)
      .where('end_at', '>', span.start)
      .where('status', '=', 'BOOKED')
      .where('deleted', '=', 0);
  const [a, p, i] = await Promise.all([
    base().where('aircraft_id', '=', aircraftId).execute(),
    base().where('pilot_id', 'in', people).execute(),
    base().where('instructor_id', 'in', people).execute(),
  ]);
  const seen = new Map<string, ConflictEntry>();
  for (const r of [...a, ...p, ...i]) seen.set(r.id, toEntry(r));
  return [...seen.values()];
}

function describeSpan(start: number, end: number, zone: string): string {
  const s = DateTime.fromSeconds(start, { zone });
  const e = DateTime.fromSeconds(end, { zone });
  return `${s.toFormat('yyyy-MM-dd HH:mm')}–${e.toFormat(s.hasSame(e, 'day') ? 'HH:mm' : 'yyyy-MM-dd HH:mm')}`;
}

interface Refs {
  aircraft: { id: string; registration: string; base_id: string | null };
  type: {
    id: string;
    name: string;
    booking: number;
    pic_flight_time: string;
    sic_flight_time: string;
    supervisor_flight_time: string;
  };
  baseId: string | null;
  airport: string | null;
}

/** References inside the company; unknown ones are a 400 with field errors, nothing written. */
async function resolveRefs(db: Kysely<DB>, actor: Actor, input: TScheduleFields): Promise<Refs> {
  const errors: FieldErrors = {};
  const fail = (f: string, m: string) => {
    errors[`Schedule.${f}`] = [...(errors[`Schedule.${f}`] ?? []), m];
  };
  const c = actor.companyId;
  const [aircraft, type, people, base] = await Promise.all([
    db
      .selectFrom('aircraft')
      .select(['id', 'registration', 'base_id'])
      .where('company_id', '=', c)
      .where('id', '=', input.aircraft_id)
      .where('deleted', '=', 0)
      .executeTakeFirst(),
    db
      .selectFrom('flight_types')
      .select(['id', 'name', 'booking', 'pic_flight_time', 'sic_flight_time', 'supervisor_flight_time'])
      .where('company_id', '=', c)
      .where('id', '=', input.flight_type_id)
      .where('deleted', '=', 0)
      .executeTakeFirst(),
    db
      .selectFrom('users')
      .select(['id', 'user_group_id', 'active'])
      .where('company_id', '=', c)
      .where('id', 'in', [input.pilot_id, ...(input.instructor_id ? [input.instructor_id] : [])])
      .where('deleted', '=', 0)
      .execute(),
    input.base_id
      ? db
          .selectFrom('bases')
          .select(['id', 'airport_id'])
          .where('company_id', '=', c)
          .where('id', '=', input.base_id)
          .where('deleted', '=', 0)
          .executeTakeFirst()
      : Promise.resolve(null),
  ]);
  if (!aircraft) fail('aircraft_id', 'Unknown aircraft in your company');
  if (!type) fail('flight_type_id', 'Unknown flight type in your company');
  const pilot = people.find((u) => u.id === input.pilot_id);
  // An inactive or non-pilot user is a NOT_ALLOWED refusal (sanity.service.ts), not an input error.
  if (!pilot) fail('pilot_id', 'Unknown user in your company');
  if (input.instructor_id) {
    const instructor = people.find((u) => u.id === input.instructor_id);
    if (!instructor) fail('instructor_id', 'Unknown user in your company');
    else if (!mayInstruct(Number(instructor.user_group_id)))
      fail('instructor_id', 'This user is not a flight instructor');
    if (input.instructor_id === input.pilot_id) fail('instructor_id', 'The instructor cannot be the pilot');
  }
  if (input.base_id && !base) fail('base_id', 'Unknown base in your company');
  if (Object.keys(errors).length || !aircraft || !type) throw validationFailed(errors);
  const baseId = input.base_id ?? aircraft.base_id;
  let airport = base?.airport_id ?? null;
  if (!input.base_id && baseId) {
    const b = await db
      .selectFrom('bases')
      .select('airport_id')
      .where('company_id', '=', c)
      .where('id', '=', baseId)
      .executeTakeFirst();
    airport = b?.airport_id ?? null;
  }
  return { aircraft, type, baseId, airport };
}

/** PIC certificate types the flight type requires that `userId` does not hold valid at `at`. */
async function missingPicDocuments(
  db: Kysely<DB>,
  actor: Actor,
  typeId: string,
  userId: string,
  at: number,
): Promise<string[]> {
  const required = await db
    .selectFrom('flight_type_certificates')
    .select('certificate_type')
    .where('company_id', '=', actor.companyId)
    .where('flight_type_id', '=', typeId)
    .where('role', '=', 'pic')
    .execute();
  if (!required.length) return [];
  const held = await db
    .selectFrom('user_certificates')
    .select(['type', 'issue', 'expiration'])
    .where('company_id', '=', actor.companyId)
    .where('user_id', '=', userId)
    .where('deleted', '=', 0)
    .execute();
  const seat = seatCompliance(
    required.map((r) => r.certificate_type),
    held,
    at,
    actor.company.timezone,
  );
  return seat.required.filter((t) => !seat.ok.includes(t));
}

export interface DecideOptions {
  /** Client-generated id of a new booking (offline command). */
  newId?: string;
  now?: number;
}

/**
 * POST /schedules/edit.json and the `schedule.book` command: every rule of
 * issue 20 in order, then the booking and its SCHEDULED flight in the caller's
 * transaction. Refusals throw `BookingRefused` (the transaction rolls back).
 * Conflicts are read after taking the company's write lock, so of two
 * simultaneous bookings of one slot exactly one wins, on both databases.
 */
export async function decideBooking(
  uow: UnitOfWork,
  actor: Actor,
  input: TScheduleFields,
  opts: DecideOptions = {},
): Promise<Extract<BookingAnswer, { result: true }>> {
  const trx = uow.trx;
  const span = { start: input.start, end: input.end };
  const problem = spanProblem(span);
  if (problem) throw validationFailed({ 'Schedule.end': [problem] });
  const current = input.id ? await loadBooking(trx, actor.companyId, input.id) : undefined;
  if (input.id && (!current || !bookingVisible(current, actor))) throw notFound('Booking not found');
  if (current && current.status !== 'BOOKED') throw badRequest('A canceled booking cannot be changed; book again');
  const self = isSelfBooker(actor.role);
  if (current && self && current.pilot_id !== actor.userId && current.user_id !== actor.userId)
    refuse('NOT_ALLOWED', 'You can only change your own bookings.', { id: 'schedules.rOnlyOwnChange' });

  const refs = await resolveRefs(trx, actor, input);
  const company = await trx
    .selectFrom('companies')
    .select(['flags', 'booking_horizon_days'])
    .where('id', '=', actor.companyId)
    .executeTakeFirstOrThrow();
  const flags = companyFlags(company);
  const who = selfBookingRefusal({
    role: actor.role,
    actorId: actor.userId,
    pilotId: input.pilot_id,
    selfSchedule: flags.self_schedule,
    typeBookable: !!refs.type.booking,
  });
  if (who) refuseWith(who);
  const now = opts.now ?? nowSeconds();
  // Sanity (issue 28): a pilot in the pilot's seat, a start neither past nor beyond the horizon.
  const seat = await pilotSeatRefusal(trx, actor, input.pilot_id);
  if (seat) refuseWith(seat);
  const early = startRefusal(
    actor,
    span,
    now,
    current ? Number(current.start_at) : null,
    company.booking_horizon_days === null ? null : Number(company.booking_horizon_days),
  );
  if (early) refuseWith(early);

  // The company's write lock, before anything that decides between competing bookings is read.
  const changeNo = await uow.changeNo(actor.companyId, 'schedules');

  const linked = current?.flight_id ? await loadFlightRow(trx, actor.companyId, current.flight_id) : undefined;
  if (linked && LOCKED_FLIGHT.includes(linked.status)) {
    refuse(
      'FLIGHT_LOCKED',
      `The flight of this booking is already ${linked.status === 'LANDED' ? 'confirmed' : 'dispatched'}; it can no longer be moved.`,
      { id: 'schedules.rLockedMove', values: { status: linked.status } },
    );
  }

  const candidate = {
    id: current?.id ?? opts.newId ?? '',
    aircraft_id: input.aircraft_id,
    pilot_id: input.pilot_id,
    instructor_id: input.instructor_id ?? null,
    ...span,
  };
  const people = [input.pilot_id, ...(input.instructor_id ? [input.instructor_id] : [])];
  const clash = findConflict(candidate, await competing(trx, actor.companyId, span, input.aircraft_id, people));
  if (clash) refuse(clash.code, clash.message, clash.text, clash.conflicts);

  // Operating hours bind everyone (issue 28): the office too books inside the saved hours.
  const hours = await operatingHoursRefusal(trx, actor, refs.baseId, span);
  if (hours) refuseWith(hours);

  const blocking = aircraftBlockedFor(await timedMelItems(trx, actor.companyId, input.aircraft_id, span.start), span);
  if (blocking)
    refuse(
      'AIRCRAFT_BLOCKED',
      aircraftBlockedMessage(refs.aircraft.registration, blocking),
      aircraftBlockedText(refs.aircraft.registration, blocking),
    );
  // Issue 28: an open report grounding the aircraft refuses the booking too (the fleet area's shared rule).
  const blockers = await groundingBlockers(trx, actor.companyId, input.aircraft_id, span.start);
  const grounded = blockedRefusal(refs.aircraft.registration, 'booked', blockers);
  if (grounded)
    refuse('AIRCRAFT_BLOCKED', grounded, blockedRefusalText(refs.aircraft.registration, 'booked', blockers));

  if (input.instructor_id) {
    const duty = await trx
      .selectFrom('base_schedules')
      .select(['start_at as start', 'end_at as end', 'type'])
      .where('company_id', '=', actor.companyId)
      .where('user_id', '=', input.instructor_id)
      .where('deleted', '=', 0)
      .where('always', '=', 0)
      .where('type', 'in', ['OFF', 'REST'])
      .where('start_at', '<', span.end)
      .where('end_at', '>', span.start)
      .execute();
    const off = instructorUnavailable(
      duty.map((d) => ({
        start: d.start === null ? null : Number(d.start),
        end: d.end === null ? null : Number(d.end),
        type: d.type,
      })),
      span,
    );
    if (off) {
      const away = describeSpan(Number(off.start), Number(off.end), actor.company.timezone);
      refuse('INSTRUCTOR_UNAVAILABLE', `The instructor is ${off.type === 'OFF' ? 'off' : 'resting'} during ${away}.`, {
        id: 'schedules.rInstructorAway',
        values: { type: off.type, span: away },
      });
    }
  }

  // Duty hook (issue 30): the pilot's and instructor's duty day and flight year (CONTRACT 7).
  const dutyStop = await bookingDutyRefusal(trx, actor, { ...candidate, bookingId: current?.id, flightId: linked?.id });
  if (dutyStop) refuseWith(dutyStop);

  const seats = seatsFor(refs.type, input.pilot_id, input.instructor_id ?? null);
  const missing = flags.require_pic_docs
    ? await missingPicDocuments(trx, actor, refs.type.id, seats.pic_id, Math.max(now, span.start))
    : [];
  const docs = documentsDecision({
    selfBooking: self,
    requirePicDocs: flags.require_pic_docs,
    allowNoDocs: flags.schedule_self_allow_nodocs,
    blockWithoutDocs: flags.block_pic_without_docs,
    missing,
  });
  if (!docs.ok) refuseWith(docs);
  const warning = docs.ok ? docs.warning : null;

  // The linked SCHEDULED flight, through the flights service (wall clock in the flight zone).
  const fz = flightZone(actor);
  const flightFields = {
    date: DateTime.fromSeconds(span.start, { zone: fz }).toISODate() as string,
    aircraft_id: input.aircraft_id,
    flight_type_id: input.flight_type_id,
    ...seats,
    offblocks_time: wallClock(span.start, fz),
    onblocks_time: wallClock(span.end, fz),
    remarks: input.remarks ?? null,
  };
  let flightId: string | null;
  const reuse = linked && linked.status !== 'CANCELED' && linked.status !== 'DELETED';
  if (reuse && linked) {
    await saveFlight(uow, actor, { id: linked.id, ...flightFields }, { trusted: true });
    flightId = linked.id;
  } else {
    const airports = { departure_airport: refs.airport, landing_airport: refs.airport };
    flightId = (await saveFlight(uow, actor, { ...flightFields, ...airports, status: 'SCHEDULED' }, { trusted: true }))
      .id;
  }

  // Readiness hook (issue 31): the company's policy per check; a block rolls the booking back.
  const ready = flightId ? await decideReadiness(uow, actor, flightId, { bookingId: current?.id ?? opts.newId }) : null;
  if (ready?.blocked)
    throw new BookingRefused({
      result: false,
      code: 'READINESS',
      message: ready.message,
      text: ready.text,
      readiness: ready.lines,
    });

  const ts = now;
  const values = {
    aircraft_id: input.aircraft_id,
    pilot_id: input.pilot_id,
    instructor_id: input.instructor_id ?? null,
    flight_type_id: input.flight_type_id,
    base_id: refs.baseId,
    start_at: span.start,
    end_at: span.end,
    flight_id: flightId,
    remarks: input.remarks ?? null,
    modified: ts,
    change_no: changeNo,
  };
  let id: string;
  if (current) {
    id = current.id;
    await trx
      .updateTable('schedules')
      .set(values)
      .where('company_id', '=', actor.companyId)
      .where('id', '=', id)
      .execute();
  } else {
    id = opts.newId ?? uuidv7();
    const clash2 = await trx.selectFrom('schedules').select('id').where('id', '=', id).executeTakeFirst();
    if (clash2) throw badRequest('A booking with this id already exists');
    await trx
      .insertInto('schedules')
      .values({
        ...values,
        id,
        company_id: actor.companyId,
        deleted: 0,
        created: ts,
        status: 'BOOKED',
        user_id: actor.userId,
        departure_airport: refs.airport,
        landing_airport: refs.airport,
      })
      .execute();
  }

  const when = describeSpan(span.start, span.end, actor.company.timezone);
  const moved =
    current &&
    (Number(current.start_at) !== span.start ||
      Number(current.end_at) !== span.end ||
      current.aircraft_id !== input.aircraft_id);
  if (!current || moved) {
    const title = current
      ? `Booking moved: ${refs.aircraft.registration} ${when}`
      : `New booking: ${refs.aircraft.registration} ${when}`;
    const recipients = [
      ...new Set([input.pilot_id, input.instructor_id, current?.pilot_id, current?.instructor_id]),
    ].filter((u): u is string => !!u && u !== actor.userId);
    await notify(uow, {
      companyId: actor.companyId,
      userIds: recipients,
      title,
      body: `${refs.type.name}, booked by ${actor.name} ${actor.surname}`,
      link: `/schedules/view/${id}`,
    });
    await emitBookingWebhook(uow, actor, id, current ? 'booking.moved' : 'booking.created');
  }
  return {
    result: true,
    id,
    flight_id: flightId,
    ...(warning ? { warning } : {}),
    ...(ready?.lines.length ? { readiness: ready.lines } : {}),
  };
}

/** REST entry: one transaction; a rule refusal rolls it back and is answered as `result: false`. */
export async function saveBooking(ctx: AppContext, actor: Actor, input: TScheduleFields): Promise<BookingAnswer> {
  try {
    return await ctx.tx((uow) => decideBooking(uow, actor, input));
  } catch (e) {
    if (e instanceof BookingRefused) return e.answer;
    throw e;
  }
}

/**
 * POST /schedules/delete/{id}.json and the `schedule.cancel` command: the
 * booking becomes CANCELED and its flight CANCELED (with a history row) unless
 * that flight is already dispatched or confirmed; pilot and instructor are
 * told. Staff cancel any booking; pilots and students their own future ones
 * (`cancelRefusal`). Refusals throw `BookingRefused`.
 */
export async function decideCancel(uow: UnitOfWork, actor: Actor, id: string, now = nowSeconds()): Promise<void> {
  const trx = uow.trx;
  const b = await loadBooking(trx, actor.companyId, id);
  if (!b || !bookingVisible(b, actor)) throw notFound('Booking not found');
  if (b.status !== 'BOOKED') return;
  const no = cancelRefusal(actor, { ...b, start: Number(b.start_at) }, now);
  if (no) refuseWith(no);
  const changeNo = await uow.changeNo(actor.companyId, 'schedules');
  const flight = b.flight_id ? await loadFlightRow(trx, actor.companyId, b.flight_id) : undefined;
  if (flight && LOCKED_FLIGHT.includes(flight.status)) {
    refuse(
      'FLIGHT_LOCKED',
      `The flight of this booking is already ${flight.status === 'LANDED' ? 'confirmed' : 'dispatched'}; the booking can no longer be canceled.`,
      { id: 'schedules.rLockedCancel', values: { status: flight.status } },
    );
  }
  if (flight) await cancelFlight(uow, actor, { id: flight.id, reason: 'Booking canceled' }, { trusted: true });
  await trx
    .updateTable('schedules')
    .set({ status: 'CANCELED', modified: nowSeconds(), change_no: changeNo })
    .where('company_id', '=', actor.companyId)
    .where('id', '=', b.id)
    .execute();
  await emitBookingWebhook(uow, actor, b.id, 'booking.canceled');
  const reg = await trx
    .selectFrom('aircraft')
    .select('registration')
    .where('id', '=', b.aircraft_id)
    .executeTakeFirst();
  const recipients = [b.pilot_id, b.instructor_id].filter((u): u is string => !!u && u !== actor.userId);
  await notify(uow, {
    companyId: actor.companyId,
    userIds: recipients,
    title: `Booking canceled: ${reg?.registration ?? 'aircraft'} ${describeSpan(Number(b.start_at), Number(b.end_at), actor.company.timezone)}`,
    body: `Canceled by ${actor.name} ${actor.surname}`,
    link: null,
  });
}

/** REST entry of the cancel: one transaction; a refusal is answered as `result: false`. */
export async function cancelBooking(
  ctx: AppContext,
  actor: Actor,
  id: string,
): Promise<BookingAnswer | { result: true }> {
  try {
    await ctx.tx((uow) => decideCancel(uow, actor, id));
    return { result: true as const };
  } catch (e) {
    if (e instanceof BookingRefused) return e.answer;
    throw e;
  }
}

/** Part B 3.1: dispatching a booking's flight syncs departure and destination back to the booking. */
export async function syncDispatchedFlight(
  uow: UnitOfWork,
  actor: Actor,
  flight: { id: string; departure_airport: string | null; landing_airport: string | null },
): Promise<void> {
  const b = await uow.trx
    .selectFrom('schedules')
    .select(['id'])
    .where('company_id', '=', actor.companyId)
    .where('flight_id', '=', flight.id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!b) return;
  await uow.trx
    .updateTable('schedules')
    .set({
      departure_airport: flight.departure_airport,
      landing_airport: flight.landing_airport,
      modified: nowSeconds(),
      change_no: await uow.changeNo(actor.companyId, 'schedules'),
    })
    .where('company_id', '=', actor.companyId)
    .where('id', '=', b.id)
    .execute();
}
