import { randomUUID } from 'node:crypto';
import { INCOMPLETE_UPLOAD_TTL_SECONDS } from '@ops/shared/rules/uploads/upload-types';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { DB } from '../../db/schema.ts';
import { removeStoredObjects } from './uploads.service.ts';
import './uploads.tables.ts';

/** How often each server process tries the cleanup; one of them wins each window. */
export const CLEANUP_EVERY_SECONDS = 10 * 60;
const BATCH = 200;
const LEASE = 'uploads-cleanup';

/**
 * Takes the job's lease for one window: a conditional UPDATE on a single row, so
 * among any number of processes (and PostgreSQL connections) exactly one sees its
 * update applied while the lease of the previous winner has run out.
 */
export async function claimLease(db: Kysely<DB>, name: string, holder: string, now: number, seconds: number): Promise<boolean> {
  await db.insertInto('uploads_job_leases').values({ name, holder: '', until: 0, last_run: 0 }).onConflict((oc) => oc.column('name').doNothing()).execute();
  const r = await db
    .updateTable('uploads_job_leases')
    .set({ holder, until: now + seconds, last_run: now })
    .where('name', '=', name)
    .where('until', '<=', now)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export interface CleanupResult {
  ran: boolean;
  removed: number;
}

/**
 * Part A 3: signed uploads never completed are deleted after 24 hours, record and
 * object. Runs only when this process holds the window's lease. Objects go first,
 * then the records are tombstoned per company (offline clients learn of it).
 */
export async function runUploadCleanup(ctx: AppContext, opts: { holder?: string; now?: number; leaseSeconds?: number } = {}): Promise<CleanupResult> {
  const now = opts.now ?? Math.floor(Date.now() / 1000);
  const holder = opts.holder ?? `${process.pid}-${randomUUID()}`;
  if (!(await claimLease(ctx.db, LEASE, holder, now, opts.leaseSeconds ?? CLEANUP_EVERY_SECONDS - 30))) return { ran: false, removed: 0 };
  const cutoff = now - INCOMPLETE_UPLOAD_TTL_SECONDS;
  let removed = 0;
  for (;;) {
    const rows = await ctx.db
      .selectFrom('uploads')
      .select(['id', 'company_id', 'storage_key', 'thumb_key'])
      .where('verified', '=', 0)
      .where('created', '<', cutoff)
      .where('deleted', '=', 0)
      .orderBy('created')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) break;
    await removeStoredObjects(
      ctx,
      rows.flatMap((r) => [r.storage_key, ...(r.thumb_key ? [r.thumb_key] : [])]),
    );
    const byCompany = new Map<string, string[]>();
    for (const r of rows) byCompany.set(r.company_id, [...(byCompany.get(r.company_id) ?? []), r.id]);
    for (const [companyId, ids] of byCompany) {
      await ctx.tx(async (uow) => {
        const changeNo = await uow.changeNo(companyId, 'uploads');
        await uow.trx
          .updateTable('uploads')
          .set({ deleted: 1, active: 0, change_no: changeNo, modified: now })
          .where('company_id', '=', companyId)
          .where('id', 'in', ids)
          .where('verified', '=', 0)
          .execute();
      });
    }
    removed += rows.length;
    if (rows.length < BATCH) break;
  }
  if (removed) ctx.log.info({ removed }, 'removed signed uploads never completed');
  return { ran: true, removed };
}

/** Starts the periodic cleanup in this process (first try within a minute); returns the stop function. */
export function startUploadCleanup(ctx: AppContext): () => void {
  const holder = `${process.pid}-${randomUUID()}`;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const tick = async () => {
    try {
      await runUploadCleanup(ctx, { holder });
    } catch (err) {
      if (!stopped) ctx.log.warn({ err }, 'upload cleanup failed');
    }
    if (!stopped) {
      timer = setTimeout(tick, CLEANUP_EVERY_SECONDS * 1000);
      timer.unref();
    }
  };
  timer = setTimeout(tick, 5_000 + Math.floor(Math.random() * 55_000));
  timer.unref();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
