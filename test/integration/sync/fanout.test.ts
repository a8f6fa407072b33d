import type { EventEmitter } from 'node:events';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { fanoutOf } from '../../../server/src/sync/fanout.ts';
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
