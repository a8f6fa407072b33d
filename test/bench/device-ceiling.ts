/**
 * Runs in the browser (bundled by bench:device with esbuild): the ceiling of
 * first sync. Fetches every collection as the signed-in user once (not timed),
 * then each run times a raw `bulkInsert` of the same documents, one page of
 * 1,000 at a time, into a fresh database on the same Dexie storage, in the
 * same browser.
 */
import { FIRST_SYNC_ORDER, openDatabase, type OpsDoc } from '@ops/client-core';
import { LineSplitter } from '../../client-core/src/bootstrap-stream.ts';
import { COLLECTIONS } from '@ops/shared';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';

interface CeilingResult {
  collection: string;
  docs: number;
  ms: number;
  /** Unix ms: the bench reads the CPU used meanwhile. */
  startedAt: number;
  endedAt: number;
}

type Sent = OpsDoc & { _deleted?: boolean };

/** A page's documents to insert: not deletions, and each once (a collection fed by several sources, reference's
 * airports, may send one twice: the first is kept). */
const toInsert = (documents: Sent[], seen: Set<string>): OpsDoc[] =>
  documents.filter((d) => !d._deleted && !seen.has(d.id) && seen.add(d.id)).map(({ _deleted, ...d }) => d as OpsDoc);

async function pullAll(baseUrl: string, token: string, name: string): Promise<OpsDoc[][]> {
  const pages: OpsDoc[][] = [];
  const seen = new Set<string>();
  let checkpoint: unknown = null;
  for (;;) {
    const res = await fetch(`${baseUrl}/sync/${name}/pull.json`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ checkpoint, limit: 1000 }),
    });
    const out = (await res.json()) as { documents: Sent[]; checkpoint: unknown };
    const page = toInsert(out.documents, seen);
    if (page.length) pages.push(page);
    checkpoint = out.checkpoint;
    if (out.documents.length < 1000) return pages;
  }
}

let fetched: Map<string, OpsDoc[][]> | null = null;

/** Fetches every collection as the signed-in user, once (not timed): the runs below insert the same pages. */
async function fetchCeiling(baseUrl: string, token: string): Promise<number> {
  fetched = new Map();
  for (const def of COLLECTIONS) fetched.set(def.name, await pullAll(baseUrl, token, def.name));
  return [...fetched.values()].flat().reduce((n, p) => n + p.length, 0);
}

/** One timed run: the fetched pages into a fresh database, removed afterwards. */
async function runCeiling(): Promise<CeilingResult[]> {
  if (!fetched) throw new Error('fetchCeiling first');
  const db = await openDatabase(`ceiling_${Date.now()}`, getRxStorageDexie());
  const out: CeilingResult[] = [];
  try {
    for (const def of COLLECTIONS) {
      const pages = fetched.get(def.name) ?? [];
      const startedAt = Date.now();
      const t0 = performance.now();
      for (const page of pages) await db.collections[def.name].bulkInsert(page);
      const ms = performance.now() - t0;
      out.push({
        collection: def.name,
        docs: pages.reduce((n, p) => n + p.length, 0),
        ms,
        startedAt,
        endedAt: Date.now(),
      });
    }
  } finally {
    await db.remove();
  }
  return out;
}

const bootstrapRequest = (baseUrl: string, token: string) =>
  fetch(`${baseUrl}/sync/bootstrap.json`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ collections: FIRST_SYNC_ORDER, limit: 1000 }),
  });

/** The recorded stream, cut as the network delivers it. */
async function* recorded(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += 65_536) yield bytes.subarray(at, at + 65_536);
}

async function* live(res: Response): AsyncGenerator<Uint8Array> {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    yield value;
  }
}

/**
 * The bootstrap stream parsed and inserted (`bulkInsert`, pages in arrival order, one at a time) by a page that
 * runs nothing else: the app's first sync without the app. `recorded`: the stream fetched first (not timed), so
 * the server produces nothing meanwhile; otherwise read as the server writes it.
 */
async function runStreamCeiling(
  baseUrl: string,
  token: string,
  mode: 'live' | 'recorded',
): Promise<{ docs: number; ms: number; startedAt: number; endedAt: number }> {
  const bytes =
    mode === 'recorded' ? new Uint8Array(await (await bootstrapRequest(baseUrl, token)).arrayBuffer()) : null;
  const db = await openDatabase(`stream_${Date.now()}`, getRxStorageDexie());
  let docs = 0;
  let ms = 0;
  const seen = new Set<string>();
  const startedAt = Date.now();
  const t0 = performance.now();
  try {
    const chunks = bytes ? recorded(bytes) : live(await bootstrapRequest(baseUrl, token));
    const splitter = new LineSplitter();
    const store = async (text: string) => {
      const line = JSON.parse(text) as { collection?: string; documents?: Sent[] };
      if (!line.collection || !line.documents) return;
      const page = toInsert(line.documents, seen);
      await db.collections[line.collection].bulkInsert(page);
      docs += page.length;
    };
    for await (const chunk of chunks) for (const text of splitter.push(chunk)) await store(text);
    for (const text of splitter.end()) await store(text);
    ms = performance.now() - t0;
  } finally {
    await db.remove();
  }
  return { docs, ms, startedAt, endedAt: startedAt + ms };
}

Object.assign(globalThis, { fetchCeiling, runCeiling, runStreamCeiling });
