import {
  getAssumedMasterState,
  type RxCollection,
  type RxStorageInstanceReplicationState,
  writeDocToDocState,
} from 'rxdb';
import type { RxReplicationState } from 'rxdb/plugins/replication';
import { BehaviorSubject, type Subscription } from 'rxjs';
import type { OpsDoc } from './database.ts';

interface Tracked {
  collection: RxCollection<OpsDoc>;
  /** Ids whose local state the server has not acknowledged yet. */
  pending: Set<string>;
  /** The running replication, when started. */
  state: RxStorageInstanceReplicationState<OpsDoc> | null;
  metaSub: Subscription | null;
  forkSub: Subscription;
  /** Evaluations run one after the other, so a later one always sees later state. */
  queue: Promise<void>;
}

/**
 * Counts local changes the server has not acknowledged, with RxDB's own rule.
 *
 * RxDB's replication keeps, per document, the "assumed master state" (what the
 * server last confirmed, in the replication's meta instance). Its upstream
 * pushes a document exactly when the local (fork) state differs from it, and
 * writes the new assumed state once the push was answered (applied, or
 * answered with a conflict that the conflict handler resolved). So a document
 * is pending while `fork !== assumedMaster` (or it has no assumed master yet).
 *
 * Which documents to look at: every id of a local write (change events whose
 * context is not one of the replication's own), every row a push handler is
 * about to send (after a restart the upstream re-sends what was never
 * acknowledged, so these are found again), and, when the meta instance
 * changes, the ids already pending. Only those candidates are compared, never
 * the whole collection, so a 100,000-document pull costs nothing here.
 */
export class PendingWrites {
  readonly count$ = new BehaviorSubject<number>(0);
  private readonly tracked = new Map<string, Tracked>();

  /** Starts observing local writes of one pushable collection (for the client's lifetime). */
  track(name: string, collection: RxCollection<OpsDoc>): void {
    const pending = new Set<string>();
    const forkSub = collection.storageInstance.changeStream().subscribe((bulk) => {
      const ids = bulk.events.map((e) => e.documentId);
      // Writes of the replication itself (pulled documents, resolved conflicts) only matter for ids already pending.
      const local = !bulk.context.startsWith('replication-');
      void this.check(name, local ? ids : ids.filter((id) => pending.has(id)));
    });
    this.tracked.set(name, { collection, pending, state: null, metaSub: null, forkSub, queue: Promise.resolve() });
  }

  /** Connects a started replication: pending ids are compared with its assumed master states. */
  attach<Checkpoint>(name: string, replication: RxReplicationState<OpsDoc, Checkpoint>): void {
    const t = this.tracked.get(name);
    const state = replication.internalReplicationState;
    if (!t || !state) return;
    t.state = state;
    t.metaSub?.unsubscribe();
    t.metaSub =
      replication.metaInstance?.changeStream().subscribe((bulk) => {
        const ids: string[] = [];
        for (const e of bulk.events) {
          const meta = e.documentData as { isCheckpoint?: string; itemId?: string } | undefined;
          if (meta?.isCheckpoint === '0' && meta.itemId && t.pending.has(meta.itemId)) ids.push(meta.itemId);
        }
        void this.check(name, ids);
      }) ?? null;
    void this.check(name, [...t.pending]);
  }

  /** The replication stopped: keep what is pending (nothing was acknowledged), stop comparing. */
  detach(name: string): void {
    const t = this.tracked.get(name);
    if (!t) return;
    t.metaSub?.unsubscribe();
    t.metaSub = null;
    t.state = null;
  }

  /** Re-evaluates these ids of a collection (candidates become pending or leave). */
  check(name: string, ids: readonly string[]): Promise<void> {
    const t = this.tracked.get(name);
    if (!t || ids.length === 0) return Promise.resolve();
    t.queue = t.queue
      .then(() => this.evaluate(t, [...new Set(ids)]))
      .catch(() => {
        // The database closed under us: nothing left to count.
      });
    return t.queue;
  }

  /** Ids of `name` whose local state the server has not acknowledged (as far as compared so far). */
  pendingIds(name: string): ReadonlySet<string> {
    return this.tracked.get(name)?.pending ?? new Set();
  }

  /** Waits until every queued evaluation ran. */
  async settled(): Promise<void> {
    await Promise.all([...this.tracked.values()].map((t) => t.queue));
  }

  dispose(): void {
    for (const t of this.tracked.values()) {
      t.forkSub.unsubscribe();
      t.metaSub?.unsubscribe();
    }
    this.tracked.clear();
    this.count$.complete();
  }

  private async evaluate(t: Tracked, ids: string[]): Promise<void> {
    if (t.collection.closed) return;
    const state = t.state;
    if (!state) {
      // Not replicating: a local write cannot have been acknowledged.
      const docs = await t.collection.storageInstance.findDocumentsById(ids, true);
      for (const d of docs) t.pending.add(d.id);
      return this.publish();
    }
    const [docs, assumed] = await Promise.all([
      t.collection.storageInstance.findDocumentsById(ids, true),
      getAssumedMasterState(state, ids),
    ]);
    const fork = new Map(docs.map((d) => [d.id, d]));
    for (const id of ids) {
      const doc = fork.get(id);
      const master = assumed[id];
      const pending =
        !!doc &&
        (!master ||
          master.metaDocument.isResolvedConflict === doc._rev ||
          !t.collection.conflictHandler.isEqual(
            master.docData,
            writeDocToDocState(doc, false, false),
            'ops-pending-writes',
          ));
      if (pending) t.pending.add(id);
      else t.pending.delete(id);
    }
    this.publish();
  }

  private publish(): void {
    let n = 0;
    for (const t of this.tracked.values()) n += t.pending.size;
    if (n !== this.count$.value) this.count$.next(n);
  }
}
