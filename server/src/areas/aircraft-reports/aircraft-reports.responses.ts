import { z } from 'zod';
import { ZAttachedUpload } from '../uploads/uploads.responses.ts';
import { ZPaginate } from '../../http/responses.ts';

/**
 * Response schemas of the aircraft-reports routes: the 200 bodies as the handlers return them (each route's
 * `response`). The handler's return type is checked against these at compile time and every answer
 * of the integration suite against the document they produce (the contract test).
 */

/** An MEL deferral with its limitations and its derived status (also in maintenance job answers). */
export const ZMelItem = z.object({
  id: z.string(),
  aircraft_report_id: z.string(),
  mel_reference: z.string().nullable(),
  category: z.enum(['A', 'B', 'C', 'D']).nullable(),
  interval_type: z.enum(['NEXT_FLIGHT', 'CALENDAR_DAYS', 'FLIGHTS', 'FLIGHT_DAYS', 'CYCLES']).nullable(),
  interval_value: z.number().nullable(),
  starts: z.number().nullable(),
  expires: z.number().nullable(),
  baseline_flights: z.number().nullable(),
  baseline_cycles: z.number().nullable(),
  placard_fitted: z.boolean(),
  procedures: z.string().nullable(),
  released_by: z.string().nullable(),
  released: z.number().nullable(),
  extended: z.boolean(),
  extended_by: z.string().nullable(),
  extended_until: z.number().nullable(),
  extension_reason: z.string().nullable(),
  MelItemLimitation: z.array(
    z.object({
      id: z.string(),
      code: z.string(),
      value: z.string().nullable(),
      note: z.string().nullable(),
      created: z.number(),
    }),
  ),
  status: z.enum(['OPEN', 'CLOSED', 'EXPIRING_SOON', 'EXPIRED']),
  derived_at: z.number(),
});

/** One aircraft report (defect) row. */
export const ZAircraftReport = z.object({
  id: z.string(),
  aircraft_id: z.string(),
  flight_id: z.string().nullable(),
  user_id: z.string().nullable(),
  type: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  ata_chapter: z.string().nullable(),
  system: z.string().nullable(),
  severity: z.string(),
  aircraft_status: z.string(),
  dispatch_condition: z.string(),
  status: z.string(),
  hours: z.number().nullable(),
  cycles: z.number().nullable(),
  deferred_until: z.number().nullable(),
  deferred_reference: z.string().nullable(),
  created: z.number(),
  modified: z.number(),
  closed: z.number().nullable(),
  closed_by: z.string().nullable(),
  maintenance_job_id: z.string().nullable(),
});

/** Who raised the report. */
const zReportUser = z.object({
  id: z.string().nullable(),
  name: z.string(),
  surname: z.string(),
});

/** A report with its MEL deferral, aircraft and reporter (the list row; the view adds job and uploads). */
const zReportEntry = z.object({
  AircraftReport: ZAircraftReport,
  MelItem: ZMelItem.nullable(),
  Aircraft: z.object({
    id: z.string(),
    registration: z.string().nullable(),
  }),
  User: zReportUser.nullable(),
});

/** POST /maintenance/aircraft_reports/index.json */
export const ZMaintenanceAircraftReportsIndex = z.strictObject({
  result: z.boolean(),
  reports: z.array(zReportEntry),
  paginate: ZPaginate,
});

/** GET /maintenance/aircraft_reports/view/:id.json */
export const ZMaintenanceAircraftReportsView = z.strictObject({
  MaintenanceJob: z
    .object({
      id: z.string(),
      name: z.string(),
      status: z.string(),
      start: z.number().nullable(),
      crs_signed: z.boolean(),
    })
    .nullable(),
  Upload: z.array(ZAttachedUpload),
  ...zReportEntry.shape,
  result: z.boolean(),
});

/** POST /maintenance/aircraft_reports/create.json */
export const ZMaintenanceAircraftReportsCreate = z.strictObject({
  result: z.boolean(),
  id: z.string(),
  message: z.string(),
  MelItem: z
    .object({
      id: z.string(),
      starts: z.number().nullable(),
      expires: z.number().nullable(),
    })
    .nullable(),
});

/** POST /maintenance/aircraft_reports/edit/:id.json */
export const ZMaintenanceAircraftReportsEdit = z.strictObject({
  result: z.boolean(),
  id: z.string(),
  message: z.string(),
});

/** POST /maintenance/aircraft_reports/close/:id.json (designed, issue 28 item 6) */
export const ZMaintenanceAircraftReportsClose = z.strictObject({
  result: z.boolean(),
  id: z.string(),
  message: z.string(),
  aircraft_id: z.string(),
  /** No open report grounds the aircraft and no MEL/CDL item of it is expired any more. */
  dispatchable: z.boolean(),
  /** What still blocks it, when something does. */
  blockReason: z.string().nullable(),
});

/** GET /maintenance/aircraft_reports/delete/:id.json */
export const ZMaintenanceAircraftReportsDelete = z.strictObject({
  result: z.boolean(),
  message: z.string(),
});

/** GET /maintenance/aircraft_reports/releasers.json */
export const ZMaintenanceAircraftReportsReleasers = z.strictObject({
  result: z.boolean(),
  releasers: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      user_group_id: z.number(),
      surname: z.string(),
    }),
  ),
});

/** POST /maintenance/aircraft_reports/extend/:id.json */
export const ZMaintenanceAircraftReportsExtend = z.strictObject({
  result: z.boolean(),
  message: z.string(),
  MelItem: z.object({
    id: z.string(),
    extended: z.boolean(),
    extended_until: z.number(),
  }),
});

/** GET /maintenance/aircraft_reports/aircraft_status.json */
export const ZMaintenanceAircraftReportsAircraftStatus = z.strictObject({
  result: z.boolean(),
  aircraft_id: z.string(),
  registration: z.string(),
  blocked: z.boolean(),
  blockReason: z.string().nullable(),
  checked_at: z.number(),
  items: z.array(
    z.object({
      report_id: z.string(),
      mel_item_id: z.string(),
      type: z.enum(['MEL', 'CDL']),
      title: z.string(),
      ata_chapter: z.string().nullable(),
      category: z.enum(['A', 'B', 'C', 'D']).nullable(),
      mel_reference: z.string().nullable(),
      interval_type: z.string().nullable(),
      interval_value: z.number().nullable(),
      starts: z.number().nullable(),
      expires: z.number().nullable(),
      extended: z.boolean(),
      extended_until: z.number().nullable(),
      status: z.enum(['OPEN', 'CLOSED', 'EXPIRING_SOON', 'EXPIRED']),
      deadline: z.union([
        z.object({
          kind: z.literal('time'),
          expires: z.number(),
        }),
        z.object({
          kind: z.literal('counter'),
          remaining: z.number(),
          used: z.number(),
          limit: z.number(),
          unit: z.enum(['cycles', 'flights', 'flight_days']),
          known: z.boolean(),
        }),
        z.object({
          kind: z.literal('none'),
        }),
      ]),
    }),
  ),
  jobs: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      status: z.string(),
      start: z.number().nullable(),
      maintenance_plan_id: z.string().nullable(),
    }),
  ),
});

/** GET /maintenance/aircraft_reports/mel_summary.json */
export const ZMaintenanceAircraftReportsMelSummary = z.strictObject({
  MEL: z.object({
    open: z.number(),
    expiring_soon: z.number(),
    expired: z.number(),
  }),
  CDL: z.object({
    open: z.number(),
    expiring_soon: z.number(),
    expired: z.number(),
  }),
  aircraft: z.array(
    z.object({
      blocked: z.boolean(),
      open: z.number(),
      expiring_soon: z.number(),
      expired: z.number(),
      aircraft_id: z.string(),
      registration: z.string(),
    }),
  ),
  open: z.number(),
  expiring_soon: z.number(),
  expired: z.number(),
  result: z.boolean(),
  checked_at: z.number(),
});
