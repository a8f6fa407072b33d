import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notify } from '@ops/server/areas/notifications/notifications.notify';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { pullAll, push } from '../../setup/sync.ts';

describe.each(DIALECTS)('in-app notifications on %s', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(dialect);
    const pilot = s.userId('pilot@skyline.test');
    await s.ctx.tx((uow) =>
      notify(uow, { companyId: s.refs.companies.skyline, userIds: [pilot], title: 'First', body: 'one', link: '/a' }),
    );
    await new Promise((r) => setTimeout(r, 1100));
    await s.ctx.tx((uow) =>
      notify(uow, {
        companyId: s.refs.companies.skyline,
        // A Harbor user id is ignored: notifications never cross companies.
        userIds: [pilot, s.userId('mechanic@skyline.test'), s.userId('admin@harbor.test', 'harbor')],
        title: 'Second',
        body: 'two',
        link: '/b',
      }),
    );
  });
  afterAll(() => s?.close());

  it('needs credentials', async () => {
    expect((await s.api('GET', '/notifications.json')).status).toBe(401);
    expect((await s.api('POST', '/notifications/read.json', { body: { all: true } })).status).toBe(401);
  });

  it('rejects a body that is neither ids nor all', async () => {
    const pilot = await s.login('pilot@skyline.test');
    for (const body of [{}, { all: false }, { ids: 'x' }])
      expect((await s.api('POST', '/notifications/read.json', { token: pilot, body })).status).toBe(400);
    expect((await s.api('GET', '/notifications.json?page=0', { token: pilot })).status).toBe(400);
    const unread = await s.api('GET', '/notifications.json?unread=1', { token: pilot });
    expect(unread.body.notifications.length).toBe(2);
  });

  it('lists the caller’s notifications newest first in the CONTRACT shape', async () => {
    const r = await s.api('GET', '/notifications.json', { token: await s.login('pilot@skyline.test') });
    expect(r.status).toBe(200);
    expect(r.body.notifications.map((n: any) => n.title)).toEqual(['Second', 'First']);
    expect(Object.keys(r.body.notifications[0]).sort()).toEqual(['body', 'created', 'id', 'link', 'read', 'title']);
    expect(r.body.notifications[0].read).toBe(false);
    const mech = await s.api('GET', '/notifications.json', { token: await s.login('mechanic@skyline.test') });
    expect(mech.body.notifications.map((n: any) => n.title)).toEqual(['Second']);
    const harbor = await s.api('GET', '/notifications.json', { token: await s.login('admin@harbor.test') });
    expect(harbor.body.notifications).toEqual([]);
  });

  it('marks notifications read; another person’s id is 404 and changes nothing', async () => {
    const pilot = await s.login('pilot@skyline.test');
    const mech = await s.login('mechanic@skyline.test');
    const [second] = (await s.api('GET', '/notifications.json', { token: pilot })).body.notifications;
    const mechId = (await s.api('GET', '/notifications.json', { token: mech })).body.notifications[0].id;
    const foreign = await s.api('POST', '/notifications/read.json', { token: pilot, body: { ids: [mechId] } });
    expect(foreign.status).toBe(404);
    expect((await s.api('GET', '/notifications.json', { token: mech })).body.notifications[0].read).toBe(false);
    expect((await s.api('POST', '/notifications/read.json', { token: pilot, body: { ids: [] } })).status).toBe(400);
    const ok = await s.api('POST', '/notifications/read.json', { token: pilot, body: { ids: [second.id] } });
    expect(ok.body).toEqual({ result: true, marked: 1 });
    const unread = await s.api('GET', '/notifications.json?unread=1', { token: pilot });
    expect(unread.body.notifications.map((n: any) => n.title)).toEqual(['First']);
    expect((await s.api('POST', '/notifications/read.json', { token: pilot, body: { all: true } })).body.marked).toBe(
      1,
    );
  });

  it('replicate to their recipient only; a device may mark one read offline', async () => {
    const mech = await s.login('mechanic@skyline.test');
    const docs = (await pullAll(s, mech, 'notifications')).docs;
    expect(docs.map((d) => d.title)).toEqual(['Second']);
    const { _deleted, ...doc } = docs[0];
    const r = await push(s, mech, 'notifications', [
      { assumedMasterState: doc, newDocumentState: { ...doc, read: true } },
    ]);
    expect(r.body.conflicts).toEqual([]);
    const back = await push(s, mech, 'notifications', [
      { assumedMasterState: { ...doc, read: true }, newDocumentState: { ...doc, read: false, title: 'x' } },
    ]);
    expect(back.body.conflicts[0]).toMatchObject({ read: true, title: 'Second' });
    const pilot = await s.login('pilot@skyline.test');
    expect(
      (await pullAll(s, pilot, 'notifications')).docs.every((d) => d.user_id === s.userId('pilot@skyline.test')),
    ).toBe(true);
  });

  it('pages by 100, newest first', async () => {
    const dispatch = s.userId('dispatch@skyline.test');
    await s.ctx.tx((uow) =>
      notify(uow, {
        companyId: s.refs.companies.skyline,
        userIds: [dispatch],
        title: 'Oldest',
        body: null,
        link: null,
      }),
    );
    await new Promise((r) => setTimeout(r, 1100));
    for (let i = 0; i < 10; i++) {
      await s.ctx.tx(async (uow) => {
        for (let j = 0; j < 10; j++)
          await notify(uow, {
            companyId: s.refs.companies.skyline,
            userIds: [dispatch],
            title: `N${i * 10 + j}`,
            body: null,
            link: null,
          });
      });
    }
    const token = await s.login('dispatch@skyline.test');
    const p1 = (await s.api('GET', '/notifications.json', { token })).body.notifications;
    const p2 = (await s.api('GET', '/notifications.json?page=2', { token })).body.notifications;
    expect(p1.length).toBe(100);
    expect(p2.map((n: any) => n.title)).toEqual(['Oldest']);
    expect(new Set([...p1, ...p2].map((n: any) => n.id)).size).toBe(101);
    expect((await s.api('GET', '/notifications.json?page=3', { token })).body.notifications).toEqual([]);
  });
});
