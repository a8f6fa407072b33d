import { z } from 'zod';
import { type Expression, type RawBuilder, sql } from 'kysely';

export const ZCheckpoint = z.object({
  seq: z.number().int().nonnegative(),
  id: z.string().max(64),
  fp: z.string().max(200),
  /**
   * Set while a device loads a collection from nothing (docs/sync.md, "First
   * sync"): the company's change number when the load began. Rows up to it
   * are read as a first pull (visible rows only, the device's bounds); the
   * load's last page returns a checkpoint without it, at that number, and
   * the rows changed since are read as changes (deletions included).
   */
  snap: z.number().int().nonnegative().optional(),
  /**
   * The pull that answered it read to the end: no row of the collection is left at `seq` after `id`. With it, a
   * pull from a checkpoint at the company's current change number is answered without reading the collection
   * (issue 34: a herd of reconnecting devices). Without it (older servers, a page cut short, the live stream's
   * checkpoints) the pull reads as before.
   */
  tail: z.literal(true).optional(),
});
export type Checkpoint = z.infer<typeof ZCheckpoint>;

/**
 * Rows after a checkpoint in (change_no, id) order. A row-value comparison is one index range on
 * (company_id, change_no, id) in both databases; PostgreSQL cannot bound the index with the
 * equivalent `a > x or (a = x and b > y)`. Columns are names (`alias.column`) or expressions.
 */
export function afterCheckpoint(
  changeNo: string,
  id: string | Expression<string>,
  after: Pick<Checkpoint, 'seq' | 'id'>,
): RawBuilder<boolean> {
  const idExpr = typeof id === 'string' ? sql.ref(id) : id;
  return sql<boolean>`(${sql.ref(changeNo)}, ${idExpr}) > (${after.seq}, ${after.id})`;
}
