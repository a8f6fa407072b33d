import { allows, type PolicyActor, ROLES, roleGate } from '../../roles.ts';

/** Who may do what with credentials: API keys and two-factor enrolment (Part A 4.1, 4.4). */
export const accountGates = {
  /** Managers (<= 110) manage the company's API keys, by interactive session only. */
  apiKeys: roleGate('accounts.api-keys', { maxRole: ROLES.SAFETY_MANAGER }),
  /** External auditors stay on EMAIL codes (Part A 4.4). */
  emailCodesOnly: roleGate('accounts.email-codes-only', { roles: [ROLES.AUDITOR] }),
};

/** Enrols an authenticator app (TOTP): everyone but external auditors. */
export const mayUseTotp = (actor: Pick<PolicyActor, 'role'>): boolean =>
  !allows(accountGates.emailCodesOnly, actor.role);
