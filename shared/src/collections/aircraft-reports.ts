import type {
  IntervalType,
  MelCategory,
  MelItemState,
  MelStatus,
  ReportStatus,
} from '../rules/aircraft-reports/mel.ts';
import { mayWriteAircraftReports } from '../rules/aircraft-reports/policy.ts';
import { type CollectionDef, s } from './types.ts';

/**
 * The technical log offline: each aircraft report carries its MEL or CDL item
 * (with limitations) and the item's derived status as the server computed it
 * at `derived_at`. Clients recompute the status with the shared rules
 * (`melItemStateOf` + `melStatus`); raising, extending and closing an item are
 * server-decided commands (`mel.raise`, `mel.extend`, `mel.close`).
 */
export interface MelLimitationDoc {
  id: string;
  code: string;
  value: string | null;
  note: string | null;
  created: number;
}

export interface MelItemDoc {
  id: string;
  aircraft_report_id: string;
  mel_reference: string | null;
  category: MelCategory | null;
  interval_type: IntervalType | null;
  interval_value: number | null;
  starts: number | null;
  expires: number | null;
  baseline_flights: number | null;
  baseline_cycles: number | null;
  placard_fitted: boolean;
  procedures: string | null;
  released_by: string | null;
  released: number | null;
  extended: boolean;
  extended_by: string | null;
  extended_until: number | null;
  extension_reason: string | null;
  MelItemLimitation: MelLimitationDoc[];
  /** Derived, never stored (Part B 3.2). */
  status: MelStatus;
  derived_at: number;
}

export interface AircraftReportDoc {
  id: string;
  aircraft_id: string;
  flight_id: string | null;
  user_id: string | null;
  type: string;
  title: string;
  description: string | null;
  ata_chapter: string | null;
  system: string | null;
  severity: string;
  aircraft_status: string;
  dispatch_condition: string;
  status: string;
  hours: number | null;
  cycles: number | null;
  deferred_until: number | null;
  deferred_reference: string | null;
  created: number;
  modified: number;
  closed: number | null;
  closed_by: string | null;
  maintenance_job_id: string | null;
  MelItem: MelItemDoc | null;
}

/** Plain report fields a device may edit offline (MEL and CDL decisions are commands). */
export const AIRCRAFT_REPORT_WRITABLE = [
  'title',
  'description',
  'ata_chapter',
  'system',
  'severity',
  'aircraft_status',
  'dispatch_condition',
  'status',
  'hours',
  'cycles',
  'deferred_until',
  'deferred_reference',
] as const;

/** The rule inputs of a report's item, for `melStatus`/`melDeadline` on a client. */
export function melItemStateOf(doc: Pick<AircraftReportDoc, 'status' | 'MelItem'>): MelItemState | null {
  const m = doc.MelItem;
  if (!m) return null;
  return {
    category: m.category,
    interval_type: m.interval_type,
    interval_value: m.interval_value,
    starts: m.starts,
    expires: m.expires,
    baseline_flights: m.baseline_flights,
    baseline_cycles: m.baseline_cycles,
    extended: m.extended,
    extended_until: m.extended_until,
    report_status: doc.status as ReportStatus,
  };
}

export const aircraftReportsCollection: CollectionDef<AircraftReportDoc> = {
  name: 'aircraft_reports',
  version: 0,
  schema: {
    properties: {
      id: s.id,
      aircraft_id: s.reqStr,
      flight_id: s.str,
      user_id: s.str,
      type: s.reqStr,
      title: s.reqStr,
      description: s.str,
      ata_chapter: s.str,
      system: s.str,
      severity: s.reqStr,
      aircraft_status: s.reqStr,
      dispatch_condition: s.reqStr,
      status: s.reqStr,
      hours: s.num,
      cycles: s.num,
      deferred_until: s.num,
      deferred_reference: s.str,
      created: s.int,
      modified: s.int,
      closed: s.num,
      closed_by: s.str,
      maintenance_job_id: s.str,
      MelItem: s.json,
    },
    required: [
      'id',
      'aircraft_id',
      'type',
      'title',
      'severity',
      'aircraft_status',
      'dispatch_condition',
      'status',
      'created',
      'modified',
    ],
  },
  rows: { kind: 'company' },
  visible: (doc) => doc,
  writableFields: AIRCRAFT_REPORT_WRITABLE,
  // The external auditor is read-only; the server's service applies the finer role rules.
  canPush: (v) => mayWriteAircraftReports(v),
};
