import type { HeldCertificate } from '@ops/shared/rules/flight-types/compliance';
import type { RequiredCertificatePair, RequirementSeat } from '@ops/shared/rules/flight-types/required-certificates';
import type { CurrencyFlight } from '@ops/shared/rules/pilots/currency';
import type { MaintenanceFacts } from '@ops/shared/rules/readiness/readiness';
import { type ReadinessSettings, readSettings } from '@ops/shared/rules/readiness/settings';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import './readiness.tables.ts';

/**
 * Company-scoped SQL of readiness: each fact is one indexed read bounded by
 * the person, the aircraft or the flight type (company id first), so one
 * flight's answer costs a dozen small queries whatever the company's history.
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

/** The flight row and its readiness context in one round trip (the GET endpoint); undefined: no such flight here. */
export async function flightWithContext(db: Kysely<DB>, companyId: string, flightId: string) {
  const row = await db
    .selectFrom('flights as f')
    .selectAll('f')
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
    .where('f.deleted', '=', 0)
    .executeTakeFirst();
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

export async function balanceOf(db: Kysely<DB>, companyId: string, userId: string) {
  const row = await db
    .selectFrom('billing_accounts')
    .select(['balance', 'currency'])
    .where('company_id', '=', companyId)
    .where('user_id', '=', userId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  return row ? { balance: Number(row.balance), currency: row.currency } : null;
}

export async function certificatesOf(
  db: Kysely<DB>,
  companyId: string,
  flightTypeId: string,
  people: readonly string[],
): Promise<{ required: RequiredCertificatePair[]; held: Record<string, HeldCertificate[]> }> {
  const required = await db
    .selectFrom('flight_type_certificates')
    .select(['role', 'certificate_type'])
    .where('company_id', '=', companyId)
    .where('flight_type_id', '=', flightTypeId)
    .execute();
  const held: Record<string, HeldCertificate[]> = {};
  if (required.length && people.length) {
    const rows = await db
      .selectFrom('user_certificates')
      .select(['user_id', 'type', 'issue', 'expiration'])
      .where('company_id', '=', companyId)
      .where('user_id', 'in', [...people])
      .where('type', 'in', [...new Set(required.map((r) => r.certificate_type))])
      .where('deleted', '=', 0)
      .execute();
    for (const r of rows) {
      const list = held[r.user_id] ?? [];
      list.push({ type: r.type, issue: r.issue, expiration: r.expiration });
      held[r.user_id] = list;
    }
  }
  return {
    required: required.map((r) => ({ role: r.role as RequirementSeat, certificate_type: r.certificate_type })),
    held,
  };
}

/** The PIC's LANDED flights with off-blocks in [from, to) (index company_id, pic_id, offblocks). */
export async function recentFlightsOf(
  db: Kysely<DB>,
  companyId: string,
  picId: string,
  from: number,
  to: number,
): Promise<CurrencyFlight[]> {
  const rows = await db
    .selectFrom('flights')
    .select(['onblocks', 'offblocks', 'landings', 'night_landings', 'block_time'])
    .where('company_id', '=', companyId)
    .where('pic_id', '=', picId)
    .where('offblocks', '>=', from)
    .where('offblocks', '<', to)
    .where('status', '=', 'LANDED')
    .where('deleted', '=', 0)
    .execute();
  return rows.map((r) => ({
    onblocks: Number(r.onblocks ?? r.offblocks),
    landings: Number(r.landings),
    night_landings: Number(r.night_landings),
    block_time: Number(r.block_time),
  }));
}

/**
 * The aircraft's maintenance facts: open jobs, the programme items linked to
 * it with their last signed job, and the hours flown since each of those
 * (one SUM per distinct date, on company_id, aircraft_id, status, offblocks).
 */
export async function maintenanceOf(db: Kysely<DB>, companyId: string, aircraftId: string): Promise<MaintenanceFacts> {
  // Open and signed jobs in one read (split here); the linked programme items in another.
  const jobs = await db
    .selectFrom('maintenance_jobs')
    .select(['name', 'start', 'crs_signed', 'maintenance_plan_id', 'finish', 'crs_signed_at', 'crs_expiration'])
    .where('company_id', '=', companyId)
    .where('aircraft_id', '=', aircraftId)
    .where('deleted', '=', 0)
    .execute();
  const open = jobs.filter((j) => Number(j.crs_signed) === 0);
  const signed = jobs.filter((j) => Number(j.crs_signed) === 1 && j.maintenance_plan_id !== null);
  const plans = await db
    .selectFrom('plan_aircraft as pa')
    .innerJoin('maintenance_plans as p', (j) =>
      j.onRef('p.id', '=', 'pa.maintenance_plan_id').on('p.company_id', '=', companyId),
    )
    .select(['p.id', 'p.name', 'p.hours_interval', 'p.repeat'])
    .where('pa.company_id', '=', companyId)
    .where('pa.aircraft_id', '=', aircraftId)
    .where('p.deleted', '=', 0)
    .execute();
  const last = new Map<string, { done: number; crs: number | null }>();
  for (const j of signed) {
    const done = Number(j.finish ?? j.crs_signed_at ?? 0);
    const prev = last.get(j.maintenance_plan_id as string);
    if (!prev || done > prev.done)
      last.set(j.maintenance_plan_id as string, {
        done,
        crs: j.crs_expiration === null ? null : Number(j.crs_expiration),
      });
  }
  const since = new Map<number, number>();
  for (const p of plans) {
    const l = last.get(p.id);
    if (!l || p.hours_interval === null || since.has(l.done)) continue;
    const r = await db
      .selectFrom('flights')
      .select((eb) => eb.fn.sum<number | string>('flight_time').as('s'))
      .where('company_id', '=', companyId)
      .where('aircraft_id', '=', aircraftId)
      .where('status', '=', 'LANDED')
      .where('offblocks', '>=', l.done)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    since.set(l.done, Number(r?.s ?? 0) / 3600);
  }
  return {
    open_jobs: open.map((j) => ({ name: j.name, start: j.start === null ? null : Number(j.start) })),
    plans: plans.map((p) => {
      const l = last.get(p.id);
      return {
        name: p.name,
        hours_interval: p.hours_interval === null ? null : Number(p.hours_interval),
        repeat: p.repeat,
        last_done: l?.done ?? null,
        crs_expiration: l?.crs ?? null,
        hours_since: l ? (since.get(l.done) ?? null) : null,
      };
    }),
  };
}

/** Limitation codes of open MEL items (index company_id, mel_item_id). */
export async function limitationsOf(
  db: Kysely<DB>,
  companyId: string,
  melItemIds: readonly string[],
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (!melItemIds.length) return out;
  const rows = await db
    .selectFrom('mel_item_limitations')
    .select(['mel_item_id', 'code'])
    .where('company_id', '=', companyId)
    .where('mel_item_id', 'in', [...melItemIds])
    .execute();
  for (const r of rows) out.set(r.mel_item_id, [...(out.get(r.mel_item_id) ?? []), r.code]);
  return out;
}

/** The last METAR and TAF the server holds for an airport (the weather cache; never the provider). */
export async function heldWeather(db: Kysely<DB>, icao: string) {
  const rows = await db
    .selectFrom('weather_cache')
    .select(['key', 'body', 'fetched', 'expires'])
    .where('key', 'in', [`metar:${icao}`, `taf:${icao}`])
    .execute();
  const pick = (kind: string) => {
    const r = rows.find((x) => x.key === `${kind}:${icao}`);
    if (!r) return null;
    try {
      const body = JSON.parse(r.body) as unknown;
      return Array.isArray(body) && typeof body[0] === 'string'
        ? { raw: body[0], fetched: Number(r.fetched), expires: Number(r.expires) }
        : null;
    } catch {
      return null;
    }
  };
  return { metar: pick('metar'), taf: pick('taf') };
}

/** The pilot groups a person belongs to (index company_id, user_id), for group weather minimums. */
export async function groupsOf(db: Kysely<DB>, companyId: string, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('pilot_group_members')
    .select('pilot_group_id')
    .where('company_id', '=', companyId)
    .where('user_id', '=', userId)
    .execute();
  return rows.map((r) => r.pilot_group_id);
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
