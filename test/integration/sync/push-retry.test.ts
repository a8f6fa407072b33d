/**
 * Issue 34 item 4: a PostgreSQL run of sim:convergence lost aircraft edits
 * while the database answered 503s. Every device's push of the outage is
 * answered 503 and retried; once the database is back the retries arrive
 * together, several over the same master. The server checked "assumed master =
 * stored master" and wrote in two steps, so two retries over the same master
 * were both answered "applied" and the later one overwrote the earlier: a
 * device was told its edit landed, and it never did. Now the check is made
 * again inside the write's transaction under a lock on the document.
 */
import { uuidv7 } from '@ops/shared';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, PG_URL } from '../../setup/dialects.ts';
import { type ServerProcess, spawnServer } from '../../setup/process.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { recordView } from '../../setup/records.ts';
import { pullAll, push } from '../../setup/sync.ts';
import { startPgRelay } from '../ops/pg-relay.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  for (const t0 = Date.now(); Date.now() - t0 < ms; await sleep(50)) if (await check()) return true;
  return false;
}

describe.each(DIALECTS)('pushes retried after a 503 on %s', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(dialect);
  });
  afterAll(() => s?.close());

  const registration = async (id: string) =>
    (await s.ctx.db.selectFrom('aircraft').select('registration').where('id', '=', id).executeTakeFirstOrThrow())
      .registration;

  it.runIf(dialect === 'postgres')(
    'two edits over the same master, answered 503 during an outage and retried together: one lands, the other is a conflict with an outcome',
    async () => {
      const mech = await s.login('mechanic@skyline.test');
      const ops = await s.login('ops@skyline.test');
      const doc = (await pullAll(s, mech, 'aircraft')).docs.find((d) => d.registration === 'EC-JET');
      const { _deleted, ...master } = doc;
      const rowA = { assumedMasterState: master, newDocumentState: { ...master, registration: 'EC-AAA' } };
      const rowB = { assumedMasterState: master, newDocumentState: { ...master, registration: 'EC-BBB' } };

      // A second server process reaches PostgreSQL through a relay the test cuts: a database outage.
      const relay = await startPgRelay();
      let b: ServerProcess | null = null;
      const locker = new pg.Client({ connectionString: PG_URL });
      try {
        b = await spawnServer(dialect, s.where, { DATABASE_URL: relay.url, AUTH_CACHE_MS: '0' });
        const api = { api: apiOf(b.baseUrl) };
        relay.cut();
        const downA = await push(api, mech, 'aircraft', [rowA]);
        const downB = await push(api, ops, 'aircraft', [rowB]);
        expect([downA.status, downB.status]).toEqual([503, 503]);
        expect(downA.body.message).toMatch(/temporarily unavailable/i);
        expect(await registration(master.id)).toBe('EC-JET');

        relay.restore();
        const ready = await until(async () => (await fetch(`${new URL(b!.baseUrl).origin}/health/ready`)).ok, 20_000);
        expect(ready).toBe(true);
        // The first queries after the outage may still meet a dropped connection (a 503 again): wait until a read works.
        expect(await until(async () => (await pullAll(api, mech, 'aircraft').catch(() => null)) !== null, 20_000)).toBe(
          true,
        );

        // The database is slow to take writes just after it came back (the aircraft row is held), so the two
        // retries are decided at the same moment: both read the master before either write commits.
        await locker.connect();
        await locker.query(`SET search_path TO "${s.where.schema}"`);
        await locker.query('BEGIN');
        await locker.query('SELECT id FROM aircraft WHERE id = $1 FOR UPDATE', [master.id]);
        const lockerPid = (await locker.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
        const retryA = push(api, mech, 'aircraft', [rowA]);
        const retryB = push(api, ops, 'aircraft', [rowB]);
        // Both retries wait: one behind the held row, the other behind the first.
        const waiting = await until(async () => {
          const r = await locker.query(
            `SELECT count(*)::int AS n FROM pg_stat_activity a
              WHERE a.wait_event_type = 'Lock'
                AND (pg_blocking_pids(a.pid) && ARRAY[$1::int]
                  OR EXISTS (SELECT 1 FROM pg_stat_activity f
                              WHERE pg_blocking_pids(f.pid) && ARRAY[$1::int]
                                AND pg_blocking_pids(a.pid) && ARRAY[f.pid]))`,
            [lockerPid],
          );
          return r.rows[0].n >= 2;
        }, 20_000);
        expect(waiting).toBe(true);
        await locker.query('COMMIT');
        const [a, bAnswer] = await Promise.all([retryA, retryB]);
        expect([a.status, bAnswer.status]).toEqual([200, 200]);

        const final = await registration(master.id);
        expect(['EC-AAA', 'EC-BBB']).toContain(final);
        const [winner, loser, loserToken] = final === 'EC-AAA' ? [a, bAnswer, ops] : [bAnswer, a, mech];
        // The edit that landed is acknowledged; the other one is told, with the stored state, never "applied".
        expect(winner.body.conflicts).toEqual([]);
        expect(loser.body.conflicts).toHaveLength(1);
        expect(loser.body.conflicts[0]).toMatchObject({ id: master.id, registration: final });
        const outcome = (await pullAll(s, loserToken, 'outcomes')).docs.find((d) => d.document_id === master.id);
        expect(outcome).toMatchObject({ status: 'conflict' });
      } finally {
        await locker.query('ROLLBACK').catch(() => {});
        await locker.end().catch(() => {});
        relay.restore();
        await b?.stop();
        await relay.close();
      }
    },
    90_000,
  );

  it.runIf(dialect === 'postgres')(
    'a push whose client left stops at the next row: the rows after it are not applied',
    async () => {
      const mech = await s.login('mechanic@skyline.test');
      const docs = (await pullAll(s, mech, 'aircraft')).docs.filter((d) => !d._deleted).slice(0, 3);
      expect(docs.length).toBe(3);
      const view = recordView('aircraft');
      const rows = docs.map(({ _deleted, ...m }, i) => ({
        assumedMasterState: view.toStored(m),
        newDocumentState: view.toStored({ ...m, registration: `EC-GO${i}` }),
      }));
      const before = await Promise.all(docs.map((d) => registration(d.id)));
      // The first row waits behind a held row lock; the client gives up meanwhile.
      const locker = new pg.Client({ connectionString: PG_URL });
      await locker.connect();
      try {
        await locker.query(`SET search_path TO "${s.where.schema}"`);
        await locker.query('BEGIN');
        await locker.query('SELECT id FROM aircraft WHERE id = $1 FOR UPDATE', [docs[0].id]);
        const abort = new AbortController();
        const sent = fetch(`${s.baseUrl}/sync/${view.collection}/push.json`, {
          method: 'POST',
          headers: { authorization: `Bearer ${mech}`, 'content-type': 'application/json' },
          body: JSON.stringify({ rows }),
          signal: abort.signal,
        }).catch((e: Error) => e.name);
        await sleep(500);
        abort.abort();
        expect(await sent).toBe('AbortError');
        await sleep(200);
        await locker.query('COMMIT');
        // The first row was under way when the client left and lands; the two after it are never started.
        expect(await until(async () => (await registration(docs[0].id)) === 'EC-GO0', 10_000)).toBe(true);
        await sleep(500);
        expect(await registration(docs[1].id)).toBe(before[1]);
        expect(await registration(docs[2].id)).toBe(before[2]);
      } finally {
        await locker.query('ROLLBACK').catch(() => {});
        await locker.end().catch(() => {});
      }
    },
  );

  it('concurrent pushes over one master: exactly one is acknowledged each round, and the chain of values holds', async () => {
    const tokens = await Promise.all(
      ['mechanic@skyline.test', 'ops@skyline.test', 'admin@skyline.test'].map((e) => s.login(e)),
    );
    const doc = (await pullAll(s, tokens[0] as string, 'aircraft')).docs.find((d) => d.registration === 'SIM-01');
    let { _deleted, ...master } = doc;
    for (let round = 0; round < 8; round++) {
      const answers = await Promise.all(
        tokens.map((token, i) =>
          push(s, token, 'aircraft', [
            { assumedMasterState: master, newDocumentState: { ...master, registration: `R${round}-${i}` } },
          ]),
        ),
      );
      for (const r of answers) expect(r.status).toBe(200);
      const applied = answers.filter((r) => r.body.conflicts.length === 0);
      const stored = await registration(master.id);
      // Exactly one acknowledged, and it is the stored value; every other answer carries that value.
      expect(applied).toHaveLength(1);
      for (const r of answers)
        if (r.body.conflicts.length) expect(r.body.conflicts[0]).toMatchObject({ registration: stored });
      master = { ...master, registration: stored };
    }
  });

  it('a refused command pushed several times at once (a device retrying a push still in flight) is decided once, never a 500', async () => {
    const mech = await s.login('mechanic@skyline.test');
    for (let round = 0; round < 4; round++) {
      const command = {
        id: uuidv7(),
        type: 'command',
        name: 'mel.close',
        // No such report: the handler refuses it, after the accepted row was inserted and rolled back.
        args: { report_id: uuidv7() },
        client_time: Date.now(),
        status: 'pending',
      };
      const answers = await Promise.all(
        Array.from({ length: 6 }, () =>
          s.api('POST', '/sync/device/push.json', {
            token: mech,
            body: { rows: [{ assumedMasterState: null, newDocumentState: command }] },
          }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
      const stored = await s.ctx.db.selectFrom('commands').select(['status']).where('id', '=', command.id).execute();
      expect(stored).toEqual([{ status: 'rejected' }]);
    }
  });
});

function apiOf(baseUrl: string) {
  return async (method: string, pathname: string, o: { token?: string | null; body?: unknown } = {}) => {
    const headers: Record<string, string> = {};
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    if (o.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${baseUrl}${pathname}`, {
      method,
      headers,
      body: o.body === undefined ? undefined : JSON.stringify(o.body),
    });
    const text = await res.text();
    let body: any = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body, headers: res.headers };
  };
}
