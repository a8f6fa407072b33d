import { INCOMPLETE_UPLOAD_TTL_SECONDS } from '@ops/shared/rules/uploads/upload-types';
import type { AppContext } from '../../context.ts';
import type { Job } from '../../jobs/scheduler.ts';
import { removeStoredObjects } from './uploads.service.ts';
import './uploads.tables.ts';

const BATCH = 200;
export const UPLOAD_CLEANUP_JOB = 'uploads.cleanup';

/**
 * Part A 3: signed uploads never completed are deleted after 24 hours, record and
 * object. A job (one server process per 10-minute window, `jobs/scheduler.ts`). Objects go first,
 * then the records are tombstoned per company (offline clients learn of it).
 */
export async function runUploadCleanup(ctx: AppContext, now = Math.floor(Date.now() / 1000)): Promise<number> {
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
  return removed;
}

export const uploadCleanupJob: Job = {
  name: UPLOAD_CLEANUP_JOB,
  everySeconds: 600,
  run: async (ctx) => void (await runUploadCleanup(ctx)),
};
