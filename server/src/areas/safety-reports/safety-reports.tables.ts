import type { ReplicatedBase } from '../../db/core-tables.ts';

/** Row types of migration 0070 (Part B 2.5). */
export interface SafetyReportDepartmentsTable {
  id: string;
  company_id: string;
  name: string;
  deleted: number;
  created: number;
  modified: number;
}

export interface SafetyReportCategoriesTable extends SafetyReportDepartmentsTable {
  safety_report_department_id: string;
}

/**
 * One report. `author_id` is who filed it (drafts, own reports, edit rights),
 * even when `user_id` (the shown reporter) is null for an anonymous report.
 * `crew_*` copy the linked flight's crew at each save, so the visibility rule
 * reads the row alone (REST and sync share it). Sets are JSON id arrays.
 * Attachments (model `SafetyReport`) hang off `id`.
 */
export interface SafetyReportsTable extends ReplicatedBase {
  idn: string | null;
  idn_year: number | null;
  idn_seq: number | null;
  child_no: number | null;
  name: string;
  status: string;
  type: string;
  severity: string;
  /** `YYYY-MM-DD HH:MM:SS`, UTC. */
  datetime: string;
  location: string;
  events: string | null;
  actions: string | null;
  result: string | null;
  corrective_measures: string | null;
  met_conditions: string | null;
  immediate_consequences: string | null;
  flight_phase: string | null;
  safety_report_category_id: string | null;
  safety_report_department_id: string | null;
  flight_id: string | null;
  flight_type_id: string | null;
  parent_id: string | null;
  user_id: string | null;
  author_id: string;
  reviewer_id: string | null;
  reviewer_outcome: string | null;
  damages: string | null;
  personal_damages: string | null;
  air_space: string | null;
  risk_probability: string | null;
  risk_severity: string | null;
  mitigated_risk_probability: string | null;
  mitigated_risk_severity: string | null;
  crew_pic_id: string | null;
  crew_sic_id: string | null;
  crew_supervisor_id: string | null;
  aircraft_ids: string;
  involved_user_ids: string;
  reported: number | null;
  /** The filing form's own id (migration 0072): a repeat by the same author answers the same report. */
  client_id?: string | null;
}

export interface SafetyReportCountersTable {
  company_id: string;
  year: number;
  value: number;
}

export interface SafetyReportChangesTable {
  id: string;
  company_id: string;
  safety_report_id: string;
  action: string;
  user_id: string | null;
  user_name: string | null;
  comments: string | null;
  /** JSON array of `{field, label, kind?, from, to, from_label?, to_label?}`. */
  fields: string;
  created: number;
}

export interface SafetyRiskMatricesTable {
  company_id: string;
  /** JSON `{"5A": "intolerable", ...}`. */
  cells: string;
  modified: number;
}

/**
 * Counts of live, submitted, top-level reports per company, month of the event
 * (`YYYY-MM`), status and one statistic dimension's key (`''` for none); kept
 * in the transaction of every report write (safety-stats.repository.ts).
 */
export interface SafetyReportStatsTable {
  company_id: string;
  dimension: string;
  month: string;
  status: string;
  key: string;
  count: number;
}

declare module '../../db/schema.ts' {
  interface DB {
    safety_report_departments: SafetyReportDepartmentsTable;
    safety_report_categories: SafetyReportCategoriesTable;
    safety_reports: SafetyReportsTable;
    safety_report_counters: SafetyReportCountersTable;
    safety_report_changes: SafetyReportChangesTable;
    safety_risk_matrices: SafetyRiskMatricesTable;
    safety_report_stats: SafetyReportStatsTable;
  }
}
