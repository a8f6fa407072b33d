/**
 * The billing gates the screens ask (`allows(gate, role)`), the same the API
 * declares. Until the billing policy (shared/src/rules/billing/policy.ts) is on
 * this branch they are the general gates of the same thresholds; one import
 * line changes when it lands.
 */
import { GATES } from '@ops/shared';

export const billingGates = {
  /** Rates read, every account, entries, reversals, export: office staff (<= 170). */
  office: GATES.staff,
  /** Rates written: management (<= 105). */
  manage: GATES.management,
  /** One's own account, statement and top-up: any member. */
  own: GATES.member,
} as const;
