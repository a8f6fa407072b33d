import type { HeldCertificate } from '@ops/shared/rules/flight-types/compliance';
import type { RequirementSeat } from '@ops/shared/rules/flight-types/required-certificates';
import type { CurrencyFlight } from '@ops/shared/rules/pilots/currency';
import type { MaintenanceFacts } from '@ops/shared/rules/readiness/readiness';
import { type ReadinessSettings, readSettings } from '@ops/shared/rules/readiness/settings';
import { type Kysely, PostgresAdapter } from 'kysely';
import { jsonArrayFrom as pgArrayFrom, jsonObjectFrom as pgObjectFrom } from 'kysely/helpers/postgres';
import { jsonArrayFrom as sqliteArrayFrom, jsonObjectFrom as sqliteObjectFrom } from 'kysely/helpers/sqlite';
import { executeNamed } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import { groundingReportsQuery, openMelItemsQuery } from '../aircraft-reports/aircraft-block.service.ts';
import {
  bookingSeatQuery,
  bookingSpansOf,
  crewFlightsOf,
  dutyEntriesQuery,
  entrySpansOf,
  flightSecondsQuery,
  landedCrewQuery,
  otherCrewQuery,
  secondsByPerson,
} from '../duty/duty.repository.ts';
import './readiness.tables.ts';

/**
 * Company-scoped SQL of readiness: each fact is an indexed read bounded by
 * the person, the aircraft or the flight type (company id first). The facts
 * of readiness's own tables come in one statement (`readinessReads`): on
 * PostgreSQL each statement costs the server ~0.3 ms of Node CPU (build,
 * compile, protocol, rows) whatever it reads, so fewer statements is what
 * makes an answer cheap.
 */

const parseSettings = (raw: string | null | undefined): ReadinessSettings => {
  if (!raw) return readSettings(null);
  try {
    return readSettings(JSON.parse(raw));
  } catch {
    return readSettings(null);
  }
};

export async function loadSettings(db: Kysely<DB>, companyId: string): Promise<ReadinessSettings> {
  const row = await db
    .selectFrom('readiness_settings')
    .select('settings')
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  return parseSettings(row?.settings);
}

/**
 * The small facts every answer needs, in one round trip (scalar subqueries,
 * each on a primary key or a company-first index): the policy, the booking
 * made for the flight, the aircraft's simulator flag and the duty limits.
 */
export async function readinessContext(
  db: Kysely<DB>,
  companyId: string,
  refs: { flightId: string | null; aircraftId: string | null },
) {
  const row = await db
    .selectNoFrom((eb) => [
      eb.selectFrom('readiness_settings').select('settings').where('company_id', '=', companyId).as('settings'),
      eb
        .selectFrom('schedules')
        .select('id')
        .where('company_id', '=', companyId)
        .where('flight_id', '=', refs.flightId ?? '')
        .limit(1)
        .as('booking_id'),
      eb
        .selectFrom('aircraft')
        .select('simulator')
        .where('company_id', '=', companyId)
        .where('id', '=', refs.aircraftId ?? '')
        .as('simulator'),
      eb.selectFrom('companies').select('max_duty_hours').where('id', '=', companyId).as('max_duty_hours'),
      eb
        .selectFrom('companies')
        .select('max_flight_hours_year')
        .where('id', '=', companyId)
        .as('max_flight_hours_year'),
      eb.selectFrom('companies').select('timezone').where('id', '=', companyId).as('timezone'),
    ])
    .executeTakeFirstOrThrow();
  return {
    settings: parseSettings(row.settings),
    bookingId: refs.flightId ? (row.booking_id ?? null) : null,
    simulator: Number(row.simulator ?? 0) === 1,
    limits: {
      max_duty_hours: row.max_duty_hours === null ? null : Number(row.max_duty_hours),
      max_flight_hours_year: row.max_flight_hours_year === null ? null : Number(row.max_flight_hours_year),
      timezone: row.timezone ?? 'UTC',
    },
  };
}
export type ReadinessContext = Awaited<ReturnType<typeof readinessContext>>;
export type SubjectFlight = NonNullable<Awaited<ReturnType<typeof flightWithContext>>>['flight'];

type JsonList<T> = T[] | string | null;
/** SQLite answers the JSON helpers as text; PostgreSQL's driver has parsed them already. */
function fromJson<T>(v: JsonList<T>): T[];
function fromJson<T>(v: T | string | null): T | null;
function fromJson<T>(v: T | string | null): T | null {
  return typeof v === 'string' ? (JSON.parse(v) as T) : (v ?? null);
}

/**
 * The flight's columns readiness uses: the rule's subject (`subjectOfFlight`)
 * and who may reach it (`reachesFlight`). Not the whole row: PostgreSQL's
 * driver parses every column's description anew for each answer.
 */
const SUBJECT_COLUMNS = [
  'f.id',
  'f.offblocks',
  'f.onblocks',
  'f.starts',
  'f.block_time',
  'f.aircraft_id',
  'f.flight_type_id',
  'f.pic_id',
  'f.sic_id',
  'f.supervisor_id',
  'f.user_id',
  'f.pax',
  'f.night_flight_time',
  'f.departure_airport',
] as const;

/** The flight (its subject columns) and its readiness context in one round trip; undefined: no such flight here. */
export async function flightWithContext(db: Kysely<DB>, companyId: string, flightId: string) {
  const query = db
    .selectFrom('flights as f')
    .select(SUBJECT_COLUMNS)
    .select((eb) => [
      eb.selectFrom('readiness_settings').select('settings').where('company_id', '=', companyId).as('rc_settings'),
      eb
        .selectFrom('schedules as s')
        .select('s.id')
        .where('s.company_id', '=', companyId)
        .whereRef('s.flight_id', '=', 'f.id')
        .limit(1)
        .as('rc_booking_id'),
      eb
        .selectFrom('aircraft as a')
        .select('a.simulator')
        .where('a.company_id', '=', companyId)
        .whereRef('a.id', '=', 'f.aircraft_id')
        .as('rc_simulator'),
      eb.selectFrom('companies').select('max_duty_hours').where('id', '=', companyId).as('rc_max_duty_hours'),
      eb
        .selectFrom('companies')
        .select('max_flight_hours_year')
        .where('id', '=', companyId)
        .as('rc_max_flight_hours_year'),
      eb.selectFrom('companies').select('timezone').where('id', '=', companyId).as('rc_timezone'),
    ])
    .where('f.company_id', '=', companyId)
    .where('f.id', '=', flightId)
    .where('f.deleted', '=', 0);
  // Named on PostgreSQL too: one text for every flight, and its plan (six subqueries) costs more than its run.
  const [row] = await executeNamed(db, 'readiness_flight', query);
  if (!row) return undefined;
  const {
    rc_settings,
    rc_booking_id,
    rc_simulator,
    rc_max_duty_hours,
    rc_max_flight_hours_year,
    rc_timezone,
    ...flight
  } = row;
  const context: ReadinessContext = {
    settings: parseSettings(rc_settings),
    bookingId: rc_booking_id ?? null,
    simulator: Number(rc_simulator ?? 0) === 1,
    limits: {
      max_duty_hours: rc_max_duty_hours === null ? null : Number(rc_max_duty_hours),
      max_flight_hours_year: rc_max_flight_hours_year === null ? null : Number(rc_max_flight_hours_year),
      timezone: rc_timezone ?? 'UTC',
    },
  };
  return { flight, context };
}

/** What one answer asks of readiness's own tables; a part left null is not read. */
export interface ReadsWanted {
  /** People aboard and billed: names and roles. */
  people: readonly string[];
  /** The billed person, for BALANCE. */
  balanceOf: string | null;
  /** The flight type's required certificates and what the seated people hold of them (CERTIFICATES). */
  certificates: { flightTypeId: string; seated: readonly string[] } | null;
  /** The PIC's LANDED flights with off-blocks in [from, to) (CURRENCY). */
  currency: { picId: string; from: number; to: number } | null;
  /** The aircraft whose open jobs and programme items are read (MAINTENANCE). */
  maintenanceOf: string | null;
  /** The person whose pilot groups are read (WEATHER group minimums). */
  groupsOf: string | null;
  /** The airport whose cached METAR and TAF are read (WEATHER). */
  weatherAt: string | null;
  /** The aircraft whose open MEL/CDL items, their limitations and its grounding reports are read (MEL). */
  melOf: string | null;
  /** The crew and windows of the duty area's reads (DUTY): the same statements as its booking check. */
  duty: DutyReads | null;
}

/** What the duty rule reads for the crew: their duty in [from, to), their flight seconds in [yearFrom, yearTo). */
export interface DutyReads {
  people: readonly string[];
  from: number;
  to: number;
  yearFrom: number;
  yearTo: number;
  /** The subject itself, left out of the crew's other duty. */
  except: { bookingId?: string; flightId?: string };
}

/**
 * Every fact readiness reads from its own tables for one subject, in one
 * statement of JSON subqueries (Kysely's helpers of each dialect), each on a
 * company-first index. MAINTENANCE is summed in SQL: per programme item the
 * last signed job (the latest of finish, else CRS date) and the aircraft's
 * LANDED flight time since it, so the signed history is never sent.
 */
export async function readinessReads(db: Kysely<DB>, companyId: string, w: ReadsWanted) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  // The helpers of both dialects take and give the same types; only their SQL differs.
  const arrayFrom = pg ? pgArrayFrom : sqliteArrayFrom;
  const objectFrom = pg ? pgObjectFrom : sqliteObjectFrom;
  const none = '';
  const aircraftId = w.maintenanceOf ?? none;
  const melOf = w.melOf ?? none;
  // Not wanted: no one in an empty window, so each duty subquery is an index probe that finds nothing.
  const duty: DutyReads = w.duty ?? { people: [none], from: 0, to: 0, yearFrom: 0, yearTo: 0, except: {} };
  const openMel = openMelItemsQuery(db, companyId).where('r.aircraft_id', '=', melOf);
  const query = db.selectNoFrom((eb) => [
    arrayFrom(
      eb
        .selectFrom('users')
        .select(['id', 'name', 'surname', 'user_group_id'])
        .where('company_id', '=', companyId)
        .where('id', 'in', w.people.length ? [...w.people] : [none]),
    ).as('people'),
    objectFrom(
      eb
        .selectFrom('billing_accounts')
        .select(['balance', 'currency'])
        .where('company_id', '=', companyId)
        .where('user_id', '=', w.balanceOf ?? none)
        .where('deleted', '=', 0)
        .limit(1),
    ).as('balance'),
    arrayFrom(
      eb
        .selectFrom('flight_type_certificates')
        .select(['role', 'certificate_type'])
        .where('company_id', '=', companyId)
        .where('flight_type_id', '=', w.certificates?.flightTypeId ?? none),
    ).as('required'),
    arrayFrom(
      eb
        .selectFrom('user_certificates as uc')
        .select(['uc.user_id', 'uc.type', 'uc.issue', 'uc.expiration'])
        .where('uc.company_id', '=', companyId)
        .where('uc.user_id', 'in', w.certificates?.seated.length ? [...w.certificates.seated] : [none])
        .where('uc.deleted', '=', 0)
        .where('uc.type', 'in', (sq) =>
          sq
            .selectFrom('flight_type_certificates as ftc')
            .select('ftc.certificate_type')
            .where('ftc.company_id', '=', companyId)
            .where('ftc.flight_type_id', '=', w.certificates?.flightTypeId ?? none),
        ),
    ).as('held'),
    arrayFrom(
      eb
        .selectFrom('flights')
        .select(['onblocks', 'offblocks', 'landings', 'night_landings', 'block_time'])
        .where('company_id', '=', companyId)
        .where('pic_id', '=', w.currency?.picId ?? none)
        .where('offblocks', '>=', w.currency?.from ?? 0)
        .where('offblocks', '<', w.currency?.to ?? 0)
        .where('status', '=', 'LANDED')
        .where('deleted', '=', 0),
    ).as('recent'),
    arrayFrom(
      eb
        .selectFrom('maintenance_jobs')
        .select(['name', 'start'])
        .where('company_id', '=', companyId)
        .where('aircraft_id', '=', aircraftId)
        .where('crs_signed', '=', 0)
        .where('deleted', '=', 0),
    ).as('open_jobs'),
    arrayFrom(programmeItems(db, companyId, aircraftId)).as('plans'),
    arrayFrom(
      eb
        .selectFrom('pilot_group_members')
        .select('pilot_group_id')
        .where('company_id', '=', companyId)
        .where('user_id', '=', w.groupsOf ?? none),
    ).as('groups'),
    arrayFrom(
      eb
        .selectFrom('weather_cache')
        .select(['key', 'body', 'fetched', 'expires'])
        .where('key', 'in', w.weatherAt ? [`metar:${w.weatherAt}`, `taf:${w.weatherAt}`] : [none]),
    ).as('weather'),
    arrayFrom(openMel).as('mel_items'),
    arrayFrom(
      eb
        .selectFrom('mel_item_limitations')
        .select(['mel_item_id', 'code'])
        .where('company_id', '=', companyId)
        .where('mel_item_id', 'in', openMel.clearSelect().clearOrderBy().select('m.id')),
    ).as('mel_limitations'),
    arrayFrom(groundingReportsQuery(db, companyId, melOf)).as('grounding'),
    arrayFrom(dutyEntriesQuery(db, companyId, duty.people, duty.from, duty.to)).as('duty_entries'),
    arrayFrom(landedCrewQuery(db, companyId, duty.people, duty.from, duty.to, duty.except.flightId)).as('duty_landed'),
    arrayFrom(otherCrewQuery(db, companyId, ['DISPATCHED'], duty.from, duty.to, duty.except.flightId)).as(
      'duty_dispatched',
    ),
    arrayFrom(bookingSeatQuery(db, companyId, 'pilot_id', duty.people, duty.from, duty.to, duty.except)).as(
      'duty_booked_pilot',
    ),
    arrayFrom(bookingSeatQuery(db, companyId, 'instructor_id', duty.people, duty.from, duty.to, duty.except)).as(
      'duty_booked_instructor',
    ),
    arrayFrom(flightSecondsQuery(db, companyId, duty.people, duty.yearFrom, duty.yearTo)).as('duty_seconds'),
  ]);
  // Named: PostgreSQL plans these ~20 subqueries in about twice the time it runs them, so the plan is kept.
  const [row] = await executeNamed(db, 'readiness_reads', query);
  if (!row) throw new Error('readinessReads: no row');
  const balance = fromJson(row.balance);
  const held: Record<string, HeldCertificate[]> = {};
  for (const r of fromJson(row.held)) {
    const list = held[r.user_id] ?? [];
    list.push({ type: r.type, issue: r.issue, expiration: r.expiration });
    held[r.user_id] = list;
  }
  return {
    people: fromJson(row.people).map((p) => ({ ...p, user_group_id: Number(p.user_group_id) })),
    balance: balance ? { balance: Number(balance.balance), currency: balance.currency } : null,
    certificates: {
      required: fromJson(row.required).map((r) => ({
        role: r.role as RequirementSeat,
        certificate_type: r.certificate_type,
      })),
      held,
    },
    recent: fromJson(row.recent).map(
      (r): CurrencyFlight => ({
        onblocks: Number(r.onblocks ?? r.offblocks),
        landings: Number(r.landings),
        night_landings: Number(r.night_landings),
        block_time: Number(r.block_time),
      }),
    ),
    maintenance: {
      open_jobs: fromJson(row.open_jobs).map((j) => ({
        name: j.name,
        start: j.start === null ? null : Number(j.start),
      })),
      plans: fromJson(row.plans).map((p) => ({
        name: p.name,
        hours_interval: p.hours_interval === null ? null : Number(p.hours_interval),
        repeat: p.repeat,
        last_done: p.last_done === null ? null : Number(p.last_done),
        crs_expiration: p.crs_expiration === null ? null : Number(p.crs_expiration),
        // flight_time is in seconds; an item never done has no baseline.
        hours_since: p.last_done === null || p.seconds_since === null ? null : Number(p.seconds_since) / 3600,
      })),
    } satisfies MaintenanceFacts,
    groups: fromJson(row.groups).map((g) => g.pilot_group_id),
    weather: fromJson(row.weather),
    mel: {
      items: fromJson(row.mel_items),
      grounding: fromJson(row.grounding),
      limitations: limitationsByItem(fromJson(row.mel_limitations)),
    },
    duty: {
      entries: entrySpansOf(fromJson(row.duty_entries)),
      flights: crewFlightsOf(duty.people, {
        landed: fromJson(row.duty_landed),
        others: fromJson(row.duty_dispatched),
      }),
      bookings: bookingSpansOf([...fromJson(row.duty_booked_pilot), ...fromJson(row.duty_booked_instructor)]),
      yearSeconds: secondsByPerson(duty.people, fromJson(row.duty_seconds)),
    },
  };
}

const limitationsByItem = (rows: readonly { mel_item_id: string; code: string }[]): Map<string, string[]> => {
  const out = new Map<string, string[]>();
  for (const r of rows) out.set(r.mel_item_id, [...(out.get(r.mel_item_id) ?? []), r.code]);
  return out;
};
export type ReadinessReads = Awaited<ReturnType<typeof readinessReads>>;

/**
 * The programme items linked to the aircraft, each with its last signed job
 * (done = finish, else the CRS date) and, for items with an hours interval,
 * the aircraft's LANDED flight seconds since then (index company_id,
 * aircraft_id, status, offblocks).
 */
function programmeItems(db: Kysely<DB>, companyId: string, aircraftId: string) {
  return db
    .selectFrom((qb) =>
      qb
        .selectFrom('plan_aircraft as pa')
        .innerJoin('maintenance_plans as p', (j) =>
          j.onRef('p.id', '=', 'pa.maintenance_plan_id').on('p.company_id', '=', companyId),
        )
        .select((eb) => [
          'p.id',
          'p.name',
          'p.hours_interval',
          'p.repeat',
          eb
            .selectFrom('maintenance_jobs as j')
            .select((e) => e.fn.max(e.fn.coalesce('j.finish', 'j.crs_signed_at', e.lit(0))).as('done'))
            .where('j.company_id', '=', companyId)
            .where('j.aircraft_id', '=', aircraftId)
            .whereRef('j.maintenance_plan_id', '=', 'p.id')
            .where('j.crs_signed', '=', 1)
            .where('j.deleted', '=', 0)
            .as('last_done'),
          eb
            .selectFrom('maintenance_jobs as j')
            .select('j.crs_expiration')
            .where('j.company_id', '=', companyId)
            .where('j.aircraft_id', '=', aircraftId)
            .whereRef('j.maintenance_plan_id', '=', 'p.id')
            .where('j.crs_signed', '=', 1)
            .where('j.deleted', '=', 0)
            .orderBy((e) => e.fn.coalesce('j.finish', 'j.crs_signed_at', e.lit(0)), 'desc')
            .limit(1)
            .as('crs_expiration'),
        ])
        .where('pa.company_id', '=', companyId)
        .where('pa.aircraft_id', '=', aircraftId)
        .where('p.deleted', '=', 0)
        .as('lp'),
    )
    .select((eb) => [
      'lp.name',
      'lp.hours_interval',
      'lp.repeat',
      'lp.last_done',
      'lp.crs_expiration',
      eb
        .case()
        .when('lp.hours_interval', 'is', null)
        .then(null)
        .else(
          eb
            .selectFrom('flights as f')
            .select((e) => e.fn.coalesce(e.fn.sum<number | string>('f.flight_time'), e.lit(0)).as('s'))
            .where('f.company_id', '=', companyId)
            .where('f.aircraft_id', '=', aircraftId)
            .where('f.status', '=', 'LANDED')
            .whereRef('f.offblocks', '>=', 'lp.last_done')
            .where('f.deleted', '=', 0),
        )
        .end()
        .as('seconds_since'),
    ]);
}

export async function storeSettings(
  uow: UnitOfWork,
  companyId: string,
  settings: ReadinessSettings,
  userId: string,
  now: number,
): Promise<void> {
  const values = {
    settings: JSON.stringify(settings),
    modified: now,
    modified_by: userId,
    change_no: await uow.changeNo(companyId, 'readiness_settings'),
  };
  await uow.trx
    .insertInto('readiness_settings')
    .values({ company_id: companyId, ...values })
    .onConflict((oc) => oc.column('company_id').doUpdateSet(values))
    .execute();
}

/**
 * Sends the policy document to devices again because the members of a pilot
 * group changed (it carries the members of the groups with their own
 * minimums). Nothing when the company has no policy or no group minimums.
 */
export async function touchReadiness(uow: UnitOfWork, companyId: string): Promise<void> {
  const row = await uow.trx
    .selectFrom('readiness_settings')
    .select('settings')
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  if (!row || !Object.keys(parseSettings(row.settings).weather.pilot_groups).length) return;
  await uow.trx
    .updateTable('readiness_settings')
    .set({ change_no: await uow.changeNo(companyId, 'readiness_settings') })
    .where('company_id', '=', companyId)
    .execute();
}

/** Members of the given pilot groups, by group (what a device needs for group minimums). */
export async function membersOf(
  db: Kysely<DB>,
  companyId: string,
  groupIds: readonly string[],
): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = Object.fromEntries(groupIds.map((g) => [g, []]));
  if (!groupIds.length) return out;
  const rows = await db
    .selectFrom('pilot_group_members')
    .select(['pilot_group_id', 'user_id'])
    .where('company_id', '=', companyId)
    .where('pilot_group_id', 'in', [...groupIds])
    .orderBy('user_id')
    .execute();
  for (const r of rows) out[r.pilot_group_id]?.push(r.user_id);
  return out;
}

/** The stored row as the sync source reads it (null: the company never chose). */
export async function settingsRow(db: Kysely<DB>, companyId: string) {
  const row = await db
    .selectFrom('readiness_settings')
    .select(['settings', 'change_no', 'modified'])
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  return row
    ? { settings: parseSettings(row.settings), change_no: Number(row.change_no), modified: Number(row.modified) }
    : null;
}

/** Names and roles of the people aboard (active or not: a past flight still names them). */
export async function peopleOf(db: Kysely<DB>, companyId: string, ids: readonly string[]) {
  if (!ids.length) return [];
  return db
    .selectFrom('users')
    .select(['id', 'name', 'surname', 'user_group_id'])
    .where('company_id', '=', companyId)
    .where('id', 'in', [...ids])
    .execute();
}

/** Pilot group ids of the list that are not the company's (a policy naming them is refused). */
export async function unknownGroups(db: Kysely<DB>, companyId: string, ids: readonly string[]): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await db
    .selectFrom('pilot_groups')
    .select('id')
    .where('company_id', '=', companyId)
    .where('id', 'in', [...ids])
    .execute();
  const known = new Set(rows.map((r) => r.id));
  return ids.filter((id) => !known.has(id));
}
