/** Pilot tables and columns of migration 0020 (merged into DB and the core row types). */
export interface UserChangesTable {
  id: string;
  company_id: string;
  user_id: string;
  changed_by: string | null;
  /** `create`, `edit` or `created` (the member-since date moved). */
  action: string;
  /** JSON array of {field, from, to}. */
  fields: string;
  created: number;
}

export interface PilotJoinTable {
  id: string;
  company_id: string;
  user_id: string;
  created: number;
}

declare module '../../db/schema.ts' {
  interface DB {
    user_changes: UserChangesTable;
    pilot_aircraft: PilotJoinTable & { aircraft_id: string };
    pilot_flight_types: PilotJoinTable & { flight_type_id: string };
  }
}

declare module '../../db/core-tables.ts' {
  interface CompaniesTable {
    /** JSON {landings, night_landings, hours} for /pilots/get_currency; null: the defaults. */
    currency_requirements: string | null;
  }
}
