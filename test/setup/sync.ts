import { recordView } from './records.ts';
import type { TestServer } from './server.ts';

export type { Checkpoint } from '@ops/server/sync/checkpoint';
import type { Checkpoint } from '@ops/server/sync/checkpoint';

/**
 * Pulls a whole collection page by page (the protocol a client follows). A
 * record type's name (`aircraft`, `users`...) pulls its area collection and
 * keeps that type's documents, in the record's shape (see records.ts).
 */
export async function pullAll(
  s: Pick<TestServer, 'api'>,
  token: string,
  name: string,
  checkpoint: Checkpoint | null = null,
) {
  const view = recordView(name);
  const collection = view.collection;
  const docs: any[] = [];
  let cp = checkpoint;
  for (;;) {
    const r = await s.api('POST', `/sync/${collection}/pull.json`, { token, body: { checkpoint: cp, limit: 100 } });
    if (r.status !== 200) throw new Error(`pull ${name}: ${r.status} ${JSON.stringify(r.body)}`);
    docs.push(...r.body.documents.filter(view.owns).map(view.toRecord));
    cp = r.body.checkpoint;
    if (r.body.documents.length < 100) break;
  }
  return { docs, checkpoint: cp as Checkpoint };
}

/** Pushes rows; a record type's name pushes to its area collection, documents converted (see records.ts). */
export async function push(
  s: Pick<TestServer, 'api'>,
  token: string,
  name: string,
  rows: Array<{ assumedMasterState: unknown; newDocumentState: unknown }>,
  headers?: Record<string, string>,
) {
  const view = recordView(name);
  const stored = (d: unknown) => (d && typeof d === 'object' ? view.toStored(d as Record<string, unknown>) : d);
  const r = await s.api('POST', `/sync/${view.collection}/push.json`, {
    token,
    ...(headers ? { headers } : {}),
    body: {
      rows: rows.map((x) => ({
        assumedMasterState: stored(x.assumedMasterState),
        newDocumentState: stored(x.newDocumentState),
      })),
    },
  });
  if (r.status === 200 && Array.isArray(r.body?.conflicts)) r.body.conflicts = r.body.conflicts.map(view.toRecord);
  return r;
}

export interface StreamEvent {
  event: string;
  data: any;
  at: number;
}

/** Opens the live stream and collects its events; `waitFor` resolves when a predicate holds. */
export async function openStream(baseUrl: string, token: string, collections: string[]) {
  const ctrl = new AbortController();
  const events: StreamEvent[] = [];
  const res = await fetch(`${baseUrl}/sync/stream.json?collections=${collections.join(',')}`, {
    headers: { authorization: `Bearer ${token}` },
    signal: ctrl.signal,
  });
  const waiters = new Set<() => void>();
  let ended = false;
  const pump = (async () => {
    if (!res.body) return;
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buf = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += decoder.decode(value, { stream: true });
        let i = buf.indexOf('\n\n');
        while (i !== -1) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) events.push({ event, data: JSON.parse(data), at: performance.now() });
          i = buf.indexOf('\n\n');
        }
        for (const w of waiters) w();
      }
    } catch (err) {
      if ((err as Error).name !== 'AbortError') throw err;
    } finally {
      ended = true;
      for (const w of waiters) w();
    }
  })();
  return {
    status: res.status,
    events,
    get ended() {
      return ended;
    },
    waitFor(pred: (events: StreamEvent[]) => boolean, timeoutMs = 10_000): Promise<boolean> {
      return new Promise((resolve) => {
        const check = () => {
          if (pred(events)) {
            cleanup();
            resolve(true);
          } else if (ended) {
            cleanup();
            resolve(false);
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          resolve(false);
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    async close() {
      ctrl.abort();
      // undici may leave a read pending when the abort races the server's end of stream.
      await Promise.race([pump.catch(() => {}), new Promise((r) => setTimeout(r, 1000))]);
    },
  };
}
