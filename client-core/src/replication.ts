import type { CollectionDef } from '@ops/shared';
import type { ReplicationPullHandlerResult, RxCollection, RxReplicationPullStreamItem, WithDeleted } from 'rxdb';
import { replicateRxCollection, type RxReplicationState } from 'rxdb/plugins/replication';
import { Subject, type Subscription } from 'rxjs';
import { firstConnectDelay, retryAfterMs, retryDelay } from './backoff.ts';
import { type BootstrapPage, CollectionLoad, pullRest, rememberServerState } from './bootstrap.ts';
import { readBootstrapStream } from './bootstrap-stream.ts';
import type { OpsDoc } from './database.ts';
import {
  AuthError,
  HttpError,
  OfflineError,
  problemOf,
  problemOfStatus,
  ResetRequired,
  rxdbCause,
  type SyncProblemKind,
} from './errors.ts';
import { markFirstSync } from './first-sync-marks.ts';
import type { PendingWrites } from './pending-writes.ts';
import { PRUNED_COLLECTIONS, pruneCollection } from './prune.ts';
import { SseParser } from './sse.ts';
import type { CollectionProgress, SyncStateStore } from './sync-state.ts';
import type { CarriedMasters } from './upgrade.ts';
import type { Transport } from './transport.ts';

/** The server's checkpoint (docs/sync.md): last change number and id, and the viewer fingerprint. */
export interface Checkpoint {
  seq: number;
  id: string;
  fp: string;
  /** While a collection loads from nothing: the change number the load began at (server/src/sync/checkpoint.ts). */
  snap?: number;
  /** The pull read to the end (server/src/sync/checkpoint.ts): a pull from it at the current change number reads nothing. */
  tail?: true;
}

interface PullAnswer {
  documents: WithDeleted<OpsDoc>[];
  checkpoint: Checkpoint;
  total?: number;
}

type StreamItem = RxReplicationPullStreamItem<OpsDoc, Checkpoint>;

export interface ReplicatedCollection {
  def: CollectionDef<{ id: string }>;
  collection: RxCollection<OpsDoc>;
}

export interface ReplicatorOptions {
  /** Prefix of RxDB replication identifiers (checkpoints are stored under it): the database name. */
  identifier: string;
  /** Milliseconds before a failed pull or push is retried (RxDB `retryTime`). Default 5000. */
  retryTime?: number;
  /**
   * Documents per pull (server maximum 1000). Default 1000: RxDB's cost per
   * pulled page (its bulk writes, meta and checkpoint writes) and the
   * server's (authentication, the horizon, every source of the collection)
   * are paid half as often as with 500 (bench:sync, docs/sync.md).
   */
  pullBatchSize?: number;
  /**
   * Rows per push (server maximum 500). Default 20: the server applies rows one by one, and one company's
   * writes commit in order (its change counter); 50 devices draining their queues at once made a push of
   * 50 outlast the 60 s answer limit, so no device saw its queue shrink (sim:convergence, issue 34).
   */
  pushBatchSize?: number;
  /** First sync of a fresh collection through the bootstrap (docs/sync.md). Default true; false: RxDB replication only. */
  bootstrap?: boolean;
  /** Reconnect the live stream when nothing (not even a `: ping`, every 25 s) arrived for this long. Default 60000. */
  streamSilenceMs?: number;
  /**
   * The first live stream opens at a random point of this many milliseconds (default 1000), so devices started
   * together spread their connections; the collections' own first pulls do not wait for it.
   */
  firstStreamSpreadMs?: number;
  /** The signed-in person: what names them is never pruned. Without it nothing is pruned. */
  userId?: string;
  /** Milliseconds between two prunes of what aged out of the device's window (the first after the first sync). Default one day. */
  pruneEveryMs?: number;
}

/**
 * The order fresh collections load in on first sync: what the person's own
 * screens need first (the company's reference data, their commands, the
 * directory and their messages), the office-wide record sets last.
 */
export const FIRST_SYNC_ORDER = [
  'reference',
  'device',
  'people',
  'inbox',
  'files',
  'training',
  'safety',
  'bookings',
  'fleet',
  'flights',
];

/** How often a collection's document count may re-render the sync bar while it loads. */
const PROGRESS_EVERY_MS = 100;

/** Sleeps `ms`, less when aborted or when woken (`wakers`: the callback is in the set while it sleeps). */
const sleepAbortable = (ms: number, signal: AbortSignal, wakers?: Set<() => void>) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      wakers?.delete(done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
    wakers?.add(done);
  });

/**
 * Every collection and the stream wait on the replicator's lifetime at once (eleven for ten collections), so
 * Node's warning past ten abort listeners would be a false alarm. Browsers have no such limit.
 */
function allowManyWaiters(signal: AbortSignal): void {
  const node = (globalThis as { process?: { getBuiltinModule?(id: string): unknown } }).process;
  (node?.getBuiltinModule?.('node:events') as typeof import('node:events') | undefined)?.setMaxListeners(64, signal);
}

const errorMessage = (e: unknown): string => {
  const cause = rxdbCause(e);
  if (cause?.message) return cause.message;
  return e instanceof Error ? e.message : String(e);
};

/**
 * Replicates every collection with the server: one RxDB replication per
 * collection (pull; push where clients may write), all fed by ONE live
 * stream (`/sync/stream.json`, read with fetch since EventSource cannot send
 * the bearer header; browsers allow about six connections per origin).
 */
export class Replicator {
  readonly states = new Map<string, RxReplicationState<OpsDoc, Checkpoint>>();
  private readonly streams = new Map<string, Subject<StreamItem>>();
  /** Collections restarting after a 410: local ids the server has not sent again yet. */
  private readonly resets = new Map<string, Set<string>>();
  private readonly subs: Subscription[] = [];
  /** Back-off sleeps that no server asked for: resync() ends them. */
  private readonly wakers = new Set<() => void>();
  /** Current failures by source (a collection or `stream`); `lastError` shows the latest one. */
  private readonly errors = new Map<string, { message: string; kind: SyncProblemKind }>();
  /** Collections the server replicates (`GET /sync/collections.json`); null until it answered. */
  private serverCollections: Set<string> | null = null;
  /** Aborted by stop(): ends the stream, its back-off sleeps and its wait for a new token. */
  private lifetime: AbortController | null = null;
  private streamDone: Promise<void> = Promise.resolve();
  private bootstrapDone: Promise<void> = Promise.resolve();
  private pruneDone: Promise<unknown> = Promise.resolve();
  private pruneTimer: ReturnType<typeof setInterval> | null = null;
  /** Collections still loading their first sync: resolved when their replication runs. */
  private readonly ready = new Map<string, { promise: Promise<void>; resolve(): void }>();
  private progress: Record<string, CollectionProgress> = {};
  /** Live changes per collection, applied in the order they arrived. */
  private readonly liveQueue = new Map<string, Promise<void>>();
  /**
   * Per collection, what its pulls read: the checkpoint of the last answered pull and, from a pull's
   * request until RxDB gets an answer (it retries failed ones), a promise settled then. Live changes
   * wait for it and are dropped when the pull read past them (deliverAfterPulls).
   */
  private readonly downstream = new Map<
    string,
    {
      pulled: Checkpoint | null;
      pulling: Deferred | null;
      /** A resync asked for (resync()), until its pull begins. */
      resync: Deferred | null;
      /** Where the next pull reads from when that is before RxDB's checkpoint (pull: skipped documents). */
      rewind: Checkpoint | null;
    }
  >();
  /** Collections just loaded by the first sync whose replication has not answered a pull yet (first-sync-marks.ts). */
  private readonly firstPulls = new Set<string>();
  /** Settled once the bootstrap stream is no longer read (ended, failed or stopped): loaded collections start then. */
  private streamRead: Promise<void> = Promise.resolve();
  /** A document count's progress waits here (PROGRESS_EVERY_MS) so each page does not re-render the sync bar. */
  private progressTimer: ReturnType<typeof setTimeout> | null = null;
  private attempt = 0;
  private readonly retryTime: number;
  private readonly pullBatchSize: number;
  private readonly pushBatchSize: number;
  private readonly streamSilenceMs: number;

  constructor(
    private readonly transport: Transport,
    private readonly collections: readonly ReplicatedCollection[],
    private readonly state: SyncStateStore,
    private readonly pending: PendingWrites,
    private readonly carried: CarriedMasters | null,
    private readonly options: ReplicatorOptions,
  ) {
    this.retryTime = options.retryTime ?? 5000;
    this.pullBatchSize = options.pullBatchSize ?? 1000;
    this.pushBatchSize = options.pushBatchSize ?? 20;
    this.streamSilenceMs = options.streamSilenceMs ?? 60_000;
  }

  get running(): boolean {
    return this.lifetime !== null;
  }

  async start(): Promise<void> {
    if (this.lifetime) return;
    const lifetime = new AbortController();
    allowManyWaiters(lifetime.signal);
    this.lifetime = lifetime;
    for (const { def } of this.collections) this.streams.set(def.name, new Subject<StreamItem>());
    // Fresh collections load through the bootstrap first (in FIRST_SYNC_ORDER); the others replicate at once.
    const fresh = await Promise.all(this.collections.map((c) => this.isFresh(c)));
    const later = this.collections.filter((_, i) => fresh[i]);
    this.progress = Object.fromEntries(
      later.map((c) => [c.def.name, { phase: 'waiting', documents: 0 } satisfies CollectionProgress]),
    );
    this.publishProgress();
    await Promise.all(this.collections.filter((_, i) => !fresh[i]).map((c) => this.replicate(c)));
    if (lifetime.signal.aborted) return;
    this.attempt = 0;
    this.bootstrapDone = this.bootstrapAll(later, lifetime.signal);
    this.streamDone = this.discover().then(() => this.runStream(lifetime.signal));
    // At start (once the first sync stored everything) and then once a day.
    const prune = () => {
      this.pruneDone = this.pruneDone
        .then(() => (lifetime.signal.aborted ? null : this.prune()))
        .catch((err: unknown) => this.fail('prune', err));
    };
    this.pruneDone = this.bootstrapDone;
    prune();
    this.pruneTimer = setInterval(prune, this.options.pruneEveryMs ?? 86_400_000);
  }

  /**
   * Removes what aged out of the device's window (client-core/src/prune.ts):
   * never a document naming the person, never one with a local change the
   * server has not acknowledged. Answers the documents removed per collection.
   */
  async prune(at: Date = new Date()): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    const userId = this.options.userId;
    if (!userId) return out;
    for (const name of PRUNED_COLLECTIONS) {
      const c = this.collections.find((x) => x.def.name === name);
      const rs = this.states.get(name);
      if (!c || !rs?.internalReplicationState) continue;
      out[name] = await pruneCollection(
        {
          name,
          collection: c.collection,
          state: rs.internalReplicationState,
          pending: this.pending.pendingIds(name),
        },
        userId,
        at,
      );
      if (out[name] > 0) await this.purgeTombstones(name, c.collection, rs);
    }
    return out;
  }

  /**
   * Frees the pruned documents' space (RxDB keeps a deleted document as a
   * tombstone until a cleanup). A tombstone may also be a local deletion the
   * server has not seen yet: the purge runs for a collection devices cannot
   * write, or once the replication's first round is done (every unpushed
   * change was sent) and nothing of the collection is pending; otherwise the
   * next prune tries again.
   */
  private async purgeTombstones(
    name: string,
    collection: RxCollection<OpsDoc>,
    rs: RxReplicationState<OpsDoc, Checkpoint>,
  ): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const settled = await Promise.race([
      rs.awaitInitialReplication().then(() => true),
      new Promise<boolean>((r) => {
        timer = setTimeout(() => r(false), 10_000);
      }),
    ]);
    clearTimeout(timer);
    if (!settled || this.pending.pendingIds(name).size > 0 || collection.closed) return;
    await collection.storageInstance.cleanup(0);
  }

  /** Starts RxDB's replication of one collection, from the bootstrap's checkpoints when it just loaded. */
  private async replicate(
    { def, collection }: ReplicatedCollection,
    initial?: { checkpoint: Checkpoint | null; upstream: unknown },
  ): Promise<void> {
    const name = def.name;
    const stream$ = this.streams.get(name) as Subject<StreamItem>;
    const rs = replicateRxCollection<OpsDoc, Checkpoint>({
      collection,
      // The schema version is part of the identifier: a migrated collection pulls again from scratch.
      replicationIdentifier: this.identifierOf(def),
      live: true,
      retryTime: this.retryTime,
      waitForLeadership: false,
      autoStart: false,
      pull: {
        batchSize: this.pullBatchSize,
        stream$: stream$.asObservable(),
        handler: (checkpoint, batchSize) => this.pull(name, collection, checkpoint ?? null, batchSize),
        ...(initial?.checkpoint ? { initialCheckpoint: initial.checkpoint } : {}),
      },
      ...(def.writableFields.length
        ? {
            push: {
              batchSize: this.pushBatchSize,
              handler: (rows) => this.push(name, collection, rows),
              ...(initial?.upstream ? { initialCheckpoint: initial.upstream } : {}),
            },
          }
        : {}),
    });
    this.subs.push(
      rs.error$.subscribe((e) => {
        const cause = rxdbCause(e);
        // Offline and sign-in are reported by the transport already; keep the message for the UI.
        if (cause?.name === 'AuthError') this.state.patch({ needsSignIn: true });
        this.fail(name, e);
      }),
    );
    this.states.set(name, rs);
    await rs.start();
    this.pending.attach(name, rs);
    this.ready.get(name)?.resolve();
  }

  private identifierOf(def: CollectionDef<{ id: string }>): string {
    return `${this.options.identifier}-${def.name}-v${def.version}`;
  }

  /**
   * A collection loads through the bootstrap when it has never been loaded on
   * this device (no mark) and holds nothing (a carried-over or interrupted one
   * replicates through RxDB, which compares every document).
   */
  private async isFresh({ def, collection }: ReplicatedCollection): Promise<boolean> {
    if (this.options.bootstrap === false) return false;
    const mark = await collection.database.getLocal(`bootstrap-${this.identifierOf(def)}`);
    if (mark) return false;
    const fresh = (await collection.findOne().exec()) === null;
    if (fresh) {
      let resolve = () => {};
      const promise = new Promise<void>((r) => {
        resolve = r;
      });
      this.ready.set(def.name, { promise, resolve });
    }
    return fresh;
  }

  /**
   * Loads the fresh collections (in FIRST_SYNC_ORDER: the person's own data
   * first) through one bootstrap stream (`POST /sync/bootstrap.json`): no
   * round trip per page or per collection, the server's next page read while
   * the device stores the current one. A collection whose last page is
   * stored starts its live replication in the background from the load's
   * checkpoint (its `ready` promise holds local writes until it runs). When
   * the stream is missing (older server), refused or broken, each collection
   * not complete continues with ordinary pulls from the last page it stored.
   */
  private async bootstrapAll(fresh: ReplicatedCollection[], signal: AbortSignal): Promise<void> {
    if (!fresh.length) return;
    const rank = (n: string) => {
      const i = FIRST_SYNC_ORDER.indexOf(n);
      return i < 0 ? FIRST_SYNC_ORDER.length : i;
    };
    const ordered = [...fresh].sort((a, b) => rank(a.def.name) - rank(b.def.name));
    const loads = new Map(ordered.map((c) => [c.def.name, new CollectionLoad<Checkpoint>(c.collection)]));
    const startedAt = new Map<string, number>();
    const complete = new Set<string>();
    const replicating: Promise<void>[] = [];
    const loading = (name: string, load: CollectionLoad<Checkpoint>) => {
      let started = startedAt.get(name);
      if (started === undefined) {
        started = Date.now();
        startedAt.set(name, started);
      }
      this.setProgress(name, { phase: 'loading', documents: load.written, total: load.total, startedAt: started });
    };
    const finish = (c: ReplicatedCollection, loaded: boolean) => {
      const name = c.def.name;
      complete.add(name);
      const load = loads.get(name) as CollectionLoad<Checkpoint>;
      const result = load.close();
      markFirstSync(name, 'stored');
      // Ready: its documents are stored, screens may read them. Local writes wait for the replication (`ready`).
      this.setProgress(name, {
        phase: 'ready',
        documents: result.documents,
        ...(load.total === undefined ? {} : { total: load.total }),
        startedAt: startedAt.get(name) ?? Date.now(),
        finishedAt: Date.now(),
      });
      // The start (the mark, RxDB's meta storage and checkpoints, a pull from the load's checkpoint) waits for the
      // stream's last page: started at once, ten collections' small IndexedDB writes and pulls queued between the
      // pages still coming and slowed them (docs/performance.md). The pull misses nothing: live changes of the
      // meantime are newer than the load's checkpoint.
      const start = this.streamRead.then(() =>
        (async () => {
          if (loaded)
            await c.collection.database.upsertLocal(`bootstrap-${this.identifierOf(c.def)}`, {
              documents: result.documents,
              at: Date.now(),
            });
          markFirstSync(name, 'marked');
          // A failed load is left to RxDB's replication, which compares every document.
          this.firstPulls.add(name);
          await this.replicate(c, loaded ? result : undefined);
          markFirstSync(name, 'replicating');
        })().catch((err: unknown) => this.fail(name, err)),
      );
      replicating.push(start);
    };
    const byName = new Map(ordered.map((c) => [c.def.name, c]));
    let streamEnded = () => {};
    this.streamRead = new Promise((r) => {
      streamEnded = r;
    });
    try {
      try {
        await readBootstrapStream<Checkpoint>(
          this.transport,
          loads,
          this.pullBatchSize,
          {
            arrived: loading,
            stored: (name, load) => {
              this.synced(name);
              loading(name, load);
            },
            complete: (name) => finish(byName.get(name) as ReplicatedCollection, true),
          },
          signal,
          this.streamSilenceMs,
        );
      } catch (err) {
        if (signal.aborted) return;
        // 404: a server without the stream. Otherwise say why, then pull what is missing.
        if (!(err instanceof HttpError && err.status === 404)) this.fail('bootstrap', err);
      }
      streamEnded();
      for (const c of ordered) {
        const name = c.def.name;
        if (complete.has(name)) continue;
        if (signal.aborted) return;
        const load = loads.get(name) as CollectionLoad<Checkpoint>;
        loading(name, load);
        const loaded = await pullRest<Checkpoint>(
          load,
          (cp) => this.bootstrapPage(name, cp, signal),
          this.pullBatchSize,
          () => loading(name, load),
          signal,
        ).catch((err: unknown) => {
          // The server does not replicate it (older server) or refused: RxDB's replication reports and retries.
          this.fail(name, err);
          return false;
        });
        if (signal.aborted) return;
        finish(c, loaded);
      }
      // Whatever broke the stream, the pulls completed the load.
      if (this.errors.delete('bootstrap')) this.publishErrors();
    } finally {
      streamEnded();
      for (const [name, load] of loads) if (!complete.has(name)) load.close();
      await Promise.all(replicating);
    }
  }

  /** One page of a bootstrap; waits and retries (offline, server errors, a new sign-in) until it has it or stop() is called. */
  private async bootstrapPage(
    name: string,
    checkpoint: Checkpoint | null,
    signal: AbortSignal,
  ): Promise<BootstrapPage<Checkpoint>> {
    for (let attempt = 0; ; attempt++) {
      try {
        const out = await this.transport.post<PullAnswer>(`/sync/${name}/pull.json`, {
          checkpoint,
          limit: this.pullBatchSize,
          // The first page says how many documents the load brings: the sync bar shows a share.
          ...(checkpoint === null ? { count: true } : {}),
        });
        this.synced(name);
        return out;
      } catch (err) {
        if (signal.aborted) throw err;
        // Unknown collection (older server) or sent back (410): RxDB's replication takes over and handles both.
        if ((err instanceof HttpError && err.status === 404) || err instanceof ResetRequired) throw err;
        this.fail(name, err);
        if (err instanceof AuthError)
          await Promise.race([
            this.transport.tokenChanged(),
            new Promise((r) => signal.addEventListener('abort', r, { once: true })),
          ]);
        else {
          const retryAfter = err instanceof HttpError ? err.retryAfterMs : null;
          await this.backOff(retryDelay(attempt, retryAfter), retryAfter, signal);
        }
        if (signal.aborted) throw err;
      }
    }
  }

  /**
   * A new phase is published at once (screens wait for `ready`); a document count within a phase at most every
   * PROGRESS_EVERY_MS: a pilot's first sync stores a page every few milliseconds, and every published state
   * renders the sync bar and the screens reading the sync state.
   */
  private setProgress(name: string, p: CollectionProgress): void {
    const phaseChanged = this.progress[name]?.phase !== p.phase;
    this.progress = { ...this.progress, [name]: p };
    if (phaseChanged) this.publishProgress();
    else
      this.progressTimer ??= setTimeout(() => {
        this.progressTimer = null;
        this.publishProgress();
      }, PROGRESS_EVERY_MS);
  }

  private publishProgress(): void {
    if (this.progressTimer) clearTimeout(this.progressTimer);
    this.progressTimer = null;
    this.state.patch({ firstSync: this.progress });
  }

  /**
   * Before RxDB applies server documents: bootstrapped documents the device
   * has not changed get their assumed master (the state they hold), so RxDB's
   * downstream takes the new server state instead of keeping them as unpushed
   * local writes.
   */
  private async beforeServerWrite(
    name: string,
    collection: RxCollection<OpsDoc>,
    documents: readonly { id: string }[],
  ): Promise<void> {
    if (!documents.length) return;
    await rememberServerState(
      this.states.get(name)?.internalReplicationState,
      collection,
      documents.map((d) => d.id),
    );
  }

  /**
   * Call before the device writes documents of `name`: waits until the
   * collection replicates (its first sync may still be loading) and stores
   * the server state of bootstrapped documents as their assumed master.
   */
  async beforeLocalWrite(name: string, ids: readonly string[]): Promise<void> {
    await this.ready.get(name)?.promise;
    const rs = this.states.get(name);
    const c = this.collections.find((x) => x.def.name === name);
    if (!rs || !c) return;
    await rememberServerState(rs.internalReplicationState, c.collection, ids);
  }

  /**
   * Pulls every collection from its checkpoint now (after reconnecting, or on demand). Live changes wait
   * until that pull has begun (deliverAfterPulls): applied first, they would move the checkpoint past what
   * changed while the device was away.
   */
  resync(): void {
    // The network is back or the person asked: back-offs of our own end now (a server's Retry-After is kept).
    for (const wake of [...this.wakers]) wake();
    for (const name of this.streams.keys()) this.resyncCollection(name);
  }

  private backOff(ms: number, retryAfterMs: number | null, signal: AbortSignal): Promise<void> {
    return sleepAbortable(ms, signal, retryAfterMs === null ? this.wakers : undefined);
  }

  private resyncCollection(name: string): void {
    const down = this.downstreamOf(name);
    down.resync ??= deferred();
    this.streams.get(name)?.next('RESYNC');
    void this.confirmResync(name, down.resync);
  }

  /** Once the collection's writes are settled (pushed, answered, conflicts resolved), pulls from its rewind. */
  private async rereadAfterWrites(name: string): Promise<void> {
    const signal = this.lifetime?.signal;
    const rs = this.states.get(name);
    if (!rs || !signal) return;
    await rs.awaitInSync().catch(() => {});
    if (!signal.aborted && this.downstreamOf(name).rewind) this.resyncCollection(name);
  }

  /**
   * RxDB 16.9's downstream drops a RESYNC queued right behind change events (replication-protocol/downstream.js,
   * `addNewTask`: it takes the RESYNC off the queue and stops the batch without it). That happens whenever a push
   * is running at a reconnect, since RxDB holds both the live changes and the RESYNC until the push ends: what
   * changed while the device was away was then never pulled (sim:convergence, issue 34). So once the collection's
   * replication is idle, a RESYNC that started no pull is asked again (the live changes are held meanwhile, so it
   * comes alone). One too many costs a pull; one lost, changes.
   */
  private async confirmResync(name: string, asked: Deferred): Promise<void> {
    const signal = this.lifetime?.signal;
    for (let attempt = 0; attempt < 20; attempt++) {
      const rs = this.states.get(name);
      // Not replicating yet (its first sync is loading): its replication starts with a pull, which ends the wait.
      if (!rs || !signal || signal.aborted) return;
      await rs.awaitInSync().catch(() => {});
      // Changes RxDB held behind a push reach its queue a few ticks after the push ends.
      await sleepAbortable(50, signal);
      if (signal.aborted || this.downstreamOf(name).resync !== asked) return;
      this.streams.get(name)?.next('RESYNC');
    }
  }

  async awaitInSync(): Promise<void> {
    await this.bootstrapDone;
    await Promise.all([...this.states.values()].map((s) => s.awaitInSync()));
  }

  async stop(): Promise<void> {
    if (!this.lifetime) return;
    this.lifetime.abort();
    this.lifetime = null;
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    this.pruneTimer = null;
    if (this.progressTimer) clearTimeout(this.progressTimer);
    this.progressTimer = null;
    await this.streamDone;
    await this.bootstrapDone;
    await this.pruneDone;
    for (const name of this.states.keys()) this.pending.detach(name);
    await Promise.all([...this.states.values()].map((s) => s.cancel()));
    for (const s of this.streams.values()) s.complete();
    for (const s of this.subs.splice(0)) s.unsubscribe();
    this.states.clear();
    this.streams.clear();
    this.resets.clear();
    this.errors.clear();
    for (const r of this.ready.values()) r.resolve();
    this.ready.clear();
    this.liveQueue.clear();
    for (const d of this.downstream.values()) {
      d.pulling?.resolve();
      d.resync?.resolve();
    }
    this.downstream.clear();
    this.state.patch({ online: false, lastError: null, problem: null });
  }

  /** The server answered `source` (a collection or the stream) with data. */
  private synced(source: string): void {
    this.state.patch({ online: true, lastSyncAt: Date.now(), needsSignIn: false });
    if (this.errors.delete(source)) this.publishErrors();
  }

  /** `source` failed: an error (its kind follows from it), or a message and the kind it is. */
  private fail(source: string, error: unknown, kind: SyncProblemKind = problemOf(error)): void {
    this.errors.delete(source);
    this.errors.set(source, { message: typeof error === 'string' ? error : errorMessage(error), kind });
    this.publishErrors();
  }

  private publishErrors(): void {
    const last = [...this.errors].at(-1);
    this.state.patch({
      lastError: last ? `${last[0]}: ${last[1].message}` : null,
      problem: last ? { source: last[0], kind: last[1].kind } : null,
    });
  }

  /**
   * Asks which collections the server replicates, so a client newer than its
   * server (a collection added to @ops/shared, server not updated yet) keeps
   * syncing the others: the stream is opened for known collections only, and
   * unknown ones are reported in \`lastError\`. Offline, every collection is assumed.
   */
  private async discover(): Promise<void> {
    try {
      const out = await this.transport.get<{ collections: Array<{ name: string; version: number }> }>(
        '/sync/collections.json',
        { timeoutMs: 10_000 },
      );
      this.serverCollections = new Set(out.collections.map((c) => c.name));
      const mine = new Map(this.collections.map((c) => [c.def.name, c.def.version]));
      for (const c of out.collections) {
        if (mine.has(c.name) && mine.get(c.name) !== c.version)
          this.fail(c.name, `schema version ${mine.get(c.name)} here, ${c.version} on the server`, 'version');
      }
      for (const name of mine.keys())
        if (!this.serverCollections.has(name))
          this.fail(name, 'not replicated by this server (older server version?)', 'version');
    } catch {
      // Offline or refused: keep what we knew; the stream's own errors say more.
    }
  }

  /** RxDB pull handler: one page, noting what it read for the live changes that wait on it. */
  private async pull(
    name: string,
    collection: RxCollection<OpsDoc>,
    checkpoint: Checkpoint | null,
    batchSize: number,
  ): Promise<ReplicationPullHandlerResult<OpsDoc, Checkpoint>> {
    const down = this.downstreamOf(name);
    // Set in the same turn RxDB stamps the request: a change streamed from now on is ordered after this answer.
    down.pulling ??= deferred();
    // The resync asked for has begun: changes held for it now wait for this answer instead.
    down.resync?.resolve();
    down.resync = null;
    // Read again from before a page that held documents RxDB skipped (see below).
    const rewind = down.rewind;
    down.rewind = null;
    const from = rewind && (!checkpoint || before(rewind, checkpoint)) ? rewind : checkpoint;
    // A failure keeps `pulling`: RxDB asks again after retryTime, and that answer releases the changes.
    const out = await this.pullPage(name, collection, from, batchSize);
    // RxDB skips a pulled document that has a local change not yet acknowledged, trusting the push's answer to
    // bring the server's state. That answer was read when the push ran: a push answered after this pull (a slow
    // push, a retried one) brings an older state than the one skipped here, and the checkpoint has moved past it
    // (sim:convergence: a flight dispatched and landed stayed SCHEDULED). So once the writes are settled, this
    // page is read again.
    const pending = this.pending.pendingIds(name);
    if (pending.size && out.documents.some((d) => pending.has(d.id))) {
      // From the start of that change number: the server's id order is its collation's, not JavaScript's.
      const at = from && { ...from, id: '' };
      if (!down.rewind || (at && before(at, down.rewind))) down.rewind = at;
      void this.rereadAfterWrites(name);
    }
    // The furthest read stands: a change at or before it is no newer than what that pull applied.
    const cp = out.checkpoint;
    if (cp && !(down.pulled && readPast(down.pulled, cp))) down.pulled = cp;
    down.pulling?.resolve();
    down.pulling = null;
    if (this.firstPulls.delete(name)) markFirstSync(name, 'pulled');
    return cp ? { ...out, checkpoint: exact(cp) } : out;
  }

  private downstreamOf(name: string) {
    let d = this.downstream.get(name);
    if (!d) {
      d = { pulled: null, pulling: null, resync: null, rewind: null };
      this.downstream.set(name, d);
    }
    return d;
  }

  /**
   * Hands a live change to RxDB after any pull of its collection, unless a pull read past it.
   * RxDB's downstream applies a change that reached it while a pull ran after that pull's answer,
   * without comparing versions: when the pull had read a newer state (the change was streamed late,
   * or came from the previous connection), the device went back to an older version (the
   * chaos:processes "older-after-newer"). Pages of one resync follow each other within microtasks,
   * so a change waits one macrotask after each answer to see whether the next page began.
   */
  private async deliverAfterPulls(name: string, item: { documents: WithDeleted<OpsDoc>[]; checkpoint: Checkpoint }) {
    const down = this.downstreamOf(name);
    for (;;) {
      const wait = down.resync ?? down.pulling;
      if (!wait) break;
      await wait.promise;
      await new Promise((r) => setTimeout(r, 0));
    }
    if (readPast(down.pulled, item.checkpoint)) return;
    this.streams.get(name)?.next(item);
  }

  /**
   * One page for the pull handler. On 410 (checkpoint older than the server's tombstones)
   * the collection starts over from a `null` checkpoint: the pages of that full
   * pull are applied as usual, and with the last page every local document the
   * server did not send again is deleted. The deletions come in as pulled
   * master state, so they are never pushed back, and documents with local
   * changes not yet pushed are kept (RxDB's downstream skips them; the
   * upstream pushes them and adopts the server's answer).
   */
  private async pullPage(
    name: string,
    collection: RxCollection<OpsDoc>,
    checkpoint: Checkpoint | null,
    batchSize: number,
  ): Promise<ReplicationPullHandlerResult<OpsDoc, Checkpoint>> {
    const request = async (cp: Checkpoint | null): Promise<PullAnswer> => {
      // A busy server (503 with Retry-After) is asked again when it said, a few times, before RxDB's own retry.
      for (let attempt = 0; ; attempt++) {
        try {
          return await this.transport.post<PullAnswer>(`/sync/${name}/pull.json`, { checkpoint: cp, limit: batchSize });
        } catch (err) {
          const signal = this.lifetime?.signal;
          if (!(err instanceof HttpError) || err.retryAfterMs === null || attempt >= 4 || !signal || signal.aborted)
            throw err;
          await sleepAbortable(retryDelay(attempt, err.retryAfterMs), signal);
        }
      }
    };
    let reset = this.resets.get(name);
    let out: PullAnswer;
    try {
      out = await request(checkpoint);
    } catch (err) {
      if (err instanceof HttpError && err.status === 404) {
        // The server does not know this collection (older server): nothing to pull, the others go on.
        this.fail(name, 'not replicated by this server (older server version?)', 'version');
        return { documents: [], checkpoint };
      }
      if (!(err instanceof ResetRequired)) throw err;
      const local = await collection.find().exec();
      reset = new Set(local.map((d) => d.primary));
      this.resets.set(name, reset);
      out = await request(null);
    }
    this.synced(name);
    if (reset) {
      for (const d of out.documents) reset.delete(d.id);
      if (out.documents.length < batchSize) {
        // Last page of the fresh pull: what the server no longer has for us goes away locally.
        this.resets.delete(name);
        const gone = await collection.findByIds([...reset]).exec();
        const deletions = [...gone.values()].map((d) => ({ ...(d.toJSON() as OpsDoc), _deleted: true }));
        const documents = [...out.documents, ...deletions];
        await this.beforeServerWrite(name, collection, documents);
        return { documents, checkpoint: out.checkpoint };
      }
    }
    await this.beforeServerWrite(name, collection, out.documents);
    return out;
  }

  /**
   * RxDB push handler: answers the server's conflicts (master states RxDB adopts).
   *
   * A "conflict" equal to the state sent is an acknowledgement: it is what a
   * push applied by the server gets when its first answer was lost (network
   * cut, server killed after the commit) and the retry still carries the old
   * assumed master. RxDB must not see it as a conflict: for a conflict whose
   * master equals the pushed state it writes neither the document nor its
   * assumed master, so the document stays "pending" for ever, is never pushed
   * again, and its downstream skips every later server change (a stale copy).
   * Left out of the answer, the row counts as written and its assumed master
   * becomes the state the server holds.
   */
  private async push(
    name: string,
    collection: RxCollection<OpsDoc>,
    rows: Array<{ newDocumentState: WithDeleted<OpsDoc>; assumedMasterState?: WithDeleted<OpsDoc> }>,
  ): Promise<WithDeleted<OpsDoc>[]> {
    // After a restart the upstream re-sends what was never acknowledged: count it as pending.
    await this.pending.check(
      name,
      rows.map((r) => r.newDocumentState.id),
    );
    const out = await this.transport.post<{ conflicts: WithDeleted<OpsDoc>[] }>(`/sync/${name}/push.json`, {
      // A document carried over from the old layout has no assumed master under its new name: send the old one.
      rows: rows.map((r) => ({
        assumedMasterState: r.assumedMasterState ?? this.carried?.assumed(name, r.newDocumentState.id) ?? null,
        newDocumentState: r.newDocumentState,
      })),
    });
    this.synced(name);
    await this.carried?.acknowledge(
      name,
      rows.map((r) => r.newDocumentState.id),
    );
    const sent = new Map(rows.map((r) => [r.newDocumentState.id, r.newDocumentState]));
    return out.conflicts.filter((master) => {
      const mine = sent.get(master.id);
      return (
        !mine ||
        !collection.conflictHandler.isEqual({ ...master, _deleted: !!master._deleted }, mine, 'ops-push-acknowledged')
      );
    });
  }

  /**
   * The one live stream: `resync` → every collection pulls from its checkpoint
   * (sent at each connect, so nothing missed while disconnected is lost);
   * `change` → that collection's `pull.stream$`. Reconnects with exponential
   * back-off and jitter (0.5 s doubling to 30 s); a stream silent for longer
   * than `streamSilenceMs` is presumed dead (hangar Wi-Fi) and reopened.
   */
  private async runStream(lifetime: AbortSignal): Promise<void> {
    await sleepAbortable(firstConnectDelay(this.options.firstStreamSpreadMs ?? 1000), lifetime);
    while (!lifetime.aborted) {
      let retryAfter: number | null = null;
      const known = this.serverCollections;
      const names = this.collections
        .map((c) => c.def.name)
        .filter((n) => !known || known.has(n))
        .join(',');
      if (this.transport.needsSignIn) {
        // Nothing to gain from the server until someone signs in again.
        await Promise.race([
          this.transport.tokenChanged(),
          new Promise((r) => lifetime.addEventListener('abort', r, { once: true })),
        ]);
        this.attempt = 0;
        continue;
      }
      const connection = new AbortController();
      const stop = () => connection.abort();
      lifetime.addEventListener('abort', stop, { once: true });
      const parser = new SseParser();
      let watchdog: ReturnType<typeof setInterval> | null = null;
      try {
        const res = await this.transport.fetch(`/sync/stream.json?collections=${names}`, {
          signal: connection.signal,
          timeoutMs: 0,
          headers: { accept: 'text/event-stream' },
        });
        if (!res.ok || !res.body) {
          const body = await res.text().catch(() => '');
          throw new HttpError(res.status, safeJson(body), retryAfterMs(res.headers.get('retry-after')));
        }
        parser.lastChunkAt = Date.now();
        watchdog = setInterval(
          () => {
            if (Date.now() - parser.lastChunkAt > this.streamSilenceMs)
              connection.abort(new OfflineError(`live stream silent for ${Math.round(this.streamSilenceMs / 1000)} s`));
          },
          Math.min(5000, this.streamSilenceMs),
        );
        const reader = res.body.getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          for (const ev of parser.push(value)) {
            // A stream that delivers events is healthy: the next reconnect starts from the shortest delay.
            this.attempt = 0;
            this.dispatch(ev.event, ev.data);
          }
        }
      } catch (err) {
        if (lifetime.aborted) break;
        const reason: unknown = connection.signal.aborted ? connection.signal.reason : err;
        if (reason instanceof AuthError) continue; // the transport set needsSignIn; wait for a token above
        if (reason instanceof HttpError) retryAfter = reason.retryAfterMs;
        if (!(reason instanceof HttpError)) this.state.patch({ online: false });
        this.fail('stream', reason);
        // 404: a collection the server does not know; ask again which ones it replicates.
        if (reason instanceof HttpError && reason.status === 404) await this.discover();
      } finally {
        if (watchdog) clearInterval(watchdog);
        lifetime.removeEventListener('abort', stop);
      }
      if (lifetime.aborted) break;
      // Ended (server restart, role change, network): reconnect after a back-off, or when a busy server asked.
      await this.backOff(retryDelay(this.attempt++, retryAfter), retryAfter, lifetime);
    }
  }

  private dispatch(event: string, data: string): void {
    if (event === 'resync') {
      this.synced('stream');
      this.resync();
    } else if (event === 'change') {
      const payload = safeJson(data) as {
        collection?: string;
        documents?: WithDeleted<OpsDoc>[];
        checkpoint?: Checkpoint;
      } | null;
      const stream$ = payload?.collection ? this.streams.get(payload.collection) : undefined;
      if (!stream$ || !payload?.collection || !payload.documents || !payload.checkpoint) return;
      const { collection: name, documents, checkpoint } = payload;
      const c = this.collections.find((x) => x.def.name === name);
      // In order per collection: each change waits for the assumed masters of the previous one.
      const previous = this.liveQueue.get(name) ?? Promise.resolve();
      const next = previous
        .then(() => (c ? this.beforeServerWrite(name, c.collection, documents) : undefined))
        .catch(() => {})
        .then(() => this.deliverAfterPulls(name, { documents, checkpoint: exact(checkpoint) }));
      this.liveQueue.set(name, next);
      this.synced('stream');
    } else if (event === 'error') {
      // e.g. {"status":401} when the token was revoked while connected; the server closes the stream
      // and the reconnect goes through the transport's refresh.
      const payload = safeJson(data) as { status?: number; message?: string } | null;
      this.fail('stream', payload?.message ?? data, problemOfStatus(payload?.status));
    }
  }
}

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
}

function deferred(): Deferred {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/**
 * The pull answered at `pulled` already read every row of a change at `cp`, in the same or a newer
 * state: change numbers of a company commit in order. Only the change number is compared (a tie needs
 * the same id: the server orders ids by its collation); a first load (`snap`) or another visibility
 * (`fp`) proves nothing.
 */
function readPast(pulled: Checkpoint | null, cp: Checkpoint): boolean {
  if (!pulled || pulled.snap !== undefined || cp.snap !== undefined || pulled.fp !== cp.fp) return false;
  return cp.seq < pulled.seq || (cp.seq === pulled.seq && cp.id === pulled.id);
}

/** A rewind (id '') reads from before `b`, for the same viewer; a load (`snap`) is never rewound to. */
function before(a: Checkpoint, b: Checkpoint): boolean {
  if (a.fp !== b.fp || a.snap !== undefined || b.snap !== undefined) return false;
  return a.seq < b.seq || (a.seq === b.seq && a.id === '' && b.id !== '');
}

/**
 * The checkpoint as RxDB must store it: RxDB stacks each new checkpoint over the stored one
 * (`Object.assign`), so a field the server left out would survive from an older one. A load's `snap`
 * kept after its last page made every later pull a finished load that reads nothing (only the live
 * stream brought changes; what changed while away was never pulled), and a kept `tail` claims a page
 * read to the end. Absent fields are set, as undefined, so they replace the old ones.
 */
function exact(cp: Checkpoint): Checkpoint {
  return { seq: cp.seq, id: cp.id, fp: cp.fp, snap: cp.snap, tail: cp.tail };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
