import { uuidv7 } from '@ops/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { addUser, mailsTo, now, tokens, userRow } from '../pilots/people-helpers.ts';

describe.each(DIALECTS)('Pilot groups on %s', (dialect) => {
  let s: TestServer;
  let tok: (email: string) => Promise<string>;
  beforeAll(async () => {
    s = await startTestServer(dialect);
    tok = tokens(() => s);
  });
  afterAll(() => s?.close());

  const call = async (method: string, path: string, email: string, body?: unknown) =>
    s.api(method, path, { token: await tok(email), ...(body === undefined ? {} : { body }) });
  const addGroup = async (name: string, members: string[] = [], email = 'instructor@skyline.test') => {
    const r = await call('POST', '/pilot_groups/manager_add.json', email, {
      PilotGroup: { name, User: members.map((id) => ({ id })) },
    });
    if (r.status !== 200) throw new Error(`add group ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.id as string;
  };
  const groupCount = async () =>
    Number(
      (
        await s.ctx.db
          .selectFrom('pilot_groups')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const memberIds = async (groupId: string) =>
    (await s.ctx.db.selectFrom('pilot_group_members').select('user_id').where('pilot_group_id', '=', groupId).execute())
      .map((m) => m.user_id)
      .sort();

  it('answers 401 without a token on every endpoint', async () => {
    const id = uuidv7();
    for (const [m, p] of [
      ['GET', '/pilot_groups/manager_index.json'],
      ['GET', `/pilot_groups/manager_view/${id}.json`],
      ['GET', `/pilot_groups/manager_pilots/${id}.json`],
      ['POST', '/pilot_groups/manager_add.json'],
      ['GET', `/pilot_groups/manager_edit/${id}.json`],
      ['POST', `/pilot_groups/manager_edit/${id}.json`],
      ['PUT', `/pilot_groups/manager_edit/${id}.json`],
      ['POST', `/pilot_groups/manager_delete/${id}.json`],
      ['DELETE', `/pilot_groups/manager_delete/${id}.json`],
      ['GET', `/pilot_groups/manager_do/${id}/1.json`],
      ['POST', `/pilot_groups/manager_welcomize/${id}.json`],
    ] as const) {
      expect((await s.api(m, p)).status, `${m} ${p}`).toBe(401);
    }
  });

  it('is for roles <= 150: dispatcher, pilot and auditor get 403 and create nothing', async () => {
    const before = await groupCount();
    for (const email of ['dispatch@skyline.test', 'pilot@skyline.test', 'auditor@skyline.test']) {
      expect((await call('GET', '/pilot_groups/manager_index.json', email)).status, email).toBe(403);
      expect(
        (await call('POST', '/pilot_groups/manager_add.json', email, { PilotGroup: { name: 'x' } })).status,
        email,
      ).toBe(403);
    }
    expect(await groupCount()).toBe(before);
    expect((await call('GET', '/pilot_groups/manager_index.json', 'ground@skyline.test')).status).toBe(200);
  });

  it('add: name required, duplicate refused, palette colour, members; a foreign member is 404 and nothing is created', async () => {
    const before = await groupCount();
    const noName = await call('POST', '/pilot_groups/manager_add.json', 'instructor@skyline.test', {
      PilotGroup: { name: ' ' },
    });
    expect(noName.status).toBe(400);
    expect(noName.body.errors.name).toBeDefined();
    const foreign = await call('POST', '/pilot_groups/manager_add.json', 'instructor@skyline.test', {
      PilotGroup: { name: 'Foreign', User: [{ id: s.userId('pilot@harbor.test', 'harbor') }] },
    });
    expect(foreign.status).toBe(404);
    expect(await groupCount()).toBe(before);

    const r = await call('POST', '/pilot_groups/manager_add.json', 'instructor@skyline.test', {
      PilotGroup: { name: 'Night Flyers', User: [{ id: s.userId('pilot@skyline.test') }] },
    });
    expect(r.status).toBe(200);
    expect(r.body.PilotGroup).toMatchObject({
      id: r.body.id,
      company_id: s.refs.companies.skyline,
      name: 'Night Flyers',
      pilot_count: 1,
    });
    expect(r.body.PilotGroup.color).toMatch(/^#[0-9a-f]{6}$/);
    expect(await memberIds(r.body.id)).toEqual([s.userId('pilot@skyline.test')]);
    const dup = await call('POST', '/pilot_groups/manager_add.json', 'instructor@skyline.test', {
      PilotGroup: { name: 'night flyers' },
    });
    expect(dup.status).toBe(400);
    // Form bodies with data[PilotGroup][...] are accepted.
    const form = await s.api('POST', '/pilot_groups/manager_add.json', {
      token: await tok('headtraining@skyline.test'),
      form: { 'data[PilotGroup][name]': 'Form Group', 'data[PilotGroup][color]': '#AABBCC' },
    });
    expect(form.status).toBe(200);
    expect(form.body.PilotGroup).toMatchObject({ name: 'Form Group', color: '#aabbcc', pilot_count: 0 });
  });

  it('group names are unique ignoring case, accented capitals included (400, nothing created)', async () => {
    await addGroup('Ópera Team');
    const before = await groupCount();
    const dup = await call('POST', '/pilot_groups/manager_add.json', 'instructor@skyline.test', {
      PilotGroup: { name: 'ópera TEAM' },
    });
    expect(dup.status).toBe(400);
    expect(dup.body.errors.name).toBeDefined();
    expect(await groupCount()).toBe(before);
  });

  it('index: by name with live member counts, only the caller’s company', async () => {
    const gone = await addUser(s, { name: 'Gone', surname: 'Deleted' });
    const id = await addGroup('Aardvarks', [s.userId('pilot@skyline.test'), s.userId('student@skyline.test'), gone]);
    await s.ctx.db.updateTable('users').set({ deleted: 1 }).where('id', '=', gone).execute();
    await addGroup('Harbor Only', [s.userId('pilot@harbor.test', 'harbor')], 'admin@harbor.test');
    const r = await call('GET', '/pilot_groups/manager_index.json', 'instructor@skyline.test');
    expect(r.status).toBe(200);
    const names = r.body.pilotGroups.map((g: any) => g.PilotGroup.name);
    expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b)));
    expect(names).not.toContain('Harbor Only');
    const a = r.body.pilotGroups.find((g: any) => g.PilotGroup.id === id).PilotGroup;
    expect(a).toMatchObject({ name: 'Aardvarks', company_id: s.refs.companies.skyline, pilot_count: 2 });
  });

  it('view: members with their other groups; manager_pilots: a flat array without deleted users; foreign or unknown group 404', async () => {
    const paula = s.userId('pilot@skyline.test');
    const stefan = s.userId('student@skyline.test');
    const gone = await addUser(s, { name: 'Zed', surname: 'Removed' });
    const main = await addGroup('Viewed', [paula, stefan, gone]);
    const other = await addGroup('Other Of Paula', [paula]);
    await s.ctx.db.updateTable('users').set({ deleted: 1 }).where('id', '=', gone).execute();
    await s.ctx.db.updateTable('users').set({ email_status: 'unconfirmed' }).where('id', '=', stefan).execute();

    const v = await call('GET', `/pilot_groups/manager_view/${main}.json`, 'instructor@skyline.test');
    expect(v.status).toBe(200);
    expect(v.body.PilotGroup).toMatchObject({ id: main, name: 'Viewed', pilot_count: 2 });
    const p = v.body.User.find((u: any) => u.User.id === paula);
    expect(p.UserDetail).toMatchObject({ name: 'Paula', surname: 'Pilot' });
    expect(p.PilotGroup.map((g: any) => g.id)).toContain(other);
    expect(p.PilotGroup.map((g: any) => g.id)).not.toContain(main);
    expect(v.body.User.map((u: any) => u.User.id)).not.toContain(gone);

    const flat = await call('GET', `/pilot_groups/manager_pilots/${main}.json`, 'instructor@skyline.test');
    expect(flat.status).toBe(200);
    expect(Array.isArray(flat.body)).toBe(true);
    expect(flat.body.map((u: any) => u.id).sort()).toEqual([paula, stefan].sort());
    const st = flat.body.find((u: any) => u.id === stefan);
    expect(st).toMatchObject({
      name: 'Stefan',
      surname: 'Student',
      email: 'student@skyline.test',
      email_status: 'unconfirmed',
      active: true,
    });
    expect(st.User).toBeUndefined();
    await s.ctx.db.updateTable('users').set({ email_status: 'confirmed' }).where('id', '=', stefan).execute();

    const harborGroup = await addGroup('Harbor View', [], 'admin@harbor.test');
    for (const path of [
      `/pilot_groups/manager_view/${harborGroup}.json`,
      `/pilot_groups/manager_pilots/${harborGroup}.json`,
      `/pilot_groups/manager_pilots/${uuidv7()}.json`,
    ]) {
      const r = await call('GET', path, 'admin@skyline.test');
      expect(r.status, path).toBe(404);
      expect(JSON.stringify(r.body)).not.toContain('Harbor View');
    }
  });

  it('edit: GET prefills; POST and PUT rename and replace the membership; duplicate name and foreign members change nothing', async () => {
    const paula = s.userId('pilot@skyline.test');
    const dana = s.userId('dual@demo.test');
    const id = await addGroup('Editable', [paula]);
    const pre = await call('GET', `/pilot_groups/manager_edit/${id}.json`, 'instructor@skyline.test');
    expect(pre.status).toBe(200);
    expect(pre.body.PilotGroup).toMatchObject({ id, name: 'Editable' });
    expect(pre.body.PilotGroup.User.map((u: any) => u.id)).toEqual([paula]);

    const r = await call('POST', `/pilot_groups/manager_edit/${id}.json`, 'instructor@skyline.test', {
      PilotGroup: { name: 'Edited', User: [{ id: dana }] },
    });
    expect(r.status).toBe(200);
    expect(r.body.PilotGroup.name).toBe('Edited');
    expect(await memberIds(id)).toEqual([dana]);
    const put = await call('PUT', `/pilot_groups/manager_edit/${id}.json`, 'instructor@skyline.test', {
      PilotGroup: { name: 'Edited Again' },
    });
    expect(put.status).toBe(200);
    expect(await memberIds(id)).toEqual([dana]);

    await addGroup('Taken Name');
    const dup = await call('POST', `/pilot_groups/manager_edit/${id}.json`, 'instructor@skyline.test', {
      PilotGroup: { name: 'TAKEN NAME', User: [] },
    });
    expect(dup.status).toBe(400);
    const foreign = await call('POST', `/pilot_groups/manager_edit/${id}.json`, 'instructor@skyline.test', {
      PilotGroup: { name: 'Sneaky', User: [{ id: s.userId('pilot@harbor.test', 'harbor') }] },
    });
    expect(foreign.status).toBe(404);
    const stored = await s.ctx.db
      .selectFrom('pilot_groups')
      .select('name')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(stored.name).toBe('Edited Again');
    expect(await memberIds(id)).toEqual([dana]);
    const noName = await call('POST', `/pilot_groups/manager_edit/${id}.json`, 'instructor@skyline.test', {
      PilotGroup: { User: [] },
    });
    expect(noName.status).toBe(400);

    const harborGroup = await addGroup('Harbor Edit', [], 'admin@harbor.test');
    expect(
      (
        await call('POST', `/pilot_groups/manager_edit/${harborGroup}.json`, 'admin@skyline.test', {
          PilotGroup: { name: 'Mine' },
        })
      ).status,
    ).toBe(404);
    expect((await call('GET', `/pilot_groups/manager_edit/${harborGroup}.json`, 'admin@skyline.test')).status).toBe(
      404,
    );
  });

  it('delete (POST or DELETE) removes the group and its memberships, never the users; foreign 404', async () => {
    const paula = s.userId('pilot@skyline.test');
    const a = await addGroup('Delete Me', [paula]);
    const r = await call('POST', `/pilot_groups/manager_delete/${a}.json`, 'instructor@skyline.test');
    expect(r.status).toBe(200);
    expect(
      await s.ctx.db.selectFrom('pilot_groups').select('id').where('id', '=', a).executeTakeFirst(),
    ).toBeUndefined();
    expect(await memberIds(a)).toEqual([]);
    expect((await userRow(s, paula)).deleted).toBe(0);
    const b = await addGroup('Delete Me Too', [paula]);
    expect((await call('DELETE', `/pilot_groups/manager_delete/${b}.json`, 'instructor@skyline.test')).status).toBe(
      200,
    );
    expect(await memberIds(b)).toEqual([]);
    const harborGroup = await addGroup('Harbor Keep', [], 'admin@harbor.test');
    expect((await call('POST', `/pilot_groups/manager_delete/${harborGroup}.json`, 'admin@skyline.test')).status).toBe(
      404,
    );
    expect(
      await s.ctx.db.selectFrom('pilot_groups').select('id').where('id', '=', harborGroup).executeTakeFirst(),
    ).toBeDefined();
  });

  it('manager_do changes only members whose state differs, never the caller or a higher role', async () => {
    const on = await addUser(s, { name: 'On', surname: 'Already' });
    const off = await addUser(s, { name: 'Off', surname: 'Sleeping', active: false });
    const instructor = s.userId('instructor@skyline.test');
    const admin = s.userId('admin@skyline.test');
    const id = await addGroup('Bulk', [on, off, instructor, admin]);
    const changeBefore = Number((await userRow(s, on)).change_no);

    const activate = await call('GET', `/pilot_groups/manager_do/${id}/1.json`, 'instructor@skyline.test');
    expect(activate.status).toBe(200);
    expect(activate.body).toMatchObject({ result: true, action: 1, changed: [off], skipped: [] });
    expect((await userRow(s, off)).active).toBe(1);
    expect(Number((await userRow(s, on)).change_no)).toBe(changeBefore);

    const deactivate = await call('GET', `/pilot_groups/manager_do/${id}/0.json`, 'instructor@skyline.test');
    expect(deactivate.status).toBe(200);
    expect(deactivate.body.changed.sort()).toEqual([on, off].sort());
    expect(deactivate.body.skipped.sort()).toEqual([instructor, admin].sort());
    expect((await userRow(s, on)).active).toBe(0);
    expect((await userRow(s, instructor)).active).toBe(1);
    expect((await userRow(s, admin)).active).toBe(1);

    const bad = await call('GET', `/pilot_groups/manager_do/${id}/2.json`, 'instructor@skyline.test');
    expect(bad.status).toBe(400);
    expect((await userRow(s, on)).active).toBe(0);
    const harborGroup = await addGroup('Harbor Bulk', [s.userId('pilot@harbor.test', 'harbor')], 'admin@harbor.test');
    expect((await call('GET', `/pilot_groups/manager_do/${harborGroup}/0.json`, 'admin@skyline.test')).status).toBe(
      404,
    );
    expect((await userRow(s, s.userId('pilot@harbor.test', 'harbor'))).active).toBe(1);
  });

  it('manager_do keeps the free plan within 100 active pilots: nothing changes (400)', async () => {
    const harbor = s.refs.companies.harbor;
    const count = async () =>
      Number(
        (
          await s.ctx.db
            .selectFrom('users')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('company_id', '=', harbor)
            .where('pilot', '=', 1)
            .where('active', '=', 1)
            .where('deleted', '=', 0)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const sleepers = [
      await addUser(s, { company: 'harbor', name: 'Sleepy', surname: 'One', active: false }),
      await addUser(s, { company: 'harbor', name: 'Sleepy', surname: 'Two', active: false }),
    ];
    const id = await addGroup('Harbor Sleepers', sleepers, 'admin@harbor.test');
    const missing = 99 - (await count());
    for (let i = 0; i < missing; i++) await addUser(s, { company: 'harbor', name: 'Filler', surname: `N${i}` });
    expect(await count()).toBe(99);
    const r = await call('GET', `/pilot_groups/manager_do/${id}/1.json`, 'admin@harbor.test');
    expect(r.status).toBe(400);
    expect(r.body.result).toBe(false);
    expect(await count()).toBe(99);
    for (const u of sleepers) expect((await userRow(s, u)).active).toBe(0);
    // One fits: after removing the second sleeper from the group the activation goes through.
    await call('POST', `/pilot_groups/manager_edit/${id}.json`, 'admin@harbor.test', {
      PilotGroup: { name: 'Harbor Sleepers', User: [{ id: sleepers[0] }] },
    });
    expect((await call('GET', `/pilot_groups/manager_do/${id}/1.json`, 'admin@harbor.test')).status).toBe(200);
    expect(await count()).toBe(100);
  });

  it('welcomize mails active members with an email: welcome, activation or confirm; nobody else', async () => {
    const confirmed = await addUser(s, { name: 'Cora', surname: 'Confirmed', email: 'cora@people.test', login: true });
    const unconfirmed = await addUser(s, {
      name: 'Uma',
      surname: 'Unconfirmed',
      email: 'uma@people.test',
      login: true,
      emailStatus: 'unconfirmed',
    });
    const pendingIdentity = uuidv7();
    const t = now();
    await s.ctx.db
      .insertInto('identities')
      .values({
        id: pendingIdentity,
        email: 'pete@people.test',
        password_hash: 'x',
        alerts: 1,
        message_alerts: 1,
        newsletter: 0,
        whatsapp: 0,
        created: t,
        modified: t,
      })
      .execute();
    await s.ctx.db
      .insertInto('email_tokens')
      .values({
        id: uuidv7(),
        purpose: 'activate',
        identity_id: pendingIdentity,
        user_id: null,
        company_id: null,
        email: 'pete@people.test',
        token_hash: 'h',
        expires: t + 3600,
        used_at: null,
        created: t,
      })
      .execute();
    const pending = await addUser(s, {
      name: 'Pete',
      surname: 'Pending',
      email: 'pete@people.test',
      identityId: pendingIdentity,
      emailStatus: 'pending',
    });
    const inactive = await addUser(s, {
      name: 'Ina',
      surname: 'Inactive',
      email: 'ina@people.test',
      login: true,
      active: false,
    });
    const noEmail = await addUser(s, { name: 'Noe', surname: 'Mail' });
    const id = await addGroup('Welcome Wagon', [confirmed, unconfirmed, pending, inactive, noEmail]);

    const r = await call('POST', `/pilot_groups/manager_welcomize/${id}.json`, 'instructor@skyline.test');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ result: true, sent: 3, mails: { activation: 1, confirm: 1, welcome: 1 } });
    expect((await mailsTo(s, 'cora@people.test')).map((m) => m.template)).toEqual(['welcome']);
    expect((await mailsTo(s, 'uma@people.test')).map((m) => m.template)).toEqual(['confirm']);
    expect((await mailsTo(s, 'pete@people.test')).map((m) => m.template)).toEqual(['activation']);
    expect(await mailsTo(s, 'ina@people.test')).toEqual([]);
    const harborGroup = await addGroup('Harbor Mail', [], 'admin@harbor.test');
    expect(
      (await call('POST', `/pilot_groups/manager_welcomize/${harborGroup}.json`, 'admin@skyline.test')).status,
    ).toBe(404);
  });
});
