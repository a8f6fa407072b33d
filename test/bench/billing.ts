/**
 * `npm run bench:billing`: BENCH_ENTRIES (1,000,000) ledger entries across
 * BENCH_ACCOUNTS (2,000) accounts of one company, on SQLite and PostgreSQL
 * (BENCH_DIALECTS). Median over BENCH_CALLS calls through HTTP of the account
 * view (page of 50, newest first) and of the balance alone (page of 1); then
 * the median REST confirm of a dual flight with charges (rates set) and
 * without (no rates). Targets: account < 20 ms; confirm + charges < 15 ms more.
 */
import { uuidv7 } from '@ops/shared';
import { sql } from 'kysely';
import type { TestDialect } from '../setup/dialects.ts';
import { startTestServer } from '../setup/server.ts';

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 1_000_000);
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 2_000);
const CALLS = Number(process.env.BENCH_CALLS ?? 30);
const dialects = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',') as TestDialect[];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const KINDS = ['flight', 'instructor', 'payment', 'adjustment'];

let failed = false;
for (const dialect of dialects) {
  const s = await startTestServer(dialect);
  try {
    const db = s.ctx.db;
    const company = s.refs.companies.skyline;
    const template = await db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', s.userId('pilot@skyline.test'))
      .executeTakeFirstOrThrow();
    const users: string[] = [];
    for (let i = 0; i < ACCOUNTS; i += 500) {
      const rows = Array.from({ length: Math.min(500, ACCOUNTS - i) }, () => ({
        ...template,
        id: uuidv7(),
        identity_id: null,
        email: null,
      }));
      await db.insertInto('users').values(rows).execute();
      users.push(...rows.map((r) => r.id));
    }
    const now = Math.floor(Date.now() / 1000);
    const t0 = performance.now();
    for (let done = 0; done < ENTRIES; ) {
      const n = Math.min(1000, ENTRIES - done);
      const rows = Array.from({ length: n }, (_, k) => {
        const i = done + k;
        const kind = KINDS[i % KINDS.length];
        const amount = kind === 'payment' ? 5000 + (i % 97) * 100 : -(1000 + (i % 89) * 37);
        return {
          id: uuidv7(),
          company_id: company,
          user_id: users[i % users.length],
          kind,
          amount,
          tax: kind === 'payment' ? 0 : Math.round(amount * 0.17),
          seconds: kind === 'payment' ? 0 : 3600,
          package_seconds: 0,
          aircraft_id: null,
          flight_id: null,
          reverses_id: null,
          reference: null,
          description: 'bench',
          created: now - 3 * 365 * 86400 + Math.floor((i / ENTRIES) * 3 * 365 * 86400),
          created_by: null,
        };
      });
      await db.insertInto('billing_entries').values(rows).execute();
      done += n;
      if (done % 100_000 === 0) process.stderr.write(`\r${dialect}: ${done} entries`);
    }
    process.stderr.write('\n');
    // The totals rows, as appendEntries keeps them.
    await sql`insert into billing_accounts (id, company_id, change_no, deleted, created, modified, user_id, currency, balance, package_seconds, entry_count, recent)
      select user_id, company_id, 0, 0, ${now}, ${now}, user_id, 'EUR', sum(amount), sum(package_seconds), count(*), '[]' from billing_entries where company_id = ${company} group by company_id, user_id`.execute(
      db,
    );
    if (dialect === 'postgres') await sql`analyze`.execute(db);
    else await sql`analyze`.execute(db);
    const loadS = (performance.now() - t0) / 1000;
    const token = await s.login('dispatch@skyline.test');
    // Wall time, and this process's CPU time (server and client share it): the work done, less disturbed by other jobs on the cores.
    const cpu: Record<string, number[]> = { view: [], balance: [] };
    const time = async (path: string, what: 'view' | 'balance') => {
      const c0 = process.cpuUsage();
      const a = performance.now();
      const r = await s.api('GET', path, { token });
      if (r.status !== 200) throw new Error(`${path}: ${r.status}`);
      const spent = performance.now() - a;
      const c = process.cpuUsage(c0);
      cpu[what].push((c.user + c.system) / 1000);
      return spent;
    };
    const view: number[] = [];
    const balance: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const u = users[(i * 7919) % users.length];
      view.push(await time(`/billing/account/${u}.json?limit=50`, 'view'));
      balance.push(await time(`/billing/account/${u}.json?limit=1`, 'balance'));
    }
    // Confirm with and without charges: the same dual flight shape, rates absent then present.
    const types = Object.fromEntries(
      (await db.selectFrom('flight_types').select(['id', 'name']).where('company_id', '=', company).execute()).map(
        (r) => [r.name, r.id],
      ),
    );
    let day = 0;
    const confirmTimes = async () => {
      const out: number[] = [];
      for (let i = 0; i < CALLS; i++) {
        day += 1;
        const date = new Date(Date.UTC(2022, 0, 1) + day * 86400000).toISOString().slice(0, 10);
        const f = await s.api('POST', '/flights/edit.json', {
          token,
          body: {
            Flight: {
              date,
              aircraft_id: s.refs.aircraft['EC-ABC'],
              flight_type_id: types['Dual training'],
              pic_id: s.userId('instructor@skyline.test'),
              sic_id: s.userId('student@skyline.test'),
              departure_airport: 'LECU',
              landing_airport: 'LECU',
              offblocks_time: '10:00',
              takeoff_time: '10:10',
              landing_time: '11:10',
              onblocks_time: '11:30',
              landings: 1,
            },
          },
        });
        const a = performance.now();
        const r = await s.api('POST', `/flights/confirm/${f.body.id}.json`, { token, body: {} });
        out.push(performance.now() - a);
        if (r.status !== 200) throw new Error(`confirm: ${r.status} ${JSON.stringify(r.body)}`);
      }
      return out;
    };
    const without = median(await confirmTimes());
    const admin = await s.login('ops@skyline.test');
    await s.api('POST', '/manager/billing/rates/edit.json', {
      token: admin,
      body: { Rate: { kind: 'aircraft', target_id: s.refs.aircraft['EC-ABC'], amount: 135 } },
    });
    await s.api('POST', '/manager/billing/rates/edit.json', {
      token: admin,
      body: { Rate: { kind: 'instructor', target_id: s.userId('instructor@skyline.test'), amount: 45 } },
    });
    const withCharges = median(await confirmTimes());
    const charged = await db
      .selectFrom('billing_entries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('flight_id', 'is not', null)
      .executeTakeFirstOrThrow();
    const v = median(view);
    const b = median(balance);
    console.log(
      `${dialect}: ${ENTRIES} entries / ${ACCOUNTS} accounts loaded in ${loadS.toFixed(0)} s; account view median ${v.toFixed(2)} ms (CPU ${median(cpu.view).toFixed(2)} ms), balance median ${b.toFixed(2)} ms (CPU ${median(cpu.balance).toFixed(2)} ms); confirm median ${without.toFixed(2)} ms without charges, ${withCharges.toFixed(2)} ms with (${Number(charged.n)} charge entries): +${(withCharges - without).toFixed(2)} ms`,
    );
    if (v >= 20 || b >= 20 || withCharges - without >= 15) failed = true;
  } finally {
    await s.close();
  }
}
process.exit(failed ? 1 : 0);
