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
