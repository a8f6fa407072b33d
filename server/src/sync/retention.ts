import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/schema.ts';
import { nowSeconds } from '../lib/tokens.ts';
import { tombstoneTables } from './registry.ts';
import './tables.ts';
import type { Job } from '../jobs/scheduler.ts';

/**
 * Tombstone retention (docs/sync.md). Areas opt their replicated tables in
 * (`registerTombstones`) when a row with `deleted = 1` is only a tombstone
 * (nothing references it); tables whose deleted rows stay live documents
 * (soft-deleted flight types) never are.
 */
export { registerTombstones } from './registry.ts';

/** The company's horizon: the highest change number of a purged tombstone (0 when none). */
export async function horizonOf(db: Kysely<DB>, companyId: string): Promise<number> {
  const row = await db.selectFrom('sync_horizons').select('seq').where('company_id', '=', companyId).executeTakeFirst();
  return row ? Number(row.seq) : 0;
}

/**
 * Deletes tombstones older than `days`. Per table, one transaction raises each
 * company's horizon to the highest change number it purges and deletes exactly
 * the rows at or below it, so a reader sees either the tombstones or the
 * horizon that makes its pull answer 410, never neither. Safe with several
 * server processes running it at once: raising a horizon takes the maximum,
 * and deleting what another process already deleted deletes nothing.
 */
export async function purgeTombstones(db: Kysely<DB>, days: number, now = nowSeconds()): Promise<number> {
  const cutoff = now - Math.round(days * 86400);
  let purged = 0;
  for (const table of tombstoneTables()) {
    purged += await db.transaction().execute(async (trx) => {
      const t = sql.table(table);
      const { rows } = await sql<{
        company_id: string;
        seq: number | string;
      }>`select company_id, max(change_no) as seq from ${t} where deleted = 1 and modified < ${cutoff} group by company_id`.execute(
        trx,
      );
      let n = 0;
      for (const r of rows) {
        const seq = Number(r.seq);
        await sql`insert into sync_horizons (company_id, seq, purged_at) values (${r.company_id}, ${seq}, ${now})
          on conflict (company_id) do update set seq = case when excluded.seq > sync_horizons.seq then excluded.seq else sync_horizons.seq end, purged_at = excluded.purged_at`.execute(
          trx,
        );
        const del =
          await sql`delete from ${t} where company_id = ${r.company_id} and deleted = 1 and modified < ${cutoff} and change_no <= ${seq}`.execute(
            trx,
          );
        n += Number(del.numAffectedRows ?? 0);
      }
      return n;
    });
  }
  return purged;
}

/** Once an hour in one server process (the purge is also safe when two run at once). */
export const tombstonePurgeJob: Job = {
  name: 'sync.tombstone_purge',
  everySeconds: 3600,
  run: async (ctx) => {
    const n = await purgeTombstones(ctx.db, ctx.config.syncTombstoneDays);
    if (n) ctx.log.info({ purged: n }, 'sync tombstones purged');
  },
};
