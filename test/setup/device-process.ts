/**
 * One field device in its own process (free RxDB allows about 13 open
 * collections per JavaScript context, so each simulated device gets one).
 * Driven by the parent over IPC: see device.ts.
 */
import { createOpsClient, type OpsClient, signIn } from '@ops/client-core';
import { switchableFetch } from './network.ts';
import { recordView } from './records.ts';

type Msg = { id: number; op: string; args: any };

let client: OpsClient | null = null;
const net = switchableFetch();
const queued = new Map<string, Promise<unknown>>();

async function handle(op: string, args: any): Promise<unknown> {
  switch (op) {
    case 'open': {
      const login = await signIn(args.baseUrl, args.email, 'demo1234');
      if (!login.result) throw new Error(`sign-in failed for ${args.email}`);
      client = await createOpsClient({ baseUrl: args.baseUrl, credentials: { token: login.token }, user: login.user, storage: 'memory', fetch: net.fetch, retryTime: 200 });
      await client.start();
      await client.awaitInSync();
      return login.user;
    }
    case 'offline':
      net.goOffline();
      return null;
    case 'online':
      net.goOnline();
      client!.resync();
      return null;
    case 'state':
      return client!.syncState$.value;
    // A record type's name (`aircraft`) reads and writes its area collection (see records.ts).
    case 'save': {
      const view = recordView(args.collection);
      await client!.save(view.collection, view.toStored(args.doc) as never);
      return null;
    }
    case 'find': {
      const view = recordView(args.collection);
      const docs = (await client!.collections[view.collection].find({ selector: args.selector ?? {} }).exec()).map((d) => d.toJSON() as Record<string, unknown>);
      return docs.filter(view.owns).map(view.toRecord);
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
