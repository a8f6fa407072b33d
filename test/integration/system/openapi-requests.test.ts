/**
 * Issue 32: the request side of /openapi.json as a generic client follows it. Query parameters are
 * named one by one, paths are unambiguous, named-parameter routes take the same filters as a query
 * string, every operation has an id and a description, records are named schemas. The calls go
 * through openapi-fetch over the generated types, as a generated client would send them.
 */
import { allRoutes } from '@ops/server/areas/index';
import { buildOpenApi, openApiPaths, operationIdOf } from '@ops/server/http/openapi';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, apiClient } from '../../api/client.ts';
import { addFlight, DAY, flightTypeIds, HOUR, now } from '../pilots/people-helpers.ts';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';

type Param = { name: string; in: string; required?: boolean; schema: Record<string, unknown> };
type Op = {
  operationId: string;
  description: string;
  parameters: Param[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
};
const doc = buildOpenApi(allRoutes(), '0.0.0') as {
  paths: Record<string, Record<string, Op>>;
  components: { schemas: Record<string, unknown> };
};
const ops = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => ({ path, method, op })),
);

describe('the OpenAPI document, request side', () => {
  it('names every query parameter with its type (no JSON `query` parameter)', () => {
    expect(ops.filter(({ op }) => op.parameters.some((p) => p.name === 'query' && p.in === 'query'))).toEqual([]);
    const users = doc.paths['/manager/users.json'].get.parameters;
    expect(users.find((p) => p.name === 'page')).toMatchObject({
      in: 'query',
      required: false,
      schema: { type: 'integer', minimum: 1 },
    });
    expect(users.find((p) => p.name === 'limit')).toMatchObject({
      in: 'query',
      schema: { type: 'integer', maximum: 100000 },
    });
    const schedules = doc.paths['/schedules/index.json'].get.parameters;
    expect(
      schedules
        .filter((p) => p.required)
        .map((p) => p.name)
        .sort(),
    ).toEqual(['from', 'to']);
    expect(schedules.map((p) => p.name)).toEqual(expect.arrayContaining(['aircraft_id', 'user_id', 'base_id']));
    const notifications = doc.paths['/notifications.json'].get.parameters;
    expect(notifications.find((p) => p.name === 'unread')?.schema).toMatchObject({ enum: ['0', '1'] });
  });

  it('gives every operation a unique id derived from method and path, and a description saying who may call', () => {
    const ids = ops.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => /^[a-z][A-Za-z0-9]*$/.test(id))).toBe(true);
    expect(doc.paths['/manager/users.json'].get.operationId).toBe('getManagerUsers');
    expect(doc.paths['/pilots/get_currency/{userId}/{d1}.json'].get.operationId).toBe('getPilotsGetCurrencyByUserIdD1');
    expect(operationIdOf('POST', '/webhooks/edit/{id}.json')).toBe('postWebhooksEditById');
    for (const { path, method, op } of ops)
      expect(op.description, `${method} ${path}`).toMatch(/\*\*Who may call\*\*: /);
    expect(doc.paths['/manager/api_keys/add.json'].post.description).toMatch(/Session only/);
    expect(doc.paths['/manager/users.json'].get.description).toMatch(/roles 1 \(Platform administrator\), 100 /);
    expect(doc.paths['/home/version.json'].get.description).toContain('anyone');
  });

  it('keeps records as named schemas: no object with properties is left inline in an operation', () => {
    const inline: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (!node || typeof node !== 'object') return;
      const o = node as Record<string, unknown>;
      if (o.type === 'object' && o.properties && Object.keys(o.properties).length) inline.push(at);
      for (const [k, v] of Object.entries(o)) walk(v, `${at}/${k}`);
    };
    for (const { path, method, op } of ops) {
      walk(op.requestBody, `${method} ${path} body`);
      walk(op.responses, `${method} ${path} responses`);
    }
    expect(inline).toEqual([]);
    expect(Object.keys(doc.components.schemas).length).toBeGreaterThan(100);
    const refs = JSON.stringify(doc.paths).match(/#\/components\/schemas\/\w+/g) ?? [];
    for (const r of new Set(refs)) expect(doc.components.schemas[r.split('/').pop() as string], r).toBeDefined();
  });

  it('has no two paths that are the same once their parameters are filled in', () => {
    const shapes = Object.keys(doc.paths).map((p) => p.replace(/\{\w+\}/g, '{}'));
    const twice = shapes.filter((s, i) => shapes.indexOf(s) !== i);
    expect(twice).toEqual([]);
    // Adjacent optional segments stand for their prefixes, the forms Express actually matches.
    expect(openApiPaths('/pilots/get_currency{/:userId}{/:d1}{/:d2}{/:d3}.json')).toEqual([
      '/pilots/get_currency.json',
      '/pilots/get_currency/{userId}.json',
      '/pilots/get_currency/{userId}/{d1}.json',
      '/pilots/get_currency/{userId}/{d1}/{d2}.json',
      '/pilots/get_currency/{userId}/{d1}/{d2}/{d3}.json',
    ]);
    expect(doc.paths['/reports/metar/{date}.json']).toBeUndefined();
    expect(doc.paths['/reports/stats_flight_types/{aircraftId}.json']).toBeUndefined();
    expect(doc.paths['/reports/stats_flight_types/{userId}/{aircraftId}.json']).toBeDefined();
  });

  it('documents every filter of the named-parameter routes as query parameters of the plain path', () => {
    const load = doc.paths['/flights/load.json'].get.parameters.map((p) => p.name);
    expect(load).toEqual(['page', 'limit', 'from', 'to', 'aircraft', 'pilot', 'base', 'flight_type', 'status']);
    expect(doc.paths['/flights/load.json'].get.parameters.find((p) => p.name === 'status')).toMatchObject({
      description: expect.stringContaining('LANDED'),
    });
    const index = doc.paths['/pilots/index.json'].get.parameters.map((p) => p.name);
    expect(index).toEqual(
      expect.arrayContaining([
        'page',
        'search',
        'user_group_id',
        'pilot_group',
        'base_id',
        'active',
        'pilot',
        'limit',
        'excel',
      ]),
    );
    const named = doc.paths['/flights/load/{named}.json'].get.parameters[0];
    expect(named).toMatchObject({ name: 'named', in: 'path', schema: { pattern: expect.any(String) } });
  });
});

describe.each(DIALECTS)('a generated client follows the document on %s', (dialect) => {
  let s: TestServer;
  let admin: ApiClient;
  let adminToken: string;
  beforeAll(async () => {
    s = await startTestServer(dialect, { env: { JOBS: 'off' } });
    adminToken = await s.login('admin@skyline.test');
    admin = apiClient(s.url, adminToken);
    // Five landed flights of the admin, so lists, pages and totals have something to show.
    const types = await flightTypeIds(s);
    for (let i = 1; i <= 5; i++) {
      await addFlight(s, {
        pic: s.userId('admin@skyline.test'),
        aircraft: s.refs.aircraft['EC-ABC'],
        type: types.Solo,
        landings: i,
        block: HOUR,
        onblocks: now() - i * DAY,
      });
    }
  });
  afterAll(() => s?.close());

  /** The same request sent by hand; `time` and `now` (the server's clock) are left out of the comparison. */
  const raw = async (path: string) => {
    const r = await fetch(`${s.url}/api/v1${path}`, { headers: { Authorization: `Bearer ${adminToken}` } });
    return { status: r.status, body: timeless(await r.json()) };
  };
  const timeless = <T>(body: T): T => {
    if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
    const { time: _t, now: _n, ...rest } = body as Record<string, unknown>;
    return rest as T;
  };

  it('pages /manager/users.json with ordinary query parameters', async () => {
    const all = await admin.GET('/manager/users.json');
    const total = Number(all.response.headers.get('X-Total-Posts'));
    expect(total).toBeGreaterThan(3);
    const page1 = await admin.GET('/manager/users.json', { params: { query: { page: 1, limit: 2 } } });
    const page2 = await admin.GET('/manager/users.json', { params: { query: { page: 2, limit: 2 } } });
    expect(page1.response.status).toBe(200);
    expect(page1.data).toHaveLength(2);
    expect(page2.data).toHaveLength(2);
    expect(page1.response.headers.get('X-Number-Pages')).toBe(String(Math.ceil(total / 2)));
    expect(page2.response.headers.get('X-Actual-Page')).toBe('2');
    expect(JSON.stringify(page1.data)).not.toBe(JSON.stringify(page2.data));
    // Out of the documented bounds: a 400, as the document says.
    const bad = await admin.GET('/manager/users.json', { params: { query: { page: 0 } } });
    expect(bad.response.status).toBe(400);
  });

  it('filters /schedules/index.json with ordinary query parameters; the required ones are required', async () => {
    // At most 62 days per request (a documented rule of the route).
    const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
    const from = day(-10);
    const to = day(40);
    const all = await admin.GET('/schedules/index.json', { params: { query: { from, to } } });
    expect(all.response.status).toBe(200);
    const aircraft = s.refs.aircraft['EC-ABC'];
    const one = await admin.GET('/schedules/index.json', { params: { query: { from, to, aircraft_id: aircraft } } });
    expect(one.response.status).toBe(200);
    expect(await raw(`/schedules/index.json?from=${from}&to=${to}&aircraft_id=${aircraft}`)).toEqual({
      status: 200,
      body: one.data,
    });
    // @ts-expect-error `to` is required by the document
    const missing = await admin.GET('/schedules/index.json', { params: { query: { from } } });
    expect(missing.response.status).toBe(400);
  });

  it('answers the named-parameter routes the same for segments, a query string and an encoded slash', async () => {
    const named = await raw('/flights/load/status:landed/page:2/limit:2.json');
    expect(named.status).toBe(200);
    expect((named.body as { flights: unknown[] }).flights).toHaveLength(2);
    const query = await admin.GET('/flights/load.json', { params: { query: { status: 'landed', page: 2, limit: 2 } } });
    expect(query.response.status).toBe(200);
    expect(timeless(query.data)).toEqual(named.body);
    const encoded = await admin.GET('/flights/load/{named}.json', {
      params: { path: { named: 'status:landed/page:2/limit:2' } },
    });
    expect(encoded.response.status).toBe(200);
    expect(timeless(encoded.data)).toEqual(named.body);
    expect(named.body).not.toEqual((await raw('/flights/load/status:landed/page:1/limit:2.json')).body);
    // A bad filter is the same 400 either way.
    const badNamed = await raw('/flights/load/status:FLYING.json');
    const badQuery = await admin.GET('/flights/load.json', { params: { query: { status: 'FLYING' } } });
    expect(badNamed.status).toBe(400);
    expect(badQuery.response.status).toBe(400);
    expect(badQuery.error).toEqual(badNamed.body);

    const dir = await raw('/pilots/index/active:1/limit:2/page:2.json');
    expect(dir.status).toBe(200);
    const dirQuery = await admin.GET('/pilots/index.json', { params: { query: { active: '1', limit: 2, page: 2 } } });
    expect(dirQuery.data).toEqual(dir.body);
    const list = await raw('/pilots/list/pilot:all.json');
    const listQuery = await admin.GET('/pilots/list.json', { params: { query: { pilot: 'all' } } });
    expect(listQuery.data).toEqual(list.body);
    expect(list.body).not.toEqual((await raw('/pilots/list.json')).body);
  });

  it('answers each documented variant of the positional routes as documented', async () => {
    const me = s.userId('admin@skyline.test');
    // `get_currency/{userId}/{d1}` with `null` for the caller: d1 = 30, the spec's form with the id gives the same.
    const byNull = await admin.GET('/pilots/get_currency/{userId}/{d1}.json', {
      params: { path: { userId: 'null', d1: '30' } },
    });
    expect(byNull.response.status).toBe(200);
    expect(byNull.data).toMatchObject({ user_id: me, d1: 30 });
    expect(byNull.data?.windows.landings.days).toBe(30);
    const byId = await raw(`/pilots/get_currency/${me}/30.json`);
    expect(byId).toEqual({ status: 200, body: timeless(byNull.data) });
    const d3 = await admin.GET('/pilots/get_currency/{userId}/{d1}/{d2}/{d3}.json', {
      params: { path: { userId: 'null', d1: '30', d2: '90', d3: '45' } },
    });
    expect(d3.data).toMatchObject({ user_id: me, d3: 45 });

    // stats_flight_types of an aircraft: the user segment is `null`, as documented.
    const aircraft = s.refs.aircraft['EC-ABC'];
    const stats = await admin.GET('/reports/stats_flight_types/{userId}/{aircraftId}.json', {
      params: { path: { userId: 'null', aircraftId: aircraft } },
    });
    expect(stats.response.status).toBe(200);
    expect(await raw(`/reports/stats_flight_types/null/${aircraft}.json`)).toEqual({ status: 200, body: stats.data });

    // total_landings of the caller since an instant, every segment in its documented place.
    const landings = await admin.GET('/reports/total_landings/{userId}/{aircraftId}/{since}.json', {
      params: { path: { userId: me, aircraftId: 'null', since: '0' } },
    });
    expect(landings.response.status).toBe(200);
    expect(await raw(`/reports/total_landings/${me}.json`)).toEqual({ status: 200, body: landings.data });
  });

  it('writes through the generated client: creates, reads and removes a webhook endpoint', async () => {
    const add = await admin.POST('/webhooks/add.json', {
      body: { url: 'http://127.0.0.1:9/generic', events: ['flight.canceled'] },
    });
    expect(add.response.status).toBe(200);
    const id = add.data?.id as string;
    const view = await admin.GET('/webhooks/view/{id}.json', { params: { path: { id } } });
    expect(view.data?.endpoint).toMatchObject({ id, url: 'http://127.0.0.1:9/generic' });
    expect((await admin.POST('/webhooks/delete/{id}.json', { params: { path: { id } } })).response.status).toBe(200);
    expect((await admin.GET('/webhooks/view/{id}.json', { params: { path: { id } } })).response.status).toBe(404);
  });

  it('runs docs/example-client.mjs, which knows only the document', async () => {
    const script = path.resolve(import.meta.dirname, '../../../docs/example-client.mjs');
    const { stdout } = await promisify(execFile)(process.execPath, [script], {
      env: { ...process.env, OPS: s.url, OPS_EMAIL: 'admin@skyline.test', OPS_PASSWORD: 'demo1234' },
    });
    expect(stdout, stdout).toMatch(/: \d+ operations/);
    expect(stdout).toMatch(/users page 1: 2 of \d+/);
    expect(stdout, stdout).toMatch(/landed flights on page 1: [1-5]/);
    expect(stdout).toContain('webhook added: 200');
    expect(stdout).toContain('webhook read back: https://example.test/hook');
  });
});
