import { allRoutes } from '@ops/server/areas/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';

interface Doc {
  info: { title: string; description: string };
  tags: { name: string; description: string }[];
  paths: Record<
    string,
    Record<string, { tags: string[]; description?: string; 'x-access': { sessionOnly?: boolean } }>
  >;
}

describe.each(DIALECTS)('API reference at /docs on %s', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(dialect);
  });
  afterAll(() => s?.close());

  it('answers an HTML page that loads only scripts of this server, under a same-origin policy', async () => {
    for (const path of ['/docs', '/docs/']) {
      const r = await fetch(`${s.url}${path}`);
      expect(r.status, path).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^text\/html/);
      const csp = r.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("connect-src 'self'");
      const html = await r.text();
      const scripts = [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]);
      expect(scripts).toEqual(['/docs/assets/scalar.js', '/docs/assets/init.js']);
      expect(html).not.toMatch(/https?:\/\//);
    }
  });

  it('serves the renderer bundle and its settings with a JavaScript type, and no remote fonts', async () => {
    const bundle = await fetch(`${s.url}/docs/assets/scalar.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/^application\/javascript/);
    const text = await bundle.text();
    expect(text.length).toBeGreaterThan(500_000);
    expect(text).toContain('createApiReference');
    expect(text).not.toContain('fonts.scalar.com');
    const etag = bundle.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await fetch(`${s.url}/docs/assets/scalar.js`, { headers: { 'If-None-Match': etag ?? '' } });
    expect(again.status).toBe(304);

    const init = await fetch(`${s.url}/docs/assets/init.js`);
    expect(init.headers.get('content-type')).toMatch(/^application\/javascript/);
    const settings = await init.text();
    expect(settings).toContain("url: '/openapi.json'");
    expect(settings).toContain('withDefaultFonts: false');
    expect(settings).toContain('telemetry: false');
  });

  it('an unknown page below /docs is a 404, not the reference', async () => {
    expect((await fetch(`${s.url}/docs/nothing`)).status).toBe(404);
  });

  it('the document explains authentication, API keys, paging and named parameters', async () => {
    const doc = (await (await fetch(`${s.url}/openapi.json`)).json()) as Doc;
    const d = doc.info.description;
    for (const phrase of [
      'POST /login.json',
      'svc_',
      'What an API key may not do',
      'Named parameters',
      'paginate',
      'X-Total-Posts',
      'docs/integrations.md',
      'curl',
    ]) {
      expect(d, phrase).toContain(phrase);
    }
    // The session-only list comes from the registry: every such route is named, nothing else.
    const sessionOnly = allRoutes().filter((r) => !r.access.public && r.access.sessionOnly);
    expect(sessionOnly.length).toBeGreaterThan(0);
    for (const r of sessionOnly) expect(d).toContain(r.path);
    expect(d).not.toContain('/aircraft/index.json`:');
    expect(doc.paths['/manager/api_keys/add.json'].post.description).toMatch(/Session only/);
    expect(doc.paths['/aircraft/index.json'].get.description).not.toMatch(/Session only/);
  });

  it('has one described tag per area, each with a curl example, and every operation is tagged with one', async () => {
    const doc = (await (await fetch(`${s.url}/openapi.json`)).json()) as Doc;
    const areas = [...new Set(allRoutes().map((r) => r.area))].sort();
    expect(doc.tags.map((t) => t.name).sort()).toEqual(areas);
    for (const t of doc.tags) {
      expect(t.description, t.name).toMatch(/```sh\ncurl -s /);
      expect(t.description, t.name).toContain('$OPS/');
    }
    const names = new Set(doc.tags.map((t) => t.name));
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const op of Object.values(item)) expect(names.has(op.tags[0]), path).toBe(true);
    }
    expect(doc.tags.find((t) => t.name === 'flights')?.description).toContain('/flights/load/status:LANDED');
  });
});
