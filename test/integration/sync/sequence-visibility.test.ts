import { uuidv7 } from '@ops/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Writers take a change number, wait a random time inside their transaction,
 * then write. A reader polls rows after the highest number it has seen; it must
 * never find a row numbered below that afterwards (it would miss it forever).
 */
async function runWriters(s: TestServer, take: 'counter' | 'sequence', writers: number) {
  const company = s.refs.companies.skyline;
  const user = s.userId('pilot@skyline.test');
  const observed = new Set<number>();
  let max = 0;
  let violations = 0;
  let stop = false;
  const reader = (async () => {
    while (!stop) {
      const rows = await s.ctx.db
        .selectFrom('sync_outcomes')
        .select('change_no')
        .where('company_id', '=', company)
        .where('reason', '=', take)
        .execute();
      // A row appearing below the highest number already passed is one a checkpoint reader skips forever.
      const before = max;
      for (const r of rows) {
        if (observed.has(r.change_no)) continue;
        observed.add(r.change_no);
        if (r.change_no < before) violations++;
        max = Math.max(max, r.change_no);
      }
      await sleep(1);
    }
  })();
  await Promise.all(
    Array.from({ length: writers }, async (_, i) => {
      await sleep(Math.random() * 20);
      await s.ctx.tx(async (uow) => {
        const n =
          take === 'counter'
            ? await uow.changeNo(company, 'sync_outcomes')
            : Number((await sql<{ v: string }>`select nextval('naive_seq') as v`.execute(uow.trx)).rows[0].v);
        await sleep(Math.random() * 40);
        const now = Math.floor(Date.now() / 1000);
        await uow.trx
          .insertInto('sync_outcomes')
          .values({
            id: uuidv7(),
            company_id: company,
            change_no: n,
            deleted: 0,
            created: now,
            modified: now,
            user_id: user,
            collection: 't',
            document_id: String(i),
            status: 'conflict',
            reason: take,
            attempted: null,
          })
          .execute();
      });
    }),
  );
  await sleep(30);
  stop = true;
  await reader;
  return violations;
}

describe.each(DIALECTS)('change numbers on %s', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(dialect);
  });
  afterAll(() => s?.close());

  it('a reader never sees change N+1 before N can still commit (concurrent writers)', async () => {
    const violations = await runWriters(s, 'counter', 40);
    expect(violations).toBe(0);
    const rows = await s.ctx.db
      .selectFrom('sync_outcomes')
      .select('change_no')
      .where('reason', '=', 'counter')
      .execute();
    expect(new Set(rows.map((r) => r.change_no)).size).toBe(40);
  });

  it.runIf(dialect === 'postgres')(
    'control: a plain sequence taken early does show the gap, so the check can fail',
    async () => {
      await sql`create sequence naive_seq start 1000000`.execute(s.ctx.db);
      let total = 0;
      for (let round = 0; round < 5 && total === 0; round++) total += await runWriters(s, 'sequence', 40);
      expect(total).toBeGreaterThan(0);
    },
  );
});
