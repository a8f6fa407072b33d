import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgSchema, DIALECTS, markDialectRan, PG_URL } from '../../setup/dialects.ts';
import { openStream, pullAll, push } from '../../setup/sync.ts';
import { buildServer, type ProdProcess, startProd } from './prod-process.ts';

/** Polls `probe` until it answers `status`; the milliseconds it took, or null after `limitMs`. */
async function msUntilStatus(
  probe: () => Promise<{ status: number }>,
  status: number,
  limitMs = 3000,
): Promise<number | null> {
  const started = performance.now();
  while (performance.now() - started < limitMs) {
    if ((await probe()).status === status) return performance.now() - started;
    await new Promise((r) => setTimeout(r, 25));
  }
  return null;
}

/**
 * The compose.yaml start-up sequence without Docker: two `start:prod` replicas
 * (plain node on the production build) on one PostgreSQL database. Both serve,
 * both stream live changes written through the other, and a revocation made
 * on one is honoured by the other within one second despite its session cache.
 */
describe.runIf(DIALECTS.includes('postgres'))('two start:prod replicas on one PostgreSQL database', () => {
  let a: ProdProcess;
  let b: ProdProcess;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    markDialectRan('postgres');
    buildServer();
    const schema = await createPgSchema();
    drop = schema.drop;
    const env = { DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema.schema };
    // The first replica migrates and seeds; the second starts on a migrated database (compose: depends_on healthy).
    a = await startProd({ ...env, SEED: 'fixtures' });
    b = await startProd({ ...env, SEED: 'none' });
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await drop?.();
  });

  it('both are ready and serve the same data; a token from one works on the other', async () => {
    for (const p of [a, b]) expect((await fetch(`${p.url}/health/ready`)).status).toBe(200);
    const { token } = await a.login('admin@skyline.test');
    const fromA = await a.api('GET', '/flight_types/index.json', { token });
    const fromB = await b.api('GET', '/flight_types/index.json', { token });
    expect(fromA.status).toBe(200);
    expect(fromB.body).toEqual(fromA.body);
  });

  it('both stream live changes written through the other', async () => {
    const { token, userId } = await a.login('mechanic@skyline.test');
    for (const [reader, writer] of [
      [b, a],
      [a, b],
    ] as const) {
      const stream = await openStream(reader.baseUrl, token, ['fleet']);
      expect(stream.status).toBe(200);
      await stream.waitFor((e) => e.some((x) => x.event === 'resync'));
      const doc = (await pullAll(writer, token, 'aircraft')).docs.find((d) => d.registration === 'EC-DEF');
      const { _deleted, ...master } = doc;
      const next = master.user_id === null ? userId : null;
      const r = await push(writer, token, 'aircraft', [
        { assumedMasterState: master, newDocumentState: { ...master, user_id: next } },
      ]);
      expect(r.body.conflicts).toEqual([]);
      expect(
        await stream.waitFor((e) =>
          e.some(
            (x) => x.event === 'change' && x.data.documents.some((d: any) => d.id === master.id && d.user_id === next),
          ),
        ),
      ).toBe(true);
      await stream.close();
    }
  });

  it('a logout, a closed session and a revoked API key stop working on the other replica within one second', async () => {
    const probe = (p: ProdProcess, token: string) => () => p.api('GET', '/flight_types/index.json', { token });
    // Logout on A; B had the session cached.
    const s1 = await a.login('pilot@skyline.test');
    expect((await probe(b, s1.token)()).status).toBe(200);
    expect((await a.api('POST', '/logout.json', { token: s1.token })).status).toBe(200);
    expect((await probe(a, s1.token)()).status).toBe(401); // at once where it happened
    const logoutMs = await msUntilStatus(probe(b, s1.token), 401);
    expect(logoutMs).not.toBeNull();
    expect(logoutMs as number).toBeLessThan(1000);

    // A session closed remotely from another session of the same login, through B; A had it cached.
    const s2 = await a.login('pilot@skyline.test');
    const s3 = await b.login('pilot@skyline.test');
    expect((await probe(a, s2.token)()).status).toBe(200);
    expect((await b.api('POST', `/users/closesession/${s2.sessionId}.json`, { token: s3.token })).status).toBe(200);
    const closedMs = await msUntilStatus(probe(a, s2.token), 401);
    expect(closedMs).not.toBeNull();
    expect(closedMs as number).toBeLessThan(1000);

    // An API key revoked on A; B had it cached.
    const admin = await a.login('admin@skyline.test');
    const created = await a.api('POST', '/manager/api_keys/add.json', {
      token: admin.token,
      body: { name: 'replica test', user_id: admin.userId },
    });
    expect(created.status).toBe(200);
    const key = created.body.key.plaintext as string;
    expect((await probe(b, key)()).status).toBe(200);
    expect(
      (await a.api('POST', `/manager/api_keys/revoke/${created.body.key.id}.json`, { token: admin.token })).status,
    ).toBe(200);
    const keyMs = await msUntilStatus(probe(b, key), 401);
    expect(keyMs).not.toBeNull();
    expect(keyMs as number).toBeLessThan(1000);
    console.log(
      `revocation seen by the other replica after: logout ${Math.round(logoutMs as number)} ms, closed session ${Math.round(closedMs as number)} ms, API key ${Math.round(keyMs as number)} ms`,
    );
  });
});
