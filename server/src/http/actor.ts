import type { Plan } from '@ops/shared';

/** The caller of a request, resolved once by authentication. */
export interface Actor {
  userId: string;
  identityId: string | null;
  companyId: string;
  role: number;
  email: string | null;
  name: string;
  surname: string;
  /** The user's language (`en`, `es`…): mails, documents and API messages when no Accept-Language. */
  language?: string;
  supervisorId: string | null;
  plan: Plan;
  company: {
    name: string;
    timezone: string;
    flightTimezone: string | null;
    billingEnabled: boolean;
  };
  credential: { kind: 'session' | 'api_key'; id: string };
  /**
   * The company's change number (sync_counters) read with the credential, so
   * before anything the handler reads: version-keyed caches (flights list pages)
   * need no second query. Absent for actors built outside a request.
   */
  companyVersion?: number;
}
