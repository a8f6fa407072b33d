import { z } from 'zod';
import { ZPaginate } from '../../http/responses.ts';
import { ZAircraftReport, ZMelItem } from '../aircraft-reports/aircraft-reports.responses.ts';

/**
 * Response schemas of the maintenance-jobs routes: the 200 bodies as the handlers return them (each route's
 * `response`). The handler's return type is checked against these at compile time and every answer
 * of the integration suite against the document they produce (the contract test).
 */

/** GET /maintenance/jobs/index.json */
export const ZMaintenanceJobsIndex = z.strictObject({
  result: z.boolean(),
  jobs: z.array(
    z.object({
      Job: z.object({
        id: z.string(),
        aircraft_id: z.string(),
        name: z.string(),
        description: z.string().nullable(),
        status: z.string(),
        start: z.number().nullable(),
        finish: z.number().nullable(),
        crs_signed: z.boolean(),
        crs_signed_by: z.string().nullable(),
        crs_signed_at: z.number().nullable(),
        crs_expiration: z.number().nullable(),
        maintenance_plan_id: z.string().nullable(),
        repeat: z.string(),
        created: z.number(),
      }),
      Aircraft: z.object({
        id: z.string(),
        registration: z.string().nullable(),
      }),
      report_count: z.number(),
      work_order_count: z.number(),
      work_orders_closed: z.number(),
    }),
  ),
  paginate: ZPaginate,
});

/** GET /maintenance/jobs/view/:id.json */
export const ZMaintenanceJobsView = z.strictObject({
  result: z.boolean(),
  Job: z.object({
    id: z.string(),
    aircraft_id: z.string(),
    user_id: z.string().nullable(),
    name: z.string(),
    description: z.string().nullable(),
    status: z.enum(['OPEN', 'IN_PROGRESS', 'COMPLETED']),
    start: z.number().nullable(),
    finish: z.number().nullable(),
    crs_signed: z.boolean(),
    crs_signed_by: z.string().nullable(),
    crs_signed_at: z.number().nullable(),
    crs_expiration: z.number().nullable(),
    maintenance_plan_id: z.string().nullable(),
    repeat: z.string(),
    created: z.number(),
    modified: z.number(),
  }),
  Aircraft: z
    .object({
      id: z.string(),
      registration: z.string(),
    })
    .nullable(),
  AircraftReport: z.array(ZAircraftReport.extend({ MelItem: ZMelItem.nullable() })),
  WorkOrder: z.array(
    z.object({
      InventoryUnit: z.array(
        z.object({
          id: z.string(),
          part_number: z.string(),
          status: z.string(),
          serial_number: z.string().nullable(),
          condition: z.string(),
          part_id: z.string(),
          part_name: z.string(),
        }),
      ),
      id: z.string(),
      plan_work_order_id: z.string().nullable(),
      name: z.string(),
      description: z.string().nullable(),
      ata: z.string().nullable(),
      time: z.number().nullable(),
      status: z.enum(['done', 'cancelled', 'in_progress', 'pending']),
      remarks: z.string().nullable(),
      sort_order: z.number(),
      completed_at: z.number().nullable(),
      completed_by: z.string().nullable(),
    }),
  ),
});

/** POST /maintenance/jobs/create.json */
export const ZMaintenanceJobsCreate = z.strictObject({
  result: z.boolean(),
  id: z.string(),
});

/** POST /maintenance/jobs/delete/:id.json */
export const ZMaintenanceJobsDelete = z.strictObject({
  result: z.boolean(),
});

/** POST /maintenance/jobs/sign_crs/:id.json */
export const ZMaintenanceJobsSignCrs = z.strictObject({
  closed_reports: z.number(),
  next_job_id: z.string().nullable(),
  result: z.boolean(),
  message: z.string(),
});
