import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { tokenCache } from '../flights/helpers.ts';
import { recount } from './recount.ts';

interface Row {
  Account: { user_id: string; balance: number; package_balance: number; currency: string };
  User: { id: string; name: string; surname: string; billing: boolean };
}

/** GET /billing/accounts.json: every balance for the office (an extension of CONTRACT 6, docs/areas/billing.md). */
describe.each(DIALECTS)('billing accounts list on %s', (dialect) => {
  let s: TestServer;
  const t = tokenCache(() => s);
  const list = async (email: string, q = '') => s.api('GET', `/billing/accounts.json${q}`, { token: await t(email) });

  beforeAll(async () => {
    s = await startTestServer(dialect);
    const add = async (email: string, Entry: Record<string, unknown>) => {
      const r = await s.api('POST', '/manager/billing/entries/add.json', {
        token: await t('dispatch@skyline.test'),
        body: { Entry: { user_id: s.userId(email), ...Entry } },
      });
      if (r.status !== 200) throw new Error(JSON.stringify(r.body));
    };
    await add('pilot@skyline.test', { kind: 'adjustment', amount: -80.25, description: 'Landing fees' });
    await add('student@skyline.test', { kind: 'adjustment', amount: -300, description: 'Ground school' });
    await add('student@skyline.test', { kind: 'payment', amount: 100, description: 'Bank transfer' });
    await add('instructor@skyline.test', { kind: 'payment', amount: 50, description: 'Advance' });
  });
  afterAll(async () => {
    if (s) expect(await recount(s)).toEqual([]);
    await s?.close();
  });

  it('lists every person of the company with the balance, most negative first; people without entries at 0', async () => {
    const r = await list('dispatch@skyline.test', '?limit=500');
    expect(r.status).toBe(200);
    const rows = r.body.accounts as Row[];
    const users = await s.ctx.db
      .selectFrom('users')
      .select('id')
      .where('company_id', '=', s.refs.companies.skyline)
      .where('deleted', '=', 0)
      .execute();
    expect(rows.map((x) => x.User.id).sort()).toEqual(users.map((u) => u.id).sort());
    expect(rows.slice(0, 2).map((x) => [x.User.id, x.Account.balance])).toEqual([
      [s.userId('student@skyline.test'), -200],
      [s.userId('pilot@skyline.test'), -80.25],
    ]);
    expect(rows.at(-1)?.Account).toMatchObject({ user_id: s.userId('instructor@skyline.test'), balance: 50 });
    const balances = rows.map((x) => x.Account.balance);
    expect(balances).toEqual([...balances].sort((a, b) => a - b));
    expect(rows.every((x) => x.Account.currency === 'EUR' && x.Account.user_id === x.User.id)).toBe(true);
    expect(r.body.paginate).toMatchObject({ page: 1, count: users.length });
  });

  it('pages: limit and page cut the same order; the count is everyone', async () => {
    const all = ((await list('admin@skyline.test', '?limit=500')).body.accounts as Row[]).map((x) => x.User.id);
    const p1 = await list('admin@skyline.test', '?limit=2&page=1');
    const p2 = await list('admin@skyline.test', '?limit=2&page=2');
    expect((p1.body.accounts as Row[]).map((x) => x.User.id)).toEqual(all.slice(0, 2));
    expect((p2.body.accounts as Row[]).map((x) => x.User.id)).toEqual(all.slice(2, 4));
    expect(p2.body.paginate).toMatchObject({ page: 2, count: all.length });
  });

  it('is for the office (roles <= 170); a free plan is 403; only the caller’s company; bad paging is a 400', async () => {
    expect((await list('pilot@skyline.test')).status).toBe(403);
    expect((await list('student@skyline.test')).status).toBe(403);
    expect((await s.api('GET', '/billing/accounts.json')).status).toBe(401);
    // Harbor is on the free plan.
    expect((await list('admin@harbor.test')).status).toBe(403);
    const sky = (await list('dispatch@skyline.test', '?limit=500')).body.accounts as Row[];
    expect(sky.some((x) => x.User.id === s.userId('pilot@harbor.test', 'harbor'))).toBe(false);
    for (const q of ['?limit=0', '?limit=501', '?page=0', '?page=abc']) {
      const r = await list('dispatch@skyline.test', q);
      expect(r.status, q).toBe(400);
      expect(r.body.result).toBe(false);
    }
  });
});
