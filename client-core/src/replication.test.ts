import { afterEach, describe, expect, it } from 'vitest';
import { createOpsClient, type OpsClient } from './index.ts';

type Doc = Record<string, unknown> & { id: string; _deleted?: boolean };
interface Cp {
  seq: number;
  id: string;
  fp: string;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const enc = new TextEncoder();

/**
 * The server side of docs/sync.md in a few lines, behind a fetch: pull, push
 * (commands decided in the push answer), one SSE stream with resync at connect,
 * 401 for unknown tokens, 410 for checkpoints older than `horizon`.
 */
class FakeServer {
  seq = 0;
  horizon = 0;
  reachable = true;
  /** Applies the next push, then fails like a network cut before the answer arrived. */
  loseNextPushAnswer = false;
  connects = 0;
  readonly tokens = new Set(['ses_a']);
  /** Collections this server replicates; null = any. */
  known: Set<string> | null = null;
  readonly pushes: Array<{ collection: string; rows: Array<{ newDocumentState: Doc }> }> = [];
  readonly pulls: Array<{ collection: string; checkpoint: unknown }> = [];
  /**
   * `POST /sync/bootstrap.json`: absent (404, an older server), or served in chunks of `chunk` bytes
   * (lines cut anywhere), broken off with a network error after `breakAfter` pages of a collection.
   */
  bootstrap: {
    chunk: number;
    breakAfter?: { collection: string; pages: number };
    /** At the break the network goes too (a laptop leaving the hangar's Wi-Fi mid first sync). */
    offlineAtBreak?: boolean;
    /** The stream stops before the first page of `collection` until `until` settles (a slow server or network). */
    hold?: { collection: string; until: Promise<void> };
  } | null = null;
  readonly bootstrapRequests: string[][] = [];
  /** While set, pulls wait for it before reading (a pull in flight while changes commit and stream). */
  pullGate: Promise<void> | null = null;
  /** While set, pushes wait for it before applying (a slow push while changes stream and the stream reconnects). */
  pushGate: Promise<void> | null = null;
  /** While set, a push's answer waits for it after the push was decided (its conflicts read when it ran). */
  pushAnswerGate: Promise<void> | null = null;
  private readonly tables = new Map<string, Map<string, { doc: Doc; seq: number }>>();
  private readonly streams = new Set<ReadableStreamDefaultController<Uint8Array>>();

  /** The pages of a load from nothing per collection, as NDJSON: full pages carry `snap`, the last one does not. */
  private bootstrapStream(names: string[], limit: number, how: NonNullable<FakeServer['bootstrap']>) {
    const lines: string[] = [];
    const snap = this.seq;
    for (const name of names) {
      const rows = [...this.table(name).values()]
        .filter((r) => !r.doc._deleted)
        .sort((a, b) => a.seq - b.seq || (a.doc.id < b.doc.id ? -1 : 1));
      for (let i = 0; ; i += limit) {
        const page = rows.slice(i, i + limit);
        const last = page.at(-1);
        const cp = last ? { seq: last.seq, id: last.doc.id, fp: 'fp' } : { seq: snap, id: '', fp: 'fp' };
        const final = page.length < limit;
        lines.push(
          JSON.stringify({
            collection: name,
            documents: page.map((r) => r.doc),
            checkpoint: final ? { seq: snap, id: '', fp: 'fp', tail: true } : { ...cp, snap },
            ...(i === 0 ? { total: rows.length } : {}),
          }),
        );
        if (final) break;
      }
    }
    lines.push(JSON.stringify({ done: true }));
    const b = how.breakAfter;
    const cut = b ? lines.findIndex((l) => l.startsWith(`{"collection":"${b.collection}"`)) + b.pages : undefined;
    const bytes = enc.encode(`${lines.slice(0, cut ?? lines.length).join('\n')}\n`);
    const h = how.hold;
    const held = h ? lines.findIndex((l) => l.startsWith(`{"collection":"${h.collection}"`)) : -1;
    const holdAt = h && held >= 0 ? enc.encode(lines.slice(0, held).join('\n')).length + 1 : bytes.length + 1;
    let at = 0;
    const body = new ReadableStream<Uint8Array>({
      pull: async (c) => {
        if (at === holdAt && h) await h.until;
        if (at >= bytes.length) {
          if (cut === undefined) c.close();
          else {
            if (how.offlineAtBreak) this.reachable = false;
            c.error(new TypeError('network error: connection reset'));
          }
          return;
        }
        const end = at < holdAt ? Math.min(at + how.chunk, holdAt) : at + how.chunk;
        c.enqueue(bytes.slice(at, end));
        at = end;
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'application/x-ndjson' } });
  }

  table(name: string) {
    const t = this.tables.get(name) ?? new Map<string, { doc: Doc; seq: number }>();
    this.tables.set(name, t);
    return t;
  }

  docs(name: string) {
    return [...this.table(name).values()].map((r) => r.doc);
  }

  write(collection: string, doc: Doc) {
    this.send('change', this.commit(collection, doc));
  }

  /** Commits a change without streaming it: the caller sends its event later (a fan-out that reads late). */
  commit(collection: string, doc: Doc) {
    const row = { doc: { ...doc, _deleted: !!doc._deleted }, seq: ++this.seq };
    this.table(collection).set(doc.id, row);
    return { collection, documents: [row.doc], checkpoint: { seq: row.seq, id: doc.id, fp: 'fp' } };
  }

  /** Forgets a document entirely (tombstone purged): only a full pull can tell a client. */
  purge(collection: string, id: string) {
    this.table(collection).delete(id);
  }

  send(event: string, data: unknown) {
    for (const c of this.streams) c.enqueue(enc.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
  }

  closeStreams() {
    for (const c of this.streams) c.close();
    this.streams.clear();
  }

  fetch = (async (input: string | URL, init: RequestInit = {}) => {
    if (!this.reachable) throw new TypeError('fetch failed');
    const url = new URL(String(input));
    const auth = (init.headers as Record<string, string>).authorization?.replace(/^Bearer /, '');
    if (!auth || !this.tokens.has(auth)) return json(401, { result: false, message: 'Session expired' });
    const path = url.pathname.replace(/^\/api\/v1/, '');
    const knows = (c: string) => !this.known || this.known.has(c);
    if (path === '/sync/collections.json' && this.known)
      return json(200, { collections: [...this.known].map((name) => ({ name, version: 0, writable: true })) });
    if (path === '/sync/stream.json') {
      if (!(url.searchParams.get('collections') ?? '').split(',').every(knows))
        return json(404, { result: false, message: 'Unknown collection' });
      this.connects++;
      let ctrl!: ReadableStreamDefaultController<Uint8Array>;
      const body = new ReadableStream<Uint8Array>({
        start: (c) => {
          ctrl = c;
          this.streams.add(c);
          c.enqueue(enc.encode('event: resync\ndata: {}\n\n'));
        },
      });
      init.signal?.addEventListener('abort', () => {
        this.streams.delete(ctrl);
        ctrl.error(init.signal?.reason);
      });
      return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    }
    if (path === '/sync/bootstrap.json') {
      const asked = JSON.parse(String(init.body)) as { collections: string[]; limit: number };
      this.bootstrapRequests.push(asked.collections);
      if (!this.bootstrap) return json(404, { result: false, message: 'Not found' });
      return this.bootstrapStream(asked.collections, asked.limit, this.bootstrap);
    }
    const m = /^\/sync\/([a-z_]+)\/(pull|push)\.json$/.exec(path);
    if (!m) return json(404, { result: false, message: 'Not found' });
    const [, collection, op] = m;
    if (!knows(collection)) return json(404, { result: false, message: `Unknown collection ${collection}` });
    const body = JSON.parse(String(init.body));
    if (op === 'pull') {
      const cp = body.checkpoint as Cp | null;
      this.pulls.push({ collection, checkpoint: cp });
      if (this.pullGate) await this.pullGate;
      if (cp && cp.seq < this.horizon) return json(410, { result: false, message: 'Checkpoint too old' });
      const after = cp ?? { seq: 0, id: '' };
      const rows = [...this.table(collection).values()]
        .filter((r) => r.seq > after.seq || (r.seq === after.seq && r.doc.id > after.id))
        .filter((r) => cp || !r.doc._deleted)
        .sort((a, b) => a.seq - b.seq || (a.doc.id < b.doc.id ? -1 : 1))
        .slice(0, body.limit);
      const last = rows.at(-1);
      return json(200, {
        documents: rows.map((r) => r.doc),
        checkpoint: last ? { seq: last.seq, id: last.doc.id, fp: 'fp' } : { ...after, fp: 'fp' },
      });
    }
    if (this.pushGate) await this.pushGate;
    this.pushes.push({ collection, rows: body.rows });
    const conflicts: Doc[] = [];
    for (const row of body.rows as Array<{ assumedMasterState: Doc | null; newDocumentState: Doc }>) {
      const master = this.table(collection).get(row.newDocumentState.id)?.doc;
      if (master && !same({ ...row.assumedMasterState, _deleted: !!row.assumedMasterState?._deleted }, master)) {
        conflicts.push(master);
      } else if (collection === 'device') {
        this.write(collection, { ...row.newDocumentState, status: 'accepted', result: { ok: true }, decided_at: 1 });
        conflicts.push(this.table(collection).get(row.newDocumentState.id)!.doc);
      } else {
        this.write(collection, row.newDocumentState);
      }
    }
    if (this.pushAnswerGate) await this.pushAnswerGate;
    if (this.loseNextPushAnswer) {
      this.loseNextPushAnswer = false;
      throw new TypeError('fetch failed: connection reset');
    }
    return json(200, { conflicts });
  }) as unknown as typeof fetch;
}

const until = async (check: () => boolean | Promise<boolean>, ms = 5000) => {
  const start = Date.now();
  while (Date.now() - start < ms) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return false;
};

const aircraft = (id: string, registration: string, extra: Record<string, unknown> = {}): Doc => ({
  id,
  type: 'aircraft',
  registration,
  model_name: null,
  model_icao: null,
  manufacturer_name: null,
  multiengine: false,
  multipilot: false,
  simulator: false,
  active: true,
  hours: 0,
  landings: 0,
  flights: 0,
  user_id: null,
  base_id: null,
  ...extra,
});

describe('replication with a server speaking docs/sync.md', () => {
  let client: OpsClient | null = null;
  afterEach(async () => {
    // Memory storage keeps data for the life of the process: start each test from nothing.
    await client?.destroy({ removeData: true });
    client = null;
  });

  const open = async (server: FakeServer, refresh?: () => Promise<string | null>) => {
    client = await createOpsClient({
      baseUrl: 'http://fake/api/v1',
      credentials: { token: 'ses_a', refresh },
      user: { id: 'u1', company_id: 'c1' },
      storage: 'memory',
      fetch: server.fetch,
      retryTime: 30,
    });
    return client;
  };
  const registrations = async (c: OpsClient) =>
    (await c.collections.fleet.find().exec()).map((d) => d.get('registration') as string).sort();

  it('pulls at start, then receives live changes over one stream shared by every collection', async () => {
    const server = new FakeServer();
    server.write('fleet', aircraft('a1', 'EC-ABC'));
    server.write('people', { id: 'u1', type: 'user', name: 'Mia' });
    const c = await open(server);
    await c.start();
    await c.awaitInSync();
    expect(await registrations(c)).toEqual(['EC-ABC']);
    expect(c.syncState$.value).toMatchObject({ online: true, pendingWrites: 0, needsSignIn: false, lastError: null });
    expect(c.syncState$.value.lastSyncAt).not.toBeNull();
    server.write('fleet', aircraft('a2', 'EC-DEF'));
    server.write('fleet', { ...aircraft('a1', 'EC-ABC'), _deleted: true });
    expect(await until(async () => (await registrations(c)).join() === 'EC-DEF')).toBe(true);
    expect(server.connects).toBe(1);
  });

  it('first sync loads own collections first, straight into storage, then replicates from its checkpoint', async () => {
    const server = new FakeServer();
    for (let i = 0; i < 2500; i++) server.write('fleet', aircraft(`a${i}`, `EC-${i}`));
    server.write('people', { id: 'u1', type: 'user', name: 'Mia' });
    const c = await open(server);
    await c.start();
    await c.awaitInSync();
    const p = c.syncState$.value.firstSync;
    expect(p.fleet).toMatchObject({ phase: 'ready', documents: 2500 });
    expect(p.people).toMatchObject({ phase: 'ready', documents: 1 });
    expect(p.people.finishedAt).toBeLessThanOrEqual(p.fleet.startedAt as number);
    // Three pages of 1,000 from a null checkpoint, and nothing pulled twice afterwards.
    const fleetPulls = server.pulls.filter((x) => x.collection === 'fleet');
    expect(fleetPulls[0].checkpoint).toBeNull();
    expect(fleetPulls.slice(3).every((x) => x.checkpoint !== null && (x.checkpoint as { seq: number }).seq > 0)).toBe(
      true,
    );
    // Written by the bootstrap (its mark), not by RxDB's downstream (which adds a meta row per document).
    const [stored] = await c.collections.fleet.storageInstance.findDocumentsById(['a1'], false);
    expect(stored._meta).toMatchObject({ opsBootstrap: 1 });
    // Nothing loaded is pushed back, and a second start of the device loads nothing again.
    expect(server.pushes.filter((x) => x.collection === 'fleet')).toEqual([]);
    await c.stop();
    await c.start();
    await c.awaitInSync();
    expect(server.pulls.filter((x) => x.collection === 'fleet' && x.checkpoint === null)).toHaveLength(1);
    expect(server.pushes.filter((x) => x.collection === 'fleet')).toEqual([]);
    expect(await c.collections.fleet.count().exec()).toBe(2500);
  });

  it('first sync reads one bootstrap stream cut anywhere across chunks, then replicates live from its checkpoints', async () => {
    const server = new FakeServer();
    server.bootstrap = { chunk: 777 };
    for (let i = 0; i < 2500; i++)
      server.write('fleet', aircraft(`a${i}`, `EC-${i}`, { model_name: 'Cessna 172 «Skyhawk» ✈' }));
    server.write('fleet', { ...aircraft('a7', 'EC-7'), _deleted: true });
    server.write('people', { id: 'u1', type: 'user', name: 'Mía Núñez' });
    const c = await open(server);
    await c.start();
    await c.awaitInSync();
    // One request for every fresh collection, the person's own first; no pull from a null checkpoint.
    expect(server.bootstrapRequests).toHaveLength(1);
    expect(server.bootstrapRequests[0].indexOf('people')).toBeLessThan(server.bootstrapRequests[0].indexOf('fleet'));
    expect(server.pulls.filter((x) => x.checkpoint === null)).toEqual([]);
    expect(await c.collections.fleet.count().exec()).toBe(2499);
    const [a1] = await c.collections.fleet.storageInstance.findDocumentsById(['a1'], false);
    expect(a1).toMatchObject({ model_name: 'Cessna 172 «Skyhawk» ✈', _meta: { opsBootstrap: 1 } });
    expect((await c.collections.people.findOne('u1').exec())?.get('name')).toBe('Mía Núñez');
    expect(c.syncState$.value.firstSync.fleet).toMatchObject({ phase: 'ready', documents: 2499, total: 2499 });
    expect(c.syncState$.value.lastError).toBeNull();
    // Live replication took over from the stream's checkpoints: a later change arrives, nothing is pushed back.
    server.write('fleet', aircraft('a1', 'EC-NEW'));
    expect(
      await until(async () => (await c.collections.fleet.findOne('a1').exec())?.get('registration') === 'EC-NEW'),
    ).toBe(true);
    expect(server.pushes.filter((x) => x.collection === 'fleet')).toEqual([]);
  });

  it("a loaded collection is ready at once and starts replicating after the stream's last page, missing nothing of the meantime", async () => {
    const server = new FakeServer();
    let release = () => {};
    const until$ = new Promise<void>((r) => {
      release = r;
    });
    server.bootstrap = { chunk: 512, hold: { collection: 'fleet', until: until$ } };
    for (let i = 0; i < 1200; i++) server.write('fleet', aircraft(`a${i}`, `EC-${i}`));
    server.write('people', { id: 'u1', type: 'user', name: 'Mia' });
    const c = await open(server);
    await c.start();
    // `people` is stored while the stream waits before `fleet`: ready for its screens, not replicating yet.
    expect(await until(() => c.syncState$.value.firstSync.people?.phase === 'ready')).toBe(true);
    expect(c.syncState$.value.firstSync.fleet?.phase).not.toBe('ready');
    // A change streamed now reaches no replication of `people`; its first pull after the stream reads it.
    server.write('people', { id: 'u2', type: 'user', name: 'Noa' });
    await new Promise((r) => setTimeout(r, 100));
    expect(server.pulls.filter((x) => x.collection === 'people')).toEqual([]);
    release();
    await c.awaitInSync();
    const first = server.pulls.find((x) => x.collection === 'people');
    expect(first?.checkpoint).toMatchObject({ tail: true });
    expect(await until(async () => (await c.collections.people.findOne('u2').exec())?.get('name') === 'Noa')).toBe(
      true,
    );
    expect(await c.collections.fleet.count().exec()).toBe(1200);
    expect(server.pulls.filter((x) => x.checkpoint === null)).toEqual([]);
  });

  it('falls back to pulls from a null checkpoint when the server has no bootstrap stream (404)', async () => {
    const server = new FakeServer();
    for (let i = 0; i < 1500; i++) server.write('fleet', aircraft(`a${i}`, `EC-${i}`));
    const c = await open(server);
    await c.start();
    await c.awaitInSync();
    expect(server.bootstrapRequests).toHaveLength(1);
    expect(server.pulls.filter((x) => x.collection === 'fleet' && x.checkpoint === null)).toHaveLength(1);
    expect(await c.collections.fleet.count().exec()).toBe(1500);
    expect(c.syncState$.value.firstSync.fleet).toMatchObject({ phase: 'ready', documents: 1500 });
    expect(c.syncState$.value.lastError).toBeNull();
  });

  it('a stream broken mid-collection continues with pulls from the last stored page: nothing lost or written twice', async () => {
    const server = new FakeServer();
    server.write('people', { id: 'u1', type: 'user', name: 'Mia' });
    for (let i = 0; i < 3500; i++) server.write('fleet', aircraft(`a${i}`, `EC-${i}`));
    // The stream breaks after fleet's first two pages of 1,000.
    server.bootstrap = { chunk: 4096, breakAfter: { collection: 'fleet', pages: 2 } };
    const c = await open(server);
    let written = 0;
    const sub = c.collections.fleet.storageInstance.changeStream().subscribe((b) => {
      if (b.context === 'replication-bootstrap') written += b.events.length;
    });
    await c.start();
    await c.awaitInSync();
    sub.unsubscribe();
    const fleetPulls = server.pulls.filter((x) => x.collection === 'fleet');
    // The pulls start after fleet's second page (a1999 is its 2,000th row), not from null.
    expect(fleetPulls[0].checkpoint).toMatchObject({ id: 'a1999' });
    expect(fleetPulls.some((x) => x.checkpoint === null)).toBe(false);
    expect(await c.collections.fleet.count().exec()).toBe(3500);
    // Every document stored by the load: 2,000 from the stream, 1,500 from the pulls.
    expect(written).toBe(3500);
    expect(c.syncState$.value.firstSync.fleet).toMatchObject({ phase: 'ready', documents: 3500, total: 3500 });
    expect((await c.collections.people.findOne('u1').exec())?.get('name')).toBe('Mia');
    expect(c.syncState$.value.lastError).toBeNull();
    expect(server.pushes.filter((x) => x.collection === 'fleet')).toEqual([]);
  });

  it('a first sync cut off by the network waits, and continues at once when the network is back (resync)', async () => {
    const server = new FakeServer();
    for (let i = 0; i < 3500; i++) server.write('fleet', aircraft(`a${i}`, `EC-${i}`));
    server.bootstrap = { chunk: 4096, breakAfter: { collection: 'fleet', pages: 2 }, offlineAtBreak: true };
    const serve = server.fetch;
    let failedPulls = 0;
    server.fetch = (async (input: string | URL, init?: RequestInit) => {
      if (!server.reachable && String(input).endsWith('/sync/fleet/pull.json')) failedPulls++;
      return serve(input, init);
    }) as typeof fetch;
    const c = await open(server);
    await c.start();
    // Five failed pulls: the sixth waits 4 to 8 s (back-off 0.5 s doubling, with jitter).
    expect(await until(() => failedPulls >= 5, 15_000)).toBe(true);
    expect(c.syncState$.value.firstSync.fleet).toMatchObject({ phase: 'loading', documents: 2000, total: 3500 });
    expect(c.syncState$.value.online).toBe(false);
    expect(c.syncState$.value.lastError).not.toBeNull();
    // What the app says: the server did not answer (never the transport's own text). Which source failed last
    // (the fleet's pull, a waiting collection, the stream) depends on timing.
    expect(c.syncState$.value.problem).toMatchObject({ kind: 'offline' });
    server.reachable = true;
    const back = Date.now();
    c.resync(); // what the app does on the browser's `online` event
    expect(await until(() => c.syncState$.value.firstSync.fleet?.phase === 'ready', 10_000)).toBe(true);
    expect(Date.now() - back).toBeLessThan(2000);
    await c.awaitInSync();
    expect(await c.collections.fleet.count().exec()).toBe(3500);
    expect(c.syncState$.value.firstSync.fleet).toMatchObject({ phase: 'ready', documents: 3500, total: 3500 });
    expect(c.syncState$.value).toMatchObject({ online: true, lastError: null, problem: null });
  }, 30_000);

  it('counts local writes as pending until the server acknowledged them, also across an outage', async () => {
    const server = new FakeServer();
    server.write('fleet', aircraft('a1', 'EC-ABC'));
    const c = await open(server);
    await c.start();
    await c.awaitInSync();
    server.reachable = false;
    server.closeStreams();
    const doc = (await c.collections.fleet.findOne('a1').exec())!.toJSON() as Doc;
    await c.save('fleet', { ...doc, base_id: 'base-1' });
    // A direct RxDB write counts too.
    await c.collections.fleet.insert(aircraft('a9', 'EC-NEW'));
    expect(await until(() => c.syncState$.value.pendingWrites === 2)).toBe(true);
    expect(await until(() => c.syncState$.value.online === false)).toBe(true);
    // A command queued offline is a pending write too (until its push is answered).
    await c.commands.run('flight.confirm', { flight_id: 'f1' });
    expect(await until(() => c.syncState$.value.pendingWrites === 3)).toBe(true);
    // Saving the same state again adds nothing.
    await c.save('fleet', { ...doc, base_id: 'base-1' });
    expect(c.syncState$.value.pendingWrites).toBe(3);
    server.reachable = true;
    expect(await until(() => c.syncState$.value.pendingWrites === 0)).toBe(true);
    expect(server.docs('fleet').find((d) => d.id === 'a1')).toMatchObject({ base_id: 'base-1' });
    expect(
      server
        .docs('fleet')
        .map((d) => d.id)
        .sort(),
    ).toEqual(['a1', 'a9']);
    expect(c.syncState$.value.online).toBe(true);
    await expect(c.save('people', { id: 'u1', type: 'user', name: 'x' })).rejects.toThrow(/read-only/);
  });

  it('a push applied by the server whose answer was lost settles on the retry and keeps following the server', async () => {
    const server = new FakeServer();
    server.write('fleet', aircraft('a1', 'EC-ABC'));
    const c = await open(server);
    await c.start();
    await c.awaitInSync();
    const doc = (await c.collections.fleet.findOne('a1').exec())!.toJSON() as Doc;
    // The server applies the write, but the answer never arrives (partition, server killed after commit).
    server.loseNextPushAnswer = true;
    await c.save('fleet', { ...doc, registration: 'EC-NEW' });
    expect(await until(() => server.pushes.length >= 2)).toBe(true);
    // The retry is answered with a "conflict" equal to what was sent: the write is acknowledged, not pending.
    expect(await until(() => c.syncState$.value.pendingWrites === 0)).toBe(true);
    // Later changes by others must still reach this device.
    server.write('fleet', aircraft('a1', 'EC-LATER'));
    expect(await until(async () => (await registrations(c)).join() === 'EC-LATER')).toBe(true);
    expect(c.syncState$.value.pendingWrites).toBe(0);
  });

  it('resolves a command queued offline once the server decided it', async () => {
    const server = new FakeServer();
    server.reachable = false;
    const c = await open(server);
    await c.start();
    const q = await c.commands.run('base.set_default', { base_id: 'b1' });
    expect(await until(() => c.syncState$.value.pendingCommands === 1)).toBe(true);
    expect(c.syncState$.value.online).toBe(false);
    // The command document itself is a local write waiting for its push.
    expect(await until(() => c.syncState$.value.pendingWrites === 1)).toBe(true);
    server.reachable = true;
    await expect(q.done).resolves.toMatchObject({ status: 'accepted', result: { ok: true } });
    expect(await until(() => c.syncState$.value.pendingCommands === 0 && c.syncState$.value.pendingWrites === 0)).toBe(
      true,
    );
    expect(server.docs('device')).toHaveLength(1);
  });

  it('on 410 starts the collection over: purged documents leave, nothing is pushed back', async () => {
    const server = new FakeServer();
    server.write('fleet', aircraft('a1', 'EC-ABC'));
    server.write('fleet', aircraft('a2', 'EC-GONE'));
    const c = await open(server);
    await c.start();
    await c.awaitInSync();
    await c.stop();
    // While the client was away: a2 was deleted and its tombstone purged, a3 added.
    server.purge('fleet', 'a2');
    server.write('fleet', aircraft('a3', 'EC-NEW'));
    server.horizon = server.seq;
    await c.start();
    expect(await until(async () => (await registrations(c)).join() === 'EC-ABC,EC-NEW')).toBe(true);
    await c.awaitInSync();
    expect(server.pushes.filter((p) => p.collection === 'fleet')).toEqual([]);
    expect(c.syncState$.value.pendingWrites).toBe(0);
  });

  it('refreshes the token on 401; when that fails asks for sign-in and keeps local writes queued', async () => {
    const server = new FakeServer();
    server.write('fleet', aircraft('a1', 'EC-ABC'));
    let refreshes = 0;
    const c = await open(server, async () => {
      refreshes++;
      server.tokens.add('ses_b');
      return refreshes === 1 ? 'ses_b' : null;
    });
    await c.start();
    await c.awaitInSync();
    // The session is revoked: the first refresh gives a new token, sync goes on.
    server.tokens.delete('ses_a');
    server.closeStreams();
    server.write('fleet', aircraft('a2', 'EC-DEF'));
    c.resync();
    expect(await until(async () => (await registrations(c)).length === 2)).toBe(true);
    expect(refreshes).toBe(1);
    // Revoked again and refresh fails: needsSignIn, the local write stays pending.
    server.tokens.delete('ses_b');
    server.closeStreams();
    const doc = (await c.collections.fleet.findOne('a1').exec())!.toJSON() as Doc;
    await c.save('fleet', { ...doc, active: false });
    expect(await until(() => c.syncState$.value.needsSignIn)).toBe(true);
    expect(c.syncState$.value.pendingWrites).toBe(1);
    await new Promise((r) => setTimeout(r, 100));
    expect(refreshes).toBe(2);
    // Signed in again: the queued write goes through.
    server.tokens.add('ses_c');
    c.setToken('ses_c');
    expect(c.syncState$.value.needsSignIn).toBe(false);
    expect(await until(() => c.syncState$.value.pendingWrites === 0)).toBe(true);
    expect(server.docs('fleet').find((d) => d.id === 'a1')).toMatchObject({ active: false });
  });

  it('keeps syncing the other collections when the server does not know one (older server)', async () => {
    const server = new FakeServer();
    server.known = new Set(['reference', 'people', 'fleet', 'device']);
    server.write('fleet', aircraft('a1', 'EC-ABC'));
    const c = await open(server);
    await c.start();
    await c.awaitInSync();
    expect(await registrations(c)).toEqual(['EC-ABC']);
    expect(c.syncState$.value.lastError).toMatch(/not replicated by this server/);
    expect(c.syncState$.value.problem).toMatchObject({ kind: 'version' });
    server.write('fleet', aircraft('a2', 'EC-DEF'));
    expect(await until(async () => (await registrations(c)).length === 2)).toBe(true);
    expect(server.connects).toBe(1);
  });

  it('never applies a live change older than what a running pull read (no older version after a newer one)', async () => {
    const server = new FakeServer();
    server.write('fleet', aircraft('a1', 'R-1'));
    const c = await open(server);
    await c.start();
    await c.awaitInSync();
    const seen: string[] = [];
    const sub = c.collections.fleet.$.subscribe((ev) => {
      const doc = ev.documentData as unknown as Doc;
      if (doc.id === 'a1') seen.push(String(doc.registration));
    });
    // A resync pull is on its way; meanwhile R-2 commits and streams, R-3 commits and streams later.
    let open_ = () => {};
    server.pullGate = new Promise<void>((r) => {
      open_ = r;
    });
    const pulls = server.pulls.length;
    c.resync();
    expect(await until(() => server.pulls.some((p, i) => i >= pulls && p.collection === 'fleet'))).toBe(true);
    server.write('fleet', aircraft('a1', 'R-2'));
    const late = server.commit('fleet', aircraft('a1', 'R-3'));
    await new Promise((r) => setTimeout(r, 100));
    // The pull reads now: R-3. The R-2 event arrived while it ran; applied after it, the device would go back.
    server.pullGate = null;
    open_();
    await new Promise((r) => setTimeout(r, 300));
    server.send('change', late);
    expect(await until(async () => (await registrations(c))[0] === 'R-3')).toBe(true);
    await new Promise((r) => setTimeout(r, 200));
    sub.unsubscribe();
    const order = seen.map((r) => Number(r.slice(2)));
    expect(order.every((n, i) => i === 0 || n >= (order[i - 1] as number))).toBe(true);
    expect(order.at(-1)).toBe(3);
  });

  it('pulls what changed while the stream was away, even when live changes queued behind a push come first', async () => {
    const server = new FakeServer();
    server.write('fleet', aircraft('a1', 'R-1'));
    server.write('fleet', aircraft('a2', 'S-1'));
    const c = await open(server);
    await c.start();
    await c.awaitInSync();
    expect(await until(() => server.connects === 1)).toBe(true);
    // A local edit whose push hangs: RxDB holds the collection's live changes (and its resync) until it ends.
    let release = () => {};
    server.pushGate = new Promise<void>((r) => {
      release = r;
    });
    const a1 = await c.collections.fleet.findOne('a1').exec();
    await c.save('fleet', { ...(a1?.toJSON() as unknown as Doc), registration: 'R-2' } as never);
    expect(await until(() => server.pushGate !== null && c.syncState$.value.pendingWrites === 1)).toBe(true);
    await new Promise((r) => setTimeout(r, 100));
    // A live change arrives; then the stream drops, a2 changes while it is away, and the new stream says resync.
    server.write('fleet', aircraft('a3', 'T-1'));
    await new Promise((r) => setTimeout(r, 100));
    server.closeStreams();
    server.commit('fleet', aircraft('a2', 'S-2'));
    expect(await until(() => server.connects === 2)).toBe(true);
    await new Promise((r) => setTimeout(r, 100));
    server.pushGate = null;
    release();
    // RxDB 16.9 drops a resync queued right behind change events; the device must still pull S-2.
    expect(await until(async () => (await registrations(c)).join() === 'R-2,S-2,T-1')).toBe(true);
  });

  it('a push answered late with an older server state than a pull read meanwhile ends on the newer state', async () => {
    const server = new FakeServer();
    server.write('fleet', aircraft('a1', 'R-1'));
    const c = await open(server);
    await c.start();
    await c.awaitInSync();
    expect(await until(() => server.connects === 1)).toBe(true);
    // A pull is on its way (it reads later); someone else changes a1 to R-3.
    let openPull = () => {};
    server.pullGate = new Promise<void>((r) => {
      openPull = r;
    });
    const pulls = server.pulls.length;
    c.resync();
    expect(await until(() => server.pulls.some((p, i) => i >= pulls && p.collection === 'fleet'))).toBe(true);
    server.write('fleet', aircraft('a1', 'R-3'));
    // The device edits a1 from R-1: the push is a conflict, decided now (master R-3), answered later.
    let answer = () => {};
    server.pushAnswerGate = new Promise<void>((r) => {
      answer = r;
    });
    const pushes = server.pushes.length;
    await c.save('fleet', { ...aircraft('a1', 'R-1'), registration: 'R-2' } as never);
    expect(await until(() => server.pushes.length > pushes)).toBe(true);
    // a1 changes again; the pull reads R-4 while the device's change is unanswered (RxDB skips it).
    server.write('fleet', aircraft('a1', 'R-4'));
    server.pullGate = null;
    openPull();
    await new Promise((r) => setTimeout(r, 300));
    // The push's answer comes now, with the master it read: R-3.
    server.pushAnswerGate = null;
    answer();
    expect(await until(async () => (await registrations(c)).join() === 'R-4')).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    expect(await registrations(c)).toEqual(['R-4']);
  });

  it('reconnects the stream after the server closed it', async () => {
    const server = new FakeServer();
    const c = await open(server);
    await c.start();
    await c.awaitInSync();
    // The first stream opens at a random point within a second (devices spread their connects).
    expect(await until(() => server.connects === 1)).toBe(true);
    server.closeStreams();
    expect(await until(() => server.connects === 2)).toBe(true);
    server.write('fleet', aircraft('a5', 'EC-LIVE'));
    expect(await until(async () => (await registrations(c)).join() === 'EC-LIVE')).toBe(true);
  });

  it("prunes what aged out of the window: never the person's own records nor an unacknowledged local change, and never pushes the removal", async () => {
    const server = new FakeServer();
    const DAY = 86_400_000;
    const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const recent = Date.now() - 30 * DAY;
    // Inside every window today; two years on, outside it.
    const flight = (id: string, pic: string) => ({ id, date: iso(recent), pic_id: pic, sic_id: null, remarks: null });
    server.write('flights', flight('f-other', 'u9'));
    server.write('flights', flight('f-own', 'u1'));
    server.write('flights', flight('f-edited', 'u9'));
    server.write('flights', { ...flight('f-new', 'u9'), date: iso(Date.now() + 700 * DAY) });
    const booking = (id: string, instructor: string | null) => ({
      id,
      start_at: Math.floor(recent / 1000),
      pilot_id: 'u9',
      instructor_id: instructor,
      user_id: 'u9',
    });
    server.write('bookings', booking('b-other', null));
    server.write('bookings', booking('b-teaching', 'u1'));
    const report = (id: string, status: string) => ({
      id,
      type: 'aircraft_report',
      status,
      modified: Math.floor(recent / 1000),
      user_id: 'u9',
    });
    server.write('fleet', report('r-closed', 'CLOSED'));
    server.write('fleet', report('r-open', 'OPEN'));
    server.write('fleet', aircraft('a1', 'EC-ABC'));
    const c = await open(server);
    await c.start();
    await c.awaitInSync();
    // A flight the server changes after the first sync: stored by RxDB's downstream, with its assumed master.
    server.write('flights', { ...flight('f-live', 'u9'), remarks: 'late' });
    expect(await until(async () => (await c.collections.flights.findOne('f-live').exec()) !== null)).toBe(true);
    // Nothing is outside the window today (the prune after the first sync removed nothing).
    expect(await c.prune()).toEqual({ flights: 0, bookings: 0, fleet: 0 });
    // An edit made offline, not acknowledged yet.
    server.reachable = false;
    server.closeStreams();
    const edited = (await c.collections.flights.findOne('f-edited').exec())!.toJSON() as Doc;
    await c.save('flights', { ...edited, remarks: 'mine, offline' });
    expect(await until(() => c.syncState$.value.pendingWrites === 1)).toBe(true);

    const later = new Date(Date.now() + 2 * 365 * DAY);
    expect(await c.prune(later)).toEqual({ flights: 2, bookings: 1, fleet: 1 });
    const ids = async (name: string) => (await c.collections[name].find().exec()).map((d) => d.primary).sort();
    expect(await ids('flights')).toEqual(['f-edited', 'f-new', 'f-own']);
    expect(await ids('bookings')).toEqual(['b-teaching']);
    expect(await ids('fleet')).toEqual(['a1', 'r-open']);
    // Read-only collections free the space at once; flights wait while an edit of theirs is unacknowledged.
    expect(await c.collections.bookings.storageInstance.findDocumentsById(['b-other'], true)).toEqual([]);
    expect(await c.collections.fleet.storageInstance.findDocumentsById(['r-closed'], true)).toEqual([]);
    expect(await c.collections.flights.storageInstance.findDocumentsById(['f-other'], true)).toHaveLength(1);

    // Back online: the edit is pushed, no removal ever is, and the server keeps every record.
    server.reachable = true;
    c.resync();
    expect(await until(() => c.syncState$.value.pendingWrites === 0)).toBe(true);
    await c.awaitInSync();
    const pushed = server.pushes.flatMap((p) => p.rows.map((r) => r.newDocumentState));
    expect(pushed.map((d) => d.id)).toEqual(['f-edited']);
    expect(server.docs('flights').every((d) => !d._deleted)).toBe(true);
    // The next prune purges the flights' tombstones too; the edited flight, acknowledged now, leaves.
    expect(await c.prune(later)).toMatchObject({ flights: 1 });
    expect(await c.collections.flights.storageInstance.findDocumentsById(['f-edited'], true)).toEqual([]);
    expect(await ids('flights')).toEqual(['f-new', 'f-own']);

    // A restart pushes nothing either; a later server change of a pruned record brings it back.
    await c.stop();
    await c.start();
    await c.awaitInSync();
    expect(server.pushes.flatMap((p) => p.rows.map((r) => r.newDocumentState.id))).toEqual(['f-edited']);
    server.write('flights', { ...flight('f-other', 'u9'), remarks: 'corrected' });
    expect(await until(async () => (await c.collections.flights.findOne('f-other').exec()) !== null)).toBe(true);
  });
});
