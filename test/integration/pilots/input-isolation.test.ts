import { uuidv7 } from '@ops/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { addUser, garbageBodies, snapshot, tokens } from './people-helpers.ts';

/**
 * Every pilots endpoint: bad input is 4xx (never 500) and changes nothing; a
 * Harbor record is 404 for Skyline callers and is never changed or shown.
 */
describe.each(DIALECTS)('Pilots: bad input and company isolation on %s', (dialect) => {
  let s: TestServer;
  let tok: (email: string) => Promise<string>;
  let pia: string;
  let target: string;
  beforeAll(async () => {
    s = await startTestServer(dialect);
    tok = tokens(() => s);
    pia = s.userId('pilot@harbor.test', 'harbor');
    target = await addUser(s, { name: 'Robust', surname: 'Target', email: 'robust@people.test', login: true });
    await tok('admin@skyline.test');
  });
  afterAll(() => s?.close());

  /** A flight type of Harbor, written through the data layer. */
  const harborFlightType = async () => {
    const id = uuidv7();
    await (s.ctx.db as any)
      .insertInto('flight_types')
      .values({
        id,
        company_id: s.refs.companies.harbor,
        change_no: 0,
        deleted: 0,
        created: 1,
        modified: 1,
        name: 'Harbor Type',
        color: null,
        booking: 0,
        pic_flight_time: 'pic',
        sic_flight_time: 'none',
        supervisor_flight_time: 'none',
        sort_order: 0,
      })
      .execute();
    return id;
  };
  const as = async (email: string, method: string, path: string, body?: unknown) =>
    s.api(method, path, { token: await tok(email), ...(body === undefined ? {} : { body }) });

  it('an unknown or malformed id is 404 (ids are opaque text), an over-long one 400', async () => {
    for (const path of [
      '/pilots/view/not-an-id.json',
      '/pilots/view/1%27%20OR%201=1.json',
      '/pilots/totals/not-an-id.json',
      '/pilots/changes/not-an-id.json',
      `/pilots/view/${uuidv7()}.json`,
    ]) {
      const r = await as('admin@skyline.test', 'GET', path);
      expect(r.status, path).toBe(404);
      expect(r.body.result, path).toBe(false);
    }
    for (const path of [
      `/pilots/view/${'x'.repeat(65)}.json`,
      `/pilots/totals/${'x'.repeat(65)}.json`,
      `/pilots/changes/${'x'.repeat(65)}.json`,
    ]) {
      expect((await as('admin@skyline.test', 'GET', path)).status, path).toBe(400);
    }
  });

  it('malformed queries and named parameters are 400 on every GET endpoint', async () => {
    for (const path of [
      `/pilots/changes/${target}.json?page=0`,
      `/pilots/changes/${target}.json?limit=501`,
      `/pilots/changes/${target}.json?page=abc`,
      '/pilots/list/active:2.json',
      '/pilots/list/pilot:yes.json',
      '/pilots/list/active.json',
      '/pilots/index/page:-1.json',
      '/pilots/index/limit:0.json',
      '/pilots/index/user_group_id:abc.json',
      `/pilots/index/pilot_group:${'x'.repeat(65)}.json`,
      '/pilots/index/active:maybe.json',
      '/pilots/index/excel:perhaps.json',
      `/pilots/index/search:${'x'.repeat(101)}.json`,
      '/pilots/index/nonsense.json',
      // Out-of-range numbers would overflow SQL integers (a 500 on PostgreSQL): refused up front.
      '/pilots/index/user_group_id:99999999999.json',
      '/pilots/index/user_group_id:175.json',
      '/pilots/index/page:9007199254740991/limit:100000.json',
      '/pilots/index/page:1000001.json',
      '/pilots/index/excel:1/page:9007199254740991.json',
    ]) {
      const r = await as('admin@skyline.test', 'GET', path);
      expect(r.status, path).toBe(400);
      expect(r.body.result, path).toBe(false);
    }
  });

  it('get_currency tolerates unreadable windows (defaults) and answers 404, not 500, for an unknown user', async () => {
    const r = await as('admin@skyline.test', 'GET', '/pilots/get_currency/null/x/-5/abc.json');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ d1: 30, d2: 90, d3: 90 });
    // `0`, `null` and an empty user mean the caller.
    for (const id of ['0', 'null', 'NULL']) {
      const me = await as('admin@skyline.test', 'GET', `/pilots/get_currency/${id}/30.json`);
      expect(me.status, id).toBe(200);
      expect(me.body.user_id, id).toBe(s.userId('admin@skyline.test'));
    }
    for (const id of ['not-an-id', uuidv7(), "1'--"]) {
      const x = await as('admin@skyline.test', 'GET', `/pilots/get_currency/${encodeURIComponent(id)}.json`);
      expect(x.status, id).toBe(404);
    }
  });

  it('create: malformed bodies are 400 and create nothing', async () => {
    const before = await snapshot(s);
    const bodies = [
      ...garbageBodies('User', { user_group_id: 190, email: 'ok@people.test', active: true, send_email: false }).map(
        (User) => ({ ...(User as object), UserDetail: { name: 'A', surname: 'B' } }),
      ),
      ...garbageBodies('UserDetail', { name: 'A', surname: 'B', country_id: 'ES', timezone_id: 'Europe/Madrid' }),
      { User: { email: 'not an email' }, UserDetail: { name: 'A', surname: 'B' } },
      { User: { user_group_id: 999 }, UserDetail: { name: 'A', surname: 'B' } },
      { User: { expiration: '2025-02-30' }, UserDetail: { name: 'A', surname: 'B' } },
      { UserDetail: { name: 'A', surname: 'B', timezone_id: 'Mars/Olympus' } },
    ];
    for (const body of bodies) {
      const r = await as('admin@skyline.test', 'POST', '/pilots/create.json', body);
      expect(r.status, JSON.stringify(body).slice(0, 200)).toBe(400);
      expect(r.body.result).toBe(false);
    }
    expect(await snapshot(s)).toEqual(before);
  });

  it('edit: malformed bodies are 400 with flattened errors and change nothing', async () => {
    const before = await snapshot(s);
    const bodies = [
      ...garbageBodies('User', {
        id: target,
        user_group_id: 200,
        email: 'robust2@people.test',
        active: true,
        alerts: true,
      }).map((User) => ({ ...(User as object) })),
      ...garbageBodies('UserDetail', { name: 'A', surname: 'B', country_id: 'ES', flight_hours: 3 }).map((d) => ({
        User: { id: target },
        ...(d as object),
      })),
      { User: { id: target }, AttributedAircraft: 'text' },
      { User: { id: target }, FlightType: 42 },
      { User: { id: target }, PilotGroup: [{ nested: true }] },
      { User: { id: target, email: 'not an email' } },
      { User: { id: target, user_group_id: 175 } },
    ];
    for (const body of bodies) {
      const r = await as('admin@skyline.test', 'POST', '/pilots/edit.json', body);
      expect(r.status, JSON.stringify(body).slice(0, 200)).toBe(400);
      expect(r.body.result).toBe(false);
      expect(Array.isArray(r.body.errors)).toBe(true);
    }
    expect(await snapshot(s)).toEqual(before);
  });

  it('create and edit: a base or supervisor of another company is 404 and nothing changes', async () => {
    const before = await snapshot(s);
    const republic = s.refs.bases.Republic;
    for (const body of [
      { User: { base_id: republic }, UserDetail: { name: 'For', surname: 'Eign' } },
      {
        User: { supervisor_id: s.userId('admin@harbor.test', 'harbor') },
        UserDetail: { name: 'For', surname: 'Eign' },
      },
    ]) {
      expect((await as('admin@skyline.test', 'POST', '/pilots/create.json', body)).status).toBe(404);
    }
    for (const body of [
      { User: { id: target, base_id: republic } },
      { User: { id: target, supervisor_id: pia } },
      { User: { id: target }, FlightType: [await harborFlightType()] },
      { User: { id: target }, PilotGroup: [uuidv7()] },
      { User: { id: target }, AttributedAircraft: ['not-an-aircraft'] },
      { User: { id: pia }, UserDetail: { city: 'Hijacked' } },
    ]) {
      const r = await as('admin@skyline.test', 'POST', '/pilots/edit.json', body);
      expect(r.status, JSON.stringify(body)).toBe(404);
    }
    expect(await snapshot(s)).toEqual(before);
  });

  it('every read of a Harbor pilot is 404 for Skyline callers and shows nothing of them', async () => {
    for (const path of [
      `/pilots/view/${pia}.json`,
      `/pilots/totals/${pia}.json`,
      `/pilots/changes/${pia}.json`,
      `/pilots/get_currency/${pia}.json`,
      `/pilots/certificates/${pia}.json`,
    ]) {
      const r = await as('admin@skyline.test', 'GET', path);
      expect(r.status, path).toBe(404);
      expect(JSON.stringify(r.body), path).not.toContain('Pia');
    }
    // Lists and the directory never include them, whatever the filters.
    const list = await as('admin@skyline.test', 'GET', '/pilots/list/active:all/pilot:all.json');
    expect(list.body.pilots.map((p: any) => p.id)).not.toContain(pia);
    for (const named of [
      '/search:Pia/limit:1000',
      `/search:${pia}`,
      '/search:pilot%40harbor',
      `/base_id:${s.refs.bases.Republic}`,
    ]) {
      const r = await as('admin@skyline.test', 'GET', `/pilots/index${named}.json`);
      expect(r.status, named).toBe(200);
      expect(
        r.body.pilots.map((p: any) => p.User.id),
        named,
      ).not.toContain(pia);
    }
  });

  it('currency requirements: malformed bodies are 400 and change nothing; a Harbor admin only changes Harbor', async () => {
    const before = await snapshot(s);
    for (const body of [
      ...garbageBodies(null, { landings: 3, night_landings: 1, hours: 0 }),
      { landings: 101, night_landings: 1, hours: 0 },
      { landings: 1.5, night_landings: 1, hours: 0 },
      {},
    ]) {
      const r = await as('admin@skyline.test', 'POST', '/pilots/currency_requirements.json', body);
      expect(r.status, JSON.stringify(body).slice(0, 120)).toBe(400);
    }
    expect(await snapshot(s)).toEqual(before);
    expect(
      (
        await as('admin@harbor.test', 'POST', '/pilots/currency_requirements.json', {
          landings: 5,
          night_landings: 2,
          hours: 1,
        })
      ).status,
    ).toBe(200);
    expect((await as('admin@skyline.test', 'GET', '/pilots/currency_requirements.json')).body.requirements).toEqual({
      landings: 3,
      night_landings: 1,
      hours: 0,
    });
  });
});
