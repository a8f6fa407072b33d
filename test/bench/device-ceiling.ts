/**
 * Runs in the browser (bundled by bench:device with esbuild): the ceiling of
 * first sync. Fetches every collection as the signed-in user (not timed), then
 * times a raw `bulkInsert` of the same documents, one page of 1,000 at a time,
 * into a fresh database on the same Dexie storage, in the same browser.
 */
import { openDatabase, type OpsDoc } from '@ops/client-core';
import { COLLECTIONS } from '@ops/shared';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';

interface CeilingResult {
  collection: string;
  docs: number;
  ms: number;
}

async function pullAll(baseUrl: string, token: string, name: string): Promise<OpsDoc[][]> {
  const pages: OpsDoc[][] = [];
  // A collection fed by several sources may send a document twice (reference: airports): keep the first.
  const seen = new Set<string>();
  let checkpoint: unknown = null;
  for (;;) {
    const res = await fetch(`${baseUrl}/sync/${name}/pull.json`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ checkpoint, limit: 1000 }),
    });
    const out = (await res.json()) as { documents: Array<OpsDoc & { _deleted?: boolean }>; checkpoint: unknown };
    const live = out.documents
      .filter((d) => !d._deleted && !seen.has(d.id) && seen.add(d.id))
      .map(({ _deleted, ...d }) => d as OpsDoc);
    if (live.length) pages.push(live);
    checkpoint = out.checkpoint;
    if (out.documents.length < 1000) return pages;
  }
}

async function runCeiling(baseUrl: string, token: string): Promise<CeilingResult[]> {
  const fetched = new Map<string, OpsDoc[][]>();
  for (const def of COLLECTIONS) fetched.set(def.name, await pullAll(baseUrl, token, def.name));
  const db = await openDatabase(`ceiling_${Date.now()}`, getRxStorageDexie());
  const out: CeilingResult[] = [];
  try {
    for (const def of COLLECTIONS) {
      const pages = fetched.get(def.name) ?? [];
      const t0 = performance.now();
      for (const page of pages) await db.collections[def.name].bulkInsert(page);
      out.push({ collection: def.name, docs: pages.reduce((n, p) => n + p.length, 0), ms: performance.now() - t0 });
    }
  } finally {
    await db.remove();
  }
  return out;
}

(globalThis as unknown as { runCeiling: typeof runCeiling }).runCeiling = runCeiling;
