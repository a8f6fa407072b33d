/** Row types of migration 0145 (readiness). */
export interface ReadinessSettingsTable {
  company_id: string;
  /** JSON of `ReadinessSettings` (shared/src/rules/readiness/settings.ts), read leniently. */
  settings: string;
  modified: number;
  modified_by: string | null;
}

declare module '../../db/schema.ts' {
  interface DB {
    readiness_settings: ReadinessSettingsTable;
  }
}
