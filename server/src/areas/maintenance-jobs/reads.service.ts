import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { DB } from '../../db/schema.ts';
import type { Actor } from '../../http/actor.ts';
import { notFound } from '../../http/errors.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { parseOr400 } from '../../http/errors.ts';
import { paginate } from '../../http/paging.ts';
import { emptyToUndefined, zPage } from '../../http/zod.ts';
import { reportDocs } from '../aircraft-reports/aircraft-reports.repository.ts';
import { presentJob, presentJobListRow } from './maintenance-jobs.presenter.ts';
import {
  aircraftRef,
  jobDocs,
  jobListPage,
  jobReportRows,
  jobRow,
  workOrderUnits,
} from './maintenance-jobs.repository.ts';

export async function viewJob(db: Kysely<DB>, actor: Actor, id: string) {
  const row = await jobRow(db, actor.companyId, id);
  if (!row) throw notFound('Maintenance job not found');
  const [doc] = await jobDocs(db, actor.companyId, [row]);
  const reports = await jobReportRows(db, actor.companyId, id);
  const docs = await reportDocs(db, actor.companyId, reports, nowSeconds(), actor.company.timezone);
  const units = await workOrderUnits(
    db,
    actor.companyId,
    doc.WorkOrder.map((w) => w.id),
  );
  const aircraft = await aircraftRef(db, actor.companyId, row.aircraft_id);
  return presentJob(doc, aircraft, docs, units);
}

const ZJobIndex = z.object({
  aircraft_id: z.preprocess(emptyToUndefined, z.string().max(64).optional()),
  maintenance_plan_id: z.preprocess(emptyToUndefined, z.string().max(64).optional()),
  /** `open` (CRS not signed), `completed`, or a stored status. */
  status: z.preprocess(
    (v) => (typeof v === 'string' ? emptyToUndefined(v.trim().toLowerCase()) : v),
    z.enum(['open', 'completed', 'in_progress']).optional(),
  ),
  page: zPage,
  limit: z.preprocess(
    emptyToUndefined,
    z
      .union([z.number(), z.string().regex(/^\d+$/)])
      .transform(Number)
      .pipe(z.number().int().min(1))
      .optional(),
  ),
});

export const JOB_PAGE_DEFAULT = 50;
export const JOB_PAGE_MAX = 200;

/** Designed list (docs/areas/fleet.md): open jobs first by start date, then the signed ones newest first. */
export async function listJobs(db: Kysely<DB>, actor: Actor, raw: unknown) {
  const f = parseOr400(ZJobIndex, raw ?? {});
  const limit = Math.min(f.limit ?? JOB_PAGE_DEFAULT, JOB_PAGE_MAX);
  const page = f.page ?? 1;
  const { count, rows } = await jobListPage(db, actor.companyId, f, page, limit);
  return {
    result: true,
    jobs: rows.map(presentJobListRow),
    paginate: paginate(page, limit, count, rows.length),
  };
}
