import { GATES } from '@ops/shared';
import { REPORT_PLANS } from '@ops/shared/rules/aircraft/policy';
import { aircraftReportGates } from '@ops/shared/rules/aircraft-reports/policy';
import { z } from 'zod';
import { defineRoute } from '../../http/define-route.ts';
import { zId, zUnix } from '../../http/zod.ts';
import { unwrapData } from '../../http/body.ts';
import { parseOr400 } from '../../http/errors.ts';
import { emptyToNull } from '../../http/zod.ts';
import { aircraftStatus, listReports, melSummary, releasers, viewReport, ZIndex } from './reads.service.ts';
import { ZReportClose, ZReportCreateBody, ZReportEditBody } from './aircraft-reports.schema.ts';
import {
  closeReport,
  createReport,
  decisionError,
  deleteReport,
  editReport,
  extendItem,
} from './aircraft-reports.service.ts';
import { verifyOwnPassword } from '../profile/password.service.ts';
import { badRequest } from '../../http/errors.ts';
import {
  ZMaintenanceAircraftReportsIndex,
  ZMaintenanceAircraftReportsView,
  ZMaintenanceAircraftReportsCreate,
  ZMaintenanceAircraftReportsEdit,
  ZMaintenanceAircraftReportsDelete,
  ZMaintenanceAircraftReportsReleasers,
  ZMaintenanceAircraftReportsExtend,
  ZMaintenanceAircraftReportsAircraftStatus,
  ZMaintenanceAircraftReportsMelSummary,
  ZMaintenanceAircraftReportsClose,
} from './aircraft-reports.responses.ts';

const plans = REPORT_PLANS;
const idParam = z.object({ id: zId });

const ZExtend = z.object({
  extended_until: z.preprocess(emptyToNull, zUnix.nullable().optional()),
  reason: z.preprocess(emptyToNull, z.string().trim().max(1000, 'At most 1000 characters').nullable().optional()),
});

/** Part B 4.2. Bodies are validated in the service so failures carry the field errors in `message`; `bodyDoc` documents them. */
export const aircraftReportsRoutes = [
  defineRoute({
    method: 'POST',
    path: '/maintenance/aircraft_reports/index.json',
    bodyDoc: ZIndex,
    area: 'aircraft-reports',
    summary:
      'Aircraft reports of the fleet with their MEL items; filters aircraft, flight, type, status, severity, category, wc, job, linked, limit, page',
    access: { who: GATES.member, plans },
    response: ZMaintenanceAircraftReportsIndex,
    handler: ({ ctx, actor, req }) => listReports(ctx.db, actor, req.body),
  }),
  defineRoute({
    method: 'GET',
    path: '/maintenance/aircraft_reports/view/:id.json',
    area: 'aircraft-reports',
    summary: 'One aircraft report with its MEL item',
    access: { who: GATES.member, plans },
    params: idParam,
    response: ZMaintenanceAircraftReportsView,
    handler: ({ ctx, actor, params }) => viewReport(ctx.db, actor, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/maintenance/aircraft_reports/create.json',
    bodyDoc: ZReportCreateBody,
    area: 'aircraft-reports',
    summary: 'Create a report (AircraftReport[...], MelItem[...], MelItemLimitation[][...]); notifies staff',
    access: { who: GATES.member, plans },
    response: ZMaintenanceAircraftReportsCreate,
    handler: async ({ ctx, actor, req }) => {
      const created = await ctx.tx((uow) => createReport(uow, actor, req.body));
      return {
        result: true,
        id: created.id,
        message: 'Report saved',
        MelItem: created.mel_item_id
          ? { id: created.mel_item_id, starts: created.starts, expires: created.expires }
          : null,
      };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/maintenance/aircraft_reports/edit/:id.json',
    bodyDoc: ZReportEditBody,
    area: 'aircraft-reports',
    summary:
      'Partial update of a report; MEL fields limited; posted limitations replace the set; closure from the posted status',
    access: { who: GATES.member, plans },
    params: idParam,
    response: ZMaintenanceAircraftReportsEdit,
    handler: async ({ ctx, actor, params, req }) => {
      await ctx.tx((uow) => editReport(uow, actor, params.id, req.body));
      return { result: true, id: params.id, message: 'Report saved' };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/maintenance/aircraft_reports/close/:id.json',
    body: ZReportClose,
    area: 'aircraft-reports',
    summary:
      'Close a report as a release to service (designed, issue 28): rectification and the closer’s password; says whether the aircraft may now be dispatched',
    access: { who: GATES.member, plans },
    params: idParam,
    response: ZMaintenanceAircraftReportsClose,
    handler: async ({ ctx, actor, params, body, req }) => {
      // Checked before the transaction, as the CRS is: argon2 is slow and needs no lock; failures are throttled.
      if (!(await verifyOwnPassword(ctx, actor, body.password, req.ip ?? null)))
        throw badRequest('Wrong password: the report was not closed', { errors: { password: ['Wrong password'] } });
      const out = await ctx.tx((uow) => closeReport(uow, actor, params.id, body.rectification));
      return { result: true, id: params.id, message: 'Report closed', ...out };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/maintenance/aircraft_reports/delete/:id.json',
    area: 'aircraft-reports',
    summary: 'Delete a report',
    access: { who: GATES.member, plans },
    params: idParam,
    response: ZMaintenanceAircraftReportsDelete,
    handler: async ({ ctx, actor, params }) => {
      await ctx.tx((uow) => deleteReport(uow, actor, params.id));
      return { result: true, message: 'Report deleted' };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/maintenance/aircraft_reports/releasers.json',
    area: 'aircraft-reports',
    summary: 'Users eligible as MelItem released_by',
    access: { who: GATES.member, plans },
    response: ZMaintenanceAircraftReportsReleasers,
    handler: ({ ctx, actor }) => releasers(ctx.db, actor),
  }),
  defineRoute({
    method: 'POST',
    path: '/maintenance/aircraft_reports/extend/:id.json',
    bodyDoc: ZExtend,
    area: 'aircraft-reports',
    summary: 'One-time extension of a MEL or CDL item (extended_until, reason)',
    access: { who: aircraftReportGates.melManage, deny: 404, plans },
    params: idParam,
    response: ZMaintenanceAircraftReportsExtend,
    handler: async ({ ctx, actor, params, req }) => {
      const body = parseOr400(ZExtend, unwrapData(req.body));
      const d = await ctx.tx((uow) => extendItem(uow, actor, params.id, body));
      if (!d.ok) throw decisionError(d);
      return {
        result: true,
        message: 'Item extended',
        MelItem: { id: d.value.mel_item_id, extended: true, extended_until: d.value.extended_until },
      };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/maintenance/aircraft_reports/aircraft_status.json',
    area: 'aircraft-reports',
    summary: 'Open MEL/CDL items of an aircraft with derived status, upcoming jobs, blocked and blockReason',
    access: { who: GATES.member, plans },
    query: z.object({
      aircraft_id: z.union([z.string(), z.number()], { error: 'Required' }).transform(String).pipe(zId),
    }),
    response: ZMaintenanceAircraftReportsAircraftStatus,
    handler: ({ ctx, actor, query }) => aircraftStatus(ctx.db, actor, query.aircraft_id),
  }),
  defineRoute({
    method: 'GET',
    path: '/maintenance/aircraft_reports/mel_summary.json',
    area: 'aircraft-reports',
    summary: 'Company-wide counts of open, expiring-soon and expired MEL and CDL items',
    access: { who: GATES.member, plans },
    response: ZMaintenanceAircraftReportsMelSummary,
    handler: ({ ctx, actor }) => melSummary(ctx.db, actor),
  }),
];
