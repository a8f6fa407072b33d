/** Row types of migrations 0145 and 0146 (readiness). */
export interface ReadinessSettingsTable {
  company_id: string;
  /** JSON of `ReadinessSettings` (shared/src/rules/readiness/settings.ts), read leniently. */
  settings: string;
  modified: number;
  modified_by: string | null;
  /** The company change number of the last write (migration 0146): devices pull the policy again after it. */
  change_no: number;
}

declare module '../../db/schema.ts' {
  interface DB {
    readiness_settings: ReadinessSettingsTable;
  }
}
