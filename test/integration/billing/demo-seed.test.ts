import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { recount } from './recount.ts';

describe.each(DIALECTS)('demo ledger on %s', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(dialect, { seed: 'demo' });
  });
  afterAll(() => s?.close());

  it('has rates, two months of flight charges, payments and one package; every LANDED flight’s entries are its cost', async () => {
    const token = await s.login('dispatch@skyline.test');
    expect((await s.api('GET', '/billing/rates.json', { token })).body.rates).toHaveLength(5);
    const stefan = await s.api('GET', `/billing/account/${s.userId('student@skyline.test')}.json?limit=100`, { token });
    const kinds = new Set(stefan.body.entries.map((e: any) => e.Entry.kind));
    expect(kinds).toEqual(new Set(['payment', 'flight', 'instructor']));
    const created = stefan.body.entries.map((e: any) => e.Entry.created);
    expect(Math.max(...created) - Math.min(...created)).toBeGreaterThan(40 * 86400);
    const paula = await s.api('GET', `/billing/account/${s.userId('pilot@skyline.test')}.json?limit=100`, { token });
    expect(paula.body.entries.some((e: any) => e.Entry.kind === 'package' && e.Entry.hours < 0)).toBe(true);
    expect(await recount(s)).toEqual([]);
    // No flight outside LANDED carries a charge.
    const open = await s.ctx.db
      .selectFrom('billing_entries as e')
      .innerJoin('flights as f', 'f.id', 'e.flight_id')
      .select('e.id')
      .where('f.status', '!=', 'LANDED')
      .execute();
    expect(open).toEqual([]);
    // Harbor (free plan) has no ledger.
    expect(
      await s.ctx.db
        .selectFrom('billing_entries')
        .select('id')
        .where('company_id', '=', s.refs.companies.harbor)
        .execute(),
    ).toEqual([]);
  });
});
