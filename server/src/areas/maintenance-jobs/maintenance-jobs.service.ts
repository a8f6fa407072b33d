import { uuidv7, WORK_ORDER_STATUSES } from '@ops/shared';
import argon2 from 'argon2';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { DB } from '../../db/schema.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { zUnix } from '../../http/zod.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { unwrapData } from '../../http/body.ts';
import { addError, invalid, parseOr400 } from '../../http/errors.ts';
import { emptyToNull, emptyToUndefined, zDecimal, zIdList, zOptText } from '../../http/zod.ts';
import { closeReportsOfJob } from '../aircraft-reports/aircraft-reports.service.ts';
import { plansRepository, type PlanRow } from '../maintenance-plans/maintenance-plans.repository.ts';
import { nextInOrder, nextJobStart } from '@ops/shared/rules/maintenance-plans/schedule';
import './maintenance-jobs.tables.ts';

/**
 * Maintenance jobs and work orders (CONTRACT 4, Part B 4.2 grouping, 4.3
 * automatic scheduling). One write path for REST and sync; every job write
 * stamps the job's change number so its work orders replicate with it.
 */

const optUnix = z.preprocess(emptyToNull, zUnix.nullable().optional());

export const ZJobCreate = z.object({
  aircraft_id: z
    .union([z.string(), z.number()], { error: 'Required' })
    .transform(String)
    .pipe(z.string().trim().min(1, 'Required').max(64)),
  name: z.preprocess(emptyToUndefined, z.string().trim().min(1).max(180, 'At most 180 characters').optional()),
  description: zOptText(5000),
  start: optUnix,
  maintenance_plan_id: z.preprocess(emptyToNull, z.string().max(64).nullable().optional()),
  aircraft_report_ids: zIdList.optional(),
});

export const ZJobEdit = z.object({
  name: z.string().trim().min(1, 'Required').max(180, 'At most 180 characters').optional(),
  description: zOptText(5000),
  start: optUnix,
});

const jobOf = (raw: unknown) => {
  const b = unwrapData(raw);
  return (b.Job && typeof b.Job === 'object' ? b.Job : b) as Record<string, unknown>;
};

async function findJob(db: Kysely<DB>, companyId: string, id: string) {
  return db
    .selectFrom('maintenance_jobs')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
}

async function touchJob(uow: UnitOfWork, companyId: string, jobId: string, set: Record<string, unknown> = {}) {
  await uow.trx
    .updateTable('maintenance_jobs')
    .set({ ...set, modified: nowSeconds(), change_no: await uow.changeNo(companyId, 'maintenance_jobs') })
    .where('company_id', '=', companyId)
    .where('id', '=', jobId)
    .execute();
}

/** Copies an action's template work orders into a job as `pending` (Part B 4.3). */
async function copyTemplates(uow: UnitOfWork, companyId: string, planId: string, jobId: string, now: number) {
  const templates = await plansRepository.templates(uow.trx, companyId, [planId]);
  if (!templates.length) return;
  await uow.trx
    .insertInto('work_orders')
    .values(
      templates.map((t, i) => ({
        id: uuidv7(),
        company_id: companyId,
        maintenance_job_id: jobId,
        plan_work_order_id: t.id,
        name: t.name,
        description: t.description,
        ata: t.ata,
        time: t.time,
        status: 'pending',
        remarks: null,
        sort_order: i,
        completed_at: null,
        completed_by: null,
        created: now,
        modified: now,
      })),
    )
    .execute();
}

async function insertJob(
  uow: UnitOfWork,
  actor: Actor,
  v: {
    id?: string;
    aircraft_id: string;
    name: string;
    description: string | null;
    start: number | null;
    plan: PlanRow | null;
  },
) {
  const id = v.id ?? uuidv7();
  const now = nowSeconds();
  await uow.trx
    .insertInto('maintenance_jobs')
    .values({
      id,
      company_id: actor.companyId,
      change_no: await uow.changeNo(actor.companyId, 'maintenance_jobs'),
      deleted: 0,
      created: now,
      modified: now,
      user_id: actor.userId,
      aircraft_id: v.aircraft_id,
      name: v.name,
      description: v.description,
      status: 'OPEN',
      start: v.start,
      finish: null,
      crs_signed: 0,
      crs_signed_by: null,
      crs_signed_at: null,
      crs_expiration: null,
      maintenance_plan_id: v.plan?.id ?? null,
      // Plan-linked jobs never repeat by themselves: the plan schedules the next one (Part B 4.3).
      repeat: 'NEVER',
    })
    .execute();
  if (v.plan) await copyTemplates(uow, actor.companyId, v.plan.id, id, now);
  return id;
}

export async function createJob(
  uow: UnitOfWork,
  actor: Actor,
  raw: unknown,
  opts: { id?: string } = {},
): Promise<{ id: string }> {
  const f = parseOr400(ZJobCreate, jobOf(raw));
  const trx = uow.trx;
  const aircraft = await trx
    .selectFrom('aircraft')
    .select('id')
    .where('company_id', '=', actor.companyId)
    .where('id', '=', f.aircraft_id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!aircraft) throw notFound('Aircraft not found');
  let plan: PlanRow | null = null;
  if (f.maintenance_plan_id) {
    plan = (await plansRepository.find(trx, actor.companyId, f.maintenance_plan_id)) ?? null;
    // A plan action of the company linked to the job's aircraft, else 404 (Part B 4.3, 7).
    if (!plan || !(await plansRepository.isLinked(trx, actor.companyId, plan.id, aircraft.id)))
      throw notFound('Maintenance plan action not found for this aircraft');
  }
  const name = f.name ?? plan?.name;
  if (!name) throw invalid({ name: ['Required'] });
  if (opts.id && (await trx.selectFrom('maintenance_jobs').select('id').where('id', '=', opts.id).executeTakeFirst()))
    throw badRequest('A job with this id already exists');
  const id = await insertJob(uow, actor, {
    id: opts.id,
    aircraft_id: aircraft.id,
    name,
    description: f.description ?? null,
    start: f.start ?? null,
    plan,
  });
  if (f.aircraft_report_ids?.length) await attachReports(uow, actor, id, f.aircraft_report_ids);
  return { id };
}

export async function editJob(uow: UnitOfWork, actor: Actor, id: string, raw: unknown): Promise<void> {
  const f = parseOr400(ZJobEdit, jobOf(raw));
  const job = await findJob(uow.trx, actor.companyId, id);
  if (!job) throw notFound('Maintenance job not found');
  if (job.crs_signed) throw badRequest('The CRS of this job is signed; it can no longer change');
  const set: Record<string, unknown> = {};
  if (f.name !== undefined) set.name = f.name;
  if (f.description !== undefined) set.description = f.description;
  if (f.start !== undefined) set.start = f.start;
  if (Object.keys(set).length) await touchJob(uow, actor.companyId, id, set);
}

async function openJobForLinking(uow: UnitOfWork, actor: Actor, jobId: string) {
  const job = await findJob(uow.trx, actor.companyId, jobId);
  if (!job) throw notFound('Maintenance job not found');
  if (job.crs_signed) throw badRequest('The CRS of this job is signed; its reports can no longer change');
  return job;
}

/** Reports of the job's aircraft only, each in at most one job, and never after the CRS (Part B 4.2). */
async function attachReports(uow: UnitOfWork, actor: Actor, jobId: string, reportIds: readonly string[]) {
  const trx = uow.trx;
  const job = await openJobForLinking(uow, actor, jobId);
  const ids = [...new Set(reportIds)];
  const reports = await trx
    .selectFrom('aircraft_reports')
    .select(['id', 'aircraft_id', 'maintenance_job_id', 'title'])
    .where('company_id', '=', actor.companyId)
    .where('id', 'in', ids)
    .where('deleted', '=', 0)
    .execute();
  if (reports.length !== ids.length) throw notFound('Aircraft report not found');
  const errors: Record<string, string[]> = {};
  for (const r of reports) {
    if (r.aircraft_id !== job.aircraft_id) addError(errors, r.id, `“${r.title}” is a report of another aircraft`);
    else if (r.maintenance_job_id && r.maintenance_job_id !== jobId)
      addError(errors, r.id, `“${r.title}” already belongs to another job`);
  }
  if (Object.keys(errors).length) throw invalid(errors);
  await trx
    .updateTable('aircraft_reports')
    .set({
      maintenance_job_id: jobId,
      modified: nowSeconds(),
      change_no: await uow.changeNo(actor.companyId, 'aircraft_reports'),
    })
    .where('company_id', '=', actor.companyId)
    .where('id', 'in', ids)
    .execute();
}

export const ZLinkReports = z.object({
  job_id: z.string({ error: 'Required' }).min(1, 'Required').max(64),
  aircraft_report_ids: zIdList.pipe(z.array(z.string()).min(1, 'At least one report')),
});
export const ZUnlinkReport = z.object({
  job_id: z.string({ error: 'Required' }).min(1, 'Required').max(64),
  aircraft_report_id: z.string({ error: 'Required' }).min(1, 'Required').max(64),
});

export async function linkReports(uow: UnitOfWork, actor: Actor, raw: unknown): Promise<void> {
  const f = parseOr400(ZLinkReports, unwrapData(raw));
  await attachReports(uow, actor, f.job_id, f.aircraft_report_ids);
}

export async function unlinkReport(uow: UnitOfWork, actor: Actor, raw: unknown): Promise<void> {
  const f = parseOr400(ZUnlinkReport, unwrapData(raw));
  await openJobForLinking(uow, actor, f.job_id);
  const res = await uow.trx
    .updateTable('aircraft_reports')
    .set({
      maintenance_job_id: null,
      modified: nowSeconds(),
      change_no: await uow.changeNo(actor.companyId, 'aircraft_reports'),
    })
    .where('company_id', '=', actor.companyId)
    .where('id', '=', f.aircraft_report_id)
    .where('maintenance_job_id', '=', f.job_id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw notFound('The report is not attached to this job');
}

export const ZSignCrs = z.object({
  password: z.string({ error: 'Required' }).min(1, 'Required').max(1024),
  finish: optUnix,
  expiration: optUnix,
});

/** The signer proves it is them with their own sign-in password (argon2 hash of their identity). */
export async function verifySignerPassword(db: Kysely<DB>, actor: Actor, password: string): Promise<boolean> {
  if (!actor.identityId) return false;
  const identity = await db
    .selectFrom('identities')
    .select('password_hash')
    .where('id', '=', actor.identityId)
    .executeTakeFirst();
  if (!identity) return false;
  return argon2.verify(identity.password_hash, password).catch(() => false);
}

export interface SignResult {
  closed_reports: number;
  next_job_id: string | null;
}

/**
 * Signs the CRS: the job is COMPLETED, its open work orders done, every
 * attached report closed by the signer; a plan-linked job schedules the next
 * action of the aircraft's plan (Part B 4.3). The password is checked before.
 */
export async function signCrs(
  uow: UnitOfWork,
  actor: Actor,
  jobId: string,
  f: { finish?: number | null; expiration?: number | null },
): Promise<SignResult> {
  const trx = uow.trx;
  const job = await findJob(trx, actor.companyId, jobId);
  if (!job) throw notFound('Maintenance job not found');
  if (job.crs_signed) throw badRequest('The CRS of this job is already signed');
  const now = nowSeconds();
  const finish = f.finish ?? now;
  const expiration = f.expiration ?? null;
  if (expiration !== null && expiration <= finish)
    throw invalid({ expiration: ['The CRS validity must end after the job finished'] });
  // Conditional: two signers racing cannot both sign.
  const res = await trx
    .updateTable('maintenance_jobs')
    .set({
      status: 'COMPLETED',
      crs_signed: 1,
      crs_signed_by: actor.userId,
      crs_signed_at: now,
      crs_expiration: expiration,
      finish,
      modified: now,
      change_no: await uow.changeNo(actor.companyId, 'maintenance_jobs'),
    })
    .where('company_id', '=', actor.companyId)
    .where('id', '=', jobId)
    .where('crs_signed', '=', 0)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw badRequest('The CRS of this job is already signed');
  // The CRS certifies the whole job: work still open is certified done with it.
  await trx
    .updateTable('work_orders')
    .set({ status: 'done', completed_at: finish, completed_by: actor.userId, modified: now })
    .where('company_id', '=', actor.companyId)
    .where('maintenance_job_id', '=', jobId)
    .where('status', 'in', ['pending', 'in_progress'])
    .execute();
  const closed = await closeReportsOfJob(uow, actor, actor.userId, jobId, now);
  const next = job.maintenance_plan_id
    ? await scheduleNext(uow, actor, job.aircraft_id, job.maintenance_plan_id, finish, expiration)
    : null;
  return { closed_reports: closed, next_job_id: next };
}

/**
 * The next action in the aircraft's plan order after `planId` (wrapping) gets
 * a job, unless one is already open for it. The signed action keeps its place
 * in the order even if it was deleted or unlinked meanwhile.
 */
async function scheduleNext(
  uow: UnitOfWork,
  actor: Actor,
  aircraftId: string,
  planId: string,
  finish: number,
  expiration: number | null,
): Promise<string | null> {
  const trx = uow.trx;
  const linked = await plansRepository.linkedTo(trx, actor.companyId, aircraftId);
  if (!linked.length) return null;
  const current = await trx
    .selectFrom('maintenance_plans')
    .select(['id', 'sort_order'])
    .where('company_id', '=', actor.companyId)
    .where('id', '=', planId)
    .executeTakeFirst();
  const next = nextInOrder(linked, current);
  if (!next) return null;
  const open = await trx
    .selectFrom('maintenance_jobs')
    .select('id')
    .where('company_id', '=', actor.companyId)
    .where('aircraft_id', '=', aircraftId)
    .where('maintenance_plan_id', '=', next.id)
    .where('crs_signed', '=', 0)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (open) return null;
  const start = nextJobStart(next.repeat, finish, expiration, actor.company.timezone);
  return insertJob(uow, actor, {
    aircraft_id: aircraftId,
    name: next.name,
    description: next.description,
    start,
    plan: next,
  });
}

const woStatus = z.preprocess(
  (v) => (typeof v === 'string' ? emptyToUndefined(v.trim().toLowerCase()) : v),
  z.enum(WORK_ORDER_STATUSES, { error: `One of ${WORK_ORDER_STATUSES.join(', ')}` }).optional(),
);

export const ZWorkOrder = z.object({
  id: z.preprocess(emptyToUndefined, z.string().max(64).optional()),
  maintenance_job_id: z.preprocess(emptyToUndefined, z.string().max(64).optional()),
  name: z.preprocess(emptyToUndefined, z.string().trim().min(1).max(180, 'At most 180 characters').optional()),
  description: zOptText(5000),
  ata: zOptText(10),
  time: z.preprocess(emptyToNull, zDecimal.pipe(z.number().min(0, 'Must be 0 or more')).nullable().optional()),
  status: woStatus,
  remarks: zOptText(2000),
  /** Inventory units used by this work order; replaces the set when given. */
  inventory_unit_ids: zIdList.optional(),
});

/** Job status from its work orders: started once one is under way or done (COMPLETED only by the CRS). */
async function refreshJobStatus(uow: UnitOfWork, companyId: string, jobId: string) {
  const started = await uow.trx
    .selectFrom('work_orders')
    .select('id')
    .where('company_id', '=', companyId)
    .where('maintenance_job_id', '=', jobId)
    .where('status', 'in', ['in_progress', 'done'])
    .executeTakeFirst();
  await touchJob(uow, companyId, jobId, { status: started ? 'IN_PROGRESS' : 'OPEN' });
}

/** Creates (no id) or updates a work order of an open job (designed: POST /maintenance/jobs/work_orders/edit.json). */
export async function saveWorkOrder(uow: UnitOfWork, actor: Actor, raw: unknown): Promise<{ id: string }> {
  const b = unwrapData(raw);
  const f = parseOr400(
    ZWorkOrder,
    (b.WorkOrder && typeof b.WorkOrder === 'object' ? b.WorkOrder : b) as Record<string, unknown>,
  );
  const trx = uow.trx;
  const now = nowSeconds();
  let id = f.id;
  let jobId: string;
  if (id) {
    const wo = await trx
      .selectFrom('work_orders')
      .selectAll()
      .where('company_id', '=', actor.companyId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!wo) throw notFound('Work order not found');
    jobId = wo.maintenance_job_id;
    await openJobForLinking(uow, actor, jobId);
    const set: Record<string, unknown> = {};
    for (const k of ['name', 'description', 'ata', 'time', 'remarks'] as const) if (f[k] !== undefined) set[k] = f[k];
    if (f.status !== undefined && f.status !== wo.status) {
      set.status = f.status;
      set.completed_at = f.status === 'done' ? now : null;
      set.completed_by = f.status === 'done' ? actor.userId : null;
    }
    if (Object.keys(set).length)
      await trx
        .updateTable('work_orders')
        .set({ ...set, modified: now })
        .where('company_id', '=', actor.companyId)
        .where('id', '=', id)
        .execute();
  } else {
    if (!f.maintenance_job_id) throw invalid({ maintenance_job_id: ['Required'] });
    if (!f.name) throw invalid({ name: ['Required'] });
    jobId = f.maintenance_job_id;
    await openJobForLinking(uow, actor, jobId);
    const last = await trx
      .selectFrom('work_orders')
      .select((eb) => eb.fn.max('sort_order').as('m'))
      .where('company_id', '=', actor.companyId)
      .where('maintenance_job_id', '=', jobId)
      .executeTakeFirst();
    id = uuidv7();
    const status = f.status ?? 'pending';
    await trx
      .insertInto('work_orders')
      .values({
        id,
        company_id: actor.companyId,
        maintenance_job_id: jobId,
        plan_work_order_id: null,
        name: f.name,
        description: f.description ?? null,
        ata: f.ata ?? null,
        time: f.time ?? null,
        status,
        remarks: f.remarks ?? null,
        sort_order: last?.m === null || last?.m === undefined ? 0 : Number(last.m) + 1,
        completed_at: status === 'done' ? now : null,
        completed_by: status === 'done' ? actor.userId : null,
        created: now,
        modified: now,
      })
      .execute();
  }
  if (f.inventory_unit_ids) await assignUnits(uow, actor, id, f.inventory_unit_ids);
  await refreshJobStatus(uow, actor.companyId, jobId);
  return { id };
}

/** Units taken for a work order leave the `available` stock; their parts' documents change with them. */
async function assignUnits(uow: UnitOfWork, actor: Actor, workOrderId: string, unitIds: readonly string[]) {
  const trx = uow.trx;
  const ids = [...new Set(unitIds)];
  const units = ids.length
    ? await trx
        .selectFrom('inventory_units')
        .select(['id', 'part_id', 'workorder_id'])
        .where('company_id', '=', actor.companyId)
        .where('id', 'in', ids)
        .where('deleted', '=', 0)
        .execute()
    : [];
  if (units.length !== ids.length) throw notFound('Inventory unit not found');
  const taken = units.filter((u) => u.workorder_id && u.workorder_id !== workOrderId);
  if (taken.length)
    throw invalid({ inventory_unit_ids: [`${taken.length} unit(s) already used by another work order`] });
  const previous = await trx
    .selectFrom('inventory_units')
    .select(['id', 'part_id'])
    .where('company_id', '=', actor.companyId)
    .where('workorder_id', '=', workOrderId)
    .execute();
  const now = nowSeconds();
  await trx
    .updateTable('inventory_units')
    .set({ workorder_id: null, modified: now })
    .where('company_id', '=', actor.companyId)
    .where('workorder_id', '=', workOrderId)
    .execute();
  if (ids.length)
    await trx
      .updateTable('inventory_units')
      .set({ workorder_id: workOrderId, modified: now })
      .where('company_id', '=', actor.companyId)
      .where('id', 'in', ids)
      .execute();
  const parts = [...new Set([...units, ...previous].map((u) => u.part_id))];
  if (parts.length) {
    await trx
      .updateTable('inventory_parts')
      .set({ modified: now, change_no: await uow.changeNo(actor.companyId, 'inventory_parts') })
      .where('company_id', '=', actor.companyId)
      .where('id', 'in', parts)
      .execute();
  }
}

export async function deleteJob(uow: UnitOfWork, actor: Actor, id: string): Promise<void> {
  const job = await findJob(uow.trx, actor.companyId, id);
  if (!job) throw notFound('Maintenance job not found');
  if (job.crs_signed) throw badRequest('The CRS of this job is signed; it stays in the record');
  await uow.trx
    .updateTable('aircraft_reports')
    .set({
      maintenance_job_id: null,
      modified: nowSeconds(),
      change_no: await uow.changeNo(actor.companyId, 'aircraft_reports'),
    })
    .where('company_id', '=', actor.companyId)
    .where('maintenance_job_id', '=', id)
    .execute();
  // Parts reserved for its work orders go back to the stock.
  const units = await uow.trx
    .selectFrom('inventory_units as u')
    .innerJoin('work_orders as w', (j) =>
      j.onRef('w.id', '=', 'u.workorder_id').on('w.company_id', '=', actor.companyId),
    )
    .select(['u.id', 'u.part_id'])
    .where('u.company_id', '=', actor.companyId)
    .where('w.maintenance_job_id', '=', id)
    .execute();
  if (units.length) {
    const now = nowSeconds();
    await uow.trx
      .updateTable('inventory_units')
      .set({ workorder_id: null, modified: now })
      .where('company_id', '=', actor.companyId)
      .where(
        'id',
        'in',
        units.map((u) => u.id),
      )
      .execute();
    await uow.trx
      .updateTable('inventory_parts')
      .set({ modified: now, change_no: await uow.changeNo(actor.companyId, 'inventory_parts') })
      .where('company_id', '=', actor.companyId)
      .where('id', 'in', [...new Set(units.map((u) => u.part_id))])
      .execute();
  }
  await touchJob(uow, actor.companyId, id, { deleted: 1 });
}
