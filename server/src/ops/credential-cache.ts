import {
  ColumnUpdateNode,
  DeleteQueryNode,
  InsertQueryNode,
  type Kysely,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  TableNode,
  type UnknownRow,
  UpdateQueryNode,
} from 'kysely';
import type { DB } from '../db/schema.ts';
import type { ChangeBus } from '../sync/change-bus.ts';

/**
 * Per-process cache of resolved credentials (session token or API key hash →
 * the row authenticate() reads), so a request on PostgreSQL does not pay a
 * network round trip for its session. Revocation stays prompt:
 *
 * - an entry lives at most `ttlMs` (default 500 ms, never over 1 s): a logout, a closed or
 *   revoked session, a revoked or expired API key, a deactivated user or a
 *   disabled company made by ANY process takes effect everywhere within one
 *   second;
 * - a write through this process to sessions, api_keys, users or companies
 *   (other than the last-seen touch) empties the cache at once, so the
 *   process that revoked never answers with the old state;
 * - the company data version (the flights page cache key) is the newer of the
 *   cached one and the change numbers the change bus announced (this
 *   process's commits synchronously, other processes' through NOTIFY).
 */
export class CredentialCache<Row> {
  private readonly entries = new Map<string, { row: Row; at: number }>();
  private readonly versions = new Map<string, number>();

  constructor(
    readonly ttlMs: number,
    private readonly maxEntries = 50_000,
  ) {}

  get(hash: string, now = performance.now()): Row | undefined {
    const hit = this.entries.get(hash);
    if (!hit) return undefined;
    if (now - hit.at >= this.ttlMs) {
      this.entries.delete(hash);
      return undefined;
    }
    return hit.row;
  }

  set(hash: string, row: Row, at = performance.now()): void {
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    // Re-inserted, so the map stays in the order entries were made and expired ones are all at its front.
    this.entries.delete(hash);
    this.entries.set(hash, { row, at });
    // Expired rows go now, not when their token is next seen: thousands of idle streams, each with a token of
    // its own, left one stale row each (issue 34: memory per idle connection).
    for (const [key, e] of this.entries) {
      if (at - e.at < this.ttlMs) break;
      this.entries.delete(key);
    }
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  noteVersion(companyId: string, changeNo: number): void {
    if ((this.versions.get(companyId) ?? 0) < changeNo) this.versions.set(companyId, changeNo);
  }

  /** The company's data version: the cached one or a newer one announced since. */
  version(companyId: string, cached: number): number {
    return Math.max(cached, this.versions.get(companyId) ?? 0);
  }
}

/**
 * Tables whose rows decide whether a credential is valid and who it is, and
 * the company data version (a write outside the unit of work, e.g. a repair,
 * is seen at once too).
 */
const WATCHED = new Set(['sessions', 'api_keys', 'users', 'companies', 'sync_counters']);
/** Columns the authentication itself refreshes; writing only these changes no answer. */
const TOUCH_COLUMNS = new Set(['last_seen', 'last_used_at']);

function firstTable(node: OperationNode | undefined): string | null {
  if (!node) return null;
  if (TableNode.is(node)) return node.table.identifier.name;
  for (const value of Object.values(node)) {
    const list = Array.isArray(value) ? value : [value];
    for (const v of list) {
      if (v && typeof v === 'object' && 'kind' in v) {
        const found = firstTable(v as OperationNode);
        if (found) return found;
      }
    }
  }
  return null;
}

/** True when the statement writes a watched table in a way that can change an authentication answer. */
export function writesCredentials(node: RootOperationNode): boolean {
  let table: string | null = null;
  if (UpdateQueryNode.is(node)) {
    table = firstTable(node.table);
    const cols = (node.updates ?? []).map((u) => (ColumnUpdateNode.is(u) ? firstColumn(u) : null));
    if (cols.length && cols.every((c) => c !== null && TOUCH_COLUMNS.has(c))) return false;
  } else if (DeleteQueryNode.is(node)) table = firstTable(node.from);
  else if (InsertQueryNode.is(node)) table = firstTable(node.into);
  return table !== null && WATCHED.has(table);
}

const firstColumn = (u: ColumnUpdateNode): string | null => {
  const c = u.column as OperationNode & { column?: { name?: string } };
  return c.column?.name ?? null;
};

/** Kysely plugin: empties the cache before and after any credential-changing write of this process. */
class CredentialWatch implements KyselyPlugin {
  constructor(private readonly cache: CredentialCache<unknown>) {}
  private readonly pending = new WeakSet<object>();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (writesCredentials(args.node)) {
      this.cache.clear();
      this.pending.add(args.queryId);
    }
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    // Again once written: a request that read the old row meanwhile must not keep it.
    if (this.pending.has(args.queryId)) this.cache.clear();
    return args.result;
  }
}

const caches = new WeakMap<Kysely<DB>, CredentialCache<unknown>>();

export function credentialCacheOf<Row>(db: Kysely<DB>): CredentialCache<Row> | undefined {
  return caches.get(db) as CredentialCache<Row> | undefined;
}

/**
 * Returns the database handle the server should use: the same database with
 * the watch plugin, its cache registered for authenticate(). `ttlMs` 0
 * disables caching (the handle is returned unchanged).
 */
export function withCredentialCache(db: Kysely<DB>, changes: ChangeBus, ttlMs: number): Kysely<DB> {
  if (ttlMs <= 0) return db;
  const cache = new CredentialCache<unknown>(Math.min(ttlMs, 1000));
  const watched = db.withPlugin(new CredentialWatch(cache));
  caches.set(watched, cache);
  changes.subscribe((events) => {
    for (const e of events) cache.noteVersion(e.companyId, e.changeNo);
  });
  // The listener was down: revocations announced meanwhile were missed; start afresh.
  changes.onResume(() => cache.clear());
  return watched;
}
