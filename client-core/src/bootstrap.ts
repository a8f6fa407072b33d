import {
  getAssumedMasterState,
  getMetaWriteRow,
  type RxCollection,
  type RxStorageInstanceReplicationState,
  type WithDeleted,
  writeDocToDocState,
} from 'rxdb';
import type { OpsDoc } from './database.ts';

/**
 * First sync of a collection without RxDB's replication (docs/sync.md, "First
 * sync"). RxDB's downstream writes every pulled document twice (the collection
 * and the replication meta store with the "assumed master" state) and reads
 * the meta store before each page: on IndexedDB that is 0.3 to 0.6 of a plain
 * bulk insert. On a fresh device nothing local can conflict with the server,
 * so the pages go straight into the collection's storage, the same write a
 * `bulkInsert` makes. Replication then starts from the last page's checkpoint.
 *
 * The meta row a document lacks is written when the device first changes it
 * (`rememberServerState`), so a push still carries the state it started from.
 */

/** Storage write context of the bootstrap; `replication-` marks a write with the server's state (the renderer's marks). */
export const BOOTSTRAP_CONTEXT = 'replication-bootstrap';

/** `_meta` flag of a document written by the bootstrap (kept until the server's next version of it replaces the document). */
const FROM_BOOTSTRAP = 'opsBootstrap';

type ForkCheckpoint = { id: string; lwt: number };

export interface BootstrapPage<C> {
  documents: WithDeleted<OpsDoc>[];
  checkpoint: C;
  /** First page only, when the server counts: the documents the whole load brings (progress as a share). */
  total?: number;
}

export interface BootstrapResult<C> {
  /** The server checkpoint after the last page: where the live pull continues. */
  checkpoint: C | null;
  /**
   * Where the upstream starts reading local changes: after the last page
   * written before any write of the device itself (a command queued, a
   * record created while the collection was loading), so those are pushed.
   * Undefined: from the beginning.
   */
  upstream: ForkCheckpoint | undefined;
  documents: number;
}

/**
 * One collection's load from nothing, page by page, whatever brings the pages
 * (the bootstrap stream, or pulls): writes the visible documents of each page
 * into the collection's storage and keeps the checkpoint of the last page
 * written, so a load broken off continues from there (nothing lost, nothing
 * written twice). `close()` answers where replication starts.
 */
export class CollectionLoad<C> {
  /** The server checkpoint after the last page written; null before the first. */
  checkpoint: C | null = null;
  written = 0;
  /** The documents the whole load brings, when the server counted them (first page). */
  total: number | undefined;
  private upstream: ForkCheckpoint | undefined;
  private foreign = false;
  private readonly sub: { unsubscribe(): void };

  constructor(private readonly collection: RxCollection<OpsDoc>) {
    this.sub = collection.storageInstance.changeStream().subscribe((bulk) => {
      if (bulk.context !== BOOTSTRAP_CONTEXT) {
        this.foreign = true;
        return;
      }
      if (this.foreign) return;
      // The latest (lwt, id) of the write, not its last row: RxDB stamps one lwt on a whole bulk and the
      // upstream reads on in (lwt, id) order, so a row with a higher id than the last would be read as a
      // local change and pushed as a new record (a page is in change order, not id order).
      for (const e of bulk.events) {
        const lwt = (e.documentData as { _meta: { lwt: number } })._meta.lwt;
        const u = this.upstream;
        if (!u || lwt > u.lwt || (lwt === u.lwt && e.documentId > u.id)) this.upstream = { id: e.documentId, lwt };
      }
    });
  }

  /** Stores one page (in order: a page is written after the one before it). */
  async write(page: BootstrapPage<C>): Promise<void> {
    if (this.checkpoint === null && page.total !== undefined) this.total = page.total;
    // A first pull sends rows the viewer may not see as deletions: nothing local to delete yet.
    // The parsed page is ours: its documents become storage rows in place, without a copy each.
    const rows = [];
    for (const d of page.documents) {
      if (d._deleted) continue;
      const doc = d as Record<string, unknown>;
      doc._deleted = false;
      doc._attachments = {};
      doc._meta = { lwt: 0, [FROM_BOOTSTRAP]: 1 };
      doc._rev = '';
      rows.push({ document: doc });
    }
    if (rows.length) {
      // A 409 is a document the device wrote itself meanwhile: its own state stays and is pushed.
      await this.collection.storageInstance.bulkWrite(rows as never, BOOTSTRAP_CONTEXT);
      this.written += rows.length;
    }
    this.checkpoint = page.checkpoint;
  }

  /** Stops watching the storage; answers where replication continues. */
  close(): BootstrapResult<C> {
    this.sub.unsubscribe();
    return { checkpoint: this.checkpoint, upstream: this.upstream, documents: this.written };
  }
}

/**
 * Pulls the rest of a load page by page (from its last checkpoint, or from
 * `null`; the next page is requested while the current one is written)
 * until a page is short. `fetchPage` retries on its own; an abort ends it
 * with false (what was written stays).
 */
export async function pullRest<C>(
  load: CollectionLoad<C>,
  fetchPage: (checkpoint: C | null) => Promise<BootstrapPage<C>>,
  limit: number,
  onProgress: (documents: number, total: number | undefined) => void,
  signal: AbortSignal,
): Promise<boolean> {
  let next = fetchPage(load.checkpoint);
  for (;;) {
    const page = await next;
    if (signal.aborted) return false;
    const last = page.documents.length < limit;
    if (!last) next = fetchPage(page.checkpoint);
    await load.write(page);
    onProgress(load.written, load.total);
    if (last) return true;
  }
}

/**
 * A document written by the bootstrap has no assumed master state (RxDB's
 * meta row) yet; one is stored, the state the server sent, the first time it
 * matters: before the device changes the document (without it the push would
 * claim the record is new, a conflict, and the change would be lost) and
 * before a server change of it is applied (RxDB's downstream skips a document
 * without a master as an unpushed local write). Documents the device created
 * itself are left alone: for them "no master" is right.
 */
export async function rememberServerState(
  state: RxStorageInstanceReplicationState<OpsDoc> | undefined,
  collection: RxCollection<OpsDoc>,
  ids: readonly string[],
): Promise<void> {
  if (!state || !ids.length) return;
  const local = await collection.storageInstance.findDocumentsById([...ids], false);
  const bootstrapped = local.filter((d) => (d._meta as Record<string, unknown>)[FROM_BOOTSTRAP] === 1);
  if (!bootstrapped.length) return;
  const known = await getAssumedMasterState(
    state,
    bootstrapped.map((d) => d.id),
  );
  const rows = [];
  for (const d of bootstrapped) {
    if (known[d.id]) continue;
    rows.push(await getMetaWriteRow(state, writeDocToDocState(d, state.hasAttachments, !!state.input.keepMeta)));
  }
  // A 409 means replication stored a master meanwhile (a pull or a push): that one is newer.
  if (rows.length) await state.input.metaInstance.bulkWrite(rows, 'replication-bootstrap-master');
}
