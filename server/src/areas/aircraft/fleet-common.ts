
/**
 * Small helpers shared by the fleet areas (aircraft, inventory, aircraft
 * reports, jobs, plans). Decisions are in docs/areas/fleet.md.
 */

/** Managers and mechanics: maintenance writes, MEL actions, plan edits (Part B 4.2, 4.3, 5). */
export const MAINTENANCE_ROLES = [1, 100, 105, 110, 300] as const;
/** Managers only (Part A 5 threshold "<= 110"). */
export const MANAGER_MAX_ROLE = 110;
/** Aircraft records are managed by company managers (not mechanics: they change the fleet, not its state). */
export const AIRCRAFT_MANAGER_ROLES = [1, 100, 105, 110] as const;
export const REPORT_PLANS = ['premium', 'unlimited'] as const;
export const INVENTORY_PLANS = ['premium', 'unlimited', 'club'] as const;
/** The external auditor is read-only everywhere (Part A 5: temporary, read-only). */
export const AUDITOR_ROLE = 250;
