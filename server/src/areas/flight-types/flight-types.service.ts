import { uuidv7 } from '@ops/shared';
import { mayCheckComplianceOf } from '@ops/shared/rules/flight-types/policy';
import { cleanRequiredCertificates } from '@ops/shared/rules/flight-types/required-certificates';
import type { Kysely, Updateable } from 'kysely';
import type { FlightTypesTable } from '../../db/domain-tables.ts';
import type { DB } from '../../db/schema.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { type FlightTypeCompliance, seatCompliance } from '@ops/shared/rules/flight-types/compliance';
import { presentFlightType } from './flight-types.presenter.ts';
import { flightTypesRepository } from './flight-types.repository.ts';
import { SEATS, type Seat, type TFlightTypeAdd, type TFlightTypeEdit } from './flight-types.schema.ts';

/** Part B 4.5: invalid roles, types outside the certificate type catalog and duplicate pairs are ignored. */
export const cleanRequirements = (list: readonly unknown[]): Array<{ role: Seat; certificate_type: string }> =>
  cleanRequiredCertificates(list);

async function replaceRequirements(uow: UnitOfWork, companyId: string, typeId: string, list: readonly unknown[]) {
  const trx = uow.trx;
  await trx
    .deleteFrom('flight_type_certificates')
    .where('company_id', '=', companyId)
    .where('flight_type_id', '=', typeId)
    .execute();
  const rows = cleanRequirements(list).map((r) => ({
    id: uuidv7(),
    company_id: companyId,
    flight_type_id: typeId,
    ...r,
  }));
  if (rows.length) await trx.insertInto('flight_type_certificates').values(rows).execute();
}

export async function loadFlightType(db: Kysely<DB>, companyId: string, id: string) {
  const row = await flightTypesRepository.find(db, companyId, id);
  if (!row) throw notFound('Flight type not found');
  const reqs = await flightTypesRepository.requirements(db, companyId, [id]);
  return presentFlightType(row, reqs.get(id) ?? []);
}

export async function listFlightTypes(
  db: Kysely<DB>,
  companyId: string,
  opts: { includeDeleted: boolean; bookingOnly: boolean },
) {
  const rows = await flightTypesRepository.list(db, companyId, opts);
  const reqs = await flightTypesRepository.requirements(
    db,
    companyId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => presentFlightType(r, reqs.get(r.id) ?? []));
}

export async function addFlightType(uow: UnitOfWork, actor: Actor, body: TFlightTypeAdd): Promise<string> {
  const trx = uow.trx;
  const f = body.FlightType;
  const last = await trx
    .selectFrom('flight_types')
    .select((eb) => eb.fn.max('sort_order').as('m'))
    .where('company_id', '=', actor.companyId)
    .executeTakeFirst();
  const id = uuidv7();
  const now = nowSeconds();
  await trx
    .insertInto('flight_types')
    .values({
      id,
      company_id: actor.companyId,
      change_no: await uow.changeNo(actor.companyId, 'flight_types'),
      deleted: 0,
      created: now,
      modified: now,
      name: f.name,
      color: f.color ?? null,
      booking: f.booking ? 1 : 0,
      pic_flight_time: f.pic_flight_time ?? 'pic',
      sic_flight_time: f.sic_flight_time ?? 'none',
      supervisor_flight_time: f.supervisor_flight_time ?? 'none',
      sort_order: last?.m === null || last?.m === undefined ? 0 : Number(last.m) + 1,
    })
    .execute();
  if (body.syncRequiredCertificates)
    await replaceRequirements(uow, actor.companyId, id, body.RequiredCertificate ?? []);
  return id;
}

export async function editFlightType(uow: UnitOfWork, actor: Actor, id: string, body: TFlightTypeEdit): Promise<void> {
  const trx = uow.trx;
  const current = await flightTypesRepository.find(trx, actor.companyId, id);
  if (!current) throw notFound('Flight type not found');
  const f = body.FlightType;
  const set: Updateable<FlightTypesTable> = {};
  if (f.name !== undefined) set.name = f.name;
  if (f.color !== undefined) set.color = f.color;
  if (f.booking !== undefined) set.booking = f.booking ? 1 : 0;
  if (f.pic_flight_time !== undefined) set.pic_flight_time = f.pic_flight_time;
  if (f.sic_flight_time !== undefined) set.sic_flight_time = f.sic_flight_time;
  if (f.supervisor_flight_time !== undefined) set.supervisor_flight_time = f.supervisor_flight_time;
  if (body.syncRequiredCertificates)
    await replaceRequirements(uow, actor.companyId, id, body.RequiredCertificate ?? []);
  if (!Object.keys(set).length && !body.syncRequiredCertificates) return;
  // Requirements are part of the replicated document: the type row moves with them.
  await trx
    .updateTable('flight_types')
    .set({ ...set, modified: nowSeconds(), change_no: await uow.changeNo(actor.companyId, 'flight_types') })
    .where('company_id', '=', actor.companyId)
    .where('id', '=', id)
    .execute();
}

export async function deleteFlightType(uow: UnitOfWork, actor: Actor, id: string): Promise<void> {
  const current = await flightTypesRepository.find(uow.trx, actor.companyId, id);
  if (!current) throw notFound('Flight type not found');
  if (current.deleted) return;
  await uow.trx
    .updateTable('flight_types')
    .set({ deleted: 1, modified: nowSeconds(), change_no: await uow.changeNo(actor.companyId, 'flight_types') })
    .where('company_id', '=', actor.companyId)
    .where('id', '=', id)
    .execute();
}

/**
 * Listed ids of the company take positions 0..n-1 in the posted order; ids of
 * other companies or unknown are dropped; unlisted types follow in their
 * previous order, so a partial list never leaves two types on one position.
 */
export async function reorderFlightTypes(uow: UnitOfWork, actor: Actor, items: readonly string[]): Promise<string[]> {
  const trx = uow.trx;
  const all = await trx
    .selectFrom('flight_types')
    .select(['id', 'sort_order'])
    .where('company_id', '=', actor.companyId)
    .orderBy('sort_order')
    .orderBy('name')
    .orderBy('id')
    .execute();
  const known = new Set(all.map((t) => t.id));
  const listed = [...new Set(items)].filter((id) => known.has(id));
  const order = [...listed, ...all.map((t) => t.id).filter((id) => !listed.includes(id))];
  const before = new Map(all.map((t) => [t.id, t.sort_order]));
  const changed = order.filter((id, i) => before.get(id) !== i);
  if (changed.length) {
    const changeNo = await uow.changeNo(actor.companyId, 'flight_types');
    const now = nowSeconds();
    for (const id of changed) {
      await trx
        .updateTable('flight_types')
        .set({ sort_order: order.indexOf(id), modified: now, change_no: changeNo })
        .where('company_id', '=', actor.companyId)
        .where('id', '=', id)
        .execute();
    }
  }
  return order;
}

/** Part B 4.5 compliance: others only for themself (403, flight-types/policy.ts), a user outside the company 404. */
export async function flightTypeCompliance(
  db: Kysely<DB>,
  actor: Actor,
  typeId: string,
  opts: { userId?: string; at?: number },
): Promise<{ flight_type_id: string; user_id: string; at: number; compliance: FlightTypeCompliance }> {
  const userId = opts.userId ?? actor.userId;
  const at = opts.at ?? nowSeconds();
  if (!mayCheckComplianceOf(actor, userId)) throw forbidden('You can only check your own compliance');
  const type = await flightTypesRepository.find(db, actor.companyId, typeId);
  if (!type) throw notFound('Flight type not found');
  const user = await db
    .selectFrom('users')
    .select('id')
    .where('company_id', '=', actor.companyId)
    .where('id', '=', userId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!user) throw notFound('User not found');
  const reqs = (await flightTypesRepository.requirements(db, actor.companyId, [typeId])).get(typeId) ?? [];
  const held = await db
    .selectFrom('user_certificates')
    .select(['type', 'issue', 'expiration'])
    .where('company_id', '=', actor.companyId)
    .where('user_id', '=', userId)
    .where('deleted', '=', 0)
    .execute();
  const compliance = {} as FlightTypeCompliance;
  for (const seat of SEATS) {
    const required = reqs.filter((r) => seat === r.role).map((r) => r.certificate_type);
    compliance[seat] = seatCompliance(required, held, at, actor.company.timezone);
  }
  return { flight_type_id: typeId, user_id: userId, at, compliance };
}
