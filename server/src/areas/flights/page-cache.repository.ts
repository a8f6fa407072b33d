import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import '../../db/unit-of-work.ts';
import { runPrepared } from './prepared.repository.ts';

/**
 * Rendered list pages (the answer as JSON, but for its `time`) by company
 * data version. Materialising 20 joined rows of ~85 columns and serialising them
 * costs about 1 ms on SQLite, most of a request's budget, while the page only
 * changes when the company writes. Every write to a replicated table (flights,
 * aircraft, users, bases, flight types) takes the company's next change number
 * from `sync_counters` (db/unit-of-work.ts), and the list's counters change in
 * those same transactions, so a page (count included) rendered at version V is
 * exact for as long as the counter reads V; the counter is read before the
 * rows, so a page is never older than its version. Several server processes
 * on one database stay correct: each reads the version from the database.
 */
export interface RenderedPage {
  /** The company's change number read before the rows. */
  version: number;
  /** The answer up to the value of `time`: `{"flights":[...],"paginate":{...},"time":"`. */
  head: Buffer;
  /** First instant at which a SCHEDULED flight of the page reads DELAYED (Part B 3.1): the page is stale from then on. */
  staleAt: number;
}

interface Entry extends RenderedPage {
  bytes: number;
}

/** Bound on the text kept per database handle (least recently used pages go first). */
const MAX_BYTES = 32 * 1024 * 1024;

// Per database handle, like prepared.ts: a test process runs several servers with their own data.
const caches = new WeakMap<Kysely<DB>, { pages: Map<string, Entry>; bytes: number }>();

function cacheOf(db: Kysely<DB>) {
  let c = caches.get(db);
  if (!c) {
    c = { pages: new Map(), bytes: 0 };
    caches.set(db, c);
  }
  return c;
}

/** The company's current change number (0 before its first write). */
export async function companyVersion(db: Kysely<DB>, companyId: string): Promise<number> {
  const rows = await runPrepared<{ value: number | string }>(
    db,
    'flights.version',
    (p) => db.selectFrom('sync_counters').select('value').where('company_id', '=', p<string>('companyId')),
    { companyId },
  );
  return Number(rows[0]?.value ?? 0);
}

export function cachedPage(db: Kysely<DB>, key: string, version: number, now: number): RenderedPage | undefined {
  const c = cacheOf(db);
  const hit = c.pages.get(key);
  if (!hit) return undefined;
  if (hit.version !== version || now >= hit.staleAt) {
    c.pages.delete(key);
    c.bytes -= hit.bytes;
    return undefined;
  }
  // Re-insert: Map order is the recency order for eviction.
  c.pages.delete(key);
  c.pages.set(key, hit);
  return hit;
}

export function storePage(db: Kysely<DB>, key: string, page: RenderedPage): void {
  const c = cacheOf(db);
  const bytes = page.head.length + key.length;
  if (bytes > MAX_BYTES / 8) return; // a page this large would push out everything else
  const old = c.pages.get(key);
  if (old) {
    c.pages.delete(key);
    c.bytes -= old.bytes;
  }
  c.pages.set(key, { ...page, bytes });
  c.bytes += bytes;
  for (const [k, e] of c.pages) {
    if (c.bytes <= MAX_BYTES) break;
    c.pages.delete(k);
    c.bytes -= e.bytes;
  }
}
