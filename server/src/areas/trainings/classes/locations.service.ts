import { english } from '../../../http/messages.ts';
import { uuidv7 } from '@ops/shared';
import type { AppContext } from '../../../context.ts';
import type { Actor } from '../../../http/actor.ts';
import { notFound } from '../../../http/errors.ts';
import './classes.tables.ts';
import type { TrainingLocationsTable } from './classes.tables.ts';
import { type Db, stamp } from '../trainings.repository.ts';

/** Training locations (Part B 4.7 item 20): classrooms, briefing rooms, simulators. */

export function presentLocation(l: TrainingLocationsTable) {
  return {
    id: l.id,
    name: l.name,
    type: l.type,
    country_id: l.country_id,
    timezone_id: l.timezone_id,
    phone: l.phone,
    address: l.address,
    description: l.description,
    created: Number(l.created),
    modified: Number(l.modified),
  };
}

async function requireLocation(db: Db, companyId: string, id: string) {
  const l = await db
    .selectFrom('training_locations')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!l) throw notFound(english('trainings.errLocationNotFound'));
  return l;
}

/** GET /trainings/locations.json: every live location of the company by name. */
export async function listLocations(ctx: AppContext, actor: Actor) {
  const rows = await ctx.db
    .selectFrom('training_locations')
    .selectAll()
    .where('company_id', '=', actor.companyId)
    .where('deleted', '=', 0)
    .orderBy('name')
    .orderBy('id')
    .execute();
  return { locations: rows.map((l) => ({ Location: presentLocation(l) })) };
}

export async function viewLocation(ctx: AppContext, actor: Actor, id: string) {
  return { Location: presentLocation(await requireLocation(ctx.db, actor.companyId, id)) };
}

export interface LocationInput {
  id?: string;
  name: string;
  type: string;
  country_id: string;
  timezone_id: string;
  phone?: string | null;
  address?: string | null;
  description?: string | null;
}

/** POST /manager/trainings/locations/edit.json: create without `id`, else update (optional fields left out keep their value). */
export async function saveLocation(ctx: AppContext, actor: Actor, input: LocationInput) {
  const existing = input.id ? await requireLocation(ctx.db, actor.companyId, input.id) : null;
  const id = existing?.id ?? uuidv7();
  await ctx.tx(async (uow) => {
    const st = await stamp(uow, actor.companyId, 'training_locations');
    const fields = {
      name: input.name,
      type: input.type,
      country_id: input.country_id,
      timezone_id: input.timezone_id,
      phone: input.phone !== undefined ? input.phone : (existing?.phone ?? null),
      address: input.address !== undefined ? input.address : (existing?.address ?? null),
      description: input.description !== undefined ? input.description : (existing?.description ?? null),
    };
    if (existing)
      await uow.trx
        .updateTable('training_locations')
        .set({ ...fields, ...st })
        .where('id', '=', id)
        .where('company_id', '=', actor.companyId)
        .execute();
    else
      await uow.trx
        .insertInto('training_locations')
        .values({ id, company_id: actor.companyId, deleted: 0, created: st.modified, ...st, ...fields })
        .execute();
  });
  return { result: true as const, id, Location: presentLocation(await requireLocation(ctx.db, actor.companyId, id)) };
}
