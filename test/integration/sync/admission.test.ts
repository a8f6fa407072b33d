import crypto from 'node:crypto';
import type { NotNull } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PullGate, pullGateOf } from '../../../server/src/sync/pull-gate.ts';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { type Checkpoint, openStream, pullAll, push } from '../../setup/sync.ts';

/** Sessions inserted for a user (a login per device would take minutes); last_seen old, so every one is touched. */
async function sessionsFor(s: TestServer, email: string, count: number): Promise<string[]> {
  const user = await s.ctx.db
    .selectFrom('users')
    .select(['id', 'identity_id', 'company_id'])
    .where('email', '=', email)
    .where('identity_id', 'is not', null)
    .$narrowType<{ identity_id: NotNull }>()
    .executeTakeFirstOrThrow();
  const t = Math.floor(Date.now() / 1000);
  const tokens = Array.from({ length: count }, () => crypto.randomBytes(24).toString('base64url'));
  await s.ctx.db
    .insertInto('sessions')
    .values(
      tokens.map((token) => ({
        id: crypto.randomUUID(),
        token_hash: crypto.createHash('sha256').update(token).digest('hex'),
        identity_id: user.identity_id,
        user_id: user.id,
        company_id: user.company_id,
        created: t - 3600,
        expires: t + 86_400,
        last_seen: t - 3600,
        revoked: 0,
      })),
    )
    .execute();
  return tokens;
}

/**
 * Issue 34: a herd of devices opening their live streams and catch-up pulls at once, on a process whose
 * pool is small (5 connections in test servers) and whose pull gate lets 2 pulls run at a time. None may
 * get a 5xx (the pulls queue instead of failing at the pool's wait) and each must end up holding a change
 * written while they were opening: from its catch-up pull or from its stream, whichever came after it.
 */
describe.each(DIALECTS)('admission of a herd of devices on %s', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(dialect, { env: { SYNC_PULL_CONCURRENCY: '2' } });
  });
  afterAll(() => s?.close());

  it('160 devices opening streams and pulls at once get no 5xx and all receive a change written meanwhile', async () => {
    const DEVICES = 160;
    const mech = await s.login('mechanic@skyline.test');
    const tokens = await sessionsFor(s, 'mechanic@skyline.test', DEVICES);
    const { docs, checkpoint: cp0 } = await pullAll(s, mech, 'aircraft');
    const master = docs.find((d) => d.id === s.refs.aircraft['EC-ABC']);
    expect(master).toBeDefined();
    const fleet0 = (
      await s.api('POST', '/sync/fleet/pull.json', { token: mech, body: { checkpoint: null, limit: 1000 } })
    ).body.checkpoint as Checkpoint;
    expect(cp0).toBeDefined();

    const statuses: number[] = [];
    const holds = new Array<boolean>(DEVICES).fill(false);
    const sees = (d: any) => d.id === master.id && d.registration === 'EC-HRD';
    const streams: Array<Awaited<ReturnType<typeof openStream>>> = [];
    let written = false;
    const device = async (i: number) => {
      const token = tokens[i] as string;
      const stream = await openStream(s.baseUrl, token, ['fleet']);
      streams.push(stream);
      statuses.push(stream.status);
      if (stream.status !== 200) return;
      expect(await stream.waitFor((ev) => ev.some((e) => e.event === 'resync'))).toBe(true);
      // The protocol: after `resync`, pull from the checkpoint (the change may be in it, or come on the stream).
      let cp: Checkpoint = fleet0;
      for (;;) {
        const r = await s.api('POST', '/sync/fleet/pull.json', { token, body: { checkpoint: cp, limit: 200 } });
        statuses.push(r.status);
        if (r.status !== 200) return;
        if (r.body.documents.some(sees)) holds[i] = true;
        cp = r.body.checkpoint;
        if (r.body.documents.length < 200) break;
      }
    };
    const herd = Array.from({ length: DEVICES }, (_, i) => device(i));
    // The write lands while the herd is still opening: some devices have pulled already, others not yet.
    const writer = (async () => {
      while (streams.length < DEVICES / 2) await new Promise((r) => setTimeout(r, 5));
      const r = await push(s, mech, 'aircraft', [
        { assumedMasterState: master, newDocumentState: { ...master, registration: 'EC-HRD' } },
      ]);
      expect(r.status).toBe(200);
      expect(r.body.conflicts).toEqual([]);
      written = true;
    })();
    await Promise.all([...herd, writer]);
    expect(written).toBe(true);
    try {
      expect(statuses.filter((x) => x >= 500)).toEqual([]);
      expect(statuses.every((x) => x === 200)).toBe(true);
      // Every device holds the change: from its pull, or from its stream.
      await Promise.all(
        streams.map((st, i) =>
          holds[i]
            ? true
            : st.waitFor((ev) => ev.some((e) => e.event === 'change' && e.data.documents.some(sees)), 20_000),
        ),
      );
      const missing = streams.filter(
        (st, i) => !holds[i] && !st.events.some((e) => e.event === 'change' && e.data.documents.some(sees)),
      );
      expect(missing.length).toBe(0);
      // The gate held pulls back: never more than two ran at once.
      expect(pullGateOf(s.ctx).concurrency).toBe(2);
    } finally {
      await Promise.all(streams.map((st) => st.close()));
    }
  }, 90_000);
});

describe.each(DIALECTS)('a full pull queue on %s', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(dialect, { env: { SYNC_PULL_CONCURRENCY: '1', SYNC_PULL_QUEUE: '3' } });
  });
  afterAll(() => s?.close());

  it('answers 503 with Retry-After and the error shape only beyond the queue, and the pulls it admitted succeed', async () => {
    const token = await s.login('mechanic@skyline.test');
    const gate = pullGateOf(s.ctx);
    // The one place is taken (a slow pull), so what comes next waits or is refused, on either database.
    let release: () => void = () => {};
    const held = gate.run(
      'elsewhere',
      () => false,
      () => new Promise<void>((r) => (release = r)),
    );
    const pending = Array.from({ length: 10 }, () =>
      s.api('POST', '/sync/fleet/pull.json', { token, body: { checkpoint: null, limit: 1000 } }),
    );
    // Every request has been admitted or refused once three wait and seven were answered.
    for (let i = 0; i < 400 && !(gate.waiting === 3 && gate.stats.refused === 7); i++)
      await new Promise((r) => setTimeout(r, 25));
    release();
    await held;
    const answers = await Promise.all(pending);
    const refused = answers.filter((a) => a.status === 503);
    const ok = answers.filter((a) => a.status === 200);
    expect(ok.length).toBe(3);
    expect(refused.length).toBe(7);
    for (const r of refused) {
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(r.body).toMatchObject({ result: false });
      expect(r.body.message).toMatch(/busy/);
    }
    for (const r of ok) expect(Array.isArray(r.body.documents)).toBe(true);
    expect(gate.stats.refused).toBe(7);
    expect(gate.stats.maxQueued).toBeLessThanOrEqual(3);
    // A refused pull changed nothing: the gate is empty again and the next pull is served.
    expect(gate.waiting).toBe(0);
    const after = await s.api('POST', '/sync/fleet/pull.json', { token, body: { checkpoint: null, limit: 1000 } });
    expect(after.status).toBe(200);
  }, 60_000);
});

describe('the pull gate (server/src/sync/pull-gate.ts)', () => {
  it('serves waiting companies in turn, each in arrival order, and skips a client gone while it waited', async () => {
    const gate = new PullGate(1, 100);
    const order: string[] = [];
    let release: () => void = () => {};
    const first = gate.run(
      'A',
      () => false,
      () => new Promise<void>((r) => (release = r)).then(() => order.push('A0')),
    );
    const rest = [
      ...['A1', 'A2', 'A3'].map((n) =>
        gate.run(
          'A',
          () => false,
          async () => order.push(n),
        ),
      ),
      gate.run(
        'B',
        () => false,
        async () => order.push('B1'),
      ),
      gate.run(
        'C',
        () => true,
        async () => order.push('C-gone'),
      ),
      gate.run(
        'B',
        () => false,
        async () => order.push('B2'),
      ),
    ];
    expect(gate.waiting).toBe(6);
    release();
    await first;
    const results = await Promise.all(rest);
    // A's herd does not hold B back: after A1, B1; then A2, B2 (C left), then A3.
    expect(order).toEqual(['A0', 'A1', 'B1', 'A2', 'B2', 'A3']);
    expect(results[4]).toBeNull();
    expect(gate.stats.skipped).toBe(1);
    expect(gate.waiting).toBe(0);
    expect(gate.active).toBe(0);
  });
});
