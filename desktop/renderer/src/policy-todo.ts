/**
 * The renderer's remaining area-specific role rules, in one place until the area
 * policies (`shared/src/rules/<area>/policy.ts`) export them: each function below is
 * to be replaced by the policy's gate or may…() function and this file deleted.
 * General thresholds are not here: screens ask `allows(GATES.x, role)` / `isStaff`.
 */
import { MAINTENANCE_JOB_WRITERS, ROLE_NAMES, ROLES, type Role } from '@ops/shared';
import { MEL_MANAGER_ROLES } from '@ops/shared/rules/aircraft-reports/mel';

/** The external auditor reads everything the API shows them and writes nothing (Part A 5). */
export const isAuditor = (role: number): boolean => role === ROLES.AUDITOR;

/** Who has a pilot record (own pilot page, own training): everyone but the auditor and mechanics. */
export const hasPilotRecord = (role: number): boolean => role !== ROLES.AUDITOR && role !== ROLES.MECHANIC;

/** Flight instructors, dispatchers, pilots and students start on their flights; the others on the fleet. */
export const startsOnFlights = (role: number): boolean => role >= ROLES.FLIGHT_INSTRUCTOR && role <= ROLES.STUDENT;

/** news: who writes articles and sees receipts (roles <= 135, server NEWS_WRITER gate). */
export const mayWriteNews = (role: number): boolean => role <= ROLES.GROUND_INSTRUCTOR;

/** safety-reports: who sees a report's change trail (the safety manager and management, <= 110). */
export const maySeeSafetyTrail = (role: number): boolean => role <= ROLES.SAFETY_MANAGER;

/** schedules: the users offered as instructors in the booking form (flight instructors and the head of training). */
export const isBookableInstructor = (role: number | null | undefined): boolean => role === ROLES.FLIGHT_INSTRUCTOR || role === ROLES.HEAD_OF_TRAINING;

/** company: a manager may not change the permissions of a role more privileged than their own. */
export const mayEditPermissionsOf = (myRole: number, role: number): boolean => role >= myRole;

/** aircraft-reports: who manages MEL/CDL items (extend, close) — the shared MEL rule's list. */
export const mayManageMel = (role: number): boolean => MEL_MANAGER_ROLES.includes(role);

/** maintenance-jobs: who changes jobs and work orders — the collection's writers. */
export const mayWriteMaintenanceJobs = (role: number): boolean => (MAINTENANCE_JOB_WRITERS as readonly number[]).includes(role);

/** users: the roles a manager may give, their own and less privileged ones, never the platform's. */
export const assignableRoles = (mine: number): Role[] => (Object.keys(ROLE_NAMES).map(Number) as Role[]).filter((r) => r >= mine && r !== ROLES.PLATFORM_ADMIN);
