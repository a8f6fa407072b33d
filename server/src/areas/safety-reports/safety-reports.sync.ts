import { english } from '../../http/messages.ts';
import { type SafetyDoc, safetyCollection } from '@ops/shared';
import { isUuid } from '@ops/shared';
import { z } from 'zod';
import { CommandRejected, defineCommand } from '../../sync/index.ts';
import { defineCollection } from '../../sync/registry.ts';
import { tableSource } from '../../sync/table-source.ts';
import { HttpError } from '../../http/errors.ts';
import type { Actor } from '../../http/actor.ts';
import { SAFETY_PLANS } from '@ops/shared/rules/safety-reports/policy';
import { createSafetyReport, editSafetyReport, loadVisible } from './safety-reports.service.ts';
import type { SafetyReportsTable } from './safety-reports.tables.ts';

/**
 * The `safety` collection (shared/src/collections/safety.ts): rows filtered by
 * the custom scope, i.e. `maySeeSafetyReport` (rules/safety-reports/policy.ts), the rule REST applies. Filing and
 * submitting offline are commands decided by the server through the REST
 * services, so the number is assigned when the command reaches the server.
 */
const toDoc = (r: SafetyReportsTable): SafetyDoc => ({
  id: r.id,
  idn: r.idn,
  name: r.name,
  status: r.status,
  type: r.type,
  severity: r.severity,
  datetime: r.datetime,
  location: r.location,
  events: r.events,
  actions: r.actions,
  flight_phase: r.flight_phase,
  safety_report_category_id: r.safety_report_category_id,
  safety_report_department_id: r.safety_report_department_id,
  flight_id: r.flight_id,
  parent_id: r.parent_id,
  user_id: r.user_id,
  reviewer_id: r.reviewer_id,
  damages: r.damages,
  personal_damages: r.personal_damages,
  risk_probability: r.risk_probability,
  risk_severity: r.risk_severity,
  mitigated_risk_probability: r.mitigated_risk_probability,
  mitigated_risk_severity: r.mitigated_risk_severity,
  created: Number(r.created),
  modified: Number(r.modified),
});

export const safetyServerCollection = defineCollection<SafetyDoc>({
  def: safetyCollection,
  sources: [
    tableSource({
      tables: ['safety_reports'],
      alias: 'sr',
      rows: safetyCollection.rows,
      query: (db, companyId) =>
        db.selectFrom('safety_reports as sr').selectAll('sr').where('sr.company_id', '=', companyId),
      toDoc: (r) => toDoc(r as SafetyReportsTable),
    }),
  ],
});

function requirePlan(actor: Actor) {
  if (!(SAFETY_PLANS as readonly string[]).includes(actor.plan))
    throw new CommandRejected(english('safety-reports.errPlan'));
}

/** REST refusals become command rejections with the same message. */
async function decided<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof HttpError) {
      const body = err.body as { message?: string; errors?: unknown };
      throw new CommandRejected(body.message ?? 'Refused', { status: err.status, errors: body.errors ?? null });
    }
    throw err;
  }
}

/**
 * File a report (draft or open) with the device's id; `open` takes its number
 * now, on the server. The form's `client_id` (else the report id) makes a
 * repeated press or a replayed queue answer the report already filed.
 */
export const safetyFileCommand = defineCommand({
  name: 'safety.file',
  args: z.object({
    id: z.string().refine(isUuid, 'Expected a UUID'),
    client_id: z.string().min(1).max(64).optional(),
    SafetyReport: z.record(z.string(), z.unknown()),
    flight_id: z.string().max(64).optional(),
  }),
  async run(_ctx, uow, actor, args) {
    requirePlan(actor);
    const SafetyReport = { ...args.SafetyReport, client_id: args.client_id ?? args.id };
    const row = await decided(() => createSafetyReport(uow, actor, { SafetyReport }, args.flight_id, { id: args.id }));
    return { id: row.id, idn: row.idn, status: row.status };
  },
});

/** Submit a draft filed earlier (on this or another device): draft to open, numbered by the server. */
export const safetySubmitCommand = defineCommand({
  name: 'safety.submit',
  args: z.object({ id: z.string().min(1).max(64), SafetyReport: z.record(z.string(), z.unknown()).optional() }),
  async run(_ctx, uow, actor, args) {
    requirePlan(actor);
    const current = await decided(() => loadVisible(uow, actor, args.id));
    if (current.status !== 'draft')
      throw new CommandRejected(english('safety-reports.errAlreadySubmitted', { idn: current.idn }));
    const row = await decided(() =>
      editSafetyReport(uow, actor, args.id, { SafetyReport: { ...(args.SafetyReport ?? {}), status: 'open' } }),
    );
    return { id: row.id, idn: row.idn, status: row.status };
  },
});
