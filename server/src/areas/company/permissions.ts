import { defaultPermission, PERMISSION_KEYS, type PermissionKey } from '@ops/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

/** Permission keys of one role in one company: the defaults of CONTRACT 3 with the company's overrides. */
export async function permissionsFor(db: Kysely<DB>, companyId: string, role: number): Promise<Record<PermissionKey, boolean>> {
  const overrides = await db
    .selectFrom('company_permissions')
    .select(['key', 'allowed'])
    .where('company_id', '=', companyId)
    .where('role', '=', role)
    .execute();
  const out = {} as Record<PermissionKey, boolean>;
  for (const key of PERMISSION_KEYS) out[key] = defaultPermission(role, key);
  for (const o of overrides) if ((PERMISSION_KEYS as readonly string[]).includes(o.key)) out[o.key as PermissionKey] = !!o.allowed;
  return out;
}

export async function hasPermission(db: Kysely<DB>, companyId: string, role: number, key: PermissionKey): Promise<boolean> {
  const override = await db
    .selectFrom('company_permissions')
    .select('allowed')
    .where('company_id', '=', companyId)
    .where('role', '=', role)
    .where('key', '=', key)
    .executeTakeFirst();
  return override ? !!override.allowed : defaultPermission(role, key);
}
