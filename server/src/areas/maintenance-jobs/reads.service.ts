import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import type { DB } from '../../db/schema.ts';
import type { Actor } from '../../http/actor.ts';
import { notFound } from '../../http/errors.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { parseOr400 } from '../../http/errors.ts';
import { paginate } from '../../http/paging.ts';
import { emptyToUndefined, zPage } from '../../http/zod.ts';
import { reportDocs } from '../aircraft-reports/aircraft-reports.repository.ts';
import { jobDocs } from './maintenance-jobs.repository.ts';

const n = (v: number | null) => (v === null ? null : Number(v));

export async function viewJob(db: Kysely<DB>, actor: Actor, id: string) {
  const row = await db
    .selectFrom('maintenance_jobs')
    .selectAll()
    .where('company_id', '=', actor.companyId)
    .where('id', '=', id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!row) throw notFound('Maintenance job not found');
  const [doc] = await jobDocs(db, actor.companyId, [row]);
  const reports = await db
    .selectFrom('aircraft_reports')
    .selectAll()
    .where('company_id', '=', actor.companyId)
    .where('maintenance_job_id', '=', id)
    .where('deleted', '=', 0)
    .orderBy('created')
    .orderBy('id')
    .execute();
  const docs = await reportDocs(db, actor.companyId, reports, nowSeconds(), actor.company.timezone);
  const units = doc.WorkOrder.length
    ? await db
        .selectFrom('inventory_units as u')
        .innerJoin('inventory_parts as p', (j) =>
          j.onRef('p.id', '=', 'u.part_id').on('p.company_id', '=', actor.companyId),
        )
        .select([
          'u.id',
          'u.workorder_id',
          'u.serial_number',
          'u.status',
          'u.condition',
          'p.id as part_id',
          'p.part_number',
          'p.name as part_name',
        ])
        .where('u.company_id', '=', actor.companyId)
        .where(
          'u.workorder_id',
          'in',
          doc.WorkOrder.map((w) => w.id),
        )
        .where('u.deleted', '=', 0)
        .orderBy('p.name')
        .orderBy('u.id')
        .execute()
    : [];
  const aircraft = await db
    .selectFrom('aircraft')
    .select(['id', 'registration'])
    .where('company_id', '=', actor.companyId)
    .where('id', '=', row.aircraft_id)
    .executeTakeFirst();
  const { WorkOrder, ...job } = doc;
  return {
    result: true,
    Job: job,
    Aircraft: aircraft ?? null,
    AircraftReport: docs,
    WorkOrder: WorkOrder.map((w) => ({
      ...w,
      InventoryUnit: units.filter((u) => u.workorder_id === w.id).map(({ workorder_id: _w, ...u }) => u),
    })),
  };
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
  let q = db.selectFrom('maintenance_jobs as j').where('j.company_id', '=', actor.companyId).where('j.deleted', '=', 0);
  if (f.aircraft_id) q = q.where('j.aircraft_id', '=', f.aircraft_id);
  if (f.maintenance_plan_id) q = q.where('j.maintenance_plan_id', '=', f.maintenance_plan_id);
  if (f.status === 'open') q = q.where('j.crs_signed', '=', 0);
  if (f.status === 'completed') q = q.where('j.crs_signed', '=', 1);
  if (f.status === 'in_progress') q = q.where('j.status', '=', 'IN_PROGRESS');
  const [{ count }] = await q.select((eb) => eb.fn.countAll<number>().as('count')).execute();
  const rows = await q
    .leftJoin('aircraft as a', (j) => j.onRef('a.id', '=', 'j.aircraft_id').on('a.company_id', '=', actor.companyId))
    .selectAll('j')
    .select((eb) => [
      'a.registration',
      eb
        .selectFrom('aircraft_reports as r')
        .select((e) => e.fn.countAll<number>().as('c'))
        .whereRef('r.maintenance_job_id', '=', 'j.id')
        .where('r.company_id', '=', actor.companyId)
        .where('r.deleted', '=', 0)
        .as('report_count'),
      eb
        .selectFrom('work_orders as w')
        .select((e) => e.fn.countAll<number>().as('c'))
        .whereRef('w.maintenance_job_id', '=', 'j.id')
        .where('w.company_id', '=', actor.companyId)
        .as('work_order_count'),
      eb
        .selectFrom('work_orders as w')
        .select((e) => e.fn.countAll<number>().as('c'))
        .whereRef('w.maintenance_job_id', '=', 'j.id')
        .where('w.company_id', '=', actor.companyId)
        .where('w.status', 'in', ['done', 'cancelled'])
        .as('work_orders_closed'),
    ])
    .orderBy('j.crs_signed')
    .orderBy(sql`case when j.crs_signed = 0 and j.start is null then 1 else 0 end`)
    .orderBy(sql`case when j.crs_signed = 0 then j.start else -coalesce(j.finish, j.crs_signed_at, 0) end`)
    .orderBy('j.id')
    .limit(limit)
    .offset((page - 1) * limit)
    .execute();
  return {
    result: true,
    jobs: rows.map((r) => ({
      Job: {
        id: r.id,
        aircraft_id: r.aircraft_id,
        name: r.name,
        description: r.description,
        status: r.status,
        start: n(r.start),
        finish: n(r.finish),
        crs_signed: !!r.crs_signed,
        crs_signed_by: r.crs_signed_by,
        crs_signed_at: n(r.crs_signed_at),
        crs_expiration: n(r.crs_expiration),
        maintenance_plan_id: r.maintenance_plan_id,
        repeat: r.repeat,
        created: Number(r.created),
      },
      Aircraft: { id: r.aircraft_id, registration: r.registration },
      report_count: Number(r.report_count ?? 0),
      work_order_count: Number(r.work_order_count ?? 0),
      work_orders_closed: Number(r.work_orders_closed ?? 0),
    })),
    paginate: paginate(page, limit, Number(count), rows.length),
  };
}
