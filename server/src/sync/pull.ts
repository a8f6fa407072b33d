import { blankDoc, rowVisible, scopeFields, type Viewer, visibilityFingerprint } from '@ops/shared';
import type { AppContext } from '../context.ts';
import type { Actor } from '../http/actor.ts';
import type { Checkpoint } from './checkpoint.ts';
import { type RegisteredCollection, type SourceRow, viewerOf } from './registry.ts';
import { horizonOf } from './retention.ts';
import { HttpError } from '../http/errors.ts';
import { Coalescer } from '../lib/coalesce.ts';

/** The company's last change number (0 before its first replicated write). */
async function companySeq(ctx: AppContext, companyId: string): Promise<number> {
  const row = await ctx.db
    .selectFrom('sync_counters')
    .select('value')
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  return Number(row?.value ?? 0);
}

const counters = new WeakMap<AppContext['database'], Coalescer<string, number>>();
/**
 * The company's last change number, read in batches: the pulls of a herd that arrive while a read runs share the
 * next one (lib/coalesce.ts never lets a request join a read already started, so the number is at least as new
 * as the request).
 */
function currentSeq(ctx: AppContext, companyId: string): Promise<number> {
  let c = counters.get(ctx.database);
  if (!c) {
    c = new Coalescer(async (ids: string[]) => {
      const rows = await ctx.db
        .selectFrom('sync_counters')
        .select(['company_id', 'value'])
        .where('company_id', 'in', ids)
        .execute();
      return new Map(rows.map((r) => [r.company_id, Number(r.value)]));
    }, 0);
    counters.set(ctx.database, c);
  }
  return c.load(companyId);
}

/**
 * The answer to a pull whose checkpoint is already current, or null when the collection must be read. Current:
 * the checkpoint's pull read to the end (`tail`), for this viewer, not during a load (`snap`), and no change
 * was committed in the company since its number. Then there is no row after it (change numbers of a company
 * commit in order under its counter row's lock) and none below the tombstone horizon (the horizon never passes
 * the counter). One batched read instead of one query per source, outside the pull gate: a herd of 5,000
 * devices reconnecting with current checkpoints cost 5,000 × (sources + 1) queries (issue 34).
 */
export async function currentPull(
  ctx: AppContext,
  actor: Actor,
  checkpoint: Checkpoint | null,
): Promise<PullResult | null> {
  if (!checkpoint?.tail || checkpoint.snap !== undefined) return null;
  if (checkpoint.fp !== visibilityFingerprint(viewerOf(actor))) return null;
  if (checkpoint.seq < (await currentSeq(ctx, actor.companyId))) return null;
  return { documents: [], checkpoint };
}

/**
 * Rows of one collection after `from`, every source merged in (change_no, id) order (up to `limit` per
 * source; the caller keeps the first `limit`). `onlyVisibleTo` is set on a first pull. Also the live
 * fan-out's single read per change batch (fanout.ts), with `onlyVisibleTo` null.
 *
 * Several sources are several statements, each with its own snapshot on PostgreSQL (and another
 * request's commit can run between them on SQLite): change N of one source could commit after its
 * statement began, N+1 of another before its statement began, and the reader's checkpoint would then
 * pass N for good (issue 34's rare missed change). So such a collection is read only up to the
 * company's change number taken first: every change up to it has committed (numbers commit in
 * order), and the later ones are read next time. A source that returned `limit` rows with some above
 * the bound still returned every row up to it, so nothing below the bound is skipped either.
 */
export async function readSources(
  ctx: AppContext,
  companyId: string,
  collection: RegisteredCollection,
  from: { seq: number; id: string },
  limit: number,
  onlyVisibleTo: Viewer | null,
): Promise<SourceRow<unknown>[]> {
  const typed = scopeFields(collection.def.rows).includes('type');
  const upTo = collection.sources.length > 1 ? await currentSeq(ctx, companyId) : null;
  const batches = await Promise.all(
    collection.sources.map(async ({ source, type }) => {
      const rows = await source.read(ctx.db, companyId, from, limit, onlyVisibleTo);
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
  if (upTo === null) return batches[0] ?? [];
  const rows = batches.flat().filter((r) => r.seq <= upTo);
  rows.sort((a, b) => a.seq - b.seq || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return rows;
}

/**
 * A changed row as one viewer receives it on an incremental pull: masked when visible, else a deletion
 * carrying only the id and type defaults (no content). Pure, so the pull and the live fan-out agree.
 */
export function changeDocument(
  def: RegisteredCollection['def'],
  r: SourceRow<unknown>,
  viewer: Viewer,
): Record<string, unknown> {
  if (!rowVisible(def.rows, r.scope, viewer)) return { ...blankDoc(def, r.id), _deleted: true };
  return { ...def.visible(r.doc as { id: string }, viewer), _deleted: r.deleted };
}

export interface PullResult {
  documents: Record<string, unknown>[];
  checkpoint: Checkpoint;
  /** On the first page of a load from nothing, when asked: how many documents the whole load brings (progress). */
  total?: number;
}

/**
 * How many documents a load from nothing up to `snap` brings this viewer (the
 * sources' `count`: role-filtered and bounded like the load itself), or
 * undefined when a source cannot count. A collection fed by several sources
 * may send a document twice (reference airports), so this is an upper bound.
 */
async function loadTotal(
  ctx: AppContext,
  actor: Actor,
  collection: RegisteredCollection,
  snap: number,
): Promise<number | undefined> {
  const viewer = viewerOf(actor);
  const counts = await Promise.all(
    collection.sources.map(({ source, type }) =>
      source.count ? source.count(ctx.db, actor.companyId, snap, viewer, type) : Promise.resolve(undefined),
    ),
  );
  return counts.every((n) => n !== undefined) ? counts.reduce((a, b) => a + b, 0) : undefined;
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
  withTotal = false,
): Promise<PullResult> {
  const viewer = viewerOf(actor);
  const fp = visibilityFingerprint(viewer);
  const sameViewer = checkpoint !== null && checkpoint.fp === fp;
  const after = sameViewer ? { seq: checkpoint.seq, id: checkpoint.id } : { seq: 0, id: '' };
  // A load from nothing reads every page up to the change number it began at as a first pull (checkpoint.ts, `snap`).
  const snap = checkpoint === null ? await companySeq(ctx, actor.companyId) : sameViewer ? checkpoint.snap : undefined;
  const firstPull = snap !== undefined;
  const def = collection.def;
  const read = (from: { seq: number; id: string }) =>
    readSources(ctx, actor.companyId, collection, from, limit, firstPull ? viewer : null);
  if (snap !== undefined) {
    // Counted before the page is read: both stop at `snap`, so later writes change neither.
    const total = withTotal && checkpoint === null ? await loadTotal(ctx, actor, collection, snap) : undefined;
    const page = await loadPage(ctx, actor, def, viewer, fp, after, snap, limit, read);
    return total === undefined ? page : { ...page, total };
  }
  const rows = await read(after);
  // Read after the rows: a purge commits its horizon with its deletions, so a tombstone this pull missed shows here.
  const horizon = await horizonOf(ctx.db, actor.companyId);
  // A load from nothing needs no tombstones below its `snap` (it sends visible rows only), so it is not sent back.
  if (checkpoint !== null && snap === undefined && after.seq < horizon) {
    throw new HttpError(410, {
      result: false,
      message: 'Checkpoint older than the tombstone retention; pull again from the start',
    });
  }
  const page = rows.length > limit ? rows.slice(0, limit) : rows;
  const documents = page.map((r) => changeDocument(def, r, viewer));
  const last = page.at(-1);
  const next: Checkpoint = last ? { seq: last.seq, id: last.id, fp } : { ...after, fp };
  if (rows.length < limit) {
    // Read to the end: the checkpoint moves up to the horizon, so the next pull is not taken for one from before it.
    if (next.seq < horizon) return { documents, checkpoint: { seq: horizon, id: '', fp, tail: true } };
    return { documents, checkpoint: { ...next, tail: true } };
  }
  return { documents, checkpoint: next };
}

/**
 * A page of a load from nothing (`snap`): visible rows only, read on until the
 * page is full or the load reaches `snap`, since no deletion is needed there
 * (a pilot's bookings load no longer carries the company's other bookings as
 * deletions, one round trip per 1,000). Rows changed after the load began are
 * left to the pulls after it, which read them as changes: a row sent on an
 * earlier page and hidden since must reach the device as a deletion.
 */
async function loadPage(
  ctx: AppContext,
  actor: Actor,
  def: RegisteredCollection['def'],
  viewer: ReturnType<typeof viewerOf>,
  fp: string,
  after: { seq: number; id: string },
  snap: number,
  limit: number,
  read: (from: { seq: number; id: string }) => Promise<SourceRow<unknown>[]>,
): Promise<PullResult> {
  const documents: Record<string, unknown>[] = [];
  let cursor = after;
  for (;;) {
    const rows = await read(cursor);
    const page = rows.length > limit ? rows.slice(0, limit) : rows;
    for (const r of page) {
      if (r.seq > snap) return finished();
      cursor = { seq: r.seq, id: r.id };
      if (rowVisible(def.rows, r.scope, viewer))
        documents.push({ ...def.visible(r.doc as { id: string }, viewer), _deleted: r.deleted });
      if (documents.length === limit) return { documents, checkpoint: { ...cursor, fp, snap } };
    }
    if (rows.length < limit) return finished();
  }
  async function finished(): Promise<PullResult> {
    // The horizon is below `snap` in practice; the checkpoint never is below it (see pullCollection).
    const horizon = await horizonOf(ctx.db, actor.companyId);
    const id = cursor.seq === snap ? cursor.id : '';
    // Every row up to `snap` was read: none is left at `snap` after `id` (tail). Not so at a horizon above it.
    return { documents, checkpoint: snap < horizon ? { seq: horizon, id: '', fp } : { seq: snap, id, fp, tail: true } };
  }
}
