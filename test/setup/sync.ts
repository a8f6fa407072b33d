import type { TestServer } from './server.ts';

export interface Checkpoint {
  seq: number;
  id: string;
  fp: string;
}

/** Pulls a whole collection page by page (the protocol a client follows). */
export async function pullAll(s: Pick<TestServer, 'api'>, token: string, collection: string, checkpoint: Checkpoint | null = null) {
  const docs: any[] = [];
  let cp = checkpoint;
  for (;;) {
    const r = await s.api('POST', `/sync/${collection}/pull.json`, { token, body: { checkpoint: cp, limit: 100 } });
    if (r.status !== 200) throw new Error(`pull ${collection}: ${r.status} ${JSON.stringify(r.body)}`);
    docs.push(...r.body.documents);
    cp = r.body.checkpoint;
    if (r.body.documents.length < 100) break;
  }
  return { docs, checkpoint: cp as Checkpoint };
}

export const push = (s: Pick<TestServer, 'api'>, token: string, collection: string, rows: Array<{ assumedMasterState: unknown; newDocumentState: unknown }>) =>
  s.api('POST', `/sync/${collection}/push.json`, { token, body: { rows } });

export interface StreamEvent {
  event: string;
  data: any;
  at: number;
}

/** Opens the live stream and collects its events; `waitFor` resolves when a predicate holds. */
export async function openStream(baseUrl: string, token: string, collections: string[]) {
  const ctrl = new AbortController();
  const events: StreamEvent[] = [];
  const res = await fetch(`${baseUrl}/sync/stream.json?collections=${collections.join(',')}`, { headers: { authorization: `Bearer ${token}` }, signal: ctrl.signal });
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
