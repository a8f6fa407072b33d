import { getAirport } from '@ops/shared/airports';
import { nightSeconds } from '@ops/shared/rules/airports/night-time';
import { uuidv7 } from '@ops/shared';
import type { Kysely, Updateable } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { FlightsTable } from '../../db/domain-tables.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import { badRequest, type FieldErrors, forbidden, HttpError, notFound, validationFailed } from '../../http/errors.ts';
import { said } from '../../http/messages.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { permissionsFor } from '../company/permissions.repository.ts';
import { type BookEntry, rebook } from './books.repository.ts';
import {
  type FlightClock,
  flightZone,
  instantsFromClock,
  midnightIn,
  wallClock,
} from '@ops/shared/rules/flights/clock';
import { assertNoOverlap } from './overlap.service.ts';
import { adjustFlightCount } from './flights.repository.ts';
import {
  type FlightPolicyActor,
  mayCreateFlight,
  mayEditFlight,
  mayLogFlightWith,
  reachesFlight,
} from '@ops/shared/rules/flights/policy';
import type { TFlightFields } from './flights.schema.ts';
import { validateFlightDraft } from '@ops/shared/rules/flights/validation';
import { DateTime } from 'luxon';
import { diffFields, recordChange } from './history.repository.ts';

export async function flightActor(db: Kysely<DB>, actor: Actor): Promise<FlightPolicyActor> {
  return { userId: actor.userId, role: actor.role, perms: await permissionsFor(db, actor.companyId, actor.role) };
}

/** The stored flight row, company-scoped (the unit the services lock and change). */
export async function loadFlightRow(db: Kysely<DB>, companyId: string, id: string) {
  return db
    .selectFrom('flights')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
}
export type FlightRow = NonNullable<Awaited<ReturnType<typeof loadFlightRow>>>;

const bookOf = (f: Pick<FlightRow, 'status' | 'aircraft_id' | 'flight_time' | 'landings'>): BookEntry | null =>
  f.status === 'LANDED'
    ? { aircraft_id: f.aircraft_id, flight_time: Number(f.flight_time), landings: Number(f.landings) }
    : null;

/** Remembers an airport a company flies from, for the offline `airport` reference documents. */
export async function rememberAirports(
  uow: UnitOfWork,
  companyId: string,
  codes: ReadonlyArray<string | null>,
): Promise<void> {
  const known = [...new Set(codes.filter((c): c is string => !!c))];
  if (!known.length) return;
  const have = await uow.trx
    .selectFrom('company_airports')
    .select('icao')
    .where('company_id', '=', companyId)
    .where('icao', 'in', known)
    .execute();
  const missing = known.filter((c) => !have.some((h) => h.icao === c));
  if (!missing.length) return;
  const now = nowSeconds();
  const changeNo = await uow.changeNo(companyId, 'company_airports');
  for (const icao of missing) {
    await uow.trx
      .insertInto('company_airports')
      .values({
        id: uuidv7(),
        company_id: companyId,
        change_no: changeNo,
        deleted: 0,
        created: now,
        modified: now,
        icao,
      })
      .onConflict((oc) => oc.columns(['company_id', 'icao']).doNothing())
      .execute();
  }
}

/**
 * The 400 of a flight that cannot be saved: field errors as usual, and a message
 * made of their sentences, which a device shows for a refused push (its outcome
 * keeps only the message).
 */
function refusal(errors: FieldErrors) {
  const sentences = Object.values(errors)
    .flat()
    .map((m) => (/[.!?]$/.test(m) ? m : `${m}.`));
  return validationFailed(errors, 'errors', `The flight was not saved. ${sentences.join(' ')}`);
}

type Values = Omit<
  FlightRow,
  | 'id'
  | 'company_id'
  | 'change_no'
  | 'deleted'
  | 'created'
  | 'modified'
  | 'confirmed_at'
  | 'confirmed_by'
  | 'dispatched_at'
  | 'dispatched_by'
>;

/**
 * Merges the posted fields over the current flight (absent fields keep their
 * value), resolves references inside the company, and derives the times:
 * wall clock in the flight zone → instants with the next-day rule, block and
 * flight time, night time from the airports unless given. Throws a 400 with
 * field errors; writes nothing.
 */
async function resolveValues(
  db: Kysely<DB>,
  actor: Actor,
  input: TFlightFields,
  current: FlightRow | null,
  opts: { complete: boolean },
): Promise<Values> {
  const zone = flightZone(actor);
  const errors: FieldErrors = {};
  const fail = (field: string, message: string) => {
    errors[field] = [...(errors[field] ?? []), message];
  };
  const pick = <K extends keyof TFlightFields & keyof FlightRow>(k: K, fallback: FlightRow[K] | null) =>
    (input[k] !== undefined ? input[k] : current ? current[k] : fallback) as FlightRow[K];

  const date = input.date ?? current?.date;
  if (!date) fail('Flight.date', 'Pick the date of the flight.');

  const currentClock: FlightClock = current
    ? {
        offblocks: wallClock(current.offblocks, zone),
        takeoff: wallClock(current.takeoff, zone),
        landing: wallClock(current.landing, zone),
        onblocks: wallClock(current.onblocks, zone),
      }
    : { offblocks: null, takeoff: null, landing: null, onblocks: null };
  const clock: FlightClock = {
    offblocks: input.offblocks_time !== undefined ? input.offblocks_time : currentClock.offblocks,
    takeoff: input.takeoff_time !== undefined ? input.takeoff_time : currentClock.takeoff,
    landing: input.landing_time !== undefined ? input.landing_time : currentClock.landing,
    onblocks: input.onblocks_time !== undefined ? input.onblocks_time : currentClock.onblocks,
  };
  // Issue 28 item 5: the flight as it will be stored (posted fields over the current
  // ones) must be complete and within bounds, with the form's sentences (shared rule).
  if (opts.complete) {
    const problems = validateFlightDraft(
      {
        date: date ?? null,
        aircraft_id: pick('aircraft_id', null),
        departure_airport: pick('departure_airport', null),
        landing_airport: pick('landing_airport', null),
        offblocks_time: clock.offblocks,
        takeoff_time: clock.takeoff,
        landing_time: clock.landing,
        onblocks_time: clock.onblocks,
        landings: Number(pick('landings', 0) ?? 0),
        night_landings: Number(pick('night_landings', 0) ?? 0),
        callsign: pick('callsign', null),
        remarks: pick('remarks', null),
        route: pick('route', null),
      },
      { today: DateTime.now().setZone(zone).toISODate() ?? '' },
    );
    for (const [k, m] of Object.entries(problems)) if (!errors[`Flight.${k}`]) fail(`Flight.${k}`, m);
  }
  const timed = date && !errors['Flight.date'] ? instantsFromClock(date, clock, zone) : null;
  if (timed && !timed.ok)
    for (const [k, m] of Object.entries(timed.errors)) if (!errors[`Flight.${k}`]) fail(`Flight.${k}`, m);

  const aircraftId = pick('aircraft_id', null);
  const typeId = pick('flight_type_id', null);
  const people = {
    pic_id: pick('pic_id', null),
    sic_id: pick('sic_id', null),
    supervisor_id: pick('supervisor_id', null),
  };
  const departure = pick('departure_airport', null);
  const arrival = pick('landing_airport', null);

  const aircraft = aircraftId
    ? await db
        .selectFrom('aircraft')
        .select(['id', 'base_id', 'multiengine'])
        .where('company_id', '=', actor.companyId)
        .where('id', '=', aircraftId)
        .where('deleted', '=', 0)
        .executeTakeFirst()
    : undefined;
  if (aircraftId && !aircraft) fail('Flight.aircraft_id', 'Unknown aircraft in your company');
  if (typeId) {
    const type = await db
      .selectFrom('flight_types')
      .select(['id', 'deleted'])
      .where('company_id', '=', actor.companyId)
      .where('id', '=', typeId)
      .executeTakeFirst();
    if (!type) fail('Flight.flight_type_id', 'Unknown flight type in your company');
    else if (type.deleted && typeId !== current?.flight_type_id)
      fail('Flight.flight_type_id', 'This flight type was deleted');
  }
  const userIds = [...new Set(Object.values(people).filter((v): v is string => !!v))];
  const users = userIds.length
    ? await db
        .selectFrom('users')
        .select('id')
        .where('company_id', '=', actor.companyId)
        .where('id', 'in', userIds)
        .where('deleted', '=', 0)
        .execute()
    : [];
  for (const [k, v] of Object.entries(people))
    if (v && !users.some((u) => u.id === v)) fail(`Flight.${k}`, 'Unknown user in your company');
  if (people.pic_id && people.pic_id === people.sic_id) fail('Flight.sic_id', 'The SIC cannot be the PIC');
  const dep = departure ? getAirport(departure) : null;
  const arr = arrival ? getAirport(arrival) : null;
  if (departure && !dep) fail('Flight.departure_airport', `Unknown airport ${departure}`);
  if (arrival && !arr) fail('Flight.landing_airport', `Unknown airport ${arrival}`);
  if (Object.keys(errors).length || !date) throw refusal(errors);

  if (!timed?.ok) throw refusal(errors);
  const at = timed.at;
  const blockTime = at.block_time;
  const flightTime = at.flight_time;
  // Night is airborne time when take-off and landing are known, else the block interval.
  const from = at.takeoff ?? at.offblocks;
  const to = at.takeoff !== null ? at.landing : at.onblocks;
  const timesChanged =
    !current ||
    (['offblocks', 'takeoff', 'landing', 'onblocks'] as const).some((k) => current[k] !== at[k]) ||
    departure !== current.departure_airport ||
    arrival !== current.landing_airport;
  let night: number;
  if (input.night_flight_time !== undefined && input.night_flight_time !== null) night = input.night_flight_time;
  else if (current && input.night_flight_time === undefined && !timesChanged) night = Number(current.night_flight_time);
  else if (dep && arr && from !== null && to !== null) night = nightSeconds({ dep, arr, departure: from, arrival: to });
  else night = 0;
  const airborneCap = flightTime;
  if (night > airborneCap) fail('Flight.night_flight_time', 'Night time cannot exceed the flight time');
  const rules = pick('rules', null);
  const ifr =
    input.ifr_flight_time ??
    (current && input.rules === undefined && !timesChanged
      ? Number(current.ifr_flight_time)
      : rules === 'IFR'
        ? airborneCap
        : 0);
  if (ifr > airborneCap) fail('Flight.ifr_flight_time', 'IFR time cannot exceed the flight time');
  if (Object.keys(errors).length) throw refusal(errors);

  return {
    date,
    status: current?.status ?? input.status ?? 'DRAFT',
    callsign: pick('callsign', null),
    aircraft_id: aircraftId,
    flight_type_id: typeId,
    // The base follows the aircraft; a flight without aircraft keeps what it had.
    base_id: aircraft ? aircraft.base_id : (current?.base_id ?? null),
    ...people,
    user_id: current?.user_id ?? actor.userId,
    departure_airport: departure,
    landing_airport: arrival,
    offblocks: at.offblocks,
    takeoff: at.takeoff,
    landing: at.landing,
    onblocks: at.onblocks,
    starts: at.offblocks ?? at.takeoff ?? midnightIn(date, zone),
    block_time: blockTime,
    flight_time: flightTime,
    night_flight_time: night,
    ifr_flight_time: ifr,
    rules,
    crosscountry:
      input.crosscountry !== undefined
        ? input.crosscountry
          ? 1
          : 0
        : current
          ? current.crosscountry
          : departure && arrival && departure !== arrival
            ? 1
            : 0,
    multiengine: aircraft ? aircraft.multiengine : (current?.multiengine ?? 0),
    landings: pick('landings', 0) ?? 0,
    night_landings: pick('night_landings', 0) ?? 0,
    engine_starts: pick('engine_starts', 0) ?? 0,
    pax: pick('pax', 0) ?? 0,
    oil: pick('oil', null),
    fuel: pick('fuel', null),
    cargo: pick('cargo', null),
    route: pick('route', null),
    remarks: pick('remarks', null),
    pf: pick('pf', null),
  };
}

/** The invariants of a LANDED flight (Part B 3.1 confirm): block time, aircraft and PIC. */
export function landedProblems(
  f: Pick<Values, 'block_time' | 'aircraft_id' | 'pic_id' | 'offblocks' | 'onblocks'>,
): string | null {
  if (f.offblocks === null || f.onblocks === null || !(f.block_time > 0))
    return 'A confirmed flight needs its block times';
  if (!f.aircraft_id) return 'A confirmed flight needs an aircraft';
  if (!f.pic_id) return 'A confirmed flight needs a PIC';
  return null;
}

export interface SaveOptions {
  /** Client-generated id of a new flight (offline create); REST creates get a fresh one. */
  newId?: string;
  /**
   * The caller's own rules already authorized this write (a schedule booking
   * creating or moving its SCHEDULED flight): the flight permission checks are skipped.
   */
  trusted?: boolean;
}

/**
 * POST /flights/edit.json and the flights collection's push: creates when no
 * id is given, edits otherwise. Permissions (docs/areas/flights.md): create
 * needs Flight.create; roles above 170 log only flights they crew; a LANDED
 * flight changes only with Flight.edit, and then keeps the confirm invariants
 * and moves the aircraft books by the difference. Posting DRAFT or SCHEDULED
 * on a LANDED flight returns it to unconfirmed (books reversed).
 */
export async function saveFlight(
  uow: UnitOfWork,
  actor: Actor,
  input: TFlightFields,
  opts: SaveOptions = {},
): Promise<{ id: string; created: boolean; changed: boolean }> {
  const trx = uow.trx;
  const who = await flightActor(trx, actor);
  const current = input.id ? await loadFlightRow(trx, actor.companyId, input.id) : undefined;
  if (input.id && !current) throw notFound('Flight not found');
  if (opts.trusted) {
    if (current && (current.status === 'CANCELED' || current.status === 'DELETED'))
      throw badRequest('A canceled or deleted flight cannot be edited');
  } else if (!current) {
    if (!mayCreateFlight(who))
      throw new HttpError(403, { result: false, ...said('errors.missingPermission', { permission: 'Flight.create' }) });
  } else {
    if (!reachesFlight(who, current)) throw forbidden('You can only change flights you are involved in');
    if (current.status === 'CANCELED' || current.status === 'DELETED')
      throw badRequest('A canceled or deleted flight cannot be edited');
    if (!mayEditFlight(who, current))
      throw forbidden(
        current.status === 'LANDED'
          ? 'Only users with permission Flight.edit can change a confirmed flight'
          : 'You are not allowed to edit this flight',
      );
  }
  // Bookings (trusted) follow the scheduling rules; a flight saved directly follows the flight form's.
  const values = await resolveValues(trx, actor, input, current ?? null, { complete: !opts.trusted });
  if (!opts.trusted && !mayLogFlightWith(who, values))
    throw forbidden('You can only log flights in which you are PIC, SIC or supervisor');

  const now = nowSeconds();
  if (!current) {
    const id = opts.newId ?? uuidv7();
    const clash = await trx.selectFrom('flights').select('company_id').where('id', '=', id).executeTakeFirst();
    if (clash) throw badRequest('A flight with this id already exists');
    await trx
      .insertInto('flights')
      .values({
        ...values,
        id,
        company_id: actor.companyId,
        change_no: await uow.changeNo(actor.companyId, 'flights'),
        deleted: 0,
        created: now,
        modified: now,
        confirmed_at: null,
        confirmed_by: null,
        dispatched_at: null,
        dispatched_by: null,
      })
      .execute();
    await adjustFlightCount(trx, actor.companyId, values.status, 1);
    await rememberAirports(uow, actor.companyId, [values.departure_airport, values.landing_airport]);
    await recordChange(uow, { companyId: actor.companyId, flightId: id, userId: actor.userId, action: 'create' });
    return { id, created: true, changed: true };
  }

  const wasLanded = current.status === 'LANDED';
  // DRAFT or SCHEDULED may be posted on any open flight; on a LANDED one it returns it to unconfirmed.
  const status = input.status ?? current.status;
  const next = { ...values, status };
  const reverting = wasLanded && status !== 'LANDED';
  if (status === 'LANDED') {
    const problem = landedProblems(next);
    if (problem) throw badRequest(problem);
    await uow.changeNo(actor.companyId, 'flights'); // the company's write lock before the overlap read
    await assertNoOverlap(trx, actor, {
      id: current.id,
      aircraft_id: next.aircraft_id,
      offblocks: next.offblocks,
      onblocks: next.onblocks,
      date: next.date,
    });
  }
  const fields = diffFields(current, next);
  if (!fields.length) return { id: current.id, created: false, changed: false };
  const set: Updateable<FlightsTable> = {
    ...next,
    modified: now,
    change_no: await uow.changeNo(actor.companyId, 'flights'),
  };
  if (reverting) Object.assign(set, { confirmed_at: null, confirmed_by: null });
  await trx
    .updateTable('flights')
    .set(set)
    .where('company_id', '=', actor.companyId)
    .where('id', '=', current.id)
    .execute();
  if (status !== current.status) {
    await adjustFlightCount(trx, actor.companyId, current.status, -1);
    await adjustFlightCount(trx, actor.companyId, status, 1);
  }
  await rebook(uow, actor.companyId, bookOf(current), bookOf(next));
  await rememberAirports(uow, actor.companyId, [next.departure_airport, next.landing_airport]);
  await recordChange(uow, {
    companyId: actor.companyId,
    flightId: current.id,
    userId: actor.userId,
    action: reverting ? 'revert' : 'edit',
    fields,
  });
  return { id: current.id, created: false, changed: true };
}
