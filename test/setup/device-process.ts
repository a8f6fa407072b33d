/**
 * One field device in its own process (free RxDB allows about 13 open
 * collections per JavaScript context, so each simulated device gets one).
 * Driven by the parent over IPC: see device.ts.
 */
import { appendFileSync } from 'node:fs';
import { createOpsClient, type OpsClient, signIn } from '@ops/client-core';
import { switchableFetch } from './network.ts';
import { recordView } from './records.ts';

type Msg = { id: number; op: string; args: any };

let client: OpsClient | null = null;
const net = switchableFetch();
// SIM_TRACE=<dir>: log every push and pull of this device (debugging the simulation).
const traceDir = process.env.SIM_TRACE;
const traceFile = traceDir ? `${traceDir}/device-${process.pid}.log` : null;
const trace = (line: string) => {
  if (traceFile) appendFileSync(traceFile, `${Date.now()} ${line}\n`);
};
const brief = (d: any) =>
  d
    ? `${d.id?.slice(-6)}:${d.type ?? ''}:${d.status ?? ''}:${d.registration ?? d.remarks ?? ''}${d._deleted ? ':DEL' : ''}`
    : 'null';
const cp = (c: any) =>
  c
    ? `${c.seq}/${String(c.id).slice(-6)}${c.snap !== undefined ? `/snap${c.snap}` : ''}${c.tail ? '/tail' : ''}`
    : 'null';
/** Hands each line of a streamed answer to `onLine` as the app reads it (the app gets an untouched copy). */
function traceLines(res: Response, label: string, onLine: (line: string) => void): Response {
  if (!res.body) return res;
  const [mine, theirs] = res.body.tee();
  void (async () => {
    const reader = mine.pipeThrough(new TextDecoderStream()).getReader();
    let buf = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += value;
        const lines = buf.split('\n');
        buf = lines.pop() ?? '';
        for (const l of lines) onLine(l);
      }
    } catch {
      trace(`${label} closed`);
    }
  })();
  return new Response(theirs, { status: res.status, headers: res.headers });
}
const tracedFetch: typeof fetch = async (input, init) => {
  const url = String(input);
  const kind = /\/(push|pull)\.json/.exec(url)?.[1];
  if (traceFile && url.includes('/stream.json'))
    return traceLines(await net.fetch(input, init), 'STREAM', (l) => {
      if (l.startsWith('event:') && !l.includes('change')) trace(`STREAM ${l}`);
      if (!l.startsWith('data:') || !l.includes('"documents"')) return;
      const ev = JSON.parse(l.slice(5));
      trace(`STREAM ${ev.collection} @${cp(ev.checkpoint)} ${ev.documents?.map(brief).join(', ')}`);
    });
  if (traceFile && url.includes('/bootstrap.json'))
    return traceLines(await net.fetch(input, init), 'BOOT', (l) => {
      if (!l.trim()) return;
      const page = JSON.parse(l);
      trace(
        `BOOT ${page.collection ?? JSON.stringify(page)} @${cp(page.checkpoint)} ${page.documents?.map(brief).join(', ') ?? ''}`,
      );
    });
  if (!traceFile || !kind) return net.fetch(input, init);
  const n = Math.random().toString(36).slice(2, 7);
  const body = JSON.parse(String(init?.body ?? '{}'));
  trace(
    `${n} ${kind} ${url.split('/sync/')[1]} ${kind === 'push' ? body.rows.map((r: any) => `${brief(r.newDocumentState)} over ${brief(r.assumedMasterState)}`).join(', ') : cp(body.checkpoint)}`,
  );
  try {
    const res = await net.fetch(input, init);
    const text = await res.clone().text();
    const out = JSON.parse(text);
    trace(
      `${n} -> ${res.status} ${
        kind === 'push'
          ? (out.conflicts ?? []).map(brief).join(', ')
          : `@${cp(out.checkpoint)} ${(out.documents ?? []).map(brief).join(', ')}`
      }`,
    );
    return res;
  } catch (e) {
    trace(`${n} -> ERR ${(e as Error).message}`);
    throw e;
  }
};
const queued = new Map<string, Promise<unknown>>();

async function handle(op: string, args: any): Promise<unknown> {
  switch (op) {
    case 'open': {
      const login = await signIn(args.baseUrl, args.email, 'demo1234');
      if (!login.result) throw new Error(`sign-in failed for ${args.email}`);
      client = await createOpsClient({
        baseUrl: args.baseUrl,
        credentials: { token: login.token },
        user: login.user,
        storage: 'memory',
        fetch: tracedFetch,
        retryTime: 200,
        ...args.options,
      });
      await client.start();
      await client.awaitInSync();
      return login.user;
    }
    case 'offline':
      trace('OFFLINE');
      net.goOffline();
      return null;
    case 'online':
      trace('ONLINE');
      net.goOnline();
      client!.resync();
      return null;
    // Stops and starts the replication (an app closed and opened again): it continues from its stored checkpoints.
    case 'restart':
      await client!.stop();
      await client!.start();
      await client!.awaitInSync();
      return null;
    case 'state':
      return client!.syncState$.value;
    // A record type's name (`aircraft`) reads and writes its area collection (see records.ts).
    case 'save': {
      const view = recordView(args.collection);
      trace(`SAVE ${brief(args.doc)}`);
      await client!.save(view.collection, view.toStored(args.doc) as never);
      return null;
    }
    case 'find': {
      const view = recordView(args.collection);
      const docs = (await client!.collections[view.collection].find({ selector: args.selector ?? {} }).exec()).map(
        (d) => d.toJSON() as Record<string, unknown>,
      );
      return docs.filter(view.owns).map(view.toRecord);
    }
    case 'pick': {
      const view = recordView(args.collection);
      const docs = (await client!.collections[view.collection].find().exec()).filter((d) =>
        view.owns(d.toJSON() as Record<string, unknown>),
      );
      const doc = docs[Math.floor(args.u * docs.length)];
      return doc ? view.toRecord(doc.toJSON() as Record<string, unknown>) : null;
    }
    case 'run': {
      const q = await client!.commands.run(args.name, args.args);
      queued.set(q.id, q.done);
      return q.id;
    }
    // Every collection's live documents, for end-state comparisons (convergence simulation).
    case 'dump': {
      const out: Record<string, Record<string, unknown>[]> = {};
      for (const [name, col] of Object.entries(client!.collections)) {
        out[name] = (await col.find().exec()).map((d) => d.toJSON() as Record<string, unknown>);
      }
      return out;
    }
    case 'decided':
      return queued.get(args.id) ?? client!.commands.decided(args.id);
    case 'close':
      await client?.destroy();
      setTimeout(() => process.exit(0), 10);
      return null;
    default:
      throw new Error(`unknown op ${op}`);
  }
}

process.on('message', (m: Msg) => {
  handle(m.op, m.args).then(
    (result) => process.send!({ id: m.id, ok: true, result }),
    (err: Error) => process.send!({ id: m.id, ok: false, error: err.message }),
  );
});
process.send!({ ready: true });
