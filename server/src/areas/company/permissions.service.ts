import { defaultPermission, PERMISSION_KEYS, type PermissionKey } from '@ops/shared';
import { isCompanyRole, mayChangeRolePermissions } from '@ops/shared/rules/company/policy';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../http/actor.ts';
import { forbidden, validationFailed } from '../../http/errors.ts';
import { stampReference } from './reference.sync.ts';
import { permissionMatrix } from './permissions.repository.ts';

/**
 * Sets permission keys of one role in the caller's company. A value equal to
 * the CONTRACT 3 default removes the override, so the table only holds
 * differences. Platform administrators (role 1) always hold everything, and a
 * manager cannot change roles more privileged than their own.
 */
export async function setRolePermissions(
  ctx: AppContext,
  actor: Actor,
  role: number,
  changes: Record<string, boolean>,
) {
  const unknown = Object.keys(changes).filter((k) => !(PERMISSION_KEYS as readonly string[]).includes(k));
  const errors: Record<string, string[]> = {};
  if (!isCompanyRole(role)) errors.role = ['Not a company role'];
  if (unknown.length)
    errors.permissions = [`Unknown permission keys: ${unknown.join(', ')}; known: ${PERMISSION_KEYS.join(', ')}`];
  if (!Object.keys(changes).length) errors.permissions = ['Give at least one permission key'];
  if (Object.keys(errors).length) throw validationFailed(errors);
  if (!mayChangeRolePermissions(actor, role))
    throw forbidden('You cannot change the permissions of a role above yours');

  await ctx.tx(async (uow) => {
    for (const [key, allowed] of Object.entries(changes) as [PermissionKey, boolean][]) {
      const where = uow.trx
        .deleteFrom('company_permissions')
        .where('company_id', '=', actor.companyId)
        .where('role', '=', role)
        .where('key', '=', key);
      await where.execute();
      if (allowed !== defaultPermission(role, key)) {
        await uow.trx
          .insertInto('company_permissions')
          .values({ company_id: actor.companyId, role, key, allowed: allowed ? 1 : 0 })
          .execute();
      }
    }
    await stampReference(uow, actor.companyId, 'permissions');
  });
  const matrix = await permissionMatrix(ctx.db, actor.companyId);
  return { result: true, role: matrix.find(({ role: r }) => r === role) };
}
