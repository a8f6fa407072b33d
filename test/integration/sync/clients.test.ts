import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { Device } from '../../setup/device.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { push } from '../../setup/sync.ts';

const until = async (check: () => Promise<boolean> | boolean, timeoutMs = 15_000) => {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
};

/** Real client-core clients, each in its own process (one device each), against a real server. */
describe.each(DIALECTS)('client-core devices against a real server on %s', (dialect) => {
  let s: TestServer;
  const devices: Device[] = [];
  beforeAll(async () => {
    s = await startTestServer(dialect);
  });
  afterAll(async () => {
    await Promise.all(devices.map((d) => d.close()));
    await s?.close();
  });

  const open = async (email: string, options: Parameters<typeof Device.open>[2] = {}) => {
    const d = await Device.open(s.baseUrl, email, options);
    devices.push(d);
    return d;
  };
  const aircraft = async (d: Device, reg: string) => (await d.find('aircraft', { registration: reg }))[0];

  it('pulls the company’s collections into a local database, filtered for the caller', async () => {
    const d = await open('pilot@skyline.test');
    const regs = (await d.find('aircraft')).map((a) => a.registration).sort();
    expect(regs).toEqual(['EC-ABC', 'EC-DEF', 'EC-JET', 'SIM-01']);
    const [ops] = await d.find('users', { id: s.userId('ops@skyline.test') });
    expect(ops.email).toBeNull();
    const [company] = await d.find('reference', { type: 'company' });
    expect(company.name).toBe('Skyline Flight Academy');
    expect((await d.state()).online).toBe(true);
    await d.close();
  });

  it('two clients offline both write; on reconnect both converge and the loser of the true conflict sees the outcome', async () => {
    const a = await open('ops@skyline.test');
    const b = await open('mechanic@skyline.test');
    await a.offline();
    await b.offline();
    const defA = await aircraft(a, 'EC-DEF');
    const defB = await aircraft(b, 'EC-DEF');
    const abcB = await aircraft(b, 'EC-ABC');
    await a.save('aircraft', { ...defA, base_id: s.refs.bases.Sabadell });
    await b.save('aircraft', {
      ...defB,
      base_id: s.refs.bases['Cuatro Vientos'],
      user_id: s.userId('pilot@skyline.test'),
    });
    await b.save('aircraft', { ...abcB, active: false });
    expect((await a.state()).pendingWrites).toBe(1);
    expect((await b.state()).pendingWrites).toBe(2);
    await new Promise((r) => setTimeout(r, 300));
    expect((await a.state()).online).toBe(false);

    await a.online();
    expect(await until(async () => (await a.state()).pendingWrites === 0)).toBe(true);
    await b.online();
    expect(await until(async () => (await b.state()).pendingWrites === 0)).toBe(true);

    const server = await s.ctx.db
      .selectFrom('aircraft')
      .select(['id', 'base_id', 'user_id', 'active'])
      .where('company_id', '=', s.refs.companies.skyline)
      .execute();
    expect(server.find((r) => r.id === defA.id)).toMatchObject({ base_id: s.refs.bases.Sabadell, user_id: null });
    expect(server.find((r) => r.id === abcB.id)!.active).toBe(0);
    // Both converge on the server's state.
    expect(
      await until(async () => {
        const [x, y] = [await aircraft(a, 'EC-DEF'), await aircraft(b, 'EC-DEF')];
        const [p, q] = [await aircraft(a, 'EC-ABC'), await aircraft(b, 'EC-ABC')];
        return (
          x.base_id === s.refs.bases.Sabadell &&
          y.base_id === s.refs.bases.Sabadell &&
          y.user_id === null &&
          p.active === false &&
          q.active === false
        );
      }),
    ).toBe(true);
    // The loser sees why its change did not land; the winner has no such outcome.
    expect(await until(async () => (await b.find('outcomes', { document_id: defA.id })).length > 0)).toBe(true);
    const [outcome] = await b.find('outcomes', { document_id: defA.id });
    expect(outcome).toMatchObject({ collection_name: 'aircraft', status: 'conflict' });
    expect(await a.find('outcomes', { document_id: defA.id })).toEqual([]);
    await a.close();
    await b.close();
  });

  it('a command queued offline is decided by the server once online, and the client sees the outcome', async () => {
    const admin = await open('admin@skyline.test');
    const pilot = await open('pilot@skyline.test');
    await admin.offline();
    await pilot.offline();
    const accepted = await admin.run('base.set_default', { base_id: s.refs.bases.Sabadell });
    const refused = await pilot.run('base.set_default', { base_id: s.refs.bases['Cuatro Vientos'] });
    expect((await pilot.state()).pendingCommands).toBe(1);
    await admin.online();
    await pilot.online();
    const [a, p] = await Promise.all([admin.decided(accepted), pilot.decided(refused)]);
    expect(a).toMatchObject({ status: 'accepted', result: { base_id: s.refs.bases.Sabadell } });
    expect(p).toMatchObject({ status: 'rejected', reason: 'Only managers can change the default base' });
    expect(await until(async () => (await pilot.state()).pendingCommands === 0)).toBe(true);
    // The decision replicated to the other device.
    expect(
      await until(
        async () => (await pilot.find('reference', { id: s.refs.bases.Sabadell }))[0]?.data?.Base?.default === true,
      ),
    ).toBe(true);
    await admin.close();
    await pilot.close();
  });

  it('a collection loaded page by page through the replication pulls later changes from its checkpoint', async () => {
    // No first-sync stream and small pages, so the load's pages carry `snap`; no live stream (it would open in
    // ten minutes), so only a pull can bring the change made while the device was away.
    const d = await open('ops@skyline.test', { bootstrap: false, pullBatchSize: 3, firstStreamSpreadMs: 600_000 });
    const before = await aircraft(d, 'EC-JET');
    expect(before).toBeTruthy();
    await d.offline();
    const mech = await s.login('mechanic@skyline.test');
    const { _deleted, _meta, _rev, _attachments, ...master } = before;
    await push(s, mech, 'aircraft', [
      { assumedMasterState: master, newDocumentState: { ...master, user_id: s.userId('pilot@skyline.test') } },
    ]);
    await d.online();
    expect(
      await until(async () => (await aircraft(d, 'EC-JET')).user_id === s.userId('pilot@skyline.test'), 5000),
    ).toBe(true);
    await d.close();
  });

  it('live changes reach an online client without polling', async () => {
    const watcher = await open('dispatch@skyline.test');
    const mech = await s.login('mechanic@skyline.test');
    const { _deleted, _meta, _rev, _attachments, ...master } = await aircraft(watcher, 'SIM-01');
    await push(s, mech, 'aircraft', [
      { assumedMasterState: master, newDocumentState: { ...master, user_id: s.userId('pilot@skyline.test') } },
    ]);
    expect(
      await until(async () => (await aircraft(watcher, 'SIM-01')).user_id === s.userId('pilot@skyline.test'), 5000),
    ).toBe(true);
    await watcher.close();
  });
});
