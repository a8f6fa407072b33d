import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import { notFound } from '../../http/errors.ts';
import { nowSeconds } from '../../lib/tokens.ts';

/** Makes one base the company default and unsets the previous one (Part A 3: a single default base). */
export async function setDefaultBase(uow: UnitOfWork, actor: Actor, baseId: string): Promise<{ previous: string | null }> {
  const trx = uow.trx;
  const base = await trx.selectFrom('bases').select(['id', 'is_default']).where('company_id', '=', actor.companyId).where('id', '=', baseId).where('deleted', '=', 0).executeTakeFirst();
  if (!base) throw notFound('Base not found');
  const previous = await trx.selectFrom('bases').select('id').where('company_id', '=', actor.companyId).where('is_default', '=', 1).where('deleted', '=', 0).executeTakeFirst();
  if (base.is_default) return { previous: base.id };
  const changeNo = await uow.changeNo(actor.companyId, 'bases');
  const now = nowSeconds();
  await trx.updateTable('bases').set({ is_default: 0, change_no: changeNo, modified: now }).where('company_id', '=', actor.companyId).where('is_default', '=', 1).execute();
  await trx.updateTable('bases').set({ is_default: 1, change_no: changeNo, modified: now }).where('company_id', '=', actor.companyId).where('id', '=', baseId).execute();
  return { previous: previous?.id ?? null };
}
