import type { CollectionDef } from '@ops/shared';
import type { RxCollection, RxReplicationPullStreamItem } from 'rxdb';
import { replicateRxCollection, type RxReplicationState } from 'rxdb/plugins/replication';
import { Subject } from 'rxjs';
import { backoffDelay } from './backoff.ts';
import { AuthError, ResetRequired } from './errors.ts';
import { SseParser } from './sse.ts';
import type { SyncStateStore } from './sync-state.ts';
import type { Transport } from './transport.ts';

export interface Checkpoint {
  seq: number;
  id: string;
  fp: string;
}

type Doc = Record<string, unknown> & { id: string };
type StreamItem = RxReplicationPullStreamItem<Doc, Checkpoint>;

/**
 * Replicates every collection with the server: one RxDB replication per
 * collection (pull, and push where clients may write), fed by ONE live stream
 * for all of them (browsers allow few connections per origin).
 */
export class Replicator {
  readonly states = new Map<string, RxReplicationState<Doc, Checkpoint>>();
  private readonly streams = new Map<string, Subject<StreamItem>>();
  /** Ids written locally and not yet acknowledged by a push, per collection. */
  private readonly unacked = new Map<string, Set<string>>();
  private abort: AbortController | null = null;
  private stopped = true;
  private attempt = 0;

  constructor(
    private readonly transport: Transport,
    private readonly collections: Array<{ def: CollectionDef<{ id: string }>; collection: RxCollection }>,
    private readonly state: SyncStateStore,
    private readonly identifier: string,
    private readonly retryTime = 5000,
  ) {}

  /** Counts a local write as pending until the server acknowledged its push. */
  trackWrite(collection: string, id: string): void {
    const set = this.unacked.get(collection) ?? new Set<string>();
    set.add(id);
    this.unacked.set(collection, set);
    this.publishPending();
  }

  private publishPending(): void {
    let n = 0;
    for (const s of this.unacked.values()) n += s.size;
    this.state.patch({ pendingWrites: n });
  }

  private synced(): void {
    this.state.patch({ lastSyncAt: Date.now(), lastError: null, needsSignIn: false });
  }

  async start(): Promise<void> {
    this.stopped = false;
    for (const { def, collection } of this.collections) {
      const stream$ = new Subject<StreamItem>();
      this.streams.set(def.name, stream$);
      const name = def.name;
      const rs = replicateRxCollection<Doc, Checkpoint>({
        collection: collection as unknown as RxCollection<Doc>,
        replicationIdentifier: `${this.identifier}-${name}-v${def.version}`,
        live: true,
        retryTime: this.retryTime,
        waitForLeadership: false,
        autoStart: true,
        pull: {
          batchSize: 500,
          stream$: stream$.asObservable(),
          handler: async (checkpoint, batchSize) => {
            try {
              const out = await this.transport.post<{ documents: Doc[]; checkpoint: Checkpoint }>(`/sync/${name}/pull.json`, {
                checkpoint: checkpoint ?? null,
                limit: batchSize,
              });
              this.synced();
              return { documents: out.documents as never, checkpoint: out.checkpoint };
            } catch (err) {
              if (err instanceof ResetRequired) {
                // Tombstones we needed are gone: drop local copies and start over.
                await collection.find().remove();
                return { documents: [], checkpoint: undefined as unknown as Checkpoint };
              }
              throw err;
            }
          },
        },
        ...(def.writableFields.length
          ? {
              push: {
                batchSize: 50,
                handler: async (rows) => {
                  const out = await this.transport.post<{ conflicts: Doc[] }>(`/sync/${name}/push.json`, { rows });
                  const set = this.unacked.get(name);
                  if (set) for (const r of rows) set.delete((r.newDocumentState as Doc).id);
                  this.publishPending();
                  this.synced();
                  return out.conflicts as never;
                },
              },
            }
          : {}),
      });
      rs.error$.subscribe((e) => {
        const cause = (e as { parameters?: { errors?: unknown[] } }).parameters?.errors?.[0];
        const message = cause instanceof Error ? cause.message : String((e as Error).message ?? e);
        if (cause instanceof AuthError) this.state.patch({ needsSignIn: true });
        this.state.patch({ lastError: `${name}: ${message}` });
      });
      this.states.set(name, rs);
    }
    void this.runStream();
  }

  /** Triggers a pull of every collection (after reconnecting, or on demand). */
  resync(): void {
    for (const s of this.streams.values()) s.next('RESYNC');
  }

  private async runStream(): Promise<void> {
    const names = this.collections.map((c) => c.def.name).join(',');
    while (!this.stopped) {
      this.abort = new AbortController();
      try {
        const res = await this.transport.fetch(`/sync/stream.json?collections=${names}`, { signal: this.abort.signal });
        if (!res.ok || !res.body) throw new Error(`stream answered ${res.status}`);
        this.attempt = 0;
        this.state.patch({ online: true });
        const parser = new SseParser();
        const reader = res.body.getReader();
        const decoder = new TextDecoder();
        for (;;) {
          const { value, done } = await reader.read();
          if (done || this.stopped) break;
          for (const ev of parser.push(decoder.decode(value, { stream: true }))) this.dispatch(ev.event, ev.data);
        }
      } catch (err) {
        if (this.stopped) break;
        if (err instanceof AuthError) {
          this.state.patch({ needsSignIn: true, online: true });
          break;
        }
        this.state.patch({ online: false, lastError: `stream: ${(err as Error).message}` });
      }
      if (this.stopped) break;
      // The stream ended (server restart, network): reconnect after a back-off.
      await new Promise((r) => setTimeout(r, backoffDelay(this.attempt++)));
    }
  }

  private dispatch(event: string, data: string): void {
    if (event === 'resync') this.resync();
    else if (event === 'change') {
      const payload = JSON.parse(data) as { collection: string; documents: Doc[]; checkpoint: Checkpoint };
      this.streams.get(payload.collection)?.next({ documents: payload.documents as never, checkpoint: payload.checkpoint });
      this.synced();
    }
  }

  async awaitInSync(): Promise<void> {
    await Promise.all([...this.states.values()].map((s) => s.awaitInSync()));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.abort?.abort();
    await Promise.all([...this.states.values()].map((s) => s.cancel()));
    for (const s of this.streams.values()) s.complete();
    this.states.clear();
    this.streams.clear();
    this.state.patch({ online: false });
  }
}
