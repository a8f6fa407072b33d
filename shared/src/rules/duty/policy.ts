/** Who may see whose duty (issue 30, CONTRACT 7). */
import { allows, type PolicyActor, ROLES, roleGate } from '../../roles.ts';

export const dutyGates = {
  /** Anyone signed in may ask for duty; whose is decided by `mayViewDuty`. */
  read: roleGate('duty.read', {}),
  /** The office (<= 170) sees everyone's duty and the crew duty board. */
  board: roleGate('duty.board', { maxRole: ROLES.DISPATCHER }),
  /** Operations management (<= 105) is told when a confirmed flight exceeds a limit. */
  notified: roleGate('duty.notified', { maxRole: ROLES.OPERATIONS_MANAGER }),
} as const;

/** Own duty, or anyone's for roles <= 170 (else 403). */
export const mayViewDuty = (actor: PolicyActor, userId: string): boolean =>
  actor.userId === userId || allows(dutyGates.board, actor.role);

/** The crew duty board and its colours are for the office. */
export const mayViewBoard = (actor: PolicyActor): boolean => allows(dutyGates.board, actor.role);
