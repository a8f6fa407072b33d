import { uuidv7 } from '@ops/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';

describe.each(DIALECTS)('user lists of a large company on %s', (dialect) => {
  let s: TestServer;

  beforeAll(async () => {
    s = await startTestServer(dialect);
    const pilot = await s.ctx.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', s.userId('pilot@skyline.test'))
      .executeTakeFirstOrThrow();
    // Every copy is billed: 3 seeded billed accounts plus 600 copies, more than one old page of 500.
    const copies = Array.from({ length: 600 }, (_, i) => ({
      ...pilot,
      id: uuidv7(),
      identity_id: null,
      email: null,
      billing: 1,
      name: `Copy${String(i).padStart(3, '0')}`,
    }));
    for (let i = 0; i < copies.length; i += 200)
      await s.ctx.db
        .insertInto('users')
        .values(copies.slice(i, i + 200))
        .execute();
  });
  afterAll(() => s?.close());

  it('answers every account when no page is asked for (Part A 4.4: one array)', async () => {
    const r = await s.api('GET', '/manager/users.json', { token: await s.login('admin@skyline.test') });
    expect(r.status).toBe(200);
    expect(r.body.length).toBe(613);
    expect(r.headers.get('x-total-posts')).toBe('613');
    expect(r.headers.get('x-number-pages')).toBe('1');
    const page = await s.api('GET', '/manager/users.json?limit=100&page=7', {
      token: await s.login('admin@skyline.test'),
    });
    expect(page.body.length).toBe(13);
    // Another company's list is its own, whatever the size of this one.
    expect((await s.api('GET', '/manager/users.json', { token: await s.login('admin@harbor.test') })).body.length).toBe(
      3,
    );
  });

  it('bills answer every billed account when no page is asked for, like the pilot list they mirror', async () => {
    const r = await s.api('GET', '/manager/bills/pilots.json', { token: await s.login('admin@skyline.test') });
    expect(r.status).toBe(200);
    expect(r.body.pilots.length).toBe(603);
    expect(r.body.paginate).toMatchObject({ page: 1, current: 603, count: 603, nextPage: false, pageCount: 1 });
    const p2 = await s.api('GET', '/manager/bills/pilots.json?limit=500&page=2', {
      token: await s.login('admin@skyline.test'),
    });
    expect(p2.body.pilots.length).toBe(103);
  });
});
