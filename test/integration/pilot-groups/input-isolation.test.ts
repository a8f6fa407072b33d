import { uuidv7 } from '@ops/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { addUser, garbageBodies, mailsTo, snapshot, tokens, userRow } from '../pilots/people-helpers.ts';

/** Pilot groups: bad input (4xx, never 500, nothing changed) and company isolation on every endpoint. */
describe.each(DIALECTS)('Pilot groups: input and isolation on %s', (dialect) => {
  let s: TestServer;
  let tok: (email: string) => Promise<string>;
  let mine: string;
  let harborGroup: string;
  beforeAll(async () => {
    s = await startTestServer(dialect);
    tok = tokens(() => s);
    const m = await s.api('POST', '/pilot_groups/manager_add.json', {
      token: await tok('admin@skyline.test'),
      body: { PilotGroup: { name: 'Mine', User: [{ id: s.userId('pilot@skyline.test') }] } },
    });
    mine = m.body.id;
    const pia = s.userId('pilot@harbor.test', 'harbor');
    const h = await s.api('POST', '/pilot_groups/manager_add.json', {
      token: await tok('admin@harbor.test'),
      body: { PilotGroup: { name: 'Harbor Crew', User: [{ id: pia }] } },
    });
    harborGroup = h.body.id;
  });
  afterAll(() => s?.close());

  const as = async (method: string, path: string, body?: unknown, email = 'admin@skyline.test') =>
    s.api(method, path, { token: await tok(email), ...(body === undefined ? {} : { body }) });

  it('add and edit: malformed bodies are 400 and change nothing', async () => {
    const before = await snapshot(s);
    const fields = { name: 'Valid Group', color: '#123456', User: [{ id: s.userId('student@skyline.test') }] };
    for (const [method, path] of [
      ['POST', '/pilot_groups/manager_add.json'],
      ['POST', `/pilot_groups/manager_edit/${mine}.json`],
      ['PUT', `/pilot_groups/manager_edit/${mine}.json`],
    ] as const) {
      for (const body of [
        ...garbageBodies('PilotGroup', fields),
        ...garbageBodies(null, fields).slice(4),
        { PilotGroup: { ...fields, color: 'red' } },
        { PilotGroup: { ...fields, User: [{ id: { $ne: null } }] } },
      ]) {
        const r = await as(method, path, body);
        // A scalar `User` reads as one member id, so it may be an unknown member (404) rather than 400.
        expect([400, 404], `${method} ${path} ${JSON.stringify(body).slice(0, 150)}`).toContain(r.status);
        expect(r.body.result).toBe(false);
      }
    }
    for (const path of [
      `/pilot_groups/manager_do/${mine}/yes.json`,
      `/pilot_groups/manager_do/${mine}/-1.json`,
      `/pilot_groups/manager_view/${'x'.repeat(65)}.json`,
    ]) {
      expect((await as('GET', path)).status, path).toBe(400);
    }
    expect(await snapshot(s)).toEqual(before);
  });

  it('every endpoint is for roles <= 150: each role above gets 403, sends no mail and changes nothing', async () => {
    const emails = [
      'dispatch@skyline.test',
      'pilot@skyline.test',
      'student@skyline.test',
      'auditor@skyline.test',
      'mechanic@skyline.test',
    ];
    // Sign in first: a login writes sessions and (for the auditor) a code mail.
    for (const email of emails) await tok(email);
    const before = await snapshot(s);
    for (const email of emails) {
      for (const [method, path, body] of [
        ['GET', '/pilot_groups/manager_index.json', undefined],
        ['GET', `/pilot_groups/manager_view/${mine}.json`, undefined],
        ['GET', `/pilot_groups/manager_pilots/${mine}.json`, undefined],
        ['POST', '/pilot_groups/manager_add.json', { PilotGroup: { name: 'Sneaky' } }],
        ['GET', `/pilot_groups/manager_edit/${mine}.json`, undefined],
        ['POST', `/pilot_groups/manager_edit/${mine}.json`, { PilotGroup: { name: 'Sneaky', User: [] } }],
        ['PUT', `/pilot_groups/manager_edit/${mine}.json`, { PilotGroup: { name: 'Sneaky', User: [] } }],
        ['POST', `/pilot_groups/manager_delete/${mine}.json`, {}],
        ['DELETE', `/pilot_groups/manager_delete/${mine}.json`, undefined],
        ['GET', `/pilot_groups/manager_do/${mine}/0.json`, undefined],
        ['GET', `/pilot_groups/manager_do/${mine}/1.json`, undefined],
        ['POST', `/pilot_groups/manager_welcomize/${mine}.json`, {}],
      ] as const) {
        const r = await as(method, path, body, email);
        expect(r.status, `${email} ${method} ${path}`).toBe(403);
        expect(r.body.result).toBe(false);
        expect(JSON.stringify(r.body)).not.toContain('Mine');
      }
    }
    expect(await snapshot(s)).toEqual(before);
  });

  it('edit with no name (empty body or wrapper) is 400 with the name error; nothing changes', async () => {
    const before = await snapshot(s);
    for (const [method, body] of [
      ['POST', {}],
      ['PUT', {}],
      ['POST', { PilotGroup: {} }],
      ['PUT', { data: { PilotGroup: { User: [] } } }],
      ['POST', { PilotGroup: { name: '   ' } }],
    ] as const) {
      const r = await as(method, `/pilot_groups/manager_edit/${mine}.json`, body);
      expect(r.status, `${method} ${JSON.stringify(body)}`).toBe(400);
      expect(r.body.errors.name[0]).toBe('Name is required');
    }
    expect(await snapshot(s)).toEqual(before);
  });

  it('every endpoint answers 404 for a Harbor group, or one that does not exist, and changes nothing', async () => {
    const before = await snapshot(s);
    for (const id of [harborGroup, uuidv7(), 'no-such-group']) {
      for (const [method, path, body] of [
        ['GET', `/pilot_groups/manager_view/${id}.json`, undefined],
        ['GET', `/pilot_groups/manager_pilots/${id}.json`, undefined],
        ['GET', `/pilot_groups/manager_edit/${id}.json`, undefined],
        ['POST', `/pilot_groups/manager_edit/${id}.json`, { PilotGroup: { name: 'Taken' } }],
        ['PUT', `/pilot_groups/manager_edit/${id}.json`, { PilotGroup: { name: 'Taken' } }],
        ['POST', `/pilot_groups/manager_delete/${id}.json`, {}],
        ['DELETE', `/pilot_groups/manager_delete/${id}.json`, undefined],
        ['GET', `/pilot_groups/manager_do/${id}/0.json`, undefined],
        ['GET', `/pilot_groups/manager_do/${id}/1.json`, undefined],
        ['POST', `/pilot_groups/manager_welcomize/${id}.json`, {}],
      ] as const) {
        const r = await as(method, path, body);
        expect(r.status, `${method} ${path}`).toBe(404);
        expect(JSON.stringify(r.body)).not.toContain('Harbor Crew');
      }
    }
    // A Harbor member named in a Skyline group is 404 (add and edit), and nothing is written.
    const pia = s.userId('pilot@harbor.test', 'harbor');
    expect(
      (await as('POST', '/pilot_groups/manager_add.json', { PilotGroup: { name: 'With Pia', User: [pia] } })).status,
    ).toBe(404);
    expect(
      (
        await as('PUT', `/pilot_groups/manager_edit/${mine}.json`, {
          PilotGroup: { name: 'Mine', User: { 0: { id: pia } } },
        })
      ).status,
    ).toBe(404);
    const index = await as('GET', '/pilot_groups/manager_index.json');
    expect(index.body.pilotGroups.map((g: any) => g.PilotGroup.id)).not.toContain(harborGroup);
    expect(await snapshot(s)).toEqual(before);
    expect((await userRow(s, pia)).active).toBe(1);
    expect(await mailsTo(s, 'pilot@harbor.test')).toEqual([]);
  });

  it('bulk activation changes only members whose state differs and sends no mail; deleted members are left alone', async () => {
    const on = await addUser(s, { name: 'Still', surname: 'On', email: 'still.on@people.test' });
    const off = await addUser(s, { name: 'Was', surname: 'Off', email: 'was.off@people.test', active: false });
    const gone = await addUser(s, { name: 'Long', surname: 'Gone', active: false });
    const g = await as('POST', '/pilot_groups/manager_add.json', {
      PilotGroup: { name: 'Bulk Only', User: [on, off, gone] },
    });
    await s.ctx.db.updateTable('users').set({ deleted: 1 }).where('id', '=', gone).execute();
    const before = { on: await userRow(s, on), gone: await userRow(s, gone) };
    const r = await as('GET', `/pilot_groups/manager_do/${g.body.id}/1.json`);
    expect(r.status).toBe(200);
    expect(r.body.changed).toEqual([off]);
    expect(await userRow(s, on)).toEqual(before.on);
    expect(await userRow(s, gone)).toEqual(before.gone);
    expect(await mailsTo(s, 'was.off@people.test')).toEqual([]);
    const history = await as('GET', `/pilots/changes/${off}.json`);
    expect(history.body.changes[0].UserChange.fields).toEqual([{ field: 'active', from: 0, to: 1 }]);
  });
});
