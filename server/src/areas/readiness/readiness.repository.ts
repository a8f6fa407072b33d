import type { HeldCertificate } from '@ops/shared/rules/flight-types/compliance';
import type { RequiredCertificatePair, RequirementSeat } from '@ops/shared/rules/flight-types/required-certificates';
import type { CurrencyFlight } from '@ops/shared/rules/pilots/currency';
import type { MaintenanceFacts } from '@ops/shared/rules/readiness/readiness';
import { type ReadinessSettings, readSettings } from '@ops/shared/rules/readiness/settings';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import './readiness.tables.ts';

/**
 * Company-scoped SQL of readiness: each fact is one indexed read bounded by
 * the person, the aircraft or the flight type (company id first), so one
 * flight's answer costs a dozen small queries whatever the company's history.
 */

export async function loadSettings(db: Kysely<DB>, companyId: string): Promise<ReadinessSettings> {
  const row = await db
    .selectFrom('readiness_settings')
    .select('settings')
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  if (!row) return readSettings(null);
  try {
    return readSettings(JSON.parse(row.settings));
  } catch {
    return readSettings(null);
  }
}

export async function storeSettings(
  db: Kysely<DB>,
  companyId: string,
  settings: ReadinessSettings,
  userId: string,
  now: number,
): Promise<void> {
  const values = { settings: JSON.stringify(settings), modified: now, modified_by: userId };
  await db
    .insertInto('readiness_settings')
    .values({ company_id: companyId, ...values })
    .onConflict((oc) => oc.column('company_id').doUpdateSet(values))
    .execute();
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
  const [open, plans, signed] = await Promise.all([
    db
      .selectFrom('maintenance_jobs')
      .select(['name', 'start'])
      .where('company_id', '=', companyId)
      .where('aircraft_id', '=', aircraftId)
      .where('crs_signed', '=', 0)
      .where('deleted', '=', 0)
      .execute(),
    db
      .selectFrom('plan_aircraft as pa')
      .innerJoin('maintenance_plans as p', (j) =>
        j.onRef('p.id', '=', 'pa.maintenance_plan_id').on('p.company_id', '=', companyId),
      )
      .select(['p.id', 'p.name', 'p.hours_interval', 'p.repeat'])
      .where('pa.company_id', '=', companyId)
      .where('pa.aircraft_id', '=', aircraftId)
      .where('p.deleted', '=', 0)
      .execute(),
    db
      .selectFrom('maintenance_jobs')
      .select(['maintenance_plan_id', 'finish', 'crs_signed_at', 'crs_expiration'])
      .where('company_id', '=', companyId)
      .where('aircraft_id', '=', aircraftId)
      .where('crs_signed', '=', 1)
      .where('deleted', '=', 0)
      .where('maintenance_plan_id', 'is not', null)
      .execute(),
  ]);
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
    .select(['key', 'body', 'fetched'])
    .where('key', 'in', [`metar:${icao}`, `taf:${icao}`])
    .execute();
  const pick = (kind: string) => {
    const r = rows.find((x) => x.key === `${kind}:${icao}`);
    if (!r) return null;
    try {
      const body = JSON.parse(r.body) as unknown;
      return Array.isArray(body) && typeof body[0] === 'string' ? { raw: body[0], fetched: Number(r.fetched) } : null;
    } catch {
      return null;
    }
  };
  return { metar: pick('metar'), taf: pick('taf') };
}
