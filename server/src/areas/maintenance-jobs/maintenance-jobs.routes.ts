import { GATES } from '@ops/shared';
import { REPORT_PLANS } from '@ops/shared/rules/aircraft/policy';
import { maintenanceJobGates } from '@ops/shared/rules/maintenance-jobs/policy';
import { z } from 'zod';
import { underModel } from '../../http/body-doc.ts';
import { defineRoute } from '../../http/define-route.ts';
import { badRequest } from '../../http/errors.ts';
import { zId } from '../../http/zod.ts';
import { unwrapData } from '../../http/body.ts';
import { parseOr400 } from '../../http/errors.ts';
import { listJobs, viewJob } from './reads.service.ts';
import {
  createJob,
  deleteJob,
  editJob,
  linkReports,
  saveWorkOrder,
  signCrs,
  unlinkReport,
  verifySignerPassword,
  ZJobCreate,
  ZJobEdit,
  ZLinkReports,
  ZSignCrs,
  ZUnlinkReport,
  ZWorkOrder,
} from './maintenance-jobs.service.ts';
import {
  ZMaintenanceJobsIndex,
  ZMaintenanceJobsView,
  ZMaintenanceJobsCreate,
  ZMaintenanceJobsDelete,
  ZMaintenanceJobsSignCrs,
} from './maintenance-jobs.responses.ts';

const plans = REPORT_PLANS;
/** Managers and mechanics write jobs and sign CRS (docs/areas/fleet.md). */
const writers = { who: maintenanceJobGates.write, plans };
const idParam = z.object({ id: zId });

export const maintenanceJobsRoutes = [
  defineRoute({
    method: 'GET',
    path: '/maintenance/jobs/index.json',
    area: 'maintenance-jobs',
    summary:
      'Maintenance jobs (designed): query aircraft_id, maintenance_plan_id, status open|completed|in_progress, page, limit',
    access: { who: GATES.member, plans },
    response: ZMaintenanceJobsIndex,
    handler: ({ ctx, actor, req }) => listJobs(ctx.db, actor, req.query),
  }),
  defineRoute({
    method: 'GET',
    path: '/maintenance/jobs/view/:id.json',
    area: 'maintenance-jobs',
    summary: 'One job with its reports and work orders (CONTRACT 4)',
    access: { who: GATES.member, plans },
    params: idParam,
    response: ZMaintenanceJobsView,
    handler: ({ ctx, actor, params }) => viewJob(ctx.db, actor, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/maintenance/jobs/create.json',
    // Bodies are validated by the service; `bodyDoc` documents them.
    bodyDoc: underModel('Job', ZJobCreate, true),
    area: 'maintenance-jobs',
    summary: 'Create a job: Job{aircraft_id, name, start?, maintenance_plan_id?, aircraft_report_ids[]?} (CONTRACT 4)',
    access: writers,
    response: ZMaintenanceJobsCreate,
    handler: async ({ ctx, actor, req }) => {
      const { id } = await ctx.tx((uow) => createJob(uow, actor, req.body));
      return { result: true, id };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/maintenance/jobs/edit/:id.json',
    bodyDoc: underModel('Job', ZJobEdit, true),
    area: 'maintenance-jobs',
    summary: 'Rename or reschedule an open job (designed): Job{name?, description?, start?}',
    access: writers,
    params: idParam,
    response: ZMaintenanceJobsCreate,
    handler: async ({ ctx, actor, params, req }) => {
      await ctx.tx((uow) => editJob(uow, actor, params.id, req.body));
      return { result: true, id: params.id };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/maintenance/jobs/delete/:id.json',
    noBody: true,
    area: 'maintenance-jobs',
    summary: 'Delete a job whose CRS is not signed (designed); its reports are detached',
    access: writers,
    params: idParam,
    response: ZMaintenanceJobsDelete,
    handler: async ({ ctx, actor, params }) => {
      await ctx.tx((uow) => deleteJob(uow, actor, params.id));
      return { result: true };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/maintenance/jobs/link_reports.json',
    bodyDoc: ZLinkReports,
    area: 'maintenance-jobs',
    summary: 'Attach reports of the same aircraft to a job before its CRS (CONTRACT 4)',
    access: writers,
    response: ZMaintenanceJobsDelete,
    handler: async ({ ctx, actor, req }) => {
      await ctx.tx((uow) => linkReports(uow, actor, req.body));
      return { result: true };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/maintenance/jobs/unlink_report.json',
    bodyDoc: ZUnlinkReport,
    area: 'maintenance-jobs',
    summary: 'Detach one report from a job before its CRS (CONTRACT 4)',
    access: writers,
    response: ZMaintenanceJobsDelete,
    handler: async ({ ctx, actor, req }) => {
      await ctx.tx((uow) => unlinkReport(uow, actor, req.body));
      return { result: true };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/maintenance/jobs/sign_crs/:id.json',
    bodyDoc: ZSignCrs,
    area: 'maintenance-jobs',
    summary: 'Sign the CRS with the signer’s password; closes the reports and schedules the next plan job (CONTRACT 4)',
    access: writers,
    params: idParam,
    response: ZMaintenanceJobsSignCrs,
    handler: async ({ ctx, actor, params, req }) => {
      const body = parseOr400(ZSignCrs, unwrapData(req.body));
      // Checked before the transaction: argon2 is slow and needs no lock.
      if (!(await verifySignerPassword(ctx.db, actor, body.password)))
        throw badRequest('Wrong password: the CRS was not signed', { errors: { password: ['Wrong password'] } });
      const out = await ctx.tx((uow) => signCrs(uow, actor, params.id, body));
      return { result: true, message: 'CRS signed', ...out };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/maintenance/jobs/work_orders/edit.json',
    bodyDoc: underModel('WorkOrder', ZWorkOrder, true),
    area: 'maintenance-jobs',
    summary:
      'Create or update a work order of an open job (designed): WorkOrder{id?, maintenance_job_id, name, status, ...}',
    access: writers,
    response: ZMaintenanceJobsCreate,
    handler: async ({ ctx, actor, req }) => {
      const { id } = await ctx.tx((uow) => saveWorkOrder(uow, actor, req.body));
      return { result: true, id };
    },
  }),
];
