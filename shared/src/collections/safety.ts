import { maySeeSafetyReport } from '../rules/safety-reports/policy.ts';
import { type CollectionDef, s } from './types.ts';

/**
 * Safety reports offline (Part B 2.5, 4.4; docs/areas/safety-reports.md).
 * Read-only as documents: filing, saving a draft and submitting are the
 * server-decided commands `safety.file` and `safety.submit` (the server assigns
 * the number). Rows follow `maySeeSafetyReport`, the rule REST applies: drafts to
 * their author only, roles <= 150 every other report, others their own,
 * reviewed, crewed and published ones.
 */
export interface SafetyDoc {
  id: string;
  idn: string | null;
  name: string;
  status: string;
  type: string;
  severity: string;
  datetime: string;
  location: string;
  events: string | null;
  actions: string | null;
  flight_phase: string | null;
  safety_report_category_id: string | null;
  safety_report_department_id: string | null;
  flight_id: string | null;
  parent_id: string | null;
  user_id: string | null;
  reviewer_id: string | null;
  damages: string | null;
  personal_damages: string | null;
  risk_probability: string | null;
  risk_severity: string | null;
  mitigated_risk_probability: string | null;
  mitigated_risk_severity: string | null;
  created: number;
  modified: number;
}

export const safetyCollection: CollectionDef<SafetyDoc> = {
  name: 'safety',
  version: 0,
  schema: {
    properties: {
      id: s.id,
      idn: s.str,
      name: s.reqStr,
      status: { type: 'string', maxLength: 16 },
      type: s.reqStr,
      severity: s.reqStr,
      datetime: { type: 'string', maxLength: 19 },
      location: s.reqStr,
      events: s.str,
      actions: s.str,
      flight_phase: s.str,
      safety_report_category_id: s.str,
      safety_report_department_id: s.str,
      flight_id: s.str,
      parent_id: s.str,
      user_id: s.str,
      reviewer_id: s.str,
      damages: s.str,
      personal_damages: s.str,
      risk_probability: s.str,
      risk_severity: s.str,
      mitigated_risk_probability: s.str,
      mitigated_risk_severity: s.str,
      created: s.int,
      modified: s.int,
    },
    required: ['id', 'name', 'status', 'type', 'severity', 'datetime', 'location', 'created', 'modified'],
    indexes: [['status', 'datetime']],
  },
  rows: {
    kind: 'custom',
    fields: ['status', 'author_id', 'reviewer_id', 'crew_pic_id', 'crew_sic_id', 'crew_supervisor_id'],
    test: (row, viewer) =>
      maySeeSafetyReport(viewer, {
        status: String(row.status),
        author_id: (row.author_id as string | null) ?? null,
        reviewer_id: (row.reviewer_id as string | null) ?? null,
        crew_pic_id: (row.crew_pic_id as string | null) ?? null,
        crew_sic_id: (row.crew_sic_id as string | null) ?? null,
        crew_supervisor_id: (row.crew_supervisor_id as string | null) ?? null,
      }),
  },
  visible: (doc) => doc,
  writableFields: [],
  canPush: () => false,
};
