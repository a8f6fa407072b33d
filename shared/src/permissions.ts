import { ROLES } from './roles.ts';

/** Permission keys held per role and company (`/companies/permissions.json`). */
export const PERMISSION_KEYS = ['Flight.create', 'Flight.edit', 'Flight.confirm'] as const;
export type PermissionKey = (typeof PERMISSION_KEYS)[number];

/** CONTRACT section 3: roles up to 170 hold all three; 190 holds Flight.create; others none. */
export function defaultPermission(role: number, key: PermissionKey): boolean {
  if (role <= ROLES.DISPATCHER) return true;
  return role === ROLES.PILOT && key === 'Flight.create';
}
