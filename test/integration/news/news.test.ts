import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { pullAll } from '../../setup/sync.ts';

describe.each(DIALECTS)('news on %s', (dialect) => {
  let s: TestServer;
  let ops: string;
  const save = (body: unknown, token = ops) => s.api('POST', '/manager/news/news/edit.json', { token, body });
  const created = async (news: Record<string, unknown>, recipients?: number[]) => {
    const r = await save({ News: news, ...(recipients ? { NewsRecipient: { user_group_id: recipients } } : {}) });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body as { id: string; slug: string };
  };
  const list = async (token: string | null, path = '/news.json') => {
    const r = await s.api('GET', path, { token });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };
  const titles = (body: any) => body.news.map((n: any) => n.News.name);

  let forAll: { id: string; slug: string };
  let forStudents: { id: string; slug: string };
  let sabadell: { id: string; slug: string };
  let harborNews: { id: string; slug: string };

  beforeAll(async () => {
    s = await startTestServer(dialect);
    ops = await s.login('ops@skyline.test');
    forAll = await created({
      name: 'Fuel policy update',
      content: '<p>Read chapter 8.</p>',
      sign: true,
      created: '2026-03-01',
      time: '09:30',
    });
    forStudents = await created(
      { name: 'Solo minima', content: 'Ceiling 2500 ft.', sign: true, created: '2026-03-02 10:00' },
      [200, 150],
    );
    sabadell = await created({ name: 'Sabadell apron works', base_id: s.refs.bases.Sabadell, created: '2026-03-03' });
    const harbor = await s.login('admin@harbor.test');
    const h = await save({ News: { name: 'Club barbecue', created: '2026-03-04' } }, harbor);
    harborNews = h.body;
    const root = await s.login('root@skyline.test');
    expect(
      (
        await save(
          { News: { name: 'Platform news', content: 'Full public content', public: 1, created: '2026-02-01' } },
          root,
        )
      ).status,
    ).toBe(200);
  });
  afterAll(() => s?.close());

  it('without credentials: only the public platform feed, with full content', async () => {
    const body = await list(null);
    expect(titles(body)).toEqual(['Platform news']);
    expect(body.news[0].News.content).toBe('Full public content');
    expect(body.news[0].NewsSignature).toEqual([]);
    expect(titles(await list(null, `/news/news/index/${s.refs.bases.Sabadell}.json`))).toEqual(['Platform news']);
    const view = await s.api('GET', '/news/news/view/platform-news.json');
    expect(view.status).toBe(200);
    expect(view.body.News).toMatchObject({ name: 'Platform news', content: 'Full public content', view_count: 1 });
    expect((await s.api('GET', `/news/news/view/${forAll.slug}.json`)).status).toBe(404);
  });

  it('signed in: company articles newest first; above 105 only those addressed to the role', async () => {
    expect(titles(await list(await s.login('safety@skyline.test')))).toEqual([
      'Sabadell apron works',
      'Fuel policy update',
    ]);
    expect(titles(await list(ops))).toEqual(['Sabadell apron works', 'Solo minima', 'Fuel policy update']);
    expect(titles(await list(await s.login('student@skyline.test')))).toEqual([
      'Sabadell apron works',
      'Solo minima',
      'Fuel policy update',
    ]);
    expect(titles(await list(await s.login('admin@harbor.test')))).toEqual(['Club barbecue']);
    const item = (await list(ops)).news.find((n: any) => n.News.name === 'Fuel policy update');
    expect(item.News).toMatchObject({
      id: forAll.id,
      slug: 'fuel-policy-update',
      sign: true,
      created: '2026-03-01 09:30:00',
      view_count: 0,
      summary: 'Read chapter 8.',
    });
    expect(item.NewsSignature).toEqual([]);
  });

  it('the base filter keeps articles of that base or of no base', async () => {
    const t = await s.login('pilot@skyline.test');
    expect(titles(await list(t, `/news/news/index/${s.refs.bases.Sabadell}.json`))).toEqual([
      'Sabadell apron works',
      'Fuel policy update',
    ]);
    expect(titles(await list(t, `/news/news/index/${s.refs.bases['Cuatro Vientos']}.json`))).toEqual([
      'Fuel policy update',
    ]);
    expect(titles(await list(t, '/news/news/index.json'))).toEqual(['Sabadell apron works', 'Fuel policy update']);
    // Another company's base, or an unknown one, is 404 for a signed-in caller.
    for (const base of [s.refs.bases.Republic, 'no-such-base']) {
      const r = await s.api('GET', `/news/news/index/${base}.json`, { token: t });
      expect(r.status, base).toBe(404);
      expect(r.body.result).toBe(false);
    }
  });

  it('pages by 10 in SQL with the pagination block', async () => {
    const harbor = await s.login('admin@harbor.test');
    for (let i = 1; i <= 11; i++)
      expect(
        (await save({ News: { name: `Notice ${i}`, created: `2026-01-${String(i).padStart(2, '0')}` } }, harbor))
          .status,
      ).toBe(200);
    const p1 = await list(harbor);
    expect(p1.news.length).toBe(10);
    expect(p1.pagination).toEqual({
      page: 1,
      current: 10,
      count: 12,
      prevPage: false,
      nextPage: true,
      pageCount: 2,
      limit: 10,
    });
    const p2 = await list(harbor, '/news.json?page=2');
    expect(titles(p2)).toEqual(['Notice 2', 'Notice 1']);
    expect(p2.pagination).toEqual({
      page: 2,
      current: 2,
      count: 12,
      prevPage: true,
      nextPage: false,
      pageCount: 2,
      limit: 10,
    });
    expect((await s.api('GET', '/news.json?page=0', { token: harbor })).status).toBe(400);
  });

  it('view: unknown slug and another company’s article are 404', async () => {
    const t = await s.login('pilot@skyline.test');
    expect((await s.api('GET', '/news/news/view/no-such-article.json', { token: t })).status).toBe(404);
    expect((await s.api('GET', `/news/news/view/${harborNews.slug}.json`, { token: t })).status).toBe(404);
    // An article not addressed to the role is not there for them either.
    expect((await s.api('GET', `/news/news/view/${forStudents.slug}.json`, { token: t })).status).toBe(404);
  });

  describe('signing', () => {
    const sign = (id: string, token: string, body: unknown = { password: 'demo1234' }) =>
      s.api('POST', `/news/news/sign/${id}.json`, { token, body });

    it('needs POST, a password, the right one, and an article asking for a signature', async () => {
      const t = await s.login('student@skyline.test');
      expect(
        (await s.api('POST', `/news/news/sign/${forAll.id}.json`, { body: { password: 'demo1234' } })).status,
      ).toBe(401);
      const get = await s.api('GET', `/news/news/sign/${forAll.id}.json`, { token: t });
      expect(get.status).toBe(400);
      expect(get.body.result).toBe(false);
      expect((await sign(forAll.id, t, {})).status).toBe(400);
      expect((await sign(forAll.id, t, { password: '' })).status).toBe(400);
      const wrong = await sign(forAll.id, t, { password: 'not-mine' });
      expect(wrong.status).toBe(400);
      expect(wrong.body.message).toBe('Wrong password');
      expect((await sign(sabadell.id, t)).status).toBe(400);
      expect((await sign(harborNews.id, t)).status).toBe(404);
      expect((await sign(forStudents.id, await s.login('pilot@skyline.test'))).status).toBe(404);
      const none = await s.ctx.db.selectFrom('news_signatures').selectAll().execute();
      expect(none).toEqual([]);
    });

    it('signs once; the list and view show only the caller’s own signature', async () => {
      const student = await s.login('student@skyline.test');
      const pilot = await s.login('pilot@skyline.test');
      const r = await sign(forAll.id, student);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        result: true,
        message: 'Signed',
        NewsSignature: { user_id: s.userId('student@skyline.test'), news_id: forAll.id },
      });
      const again = await sign(forAll.id, student);
      expect(again.body).toMatchObject({
        result: true,
        message: 'Already signed',
        NewsSignature: { id: r.body.NewsSignature.id },
      });
      expect((await sign(forAll.id, pilot)).status).toBe(200);
      const mine = (await list(student)).news.find((n: any) => n.News.id === forAll.id);
      expect(mine.NewsSignature).toEqual([
        expect.objectContaining({ user_id: s.userId('student@skyline.test'), news_id: forAll.id }),
      ]);
      const view = await s.api('GET', `/news/news/view/${forAll.slug}.json`, { token: student });
      expect(view.body.NewsSignature).toEqual({ [s.userId('student@skyline.test')]: 'Stefan Student' });
      expect(view.body.NewsRecipient).toBeUndefined();
      expect(view.body.NewsRecipientUsers).toBeUndefined();
    });

    it('managers (<= 135) see every signature, the recipients and their count, and add no view', async () => {
      const ground = await s.login('ground@skyline.test');
      // Above 105 the recipient filter applies to managers too: 135 is not among [150, 200].
      expect((await s.api('GET', `/news/news/view/${forStudents.slug}.json`, { token: ground })).status).toBe(404);
      const before = (await s.api('GET', `/news/news/view/${forStudents.slug}.json`, { token: ops })).body;
      const view = await s.api('GET', `/news/news/view/${forAll.slug}.json`, { token: ground });
      expect(view.body.NewsSignature).toEqual({
        [s.userId('student@skyline.test')]: 'Stefan Student',
        [s.userId('pilot@skyline.test')]: 'Paula Pilot',
      });
      expect(view.body.NewsRecipient).toEqual([]);
      expect(view.body.NewsRecipientUsers).toBe(13);
      expect(before.NewsRecipient).toEqual([150, 200]);
      expect(before.NewsRecipientUsers).toBe(2);
      const again = await s.api('GET', `/news/news/view/${forAll.slug}.json`, { token: ground });
      expect(again.body.News.view_count).toBe(view.body.News.view_count);
      const student = await s.login('student@skyline.test');
      const v1 = (await s.api('GET', `/news/news/view/${forAll.slug}.json`, { token: student })).body.News.view_count;
      const v2 = (await s.api('GET', `/news/news/view/${forAll.slug}.json`, { token: student })).body.News.view_count;
      expect(v2).toBe(v1 + 1);
      expect(view.body.News.content).toBe('<p>Read chapter 8.</p>');
    });

    it('the `news` collection carries the viewer’s own signature state and hides articles not addressed to them', async () => {
      const pilot = (await pullAll(s, await s.login('pilot@skyline.test'), 'news')).docs;
      const fuel = pilot.find((d) => d.id === forAll.id);
      expect(fuel).toMatchObject({
        signed: true,
        for_me: true,
        signed_by: [s.userId('pilot@skyline.test')],
        recipients: [],
      });
      const solo = pilot.find((d) => d.id === forStudents.id);
      expect(solo).toMatchObject({ for_me: false, name: '', content: null, signed_by: [] });
      expect(pilot.some((d) => d.id === harborNews.id)).toBe(false);
      const ground = (await pullAll(s, await s.login('ground@skyline.test'), 'news')).docs;
      expect(ground.find((d) => d.id === forAll.id).signed_by.length).toBe(2);
      expect(ground.find((d) => d.id === forStudents.id)).toMatchObject({ for_me: false, name: '' });
      const manager = (await pullAll(s, ops, 'news')).docs;
      expect(manager.find((d) => d.id === forStudents.id)).toMatchObject({
        for_me: true,
        recipients: [150, 200],
        name: 'Solo minima',
      });
    });
  });

  describe('administration', () => {
    it('needs credentials and a news manager (<= 135)', async () => {
      expect((await s.api('POST', '/manager/news/news/edit.json', { body: { News: { name: 'x' } } })).status).toBe(401);
      expect((await s.api('POST', `/manager/news/news/delete/${forAll.id}.json`)).status).toBe(401);
      for (const email of ['instructor@skyline.test', 'pilot@skyline.test', 'mechanic@skyline.test']) {
        const t = await s.login(email);
        expect((await save({ News: { name: 'Not allowed' } }, t)).status).toBe(403);
        expect((await s.api('POST', `/manager/news/news/delete/${forAll.id}.json`, { token: t })).status).toBe(403);
      }
    });

    it('validates with `errors` and writes nothing on failure', async () => {
      const count = async () =>
        (
          await s.ctx.db
            .selectFrom('news')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n;
      const before = Number(await count());
      const cases: Array<[unknown, string]> = [
        [{ News: { content: 'no title' } }, 'News.name'],
        [{ News: { name: '   ' } }, 'News.name'],
        [{ News: { name: 'Bad date', created: '2026-02-30' } }, 'News.created'],
        [{ News: { name: 'Bad time', created: '2026-02-03', time: '25:00' } }, 'News.time'],
        [{ News: { name: 'Bad role' }, NewsRecipient: { user_group_id: [190, 191] } }, 'NewsRecipient.user_group_id.1'],
        [{}, 'News'],
      ];
      for (const [body, field] of cases) {
        const r = await save(body);
        expect(r.status, field).toBe(400);
        expect(r.body.result, field).toBe(false);
        expect(Object.keys(r.body.errors), field).toContain(field);
      }
      expect((await save({ News: { name: 'Foreign base', base_id: s.refs.bases.Republic } })).status).toBe(404);
      expect((await save({ News: { id: harborNews.id, name: 'Hijack' } })).status).toBe(404);
      expect(Number(await count())).toBe(before);
      expect(
        (await s.api('GET', `/news/news/view/${harborNews.slug}.json`, { token: await s.login('admin@harbor.test') }))
          .body.News.name,
      ).toBe('Club barbecue');
    });

    it('normalises notification, appends time, replaces recipients and forces company and author', async () => {
      const a = await save({
        News: {
          name: 'Hangar safety',
          notification: 'yes',
          created: '2026-03-05',
          time: '14:45',
          company_id: s.refs.companies.harbor,
          user_id: s.userId('admin@harbor.test', 'harbor'),
        },
        NewsRecipient: { user_group_id: ['300', 190] },
      });
      expect(a.status).toBe(200);
      const row = await s.ctx.db.selectFrom('news').selectAll().where('id', '=', a.body.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        company_id: s.refs.companies.skyline,
        user_id: s.userId('ops@skyline.test'),
        notification: 1,
        published: '2026-03-05 14:45:00',
        slug: 'hangar-safety',
      });
      const roles = async () =>
        (
          await s.ctx.db
            .selectFrom('news_recipients')
            .select('user_group_id')
            .where('news_id', '=', a.body.id)
            .orderBy('user_group_id')
            .execute()
        ).map((r) => Number(r.user_group_id));
      expect(await roles()).toEqual([190, 300]);
      // Recipients get an in-app notification (the author does not).
      const mech = await s.api('GET', '/notifications.json', { token: await s.login('mechanic@skyline.test') });
      expect(mech.body.notifications[0]).toMatchObject({
        title: 'News: Hangar safety',
        link: '/news/news/view/hangar-safety',
        read: false,
      });
      const student = await s.api('GET', '/notifications.json', { token: await s.login('student@skyline.test') });
      expect(student.body.notifications.some((n: any) => n.title === 'News: Hangar safety')).toBe(false);

      // Empty notification is dropped (stays 1); time alone moves the time of the stored day; the set is replaced.
      const b = await save({
        News: { id: a.body.id, notification: '', time: '08:15' },
        NewsRecipient: { user_group_id: [200] },
      });
      expect(b.status).toBe(200);
      const row2 = await s.ctx.db.selectFrom('news').selectAll().where('id', '=', a.body.id).executeTakeFirstOrThrow();
      expect(row2).toMatchObject({
        notification: 1,
        published: '2026-03-05 08:15:00',
        name: 'Hangar safety',
        slug: 'hangar-safety',
      });
      expect(await roles()).toEqual([200]);
      // `0` and `false` switch it off; an omitted recipient set means everyone.
      expect((await save({ News: { id: a.body.id, notification: 'false' } })).status).toBe(200);
      expect(
        (await s.ctx.db.selectFrom('news').select('notification').where('id', '=', a.body.id).executeTakeFirstOrThrow())
          .notification,
      ).toBe(0);
      expect(await roles()).toEqual([]);
      // Form names, a second article with the same title gets its own slug.
      const form = await s.api('POST', '/manager/news/news/edit.json', {
        token: ops,
        form: {
          'data[News][name]': 'Hangar safety',
          'data[News][notification]': '0',
          'data[NewsRecipient][user_group_id][]': '190',
        },
      });
      expect(form.status).toBe(200);
      expect(form.body.slug).toBe('hangar-safety-2');
    });

    it('only the platform administrator publishes to the public feed, without base or recipients', async () => {
      // A company manager asking for `public` still writes a company article.
      const a = await save({ News: { name: 'Not for the world', public: 1, content: 'Internal' } });
      expect(a.status).toBe(200);
      expect(
        await s.ctx.db
          .selectFrom('news')
          .select(['company_id', 'public'])
          .where('id', '=', a.body.id)
          .executeTakeFirstOrThrow(),
      ).toEqual({ company_id: s.refs.companies.skyline, public: 0 });
      expect(titles(await list(null))).not.toContain('Not for the world');
      const root = await s.login('root@skyline.test');
      const withBase = await save(
        { News: { name: 'Platform with base', public: 1, base_id: s.refs.bases.Sabadell } },
        root,
      );
      expect(withBase.status).toBe(400);
      expect(Object.keys(withBase.body.errors)).toContain('News.public');
      const withRecipients = await save(
        { News: { name: 'Platform with roles', public: 1 }, NewsRecipient: { user_group_id: [190] } },
        root,
      );
      expect(withRecipients.status).toBe(400);
      expect(titles(await list(null))).toEqual(['Platform news']);
      // The public feed is the platform's only: a signed-in caller's list is their company's.
      expect(titles(await list(await s.login('pilot@harbor.test')))).not.toContain('Platform news');
    });

    it('deletes an article of the company; another company’s is 404', async () => {
      const a = await save({ News: { name: 'Short-lived' } });
      expect((await s.api('POST', `/manager/news/news/delete/${harborNews.id}.json`, { token: ops })).status).toBe(404);
      expect(
        (await s.api('GET', `/news/news/view/${harborNews.slug}.json`, { token: await s.login('admin@harbor.test') }))
          .status,
      ).toBe(200);
      const token = await s.login('pilot@skyline.test');
      const before = await pullAll(s, token, 'news');
      const r = await s.api('POST', `/manager/news/news/delete/${a.body.id}.json`, { token: ops });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ result: true, id: a.body.id });
      expect((await s.api('GET', `/news/news/view/${a.body.slug}.json`, { token })).status).toBe(404);
      expect(titles(await list(token))).not.toContain('Short-lived');
      expect((await s.api('POST', `/manager/news/news/delete/${a.body.id}.json`, { token: ops })).status).toBe(404);
      const after = await pullAll(s, token, 'news', before.checkpoint);
      expect(after.docs.find((d) => d.id === a.body.id)._deleted).toBe(true);
    });
  });
});
