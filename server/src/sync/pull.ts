import { blankDoc, rowVisible, scopeFields, visibilityFingerprint } from '@ops/shared';
import type { AppContext } from '../context.ts';
import type { Actor } from '../http/actor.ts';
import type { Checkpoint } from './checkpoint.ts';
import { type RegisteredCollection, viewerOf } from './registry.ts';
import { horizonOf } from './retention.ts';
import { HttpError } from '../http/errors.ts';

/** The company's last change number (0 before its first replicated write). */
async function companySeq(ctx: AppContext, companyId: string): Promise<number> {
  const row = await ctx.db
    .selectFrom('sync_counters')
    .select('value')
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  return Number(row?.value ?? 0);
}

export interface PullResult {
  documents: Record<string, unknown>[];
  checkpoint: Checkpoint;
}

/**
 * Documents of one collection after a checkpoint, as this caller may see them.
 * On an incremental pull, changed rows the caller may not see (any more) are
 * sent as deletions, so a record moved away leaves the client at its next pull.
 * When the caller's visibility fingerprint changed (role change), the pull
 * restarts from zero in that same mode: everything visible is sent, everything
 * else is deleted locally. A checkpoint (or a restart from zero) below the
 * company's tombstone horizon answers 410: deletions it would need are gone,
 * so the client clears the collection and pulls from null.
 */
export async function pullCollection(
  ctx: AppContext,
  actor: Actor,
  collection: RegisteredCollection,
  checkpoint: Checkpoint | null,
  limit: number,
): Promise<PullResult> {
  const viewer = viewerOf(actor);
  const fp = visibilityFingerprint(viewer);
  const sameViewer = checkpoint !== null && checkpoint.fp === fp;
  const after = sameViewer ? { seq: checkpoint.seq, id: checkpoint.id } : { seq: 0, id: '' };
  // A load from nothing reads every page up to the change number it began at as a first pull (checkpoint.ts, `snap`).
  const snap = checkpoint === null ? await companySeq(ctx, actor.companyId) : sameViewer ? checkpoint.snap : undefined;
  const firstPull = snap !== undefined;
  const def = collection.def;
  const typed = scopeFields(def.rows).includes('type');
  const batches = await Promise.all(
    collection.sources.map(async ({ source, type }) => {
      const rows = await source.read(ctx.db, actor.companyId, after, limit, firstPull ? viewer : null);
      // A record type's part: stamp its `type` on the document and on what the row scope reads (both fresh objects of the source).
      if (type !== null)
        for (const r of rows) {
          (r.doc as Record<string, unknown>).type = type;
          r.scope.type = type;
        }
      else if (typed) for (const r of rows) r.scope.type = (r.doc as { type?: unknown }).type;
      return rows;
    }),
  );
  // Read after the rows: a purge commits its horizon with its deletions, so a tombstone this pull missed shows here.
  const horizon = await horizonOf(ctx.db, actor.companyId);
  // A load from nothing needs no tombstones below its `snap` (it sends visible rows only), so it is not sent back.
  if (checkpoint !== null && snap === undefined && after.seq < horizon) {
    throw new HttpError(410, {
      result: false,
      message: 'Checkpoint older than the tombstone retention; pull again from the start',
    });
  }
  const rows = batches.length === 1 ? batches[0] : batches.flat();
  if (batches.length > 1) rows.sort((a, b) => a.seq - b.seq || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  let page = rows.length > limit ? rows.slice(0, limit) : rows;
  let loaded: Checkpoint | null = null;
  if (snap !== undefined) {
    // Rows changed after the load began are read as changes, from `snap` on: a row sent on an earlier page and
    // hidden since must reach the device as a deletion, which a first-pull read would leave out.
    const cut = page.findIndex((r) => r.seq > snap);
    if (cut >= 0) page = page.slice(0, cut);
    if (cut >= 0 || rows.length < limit) {
      const last = page.at(-1);
      loaded = { seq: snap, id: last && last.seq === snap ? last.id : '', fp };
    }
  }
  const documents = page.map((r) => {
    const visible = rowVisible(def.rows, r.scope, viewer);
    if (!visible) return { ...blankDoc(def, r.id), _deleted: true };
    return { ...def.visible(r.doc, viewer), _deleted: r.deleted };
  });
  const last = page.at(-1);
  const next =
    loaded ?? (last ? { seq: last.seq, id: last.id, fp, ...(snap !== undefined ? { snap } : {}) } : { ...after, fp });
  // Read to the end: the checkpoint moves up to the horizon, so the next pull is not taken for one from before it.
  if ((loaded || rows.length < limit) && next.seq < horizon)
    return { documents, checkpoint: { seq: horizon, id: '', fp } };
  return { documents, checkpoint: next };
}
