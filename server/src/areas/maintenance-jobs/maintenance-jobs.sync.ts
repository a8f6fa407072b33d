import { FLEET_TYPES, fleetCollection, type MaintenanceJobDoc } from '@ops/shared';
import { jobDocs } from './maintenance-jobs.repository.ts';
import { createJob, deleteJob, editJob, saveWorkOrder } from './maintenance-jobs.service.ts';
import { recordType, type SyncSource } from '../../sync/registry.ts';
import { afterCheckpoint } from '../../sync/checkpoint.ts';
import { countCompanyRows } from '../../sync/table-source.ts';

/** Maintenance jobs with their work orders; a work-order change stamps its job's change number. */
const source: SyncSource<MaintenanceJobDoc> = {
  tables: ['maintenance_jobs'],
  async read(db, companyId, after, limit, onlyVisibleTo) {
    let q = db
      .selectFrom('maintenance_jobs as j')
      .selectAll('j')
      .where('j.company_id', '=', companyId)
      .where(afterCheckpoint('j.change_no', 'j.id', after));
    if (onlyVisibleTo) q = q.where('j.deleted', '=', 0);
    const rows = await q.orderBy('j.change_no').orderBy('j.id').limit(limit).execute();
    const docs = await jobDocs(db, companyId, rows);
    return rows.map((r, i) => ({ seq: Number(r.change_no), id: r.id, deleted: !!r.deleted, scope: {}, doc: docs[i] }));
  },
  count: (db, companyId, upTo) => countCompanyRows(db, 'maintenance_jobs', companyId, upTo),
};

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The `maintenance_job` record type of `fleet`. */
export const maintenanceJobRecords = recordType<MaintenanceJobDoc>(fleetCollection, {
  types: [FLEET_TYPES.job],
  sources: [source],
  async load(db, companyId, id) {
    const row = await db
      .selectFrom('maintenance_jobs')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return null;
    const [doc] = await jobDocs(db, companyId, [row]);
    return { ...doc, _deleted: !!row.deleted };
  },
  async write(ctx, actor, next, master) {
    const incoming = next as MaintenanceJobDoc & { _deleted?: boolean };
    const stored = master as (MaintenanceJobDoc & { _deleted?: boolean }) | null;
    if (incoming._deleted) {
      if (stored && !stored._deleted) await ctx.tx((uow) => deleteJob(uow, actor, incoming.id));
      return { ok: true };
    }
    if (stored?._deleted) return { ok: false, reason: 'This job was deleted' };
    if (!stored) {
      await ctx.tx((uow) =>
        createJob(
          uow,
          actor,
          {
            Job: {
              aircraft_id: incoming.aircraft_id,
              name: incoming.name,
              description: incoming.description,
              start: incoming.start,
              maintenance_plan_id: incoming.maintenance_plan_id,
            },
          },
          { id: incoming.id },
        ),
      );
      return { ok: true };
    }
    // One transaction for the job fields and every work-order change: all land or none.
    await ctx.tx(async (uow) => {
      const fields: Record<string, unknown> = {};
      for (const f of ['name', 'description', 'start'] as const)
        if (!same(incoming[f], stored[f])) fields[f] = incoming[f];
      if (Object.keys(fields).length) await editJob(uow, actor, incoming.id, { Job: fields });
      const before = new Map(stored.WorkOrder.map((w) => [w.id, w]));
      for (const w of Array.isArray(incoming.WorkOrder) ? incoming.WorkOrder : []) {
        const old = before.get(w.id);
        if (!old) continue; // work orders are added online or from plan templates
        const changed: Record<string, unknown> = {};
        for (const f of ['name', 'description', 'ata', 'time', 'status', 'remarks'] as const)
          if (!same(w[f], old[f])) changed[f] = w[f];
        if (Object.keys(changed).length) await saveWorkOrder(uow, actor, { WorkOrder: { id: w.id, ...changed } });
      }
    });
    return { ok: true };
  },
});
