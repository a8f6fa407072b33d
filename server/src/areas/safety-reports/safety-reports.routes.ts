import { english } from '../../http/messages.ts';
import { z } from 'zod';
import { MEDIA } from '../../http/responses.ts';
import { defineRoute } from '../../http/define-route.ts';
import { notFound, validationFailed, zodFieldErrors } from '../../http/errors.ts';
import { zId } from '../../http/zod.ts';
import { GATES } from '@ops/shared';
import { SAFETY_PLANS, safetyGates } from '@ops/shared/rules/safety-reports/policy';
import { parseNamed } from '../../http/named-params.ts';
import { LIST_KEYS, ZCreateBody, ZEditBody, ZListFilters, ZYearNamed } from './safety-reports.schema.ts';
import { sendExcel, sendPdf } from './safety-reports.export.ts';
import { enumerations } from './safety-reports.presenter.ts';
import {
  formOptions,
  listSafetyReports,
  reportsByMonth,
  type StatKind,
  statistic,
  viewSafetyReport,
} from './safety-reports.repository.ts';
import { deleteSafetyReport, editSafetyReport, fileSafetyReport } from './safety-reports.service.ts';
import {
  ZSafetyReports$,
  ZSafetyReportsIndex,
  ZSafetyReportsView,
  ZPath,
  ZSafetyReportsDelete,
  ZSafetyReportsStats,
  ZSafetyReportsReportsByMonth,
  ZSafetyReportsFormOptions,
} from './safety-reports.responses.ts';

const plans = SAFETY_PLANS;
const who = GATES.member;
const area = 'safety-reports';
const idParam = z.object({ id: zId });
type Named = { named?: string[] };

function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw validationFailed(zodFieldErrors(r.error));
  return r.data;
}

/** `index/{flightId}` or `index/key:value/...`: a first segment without `:` is the flight. */
function listFilters(segments: string[] | undefined) {
  const list = [...(segments ?? [])];
  let flightId: string | undefined;
  if (list.length && list[0] !== '' && !list[0].includes(':')) flightId = list.shift();
  const named = parseNamed(list, LIST_KEYS);
  return parse(ZListFilters, { ...named, ...(flightId ? { flight_id: flightId } : {}) });
}

const isTrue = (v: string | undefined) => v === 'true' || v === '1';

const statRoute = (kind: StatKind, file: string) =>
  defineRoute({
    method: 'GET',
    path: `/safety_reports/${file}{/*named}.json`,
    area,
    summary: `Statistics: non-draft reports by ${kind.replace('_', ' ')}; optional named year:{year}`,
    access: { who, plans },
    response: ZSafetyReports$,
    handler: ({ ctx, actor, req }) =>
      statistic(ctx.db, actor, kind, parse(ZYearNamed, parseNamed((req.params as Named).named, ['year'])).year),
  });

/** Part B 4.4. */
export const safetyReportsRoutes = [
  defineRoute({
    method: 'GET',
    path: '/safety_reports/index{/*named}.json',
    area,
    summary:
      'Top-level safety reports visible to the caller, with `paginate`; index/{flightId}; named limit, page, status, report_category, severity, department, from, to, excel:true (xlsx, `token` query parameter)',
    access: { who, plans, queryToken: true },
    response: ZSafetyReportsIndex,
    file: { mediaType: MEDIA.xlsx },
    handler: async ({ ctx, actor, req, res }) => {
      const f = listFilters((req.params as Named).named);
      if (isTrue(f.excel)) return sendExcel(ctx.db, actor, f, res);
      return listSafetyReports(ctx.db, actor, f);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/safety_reports/index/*named',
    area,
    summary:
      'The list as a spreadsheet: index/from:../to:../status:../report_category:../severity:../excel:true?token=<token>',
    file: { mediaType: MEDIA.xlsx },
    access: { who, plans, queryToken: true },
    handler: async ({ ctx, actor, req, res }) => {
      const f = listFilters((req.params as Named).named);
      if (!isTrue(f.excel)) throw notFound();
      return sendExcel(ctx.db, actor, f, res);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/safety_reports/view/:id.json',
    area,
    summary:
      'One report with flight, aircraft, reporter, children, risk before and after mitigation, `allowEdit`; `SafetyReportChange` for roles < 111',
    access: { who, plans },
    params: idParam,
    response: ZSafetyReportsView,
    handler: ({ ctx, actor, params }) => viewSafetyReport(ctx.db, actor, params.id),
  }),
  defineRoute({
    method: 'GET',
    path: '/safety_reports/view/:id/:flag',
    area,
    summary: 'One report as a PDF: view/{id}/pdf:true?token=<token>',
    file: { mediaType: MEDIA.pdf },
    access: { who, plans, queryToken: true },
    params: z.object({ id: zId, flag: z.string() }),
    handler: async ({ ctx, actor, params, res }) => {
      if (params.flag !== 'pdf:true' && params.flag !== 'pdf:true.pdf') throw notFound();
      await sendPdf(ctx.db, actor, params.id, res);
    },
  }),
  ...(['/safety_reports/create.json', '/safety_reports/create/:flightId.json'] as const).map((path) =>
    defineRoute({
      method: 'POST',
      path,
      area,
      summary:
        'File a report (SafetyReport[...], Aircraft, crew); `open` assigns the number and notifies crew and managers, `draft` stays private; a repeat with the same SafetyReport.client_id answers the report already filed',
      bodyDoc: ZCreateBody,
      access: { who, plans },
      response: ZPath,
      handler: async ({ ctx, actor, req }) => {
        const flightId = (req.params as { flightId?: string }).flightId;
        const row = await fileSafetyReport(ctx, actor, req.body, flightId);
        return {
          result: true,
          id: row.id,
          idn: row.idn,
          status: row.status,
          message:
            row.status === 'draft' ? english('safety-reports.msgDraftSaved') : english('safety-reports.msgSaved'),
        };
      },
    }),
  ),
  defineRoute({
    method: ['POST', 'PUT'],
    path: '/safety_reports/edit{/:id}.json',
    bodyDoc: ZEditBody,
    area,
    summary: 'Edit a report (id in the path or SafetyReport.id); draft to open submits it',
    access: { who, plans },
    response: ZPath,
    handler: async ({ ctx, actor, req }) => {
      const body = (req.body ?? {}) as { SafetyReport?: { id?: unknown }; data?: { SafetyReport?: { id?: unknown } } };
      const raw = (req.params as { id?: string }).id ?? body.SafetyReport?.id ?? body.data?.SafetyReport?.id;
      const id = parse(z.object({ id: zId }), { id: typeof raw === 'number' ? String(raw) : raw }).id;
      const row = await ctx.tx((uow) => editSafetyReport(uow, actor, id, req.body));
      return {
        result: true,
        id: row.id,
        idn: row.idn,
        status: row.status,
        message: english('safety-reports.msgSaved'),
      };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/safety_reports/delete/:id.json',
    area,
    summary: 'Soft-delete a report and its children (roles <= 110)',
    access: { who: safetyGates.manage, plans },
    params: idParam,
    response: ZSafetyReportsDelete,
    handler: async ({ ctx, actor, params }) => {
      const n = await ctx.tx((uow) => deleteSafetyReport(uow, actor, params.id));
      return { result: true, deleted: n, message: english('safety-reports.msgDeleted') };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/safety_reports/stats.json',
    area,
    summary: 'Reference enumerations: status, severity, flight phase, damages, personal damages, risk keys',
    access: { who, plans },
    response: ZSafetyReportsStats,
    handler: () => enumerations(),
  }),
  defineRoute({
    method: 'GET',
    path: '/safety_reports/reports_by_month{/:months}.json',
    area,
    summary: 'Statistics: non-draft reports per month by severity over the last N months (default 6)',
    access: { who, plans },
    params: z.object({
      months: z
        .string()
        .regex(/^\d{1,3}$/, 'Expected a number of months')
        .optional(),
    }),
    response: ZSafetyReportsReportsByMonth,
    handler: ({ ctx, actor, params }) => reportsByMonth(ctx.db, actor, params.months ? Number(params.months) : 6),
  }),
  statRoute('flight_type', 'reports_by_flight_type'),
  statRoute('category', 'reports_by_category'),
  statRoute('severity', 'reports_by_severity'),
  statRoute('flight_phase', 'reports_by_flight_phase'),
  statRoute('department', 'reports_by_department'),
  defineRoute({
    method: 'GET',
    path: '/safety_reports/form_options.json',
    area,
    summary: 'Departments with their categories nested, enumerations and the company risk matrix, for the create form',
    access: { who, plans },
    response: ZSafetyReportsFormOptions,
    handler: ({ ctx, actor }) => formOptions(ctx.db, actor),
  }),
];
