import { ROLES, roleGate } from '../../roles.ts';

/** Who may manage webhook endpoints (docs/areas/webhooks.md). */
export const webhookGates = {
  /** Managers (<= 110, the API-key managers) by session or API key: integrations register their own endpoints. */
  manage: roleGate('webhooks.manage', { maxRole: ROLES.SAFETY_MANAGER }),
};
