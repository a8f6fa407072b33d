/** Row types of migration 0130 (billing). Money in cents, hours in seconds. */
export interface BillingRatesTable {
  id: string;
  company_id: string;
  kind: string;
  target_id: string;
  /** Cents per hour. */
  amount: number;
  created: number;
  modified: number;
}

export interface BillingAccountsTable {
  id: string;
  company_id: string;
  change_no: number;
  deleted: number;
  created: number;
  modified: number;
  user_id: string;
  currency: string;
  balance: number;
  package_seconds: number;
  entry_count: number;
  /** JSON list of the last entries as the API presents them (for the owner's devices). */
  recent: string;
}

export interface BillingEntriesTable {
  id: string;
  company_id: string;
  user_id: string;
  kind: string;
  amount: number;
  tax: number;
  seconds: number;
  /** The entry's effect on the prepaid hours (package bought, used, reversed); 0 for money entries. */
  package_seconds: number;
  aircraft_id: string | null;
  flight_id: string | null;
  reverses_id: string | null;
  /** An external reference credited once (the provider's event id). */
  reference: string | null;
  description: string | null;
  created: number;
  created_by: string | null;
}

export interface BillingProvidersTable {
  company_id: string;
  secret_key: string | null;
  webhook_secret: string | null;
  modified: number;
}

export interface BillingMailQueueTable {
  id: string;
  company_id: string;
  user_id: string;
  subject: string;
  body: string;
  created: number;
  sent: number | null;
}

declare module '../../db/schema.ts' {
  interface DB {
    billing_mail_queue: BillingMailQueueTable;
    billing_rates: BillingRatesTable;
    billing_accounts: BillingAccountsTable;
    billing_entries: BillingEntriesTable;
    billing_providers: BillingProvidersTable;
  }
}

declare module '../../db/core-tables.ts' {
  interface CompaniesTable {
    /** `block` or `flight`: the time a flight is billed by. */
    billing_basis: string;
  }
}
