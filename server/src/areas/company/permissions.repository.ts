import { ALL_ROLES, defaultPermission, PERMISSION_KEYS, type PermissionKey, ROLE_NAMES } from '@ops/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

/** Permission keys of one role in one company: the defaults of CONTRACT 3 with the company's overrides. */
export async function permissionsFor(
  db: Kysely<DB>,
  companyId: string,
  role: number,
): Promise<Record<PermissionKey, boolean>> {
  const overrides = await db
    .selectFrom('company_permissions')
    .select(['key', 'allowed'])
    .where('company_id', '=', companyId)
    .where('role', '=', role)
    .execute();
  const out = {} as Record<PermissionKey, boolean>;
  for (const key of PERMISSION_KEYS) out[key] = defaultPermission(role, key);
  for (const o of overrides)
    if ((PERMISSION_KEYS as readonly string[]).includes(o.key)) out[o.key as PermissionKey] = !!o.allowed;
  return out;
}

export async function hasPermission(
  db: Kysely<DB>,
  companyId: string,
  role: number,
  key: PermissionKey,
): Promise<boolean> {
  const override = await db
    .selectFrom('company_permissions')
    .select('allowed')
    .where('company_id', '=', companyId)
    .where('role', '=', role)
    .where('key', '=', key)
    .executeTakeFirst();
  return override ? !!override.allowed : defaultPermission(role, key);
}

export interface RolePermissions {
  role: number;
  name: string;
  permissions: Record<PermissionKey, boolean>;
  /** Keys where the company differs from the CONTRACT 3 default. */
  overridden: PermissionKey[];
}

/** Every role's permissions in one company (two queries' worth: one read of the overrides). */
export async function permissionMatrix(db: Kysely<DB>, companyId: string): Promise<RolePermissions[]> {
  const overrides = await db
    .selectFrom('company_permissions')
    .select(['role', 'key', 'allowed'])
    .where('company_id', '=', companyId)
    .execute();
  return ALL_ROLES.map((role) => {
    const permissions = {} as Record<PermissionKey, boolean>;
    const overridden: PermissionKey[] = [];
    for (const key of PERMISSION_KEYS) {
      const o = overrides.find((x) => x.key === key && x.role === role);
      permissions[key] = o ? !!o.allowed : defaultPermission(role, key);
      if (o && !!o.allowed !== defaultPermission(role, key)) overridden.push(key);
    }
    return { role, name: ROLE_NAMES[role], permissions, overridden };
  });
}
