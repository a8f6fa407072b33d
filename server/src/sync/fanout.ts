import { type Viewer, visibilityFingerprint } from '@ops/shared';
import type { AppContext } from '../context.ts';
import type { ChangeEvent } from '../db/unit-of-work.ts';
import { authenticateHashed, type HashedCredential } from '../http/authenticate.ts';
import { onShutdown } from '../server.ts';
import { changeDocument, readSources } from './pull.ts';
import type { RegisteredCollection, SourceRow } from './registry.ts';
import { horizonOf } from './retention.ts';
import { pingFrame, type SseFrame, sseEvent } from './sse-frame.ts';

/** Rows read per page of a change batch (as the per-stream re-read did). */
const BATCH = 500;
/** After a failed read (database down), the next try. */
const RETRY_MS = 500;
const PING_MS = 25_000;

/** Where a stream is in one collection: the last row it has been given (or was past when it opened). */
export interface StreamCheckpoint {
  seq: number;
  id: string;
}

/** One live stream as the fan-out sees it (stream.ts creates it). */
export interface LiveStream {
  readonly companyId: string;
  /** Its credential, hashed once when it opened: re-checked before every delivery without hashing again. */
  readonly credential: HashedCredential;
  /** Shared by the streams of one viewer (`LiveFanout.viewer`), not copied per stream. */
  readonly fp: string;
  readonly viewer: Viewer;
  readonly collections: readonly RegisteredCollection[];
  /** One per entry of `collections`, in the same order. */
  readonly checkpoints: StreamCheckpoint[];
  /** Writes one already-encoded event (the same frame object for every stream that gets it). */
  write(frame: SseFrame): void;
  /** Ends the stream (after a last event, if any). */
  end(): void;
}

/** What the fan-out did, for tests and the bench (`GET /metrics` does not need it). */
export interface FanoutStats {
  /** Change-batch reads: one per (company, collection) page, whatever the number of streams. */
  reads: number;
  /** `change` events written to streams. */
  delivered: number;
}

interface Company {
  id: string;
  streams: Set<LiveStream>;
  /** Fingerprint → one viewer object for every stream of that viewer (a few bytes per stream instead of a copy). */
  viewers: Map<string, { viewer: Viewer; fp: string }>;
  /** Collection name → the streams following it. */
  groups: Map<string, { collection: RegisteredCollection; streams: Set<LiveStream> }>;
  dirty: Set<string>;
  running: Promise<void>;
  scheduled: boolean;
  retry: NodeJS.Timeout | null;
}

const before = (a: { seq: number; id: string }, b: { seq: number; id: string }) =>
  a.seq < b.seq || (a.seq === b.seq && a.id < b.id);
/** A stream's checkpoint in the named collection (a stream follows a handful of collections: a scan is cheapest). */
function checkpointOf(s: LiveStream, name: string): StreamCheckpoint | undefined {
  for (let i = 0; i < s.collections.length; i++) if (s.collections[i]?.def.name === name) return s.checkpoints[i];
  return undefined;
}

/**
 * Live delivery for every stream of one server process. A committed change
 * batch of a company is read ONCE per collection it touches (from the oldest
 * checkpoint of the streams following it) and fanned out in memory: for each
 * stream the rows after its own checkpoint, passed through the same
 * `changeDocument` as an incremental pull (visible rows masked for that
 * viewer, the others as content-free deletions). Before delivering, every
 * concerned stream's credential is re-checked in one batched query: a revoked
 * session gets `error` 401 and ends, a changed role gets `resync` and ends
 * (the client re-pulls), exactly as the per-stream re-read did. A stream whose
 * checkpoint fell below the company's tombstone horizon gets `resync` (its
 * pull answers 410). When the change listener comes back after a loss, every
 * company is re-read from its streams' checkpoints; a failed read is retried
 * from the same checkpoints.
 *
 * Streams with the same viewer fingerprint and checkpoint get the same
 * event, serialised and encoded once per page (sse-frame.ts) and written with
 * one socket write per stream.
 */
export class LiveFanout {
  private readonly companies = new Map<string, Company>();
  readonly stats: FanoutStats = { reads: 0, delivered: 0 };
  private readonly ping: NodeJS.Timeout;
  private readonly offShutdown: () => void;

  constructor(private readonly ctx: AppContext) {
    ctx.changes.subscribe((events) => this.changed(events));
    // Notifications sent while the listener was down were lost: re-read everything from the checkpoints.
    ctx.changes.onResume(() => {
      for (const c of this.companies.values()) {
        for (const name of c.groups.keys()) c.dirty.add(name);
        this.schedule(c);
      }
    });
    // One timer for every stream, not one each: a comment keeps proxies from closing idle streams.
    this.ping = setInterval(() => {
      for (const c of this.companies.values()) for (const s of c.streams) s.write(pingFrame());
    }, PING_MS);
    this.ping.unref();
    // One hook for every stream of this server, not one each: a shutting-down server ends its streams.
    this.offShutdown = onShutdown(() => this.stop());
  }

  /**
   * The viewer object and fingerprint for a stream, shared with the company's other streams of the same viewer
   * while any is open. Visibility is decided from these three fields only (`visibilityFingerprint`).
   */
  viewer(v: Viewer): { viewer: Viewer; fp: string } {
    const fp = visibilityFingerprint(v);
    const c = this.companies.get(v.companyId);
    const known = c?.viewers.get(fp);
    if (known) return known;
    const shared = { viewer: v, fp };
    c?.viewers.set(fp, shared);
    return shared;
  }

  get streams(): number {
    let n = 0;
    for (const c of this.companies.values()) n += c.streams.size;
    return n;
  }

  /** Adds a stream (synchronously: a change committed after this call reaches it). Returns its removal. */
  join(stream: LiveStream): () => void {
    let c = this.companies.get(stream.companyId);
    if (!c) {
      c = {
        id: stream.companyId,
        streams: new Set(),
        viewers: new Map(),
        groups: new Map(),
        dirty: new Set(),
        running: Promise.resolve(),
        scheduled: false,
        retry: null,
      };
      this.companies.set(c.id, c);
    }
    const company = c;
    company.streams.add(stream);
    if (!company.viewers.has(stream.fp)) company.viewers.set(stream.fp, { viewer: stream.viewer, fp: stream.fp });
    for (const collection of stream.collections) {
      let g = company.groups.get(collection.def.name);
      if (!g) {
        g = { collection, streams: new Set() };
        company.groups.set(collection.def.name, g);
      }
      g.streams.add(stream);
    }
    return () => this.leave(company, stream);
  }

  private leave(c: Company, stream: LiveStream): void {
    if (!c.streams.delete(stream)) return;
    for (const collection of stream.collections) {
      const g = c.groups.get(collection.def.name);
      if (!g) continue;
      g.streams.delete(stream);
      if (!g.streams.size) {
        c.groups.delete(collection.def.name);
        c.dirty.delete(collection.def.name);
      }
    }
    if (!c.streams.size) {
      if (c.retry) clearTimeout(c.retry);
      this.companies.delete(c.id);
    }
  }

  private changed(events: ChangeEvent[]): void {
    for (const e of events) {
      const c = this.companies.get(e.companyId);
      if (!c) continue;
      for (const [name, g] of c.groups)
        if (g.collection.sources.some(({ source }) => source.tables.some((t) => e.tables.includes(t))))
          c.dirty.add(name);
      this.schedule(c);
    }
  }

  /** One flush at a time per company; changes arriving meanwhile are read by the next one (coalesced). */
  private schedule(c: Company): void {
    if (!c.dirty.size || c.scheduled) return;
    c.scheduled = true;
    c.running = c.running
      .then(() => {
        c.scheduled = false;
        return this.flush(c);
      })
      .catch((err) => {
        this.ctx.log.warn({ err: (err as Error).message, company: c.id }, 'live fan-out read failed; retrying');
        c.retry ??= setTimeout(() => {
          c.retry = null;
          this.schedule(c);
        }, RETRY_MS);
      });
  }

  private async flush(c: Company): Promise<void> {
    if (!c.dirty.size) return;
    const names = [...c.dirty];
    c.dirty.clear();
    try {
      const concerned = new Set<LiveStream>();
      for (const name of names) for (const s of c.groups.get(name)?.streams ?? []) concerned.add(s);
      if (!concerned.size) return;
      // Revocation and role changes end streams before anything is delivered, as at every re-read before.
      const credentials: HashedCredential[] = [];
      for (const s of concerned) credentials.push(s.credential);
      const auth = await authenticateHashed(this.ctx.db, credentials);
      for (const s of concerned) {
        const a = auth.get(s.credential.hash);
        if (!a?.ok) {
          s.write(sseEvent('error', { status: 401, message: a?.message ?? 'Invalid token' }));
          s.end();
        } else if (
          visibilityFingerprint({ userId: a.actor.userId, companyId: a.actor.companyId, role: a.actor.role }) !== s.fp
        ) {
          // Role changed: the client re-pulls and loses what it may no longer see.
          s.write(sseEvent('resync', { reason: 'visibility changed' }));
          s.end();
        }
      }
      let horizon: number | null = null;
      for (const name of names) {
        const g = c.groups.get(name);
        if (!g?.streams.size) continue;
        horizon ??= await horizonOf(this.ctx.db, c.id);
        await this.deliver(g.collection, [...g.streams], c.id, horizon);
      }
    } catch (err) {
      // Database unreachable (restart, failover): keep the streams and read again from their checkpoints.
      for (const n of names) if (c.groups.has(n)) c.dirty.add(n);
      throw err;
    }
  }

  /** Reads the collection's changes once from the oldest checkpoint and gives every stream its part. */
  private async deliver(
    collection: RegisteredCollection,
    streams: LiveStream[],
    companyId: string,
    horizon: number,
  ): Promise<void> {
    const name = collection.def.name;
    let live = streams.filter((s) => {
      const cp = checkpointOf(s, name);
      if (cp && cp.seq >= horizon) return true;
      // Deletions it would need are purged: its pull answers 410 and it reloads the collection.
      s.write(sseEvent('resync', { reason: 'checkpoint below the tombstone horizon' }));
      s.end();
      return false;
    });
    for (;;) {
      if (!live.length) return;
      let from = checkpointOf(live[0] as LiveStream, name) as StreamCheckpoint;
      for (const s of live) {
        const cp = checkpointOf(s, name) as StreamCheckpoint;
        if (before(cp, from)) from = cp;
      }
      this.stats.reads++;
      const rows = await readSources(this.ctx, companyId, collection, { seq: from.seq, id: from.id }, BATCH, null);
      const page = rows.length > BATCH ? rows.slice(0, BATCH) : rows;
      const last = page.at(-1);
      if (!last) return;
      // Same viewer and same starting point, same event: serialised and encoded once, one frame for all of them.
      // Fingerprint → frame by starting row: no key string built per stream (thousands per write).
      const built = new Map<string, SseFrame[]>();
      for (const s of live) {
        const cp = checkpointOf(s, name) as StreamCheckpoint;
        let start = 0;
        while (start < page.length && !before(cp, page[start] as SourceRow<unknown>)) start++;
        if (start === page.length) continue;
        let byStart = built.get(s.fp);
        if (byStart === undefined) {
          byStart = [];
          built.set(s.fp, byStart);
        }
        let frame = byStart[start];
        if (frame === undefined) {
          const documents = page.slice(start).map((r) => changeDocument(collection.def, r, s.viewer));
          frame = sseEvent('change', {
            collection: name,
            documents,
            checkpoint: { seq: last.seq, id: last.id, fp: s.fp },
          });
          byStart[start] = frame;
        }
        cp.seq = last.seq;
        cp.id = last.id;
        s.write(frame);
        this.stats.delivered++;
      }
      if (page.length < BATCH) return;
      live = live.filter((s) => this.isOpen(s));
    }
  }

  private isOpen(s: LiveStream): boolean {
    return this.companies.get(s.companyId)?.streams.has(s) ?? false;
  }

  /** Ends every stream (server shutdown) and the ping. */
  stop(): void {
    clearInterval(this.ping);
    this.offShutdown();
    for (const c of [...this.companies.values()]) for (const s of [...c.streams]) s.end();
  }
}

const fanouts = new WeakMap<AppContext['changes'], LiveFanout>();

/** The process's fan-out (one per change bus, i.e. per server). */
export function fanoutOf(ctx: AppContext): LiveFanout {
  let f = fanouts.get(ctx.changes);
  if (!f) {
    f = new LiveFanout(ctx);
    fanouts.set(ctx.changes, f);
  }
  return f;
}
