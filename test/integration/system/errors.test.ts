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

  it('malformed JSON answers 400 and changes nothing', async () => {
    const r = await s.api('POST', '/login.json', { body: '{"email": "x@y.z",' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ result: false, message: 'Malformed request body: not valid JSON' });
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
    const log = { child: () => log, info: () => {}, error: (o: unknown) => logged.push(o), warn: () => {} };
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
    expect(body).toEqual({ result: false, message: 'Internal server error', request_id: r.headers.get('x-request-id') });
    expect(JSON.stringify(body)).not.toContain('secret internals');
    expect(logged).toHaveLength(1);
  });
});
