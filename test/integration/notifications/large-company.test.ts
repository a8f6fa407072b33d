import { uuidv7 } from '@ops/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';

/** More recipients than one INSERT may bind parameters for (SQLite 32766, PostgreSQL 65535). */
const PEOPLE = 3200;

describe.each(DIALECTS)('notifications to a large company on %s', (dialect) => {
  let s: TestServer;

  beforeAll(async () => {
    s = await startTestServer(dialect);
    const pilot = await s.ctx.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', s.userId('pilot@skyline.test'))
      .executeTakeFirstOrThrow();
    const copies = Array.from({ length: PEOPLE }, (_, i) => ({
      ...pilot,
      id: uuidv7(),
      identity_id: null,
      email: null,
      name: `Member${i}`,
    }));
    for (let i = 0; i < copies.length; i += 200)
      await s.ctx.db
        .insertInto('users')
        .values(copies.slice(i, i + 200))
        .execute();
  }, 120_000);
  afterAll(() => s?.close());

  it('news with notification reaches every active member in one save', async () => {
    const ops = await s.login('ops@skyline.test');
    const r = await s.api('POST', '/manager/news/news/edit.json', {
      token: ops,
      body: { News: { name: 'All hands', notification: 1 } },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const { n } = await s.ctx.db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('company_id', '=', s.refs.companies.skyline)
      .where('title', '=', 'News: All hands')
      .executeTakeFirstOrThrow();
    // 13 seeded accounts plus the copies, minus the author.
    expect(Number(n)).toBe(13 + PEOPLE - 1);
    const mine = await s.api('GET', '/notifications.json', { token: await s.login('pilot@skyline.test') });
    expect(mine.body.notifications[0]).toMatchObject({ title: 'News: All hands', read: false });
  }, 120_000);
});
