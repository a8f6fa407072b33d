import { uuidv7 } from '@ops/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { garbageBodies, snapshot, tokens } from '../pilots/people-helpers.ts';

const day = (offset: number) => new Date(Date.now() + offset * 86400_000).toISOString().slice(0, 10);

/**
 * Certificates: bad input on every endpoint (4xx, never 500, nothing
 * written) and the `UserCertificate` source of GET /companies/alerts.json fed
 * by the certificate endpoints: what expires or lapsed, for whom, and only the
 * caller's company.
 */
describe.each(DIALECTS)('Certificates: input and alerts on %s', (dialect) => {
  let s: TestServer;
  let tok: (email: string) => Promise<string>;
  let paula: string;
  let stefan: string;
  let dana: string;
  beforeAll(async () => {
    s = await startTestServer(dialect);
    tok = tokens(() => s);
    paula = s.userId('pilot@skyline.test');
    stefan = s.userId('student@skyline.test');
    dana = s.userId('dual@demo.test');
    for (const email of ['admin@skyline.test', 'pilot@skyline.test']) await tok(email);
  });
  afterAll(() => s?.close());

  const save = async (email: string, UserCertificate: Record<string, unknown>) =>
    s.api('POST', '/pilots/certificates/edit.json', { token: await tok(email), body: { UserCertificate } });
  const alerts = async (email: string, query = '') => {
    const r = await s.api('GET', `/companies/alerts.json${query}`, { token: await tok(email) });
    expect(r.status).toBe(200);
    return (r.body as any[]).filter((a) => a.type === 'UserCertificate');
  };

  it('malformed bodies are 400 and write nothing', async () => {
    const before = await snapshot(s);
    const fields = {
      user_id: paula,
      type: 'PPL',
      name: 'Mine',
      issue: '2020-01-01',
      expiration: day(10),
      comments: 'ok',
    };
    const bodies = [
      ...garbageBodies('UserCertificate', fields),
      ...garbageBodies(null, fields).slice(4),
      { UserCertificate: { ...fields, type: 'ppl ' } },
      { UserCertificate: { ...fields, issue: '01/02/2020' } },
      { UserCertificate: { ...fields, expiration: '2024-02-30' } },
      { UserCertificate: { ...fields, id: 'x'.repeat(65) } },
      { UserCertificate: { ...fields, comments: 'x'.repeat(2001) } },
    ];
    for (const body of bodies) {
      const r = await s.api('POST', '/pilots/certificates/edit.json', { token: await tok('pilot@skyline.test'), body });
      expect(r.status, JSON.stringify(body).slice(0, 150)).toBe(400);
      expect(r.body.result).toBe(false);
    }
    for (const path of [`/pilots/certificates/delete/${'x'.repeat(65)}.json`]) {
      expect((await s.api('POST', path, { token: await tok('admin@skyline.test'), body: {} })).status).toBe(400);
    }
    expect(
      (await s.api('GET', `/pilots/certificates/${'x'.repeat(65)}.json`, { token: await tok('admin@skyline.test') }))
        .status,
    ).toBe(400);
    // Unknown ids are 404 (ids are opaque text).
    expect(
      (
        await s.api('POST', `/pilots/certificates/delete/${uuidv7()}.json`, {
          token: await tok('admin@skyline.test'),
          body: {},
        })
      ).status,
    ).toBe(404);
    expect(
      (await s.api('GET', '/pilots/certificates/nobody.json', { token: await tok('admin@skyline.test') })).status,
    ).toBe(404);
    expect((await save('admin@skyline.test', { id: uuidv7(), user_id: paula, type: 'PPL' })).status).toBe(404);
    expect(await snapshot(s)).toEqual(before);
  });

  it('a certificate expiring within a month is a warning, one that lapsed is danger, a later one muted', async () => {
    const soon = await save('admin@skyline.test', { user_id: stefan, type: 'MED_CLASS1', expiration: day(10) });
    const lapsed = await save('admin@skyline.test', {
      user_id: stefan,
      type: 'MED_LAPL',
      name: 'LAPL medical (lapsed)',
      expiration: day(-5),
    });
    const later = await save('admin@skyline.test', { user_id: stefan, type: 'SEP', expiration: day(60) });
    const far = await save('admin@skyline.test', { user_id: stefan, type: 'IR', expiration: day(400) });
    const none = await save('admin@skyline.test', { user_id: stefan, type: 'NIGHT' });
    const list = await alerts('admin@skyline.test');
    const byName = Object.fromEntries(list.map((a) => [a.name, a]));
    expect(byName['Class 1 medical certificate']).toMatchObject({
      class: 'text-warning',
      details: 'Stefan Student',
      link: `/pilots/view/${stefan}`,
      icon: expect.any(String),
    });
    expect(byName['LAPL medical (lapsed)']).toMatchObject({ class: 'text-danger' });
    expect(byName['LAPL medical (lapsed)'].date).toBeLessThan(Date.now() / 1000);
    expect(list.find((a) => a.name.includes('(SEP)'))).toMatchObject({ class: 'text-muted' });
    expect(list.find((a) => a.name.includes('(IR)'))).toBeUndefined();
    expect(list.some((a) => a.name.toLowerCase().includes('night'))).toBe(false);
    // Sorted by date ascending.
    const dates = list.map((a) => a.date);
    expect(dates).toEqual([...dates].sort((a, b) => a - b));
    for (const c of [soon, lapsed, later, far, none])
      await s.api('POST', `/pilots/certificates/delete/${c.body.id}.json`, {
        token: await tok('admin@skyline.test'),
        body: {},
      });
  });

  it('editing or deleting a certificate moves or removes its alert', async () => {
    const c = await save('admin@skyline.test', {
      user_id: paula,
      type: 'CPL',
      name: 'Alert Mover',
      expiration: day(20),
    });
    expect((await alerts('admin@skyline.test')).find((a) => a.name === 'Alert Mover')).toMatchObject({
      class: 'text-warning',
    });
    await save('admin@skyline.test', { id: c.body.id, user_id: paula, type: 'CPL', expiration: day(300) });
    expect((await alerts('admin@skyline.test')).find((a) => a.name === 'Alert Mover')).toBeUndefined();
    await save('admin@skyline.test', { id: c.body.id, user_id: paula, type: 'CPL', expiration: day(3) });
    expect((await alerts('admin@skyline.test')).find((a) => a.name === 'Alert Mover')).toBeDefined();
    await s.api('POST', `/pilots/certificates/delete/${c.body.id}.json`, {
      token: await tok('admin@skyline.test'),
      body: {},
    });
    expect((await alerts('admin@skyline.test')).find((a) => a.name === 'Alert Mover')).toBeUndefined();
  });

  it('a pilot gets the alerts of their own certificates only; another company never sees them', async () => {
    const mine = await save('pilot@skyline.test', {
      user_id: paula,
      type: 'MED_CLASS2',
      name: 'Paula Medical',
      expiration: day(15),
    });
    const other = await save('admin@skyline.test', {
      user_id: dana,
      type: 'MED_CLASS2',
      name: 'Dana Medical',
      expiration: day(15),
    });
    const harbor = await save('admin@harbor.test', {
      user_id: s.userId('pilot@harbor.test', 'harbor'),
      type: 'FAA_MED_3',
      name: 'Pia Medical',
      expiration: day(15),
    });
    expect(harbor.status).toBe(200);
    const paulaSees = (await alerts('pilot@skyline.test')).map((a) => a.name);
    expect(paulaSees).toContain('Paula Medical');
    expect(paulaSees).not.toContain('Dana Medical');
    const adminSees = (await alerts('admin@skyline.test')).map((a) => a.name);
    expect(adminSees).toEqual(expect.arrayContaining(['Paula Medical', 'Dana Medical']));
    expect(adminSees).not.toContain('Pia Medical');
    const harborSees = (await alerts('admin@harbor.test')).map((a) => a.name);
    expect(harborSees).toContain('Pia Medical');
    expect(harborSees).not.toContain('Paula Medical');
    for (const [email, c] of [
      ['pilot@skyline.test', mine],
      ['admin@skyline.test', other],
      ['admin@harbor.test', harbor],
    ] as const) {
      await s.api('POST', `/pilots/certificates/delete/${c.body.id}.json`, { token: await tok(email), body: {} });
    }
  });

  it('a deleted user’s certificates raise no alert', async () => {
    const c = await save('admin@skyline.test', {
      user_id: dana,
      type: 'FI',
      name: 'Gone Instructor',
      expiration: day(5),
    });
    await s.ctx.db.updateTable('users').set({ deleted: 1 }).where('id', '=', dana).execute();
    expect((await alerts('admin@skyline.test')).find((a) => a.name === 'Gone Instructor')).toBeUndefined();
    await s.ctx.db.updateTable('users').set({ deleted: 0 }).where('id', '=', dana).execute();
    await s.api('POST', `/pilots/certificates/delete/${c.body.id}.json`, {
      token: await tok('admin@skyline.test'),
      body: {},
    });
  });
});
