import { uuidv7 } from '@ops/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import { notFound } from '../../http/errors.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { updateAircraft } from './aircraft.service.ts';
import { CERTIFICATES, certificateColumn } from './aircraft.tables.ts';
import { ZCreate, ZEdit } from './aircraft.schema.ts';
import { unwrapData } from '../../http/body.ts';
import { invalid, parseOr400 } from '../../http/errors.ts';

/**
 * Manager create and edit of aircraft (designed; docs/areas/fleet.md). Body
 * `Aircraft{...}` as JSON, `Aircraft[field]` or `data[Aircraft][field]` form
 * fields. The model is given by `model_id` or by `model_name` (reused when a
 * model of that name exists, else created under `manufacturer_name`).
 */

const aircraftOf = (raw: unknown) => {
  const b = unwrapData(raw);
  return (b.Aircraft && typeof b.Aircraft === 'object' ? b.Aircraft : b) as Record<string, unknown>;
};

/** Finds or creates the model; `undefined` when neither id nor name was given. */
async function resolveModel(
  trx: Kysely<DB>,
  f: {
    model_id?: string | null;
    model_name?: string | null;
    manufacturer_name?: string | null;
    model_icao?: string | null;
  },
): Promise<string | undefined> {
  if (f.model_id) {
    const m = await trx.selectFrom('aircraft_models').select('id').where('id', '=', f.model_id).executeTakeFirst();
    if (!m) throw invalid({ model_id: ['Unknown aircraft model'] });
    return m.id;
  }
  if (!f.model_name) return undefined;
  const name = f.model_name.trim();
  const existing = await trx
    .selectFrom('aircraft_models')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['name']), '=', name.toLowerCase()))
    .orderBy('id')
    .executeTakeFirst();
  if (existing) return existing.id;
  if (!f.manufacturer_name) throw invalid({ manufacturer_name: ['Required to create a new model'] });
  const maker = f.manufacturer_name.trim();
  let makerId = (
    await trx
      .selectFrom('aircraft_manufacturers')
      .select('id')
      .where((eb) => eb(eb.fn('lower', ['name']), '=', maker.toLowerCase()))
      .orderBy('id')
      .executeTakeFirst()
  )?.id;
  if (!makerId) {
    makerId = uuidv7();
    await trx.insertInto('aircraft_manufacturers').values({ id: makerId, name: maker }).execute();
  }
  const id = uuidv7();
  await trx
    .insertInto('aircraft_models')
    .values({ id, manufacturer_id: makerId, name, icao: f.model_icao ?? null })
    .execute();
  return id;
}

async function registrationFree(trx: Kysely<DB>, companyId: string, reg: string, exceptId: string | null) {
  let q = trx
    .selectFrom('aircraft')
    .select('id')
    .where('company_id', '=', companyId)
    .where('registration', '=', reg)
    .where('deleted', '=', 0);
  if (exceptId) q = q.where('id', '!=', exceptId);
  if (await q.executeTakeFirst())
    throw invalid({ registration: [`${reg} is already used by another aircraft of your company`] });
}

async function checkRefs(trx: Kysely<DB>, companyId: string, f: { base_id?: string | null; user_id?: string | null }) {
  if (f.base_id) {
    const b = await trx
      .selectFrom('bases')
      .select('id')
      .where('company_id', '=', companyId)
      .where('id', '=', f.base_id)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (!b) throw invalid({ base_id: ['Unknown base'] });
  }
  if (f.user_id) {
    const u = await trx
      .selectFrom('users')
      .select('id')
      .where('company_id', '=', companyId)
      .where('id', '=', f.user_id)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (!u) throw invalid({ user_id: ['Unknown user'] });
  }
}

const certificateValues = (
  f: Partial<Record<`${(typeof CERTIFICATES)[number]}_expiration`, string | null | undefined>>,
) => {
  const out: Record<string, string | null> = {};
  for (const c of CERTIFICATES) {
    const v = f[certificateColumn(c)];
    if (v !== undefined) out[certificateColumn(c)] = v;
  }
  return out;
};

export async function createAircraft(uow: UnitOfWork, actor: Actor, raw: unknown): Promise<{ id: string }> {
  const f = parseOr400(ZCreate, aircraftOf(raw));
  const trx = uow.trx;
  await registrationFree(trx, actor.companyId, f.registration, null);
  const modelId = await resolveModel(trx, f);
  if (!modelId) throw invalid({ model_id: ['Give model_id or model_name'] });
  await checkRefs(trx, actor.companyId, f);
  const id = uuidv7();
  const now = nowSeconds();
  await trx
    .insertInto('aircraft')
    .values({
      id,
      company_id: actor.companyId,
      change_no: await uow.changeNo(actor.companyId, 'aircraft'),
      deleted: 0,
      created: now,
      modified: now,
      registration: f.registration,
      model_id: modelId,
      multiengine: f.multiengine ? 1 : 0,
      multipilot: f.multipilot ? 1 : 0,
      simulator: f.simulator ? 1 : 0,
      active: f.active === false ? 0 : 1,
      hours: f.hours ?? 0,
      landings: f.landings ?? 0,
      flights: f.flights ?? 0,
      user_id: f.user_id ?? null,
      base_id: f.base_id ?? null,
      photo: null,
      adsb: f.adsb ?? null,
      serial_number: f.serial_number ?? null,
      insurance_expiration: f.insurance_expiration ?? null,
      airworthiness_expiration: f.airworthiness_expiration ?? null,
      registration_expiration: f.registration_expiration ?? null,
      weight_balance_expiration: f.weight_balance_expiration ?? null,
      radio_expiration: f.radio_expiration ?? null,
      avionics_expiration: f.avionics_expiration ?? null,
    })
    .execute();
  return { id };
}

export async function editAircraft(uow: UnitOfWork, actor: Actor, id: string, raw: unknown): Promise<void> {
  const f = parseOr400(ZEdit, aircraftOf(raw));
  const trx = uow.trx;
  const current = await trx
    .selectFrom('aircraft')
    .select('id')
    .where('company_id', '=', actor.companyId)
    .where('id', '=', id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!current) throw notFound('Aircraft not found');
  if (f.registration !== undefined) await registrationFree(trx, actor.companyId, f.registration, id);
  await checkRefs(trx, actor.companyId, f);
  // Registration, activity, base and pilot go through the one write path sync also uses.
  await updateAircraft(uow, actor, id, {
    registration: f.registration,
    active: f.active,
    base_id: f.base_id,
    user_id: f.user_id,
  });
  const modelId = await resolveModel(trx, f);
  const set: Record<string, unknown> = { ...certificateValues(f) };
  if (modelId) set.model_id = modelId;
  for (const k of ['multiengine', 'multipilot', 'simulator'] as const) if (f[k] !== undefined) set[k] = f[k] ? 1 : 0;
  if (f.serial_number !== undefined) set.serial_number = f.serial_number;
  if (f.adsb !== undefined) set.adsb = f.adsb;
  if (!Object.keys(set).length) return;
  await trx
    .updateTable('aircraft')
    .set({ ...set, modified: nowSeconds(), change_no: await uow.changeNo(actor.companyId, 'aircraft') })
    .where('company_id', '=', actor.companyId)
    .where('id', '=', id)
    .execute();
}

export async function deactivateAircraft(uow: UnitOfWork, actor: Actor, id: string): Promise<void> {
  await updateAircraft(uow, actor, id, { active: false });
}
