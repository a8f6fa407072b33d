import { allows, type PolicyActor, ROLES, roleGate } from '../../roles.ts';

/**
 * Who may do what to the fleet (docs/areas/fleet.md). The role lists below are
 * shared by the fleet areas (aircraft reports, maintenance jobs and plans, inventory),
 * each of which names its own gates from them.
 */

/** Company managers (Part A 5 "<= 110"): they change the fleet itself. */
export const FLEET_MANAGER_ROLES = [
  ROLES.PLATFORM_ADMIN,
  ROLES.COMPANY_ADMIN,
  ROLES.OPERATIONS_MANAGER,
  ROLES.SAFETY_MANAGER,
] as const;
/** Managers and mechanics: maintenance writes, MEL actions, plan edits (Part B 4.2, 4.3, 5). */
export const MAINTENANCE_ROLES = [...FLEET_MANAGER_ROLES, ROLES.MECHANIC] as const;
/** Plans that include aircraft and safety reports, maintenance jobs and plans. */
export const REPORT_PLANS = ['premium', 'unlimited'] as const;
/** Plans that include the parts inventory. */
export const INVENTORY_PLANS = ['premium', 'unlimited', 'club'] as const;

export const aircraftGates = {
  /** Create, edit, deactivate aircraft: managers, not mechanics (they change the fleet, not its state). */
  manage: roleGate('aircraft.manage', { roles: FLEET_MANAGER_ROLES }),
  /** Push aircraft rows from a device (registration, active, base, assigned pilot): managers and mechanics. */
  editOffline: roleGate('aircraft.edit-offline', { roles: MAINTENANCE_ROLES }),
} as const;

/** May this actor change aircraft rows offline (the `fleet` collection's push). */
export const mayEditAircraftOffline = (actor: Pick<PolicyActor, 'role'>): boolean =>
  allows(aircraftGates.editOffline, actor.role);
