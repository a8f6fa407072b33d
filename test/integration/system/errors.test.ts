import { allRoutes } from '@ops/server/areas/index';
import { match } from 'path-to-regexp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';

describe.each(DIALECTS)('public endpoints and errors on %s', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(dialect);
  });
  afterAll(() => s?.close());

  it('version and health are public', async () => {
    const v = await s.api('GET', '/home/version.json');
    expect(v.status).toBe(200);
    expect(v.body.version).toMatch(/^\d+\.\d+\.\d+/);
    const h = await fetch(`${s.url}/health`);
    expect(await h.json()).toMatchObject({ status: 'ok', database: dialect });
  });

  it('OpenAPI 3.1 is public and lists every registered route', async () => {
    const r = await fetch(`${s.url}/openapi.json`);
    const doc = (await r.json()) as any;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/login.json'].post.security).toEqual([]);
    expect(doc.paths['/aircraft/view/{id}.json'].get.security).toEqual([{ bearer: [] }]);
    expect(doc.paths['/manager/api_keys/add.json'].post.requestBody).toBeDefined();
  });

  it('an unknown route answers a JSON 404', async () => {
    const r = await s.api('GET', '/no/such/thing.json');
    expect(r.status).toBe(404);
    expect(r.body.result).toBe(false);
  });

  it('the API answers under its base in any letter case and with a query string; a longer first segment is no API path', async () => {
    for (const path of ['/api/v1/home/version.json', '/API/V1/home/version.json', '/api/v1/home/version.json?x=1']) {
      const r = await fetch(`${s.url}${path}`);
      expect(r.status, path).toBe(200);
      expect(((await r.json()) as { version: string }).version).toMatch(/^\d+\.\d+\.\d+/);
    }
    for (const path of ['/api/v1x/home/version.json', '/api/v1', '/api/v1?x=1']) {
      const r = await fetch(`${s.url}${path}`);
      expect(r.status, path).toBe(404);
      expect(((await r.json()) as { result: boolean }).result).toBe(false);
    }
  });

  it('malformed JSON answers 400 and changes nothing', async () => {
    const r = await s.api('POST', '/login.json', { body: '{"email": "x@y.z",' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ result: false, message: 'Malformed request body: not valid JSON' });
  });

  it('every path that only takes POST answers other methods with 400 (Part A 7), across all areas', async () => {
    const byPath = new Map<string, Set<string>>();
    for (const r of allRoutes()) {
      const methods = byPath.get(r.path) ?? new Set<string>();
      for (const m of Array.isArray(r.method) ? r.method : [r.method]) methods.add(m);
      byPath.set(r.path, methods);
    }
    // A route may declare another answer for other methods (upload complete: 405, Part A 4.9).
    const declared = new Set(
      allRoutes()
        .filter((r) => r.otherMethods && r.otherMethods !== 400)
        .map((r) => r.path),
    );
    const postOnly = [...byPath].filter(([p, m]) => m.size === 1 && m.has('POST') && !declared.has(p)).map(([p]) => p);
    expect(postOnly.length).toBeGreaterThan(60);
    // Express matches a GET route first where its pattern also takes this URL (`/pilots/certificates{/:userId}.json`).
    const getMatchers = [...byPath].filter(([, m]) => m.has('GET')).map(([p]) => match(p));
    const token = await s.login('admin@skyline.test');
    let checked = 0;
    for (const p of postOnly) {
      const url = p.replace(/\{\/:(\w+)\}/g, '/1').replace(/:(\w+)/g, '1');
      if (getMatchers.some((m) => m(url))) continue;
      const r = await s.api('GET', url, { token });
      expect(r.status, `GET ${p}`).toBe(400);
      expect(r.body.result).toBe(false);
      checked++;
    }
    expect(checked).toBeGreaterThan(60);
    // A path with a GET route keeps it.
    expect((await s.api('GET', '/manager/companies/permissions.json', { token })).status).toBe(200);
  });

  it('a NUL character in a path, query or body answers 400 and changes nothing', async () => {
    const token = await s.login('admin@skyline.test');
    const before = await s.api('GET', '/bases/index.json', { token });
    const cases = [
      s.api('GET', '/bases/view/1%00.json', { token }),
      s.api('GET', '/pilots/index.json?search=a%00b', { token }),
      s.api('POST', '/bases/add.json', { token, body: { Base: { name: 'Nul\u0000 Field' } } }),
      s.api('POST', '/bases/add.json', { token, body: { Base: { ['na\u0000me']: 'x' } } }),
    ];
    for (const r of await Promise.all(cases)) {
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ result: false, errors: expect.any(Object) });
    }
    expect((await s.api('GET', '/bases/index.json', { token })).body).toEqual(before.body);
  });

  it('every response carries a request id', async () => {
    const r = await s.api('GET', '/home/version.json', { headers: { 'x-request-id': 'abc-123' } });
    expect(r.headers.get('x-request-id')).toBe('abc-123');
  });
});

describe('unexpected errors', () => {
  it('answer 500 with a request id and no stack, and are logged', async () => {
    const { createApp } = await import('@ops/server/app');
    const { defineRoute } = await import('@ops/server/http/define-route');
    const logged: unknown[] = [];
    const log = {
      child: () => log,
      isLevelEnabled: () => true,
      info: () => {},
      error: (o: unknown) => logged.push(o),
      warn: () => {},
    };
    const boom = defineRoute({
      method: 'GET',
      path: '/boom.json',
      area: 'system',
      summary: 'test',
      access: { public: true },
      handler: () => {
        throw new Error('secret internals');
      },
    });
    const app = createApp({ log, db: null, database: { dialect: 'sqlite' }, version: 'x' } as never, [boom]);
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const { port } = server.address() as { port: number };
    const r = await fetch(`http://127.0.0.1:${port}/api/v1/boom.json`);
    const body = (await r.json()) as any;
    server.close();
    expect(r.status).toBe(500);
    expect(body).toEqual({
      result: false,
      message: 'Internal server error',
      request_id: r.headers.get('x-request-id'),
    });
    expect(JSON.stringify(body)).not.toContain('secret internals');
    expect(logged).toHaveLength(1);
  });
});
