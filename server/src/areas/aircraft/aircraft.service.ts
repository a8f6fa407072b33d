import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import { badRequest, HttpError, notFound } from '../../http/errors.ts';
import { said } from '../../http/messages.ts';
import { nowSeconds } from '../../lib/tokens.ts';

export interface AircraftPatch {
  registration?: string;
  active?: boolean;
  base_id?: string | null;
  user_id?: string | null;
}

/**
 * Changes an aircraft's registration, activity, base or assigned pilot. The one
 * write path for REST and sync pushes: checks the references are of the
 * caller's company and stamps the change number.
 */
export async function updateAircraft(uow: UnitOfWork, actor: Actor, id: string, patch: AircraftPatch): Promise<void> {
  const trx = uow.trx;
  const current = await trx
    .selectFrom('aircraft')
    .select(['id', 'registration'])
    .where('company_id', '=', actor.companyId)
    .where('id', '=', id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!current) throw notFound('Aircraft not found');
  const set: Record<string, unknown> = {};
  if (patch.registration !== undefined) {
    const reg = patch.registration.trim().toUpperCase();
    if (!/^[A-Z0-9-]{2,10}$/.test(reg))
      throw badRequest('Registration must be 2 to 10 letters, digits or dashes', {
        errors: { registration: ['Invalid registration'] },
      });
    const clash = await trx
      .selectFrom('aircraft')
      .select('id')
      .where('company_id', '=', actor.companyId)
      .where('registration', '=', reg)
      .where('id', '!=', id)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (clash)
      throw new HttpError(400, {
        result: false,
        ...said('errors.registrationInUse', { registration: reg }),
        errors: { registration: ['Already in use'] },
      });
    set.registration = reg;
  }
  if (patch.active !== undefined) set.active = patch.active ? 1 : 0;
  if (patch.base_id !== undefined) {
    if (patch.base_id !== null) {
      const base = await trx
        .selectFrom('bases')
        .select('id')
        .where('company_id', '=', actor.companyId)
        .where('id', '=', patch.base_id)
        .where('deleted', '=', 0)
        .executeTakeFirst();
      if (!base) throw badRequest('Base not found in your company', { errors: { base_id: ['Unknown base'] } });
    }
    set.base_id = patch.base_id;
  }
  if (patch.user_id !== undefined) {
    if (patch.user_id !== null) {
      const user = await trx
        .selectFrom('users')
        .select('id')
        .where('company_id', '=', actor.companyId)
        .where('id', '=', patch.user_id)
        .where('deleted', '=', 0)
        .executeTakeFirst();
      if (!user) throw badRequest('User not found in your company', { errors: { user_id: ['Unknown user'] } });
    }
    set.user_id = patch.user_id;
  }
  if (!Object.keys(set).length) return;
  await trx
    .updateTable('aircraft')
    .set({ ...set, modified: nowSeconds(), change_no: await uow.changeNo(actor.companyId, 'aircraft') })
    .where('company_id', '=', actor.companyId)
    .where('id', '=', id)
    .execute();
}
