import { uuidv7 } from '@ops/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { spawnServer } from '../../setup/process.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { openStream, pullAll, push } from '../../setup/sync.ts';

const post = async (baseUrl: string, path: string, token: string, body: unknown) => {
  const r = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as any };
};

describe.each(DIALECTS)('server processes on %s', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(dialect);
  });
  afterAll(() => s?.close());

  it('a server killed during a push loses and duplicates nothing after restart', async () => {
    const admin = await s.login('admin@skyline.test');
    const bases = [s.refs.bases.Sabadell, s.refs.bases['Cuatro Vientos']];
    const commands = Array.from({ length: 300 }, (_, i) => ({
      id: uuidv7(),
      type: 'command',
      name: 'base.set_default',
      args: { base_id: bases[i % 2] },
      client_time: Date.now() + i,
      status: 'pending',
    }));
    const rows = commands.map((c) => ({ assumedMasterState: null, newDocumentState: c }));
    const b = await spawnServer(dialect, s.where);
    const inFlight = post(b.baseUrl, '/sync/device/push.json', admin, { rows }).catch((err: Error) => err);
    // Kill once part of the batch has committed.
    for (let i = 0; i < 200; i++) {
      const n = await s.ctx.db
        .selectFrom('commands')
        .select('id')
        .where(
          'id',
          'in',
          commands.map((c) => c.id),
        )
        .execute();
      if (n.length >= 20) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    await b.kill();
    const outcome = await inFlight;
    expect(outcome).toBeInstanceOf(Error);
    const before = (
      await s.ctx.db
        .selectFrom('commands')
        .select('id')
        .where(
          'id',
          'in',
          commands.map((c) => c.id),
        )
        .execute()
    ).length;
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(300);

    // The client retries the same batch against the restarted server.
    const b2 = await spawnServer(dialect, s.where);
    const retry = await post(b2.baseUrl, '/sync/device/push.json', admin, { rows });
    expect(retry.status, b2.output()).toBe(200);
    expect(retry.body.conflicts).toHaveLength(300);
    expect(retry.body.conflicts.every((c: any) => c.status === 'accepted')).toBe(true);
    await b2.stop();
    const stored = await s.ctx.db
      .selectFrom('commands')
      .select(['id', 'status'])
      .where(
        'id',
        'in',
        commands.map((c) => c.id),
      )
      .execute();
    expect(stored).toHaveLength(300);
    expect(new Set(stored.map((r) => r.id)).size).toBe(300);
    const defaults = await s.ctx.db
      .selectFrom('bases')
      .select('id')
      .where('company_id', '=', s.refs.companies.skyline)
      .where('is_default', '=', 1)
      .execute();
    expect(defaults).toEqual([{ id: bases[1] }]);
    // Two server starts and 600 decided rows: 14 s on a quiet machine, over 30 s beside other suites.
  }, 60_000);

  it.runIf(dialect === 'postgres')('live changes cross two server processes (LISTEN/NOTIFY)', async () => {
    const mech = await s.login('mechanic@skyline.test');
    const b = await spawnServer(dialect, s.where);
    try {
      // Stream from the in-test server, write through the other process.
      const streamA = await openStream(s.baseUrl, mech, ['fleet']);
      await streamA.waitFor((e) => e.some((x) => x.event === 'resync'));
      const doc = (await pullAll(s, mech, 'aircraft')).docs.find((d) => d.registration === 'EC-DEF');
      const { _deleted, ...master } = doc;
      const stored = { ...master, type: 'aircraft' };
      const r = await post(b.baseUrl, '/sync/fleet/push.json', mech, {
        rows: [
          { assumedMasterState: stored, newDocumentState: { ...stored, user_id: s.userId('pilot@skyline.test') } },
        ],
      });
      expect(r.body.conflicts).toEqual([]);
      expect(
        await streamA.waitFor((e) =>
          e.some(
            (x) =>
              x.event === 'change' &&
              x.data.documents.some((d: any) => d.id === master.id && d.user_id === s.userId('pilot@skyline.test')),
          ),
        ),
      ).toBe(true);
      await streamA.close();

      // And the other way round.
      const streamB = await openStream(b.baseUrl, mech, ['fleet']);
      await streamB.waitFor((e) => e.some((x) => x.event === 'resync'));
      const now = (await pullAll(s, mech, 'aircraft')).docs.find((d) => d.id === master.id);
      const { _deleted: _d, ...m2 } = now;
      await push(s, mech, 'aircraft', [{ assumedMasterState: m2, newDocumentState: { ...m2, user_id: null } }]);
      expect(
        await streamB.waitFor((e) =>
          e.some(
            (x) => x.event === 'change' && x.data.documents.some((d: any) => d.id === master.id && d.user_id === null),
          ),
        ),
      ).toBe(true);
      await streamB.close();
    } finally {
      await b.stop();
    }
  });
});
