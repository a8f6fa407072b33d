import { type PolicyActor, ROLES, roleGate } from '../../roles.ts';

/**
 * Who may do what in billing (CONTRACT 6). Gates for routes and buttons; the
 * record-level rule for accounts and statements: one's own, or office staff.
 */
export const billingGates = {
  /** Read rates, any account, export, and write payments, adjustments, packages, reversals: roles <= 170. */
  office: roleGate('billing.office', { maxRole: ROLES.DISPATCHER }),
  /** Edit and delete rates, enter the payment provider's keys: roles <= 105. */
  manage: roleGate('billing.manage', { maxRole: ROLES.OPERATIONS_MANAGER }),
  /** Own account, own statement, online top-up: any member. */
  own: roleGate('billing.own', {}),
} as const;

/** May this actor see the account (and statement) of `userId`: their own, or office staff (<= 170). */
export function mayViewAccount(actor: PolicyActor, userId: string): boolean {
  return actor.userId === userId || actor.role <= ROLES.DISPATCHER;
}

/** May this actor reverse this entry: office staff, and only an entry that is not itself a reversal and not reversed yet. */
export function mayReverseEntry(actor: PolicyActor, entry: { kind: string; reversed: boolean }): boolean {
  return actor.role <= ROLES.DISPATCHER && entry.kind !== 'reversal' && !entry.reversed;
}
