/** Role numbers (user_group_id). A smaller number is more privilege (Part A section 5, CONTRACT 3). */
export const ROLES = {
  PLATFORM_ADMIN: 1,
  COMPANY_ADMIN: 100,
  OPERATIONS_MANAGER: 105,
  SAFETY_MANAGER: 110,
  HEAD_OF_TRAINING: 120,
  GROUND_INSTRUCTOR: 135,
  FLIGHT_INSTRUCTOR: 150,
  DISPATCHER: 170,
  PILOT: 190,
  STUDENT: 200,
  AUDITOR: 250,
  MECHANIC: 300,
} as const;

export type Role = (typeof ROLES)[keyof typeof ROLES];

export const ROLE_NAMES: Record<Role, string> = {
  1: 'Platform administrator',
  100: 'Company administrator',
  105: 'Operations manager',
  110: 'Compliance and safety manager',
  120: 'Head of training',
  135: 'Ground instructor',
  150: 'Flight instructor',
  170: 'Dispatcher',
  190: 'Pilot',
  200: 'Student pilot',
  250: 'External auditor',
  300: 'Mechanic',
};

export const ALL_ROLES = Object.values(ROLES) as Role[];

export function isRole(value: number): value is Role {
  return (ALL_ROLES as number[]).includes(value);
}

/** Staff means user_group_id <= 170 (Part A section 5 thresholds). */
export const isStaff = (role: number): boolean => role <= ROLES.DISPATCHER;

/**
 * A named role gate: who may call a route or press a button. Gates are made once, in
 * `roles.ts` (the general ones below) or in an area's `rules/<area>/policy.ts`, and the
 * route registry test checks every non-public route takes its gate from there.
 */
export interface RoleGate {
  /** What it allows, for docs and errors: `news.manage`. */
  readonly name: string;
  /** user_group_id <= maxRole. */
  readonly maxRole?: number;
  /** user_group_id in this list. */
  readonly roles?: readonly number[];
}

const gates = new Set<RoleGate>();

/** Makes and registers a named gate; routes, sync commands and screens all test it with `allows`. */
export function roleGate<const R extends { maxRole?: number; roles?: readonly number[] }>(
  name: string,
  rule: R,
): RoleGate & Readonly<R> {
  // The rule's own type is kept so a repository can filter SQL by `gate.maxRole` without restating the number.
  const gate = Object.freeze({ name, ...rule });
  gates.add(gate);
  return gate;
}

/** True when the gate was made by `roleGate` (the route registry test asks). */
export const isRoleGate = (value: unknown): value is RoleGate => gates.has(value as RoleGate);

/** Does a caller of this role pass the gate. */
export function allows(gate: RoleGate, role: number): boolean {
  return (
    (gate.maxRole === undefined || role <= gate.maxRole) && (gate.roles === undefined || gate.roles.includes(role))
  );
}

/** Who is asking, as every policy sees it (server actor and device session alike). */
export interface PolicyActor {
  userId: string;
  role: number;
}

/** The general gates; an area names its own in its policy. */
export const GATES = {
  /** Any signed-in member of the company. */
  member: roleGate('member', {}),
  /** Company administrators (<= 100). */
  admin: roleGate('admin', { maxRole: ROLES.COMPANY_ADMIN }),
  /** Company management (<= 105). */
  management: roleGate('management', { maxRole: ROLES.OPERATIONS_MANAGER }),
  /** Management and the safety manager (<= 110). */
  managers: roleGate('managers', { maxRole: ROLES.SAFETY_MANAGER }),
  /** Training management (<= 135). */
  trainingStaff: roleGate('training staff', { maxRole: ROLES.GROUND_INSTRUCTOR }),
  /** Instructors and above (<= 150). */
  instructors: roleGate('instructors', { maxRole: ROLES.FLIGHT_INSTRUCTOR }),
  /** Office staff (<= 170), Part A section 5. */
  staff: roleGate('staff', { maxRole: ROLES.DISPATCHER }),
} as const;
