import type { EventEmitter } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { fanoutOf } from '../../../server/src/sync/fanout.ts';
import { pingFrame, resyncFrame, type SseFrame, sseEvent, writeFrame } from '../../../server/src/sync/sse-frame.ts';
import { inTransaction } from '../../../server/src/db/unit-of-work.ts';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { openStream } from '../../setup/sync.ts';

/**
 * Live delivery is read once per change batch and fanned out in memory (server/src/sync/fanout.ts).
 * What each stream receives must still be exactly what an incremental pull from its checkpoint gives
 * its user: the same documents, masked the same way, rows it may not see as content-free deletions.
 */
describe.each(DIALECTS)('live fan-out on %s', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(dialect, { seed: 'demo' });
  });
  afterAll(() => s?.close());

  const users = ['admin@skyline.test', 'dispatch@skyline.test', 'pilot@skyline.test', 'mechanic@skyline.test'];
  const COLLECTIONS = ['flights', 'people'];

  /** Every document of a collection after `checkpoint` as this token's user pulls it, the last state of each id. */
  async function pullRaw(token: string, collection: string, checkpoint: unknown) {
    const docs = new Map<string, any>();
    let cp = checkpoint;
    for (;;) {
      const r = await s.api('POST', `/sync/${collection}/pull.json`, { token, body: { checkpoint: cp, limit: 1000 } });
      expect(r.status).toBe(200);
      for (const d of r.body.documents) docs.set(d.id, d);
      cp = r.body.checkpoint;
      if (r.body.documents.length < 1000) return { docs, checkpoint: cp };
    }
  }

  /** A replicated write as a domain service makes it: a change number, then the change announced after commit. */
  const write = (table: 'flights' | 'users', id: string, set: Record<string, unknown>) =>
    s.ctx.tx(async (uow) => {
      const n = await uow.changeNo(s.refs.companies.skyline, table);
      await (uow.trx as any)
        .updateTable(table)
        .set({ ...set, change_no: n })
        .where('id', '=', id)
        .execute();
      return n;
    });

  const received = (stream: Awaited<ReturnType<typeof openStream>>, collection: string) => {
    const docs = new Map<string, any>();
    for (const e of stream.events)
      if (e.event === 'change' && e.data.collection === collection) for (const d of e.data.documents) docs.set(d.id, d);
    return docs;
  };

  it('streams of four roles on one company get exactly their own view of each change, from one read per batch', async () => {
    const fanout = fanoutOf(s.ctx);
    const tokens = await Promise.all(users.map((u) => s.login(u)));
    // Where each user's stream starts (no write in between): the company's last change number, id '' (a stream
    // re-sends the rows of the last transaction before it opened, as it always has).
    const starts = await Promise.all(
      tokens.map(async (t) =>
        Object.fromEntries(
          await Promise.all(
            COLLECTIONS.map(
              async (c) => [c, { ...((await pullRaw(t, c, null)).checkpoint as object), id: '' }] as const,
            ),
          ),
        ),
      ),
    );
    const adminFlights = (await pullRaw(tokens[0] as string, 'flights', null)).docs;
    const pilotFlights = (await pullRaw(tokens[2] as string, 'flights', null)).docs;
    const notThePilots = [...adminFlights.values()].find((d) => !d._deleted && !pilotFlights.has(d.id));
    const thePilots = [...pilotFlights.values()].find((d) => !d._deleted);
    expect(notThePilots).toBeDefined();
    expect(thePilots).toBeDefined();

    // Three streams per user: twelve streams on one company.
    const streams = await Promise.all(
      tokens.flatMap((t, u) => [0, 1, 2].map(async () => ({ u, stream: await openStream(s.baseUrl, t, COLLECTIONS) }))),
    );
    onTestFinished(() => Promise.all(streams.map(({ stream }) => stream.close())).then(() => {}));
    for (const { stream } of streams)
      expect(await stream.waitFor((e) => e.some((x) => x.event === 'resync'))).toBe(true);
    // Every stream has been given the collection up to change `n`.
    const allGot = (collection: string, n: number) =>
      Promise.all(
        streams.map(({ stream }) =>
          stream.waitFor((e) =>
            e.some((x) => x.event === 'change' && x.data.collection === collection && x.data.checkpoint.seq >= n),
          ),
        ),
      );

    let reads = fanout.stats.reads;
    let n = await write('flights', notThePilots.id, { remarks: 'fan-out: not the pilot’s' });
    expect(await allGot('flights', n)).toEqual(streams.map(() => true));
    expect(fanout.stats.reads - reads).toBe(1);

    reads = fanout.stats.reads;
    n = await write('flights', thePilots.id, { remarks: 'fan-out: the pilot’s' });
    expect(await allGot('flights', n)).toEqual(streams.map(() => true));
    expect(fanout.stats.reads - reads).toBe(1);

    reads = fanout.stats.reads;
    const ops = s.userId('ops@skyline.test');
    n = await write('users', ops, { phone: '+34 600 000 111' });
    expect(await allGot('people', n)).toEqual(streams.map(() => true));
    expect(fanout.stats.reads - reads).toBe(1);

    // What an incremental pull from the same checkpoint gives each user, document for document.
    for (const { u, stream } of streams)
      for (const c of COLLECTIONS) {
        const pulled = await pullRaw(tokens[u] as string, c, starts[u]?.[c]);
        expect([...received(stream, c).entries()].sort(), `${users[u]} ${c}`).toEqual(
          [...pulled.docs.entries()].sort(),
        );
      }
    const flightOf = (u: number, id: string) => received(streams[u * 3]?.stream as never, 'flights').get(id);
    // Staff get the flight; the pilot gets it as a deletion that carries no content.
    expect(flightOf(0, notThePilots.id)).toMatchObject({ remarks: 'fan-out: not the pilot’s', _deleted: false });
    expect(flightOf(1, notThePilots.id)).toMatchObject({ remarks: 'fan-out: not the pilot’s', _deleted: false });
    expect(flightOf(2, notThePilots.id)?._deleted).toBe(true);
    expect(JSON.stringify(flightOf(2, notThePilots.id))).not.toContain('fan-out');
    expect(flightOf(2, thePilots.id)).toMatchObject({ remarks: 'fan-out: the pilot’s', _deleted: false });
    const phoneOf = (u: number) => received(streams[u * 3]?.stream as never, 'people').get(ops)?.phone;
    expect(phoneOf(0)).toBe('+34 600 000 111');
    expect(phoneOf(2)).toBeNull();

    // A revoked session among them: its streams end with 401, the others still receive.
    await s.api('POST', '/logout.json', { token: tokens[3] });
    n = await write('flights', notThePilots.id, { remarks: 'fan-out: after the logout' });
    for (const { u, stream } of streams) {
      if (u === 3) {
        expect(await stream.waitFor((e) => e.some((x) => x.event === 'error'))).toBe(true);
        expect(stream.events.find((e) => e.event === 'error')?.data.status).toBe(401);
        expect(JSON.stringify(stream.events)).not.toContain('after the logout');
      } else
        expect(
          await stream.waitFor((e) =>
            e.some((x) => x.event === 'change' && x.data.collection === 'flights' && x.data.checkpoint.seq >= n),
          ),
        ).toBe(true);
    }
    expect(flightOf(0, notThePilots.id)?.remarks).toBe('fan-out: after the logout');
    await Promise.all(streams.map(({ stream }) => stream.close()));
  });

  it('the bytes on the wire are SSE events, each in one exact HTTP chunk (HTTP/1.1) or bare (HTTP/1.0)', async () => {
    const token = await s.login('dispatch@skyline.test');
    const flight = await s.ctx.db
      .selectFrom('flights')
      .select('id')
      .where('company_id', '=', s.refs.companies.skyline)
      .executeTakeFirstOrThrow();
    const { port, hostname, pathname } = new URL(s.baseUrl);
    // A raw connection: what the server wrote, byte for byte (fetch would undo the chunking).
    const raw = (version: '1.0' | '1.1') => {
      const socket = net.connect(Number(port), hostname);
      const chunks: Buffer[] = [];
      socket.on('data', (b) => chunks.push(b));
      socket.write(
        `GET ${pathname.replace(/\/$/, '')}/sync/stream.json?collections=flights HTTP/${version}\r\nHost: ${hostname}\r\nAuthorization: Bearer ${token}\r\n\r\n`,
      );
      return { socket, bytes: () => Buffer.concat(chunks) };
    };
    const v11 = raw('1.1');
    const v10 = raw('1.0');
    onTestFinished(() => {
      v11.socket.destroy();
      v10.socket.destroy();
    });
    const body = (b: Buffer) => b.subarray(b.indexOf('\r\n\r\n') + 4);
    const has = (c: { bytes: () => Buffer }, text: string) => body(c.bytes()).includes(text);
    for (let i = 0; i < 100 && !(has(v11, 'event: resync') && has(v10, 'event: resync')); i++)
      await new Promise((r) => setTimeout(r, 20));
    const n = await write('flights', flight.id, { remarks: 'on the wire' });
    const done = (c: { bytes: () => Buffer }) => has(c, `"seq":${n},`);
    for (let i = 0; i < 250 && !(done(v11) && done(v10)); i++) await new Promise((r) => setTimeout(r, 20));

    const head11 = v11.bytes().subarray(0, v11.bytes().indexOf('\r\n\r\n')).toString('latin1');
    expect(head11).toMatch(/^HTTP\/1\.1 200 /);
    expect(head11.toLowerCase()).toContain('transfer-encoding: chunked');
    // Chunk by chunk: `<hex length>\r\n<exactly that many bytes>\r\n`, each one whole event.
    const events11: string[] = [];
    let rest = body(v11.bytes());
    while (rest.length) {
      const eol = rest.indexOf('\r\n');
      const len = Number.parseInt(rest.subarray(0, eol).toString('latin1'), 16);
      expect(rest.subarray(0, eol).toString('latin1')).toBe(len.toString(16));
      const data = rest.subarray(eol + 2, eol + 2 + len);
      expect(data.length).toBe(len);
      expect(rest.subarray(eol + 2 + len, eol + 4 + len).toString('latin1')).toBe('\r\n');
      events11.push(data.toString('utf8'));
      rest = rest.subarray(eol + 4 + len);
    }
    expect(events11[0]).toBe('event: resync\ndata: {}\n\n');
    const change = events11.find((e) => e.startsWith('event: change\n')) as string;
    expect(change).toMatch(/^event: change\ndata: [^\n]+\n\n$/);
    expect(JSON.parse(change.slice('event: change\ndata: '.length))).toMatchObject({
      collection: 'flights',
      checkpoint: { seq: n },
    });
    expect(change).toContain('on the wire');

    // HTTP/1.0: no chunking, the events' bytes as they are; the same change event for the same viewer.
    const head10 = v10.bytes().subarray(0, v10.bytes().indexOf('\r\n\r\n')).toString('latin1');
    expect(head10.toLowerCase()).not.toContain('transfer-encoding');
    expect(body(v10.bytes()).toString('utf8')).toBe(`event: resync\ndata: {}\n\n${change}`);
  });

  it('a change nobody was told about reaches every stream when the listener is back, read once from the checkpoints', async () => {
    const fanout = fanoutOf(s.ctx);
    const token = await s.login('dispatch@skyline.test');
    const streams = await Promise.all([0, 1, 2, 3, 4].map(() => openStream(s.baseUrl, token, ['flights'])));
    for (const stream of streams) await stream.waitFor((e) => e.some((x) => x.event === 'resync'));
    const flight = await s.ctx.db
      .selectFrom('flights')
      .select('id')
      .where('company_id', '=', s.refs.companies.skyline)
      .executeTakeFirstOrThrow();
    // Committed without announcing (as a NOTIFY lost while the listener was down).
    await inTransaction(s.ctx.db, null, async (uow) => {
      const n = await uow.changeNo(s.refs.companies.skyline, 'flights');
      await uow.trx
        .updateTable('flights')
        .set({ remarks: 'missed', change_no: n })
        .where('id', '=', flight.id)
        .execute();
    });
    const got = () =>
      streams.map((stream) =>
        stream.events.some((e) => e.event === 'change' && e.data.documents.some((d: any) => d.remarks === 'missed')),
      );
    await new Promise((r) => setTimeout(r, 300));
    expect(got()).toEqual(streams.map(() => false));
    // The first test's streams are gone (their groups with them): only this test's collection is re-read.
    for (let i = 0; i < 100 && fanout.streams !== streams.length; i++) await new Promise((r) => setTimeout(r, 50));
    expect(fanout.streams).toBe(streams.length);
    const reads = fanout.stats.reads;
    (s.ctx.changes as unknown as { emitter: EventEmitter }).emitter.emit('resume');
    for (const stream of streams)
      expect(
        await stream.waitFor((e) =>
          e.some((x) => x.event === 'change' && x.data.documents.some((d: any) => d.remarks === 'missed')),
        ),
      ).toBe(true);
    // Every collection followed on the company is re-read once, not once per stream.
    expect(fanout.stats.reads - reads).toBe(1);
    await Promise.all(streams.map((stream) => stream.close()));
  });
});

/**
 * The fan-out writes a pre-framed event straight to the socket when nothing is queued ahead of it, and through
 * `res.write` otherwise (sse-frame.ts). Both must put the same bytes on the wire as `res.write` of the text always
 * did: chunked framing with the length in bytes (not characters), bare bytes for HTTP/1.0, nothing for HEAD.
 */
describe('a pre-framed event on the wire', () => {
  const frames: SseFrame[] = [
    resyncFrame(),
    sseEvent('change', { collection: 'flights', documents: [{ id: 'a', remarks: 'pilot’s ✈ 😀' }] }),
    pingFrame(),
    sseEvent('error', { status: 401, message: 'Invalid token' }),
  ];
  type Mode = 'res.write' | 'direct' | 'corked';
  const paths = { direct: 0, fallback: 0 };
  let server: http.Server;
  let port = 0;
  beforeAll(async () => {
    server = http.createServer(async (req, res) => {
      const mode = req.url?.slice(1) as Mode;
      res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
      res.flushHeaders();
      for (const frame of frames) {
        // A turn apart, as events of the fan-out are: a previous res.write corks the socket until the next tick.
        await new Promise((r) => setImmediate(r));
        if (mode === 'res.write') {
          res.write(frame.text);
          continue;
        }
        const socket = res.socket as net.Socket;
        if (mode === 'corked') socket.cork();
        const before = { socket: socket.writableLength, res: res.writableLength };
        const socketWrite = socket.write;
        let socketWrites = 0;
        socket.write = function (this: net.Socket, ...args: Parameters<net.Socket['write']>) {
          socketWrites++;
          return socketWrite.apply(this, args);
        } as net.Socket['write'];
        const direct = writeFrame(res, frame);
        socket.write = socketWrite;
        expect(direct).toBe(socketWrites === 1 && mode !== 'corked' && req.method !== 'HEAD');
        if (mode === 'corked') socket.uncork();
        // One socket write is the direct path; res.write makes several (length, data, CRLF) or queues.
        if (req.method !== 'HEAD' && mode === 'direct' && before.socket === 0 && before.res === 0) {
          expect(socketWrites).toBe(1);
          paths.direct++;
        } else if (mode === 'corked') paths.fallback++;
      }
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const fetchRaw = (method: string, mode: Mode, version: '1.0' | '1.1') =>
    new Promise<Buffer>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (b) => {
        chunks.push(b);
        // A chunked answer ends with its last chunk; HTTP/1.0 and HEAD close the connection.
        if (Buffer.concat(chunks).subarray(-5).toString('latin1') === '0\r\n\r\n') socket.end();
      });
      socket.on('end', () => resolve(Buffer.concat(chunks)));
      socket.on('error', reject);
      socket.write(`${method} /${mode} HTTP/${version}\r\nHost: x\r\nConnection: close\r\n\r\n`);
    });
  /** The answer without its head's Date line (the only bytes that differ between two answers). */
  const noDate = (b: Buffer) => b.toString('latin1').replace(/\r\nDate: [^\r]*/, '');

  it('is byte for byte what res.write sent, on the direct path and on the fallback', async () => {
    for (const version of ['1.1', '1.0'] as const) {
      const reference = await fetchRaw('GET', 'res.write', version);
      const direct = await fetchRaw('GET', 'direct', version);
      const corked = await fetchRaw('GET', 'corked', version);
      expect(noDate(direct), `HTTP/${version} direct`).toBe(noDate(reference));
      expect(noDate(corked), `HTTP/${version} fallback`).toBe(noDate(reference));
      const body = reference.subarray(reference.indexOf('\r\n\r\n') + 4);
      if (version === '1.1')
        expect(body.toString('latin1')).toBe(
          `${frames.map((f) => `${Buffer.byteLength(f.text).toString(16)}\r\n${Buffer.from(f.text).toString('latin1')}\r\n`).join('')}0\r\n\r\n`,
        );
      else expect(body.toString('utf8')).toBe(frames.map((f) => f.text).join(''));
    }
    const head = await fetchRaw('HEAD', 'direct', '1.1');
    expect(head.subarray(head.indexOf('\r\n\r\n') + 4).length).toBe(0);
    // Both paths were taken (the direct one unless a write was still queued, which loopback does not do).
    expect(paths.direct).toBeGreaterThan(0);
    expect(paths.fallback).toBe(frames.length * 2);
  });
});
