/**
 * The API reference at /docs in Chromium: Scalar, bundled with the server, renders /openapi.json.
 * Every request the page makes must stay on the server's origin (no CDN, no fonts, no telemetry).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../setup/dialects.ts';
import { startTestServer, type TestServer } from '../setup/server.ts';
import { CHROMIUM, hasChromium, launch, newPage, screenshot, screensHalf } from './support.ts';

if (!hasChromium) console.warn(`[e2e] skipped: ${CHROMIUM} not found`);

describe.skipIf(!hasChromium || !screensHalf)('API reference at /docs (Chromium)', () => {
  let s: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    s = await startTestServer(DIALECTS[0]);
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it('renders the title, the authentication guide and an operation, loading nothing from elsewhere', async () => {
    const { context, page } = await newPage(browser);
    const foreign: string[] = [];
    const errors: string[] = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.protocol.startsWith('http') && u.origin !== s.url) foreign.push(r.url());
    });
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(String(e)));

    await page.goto(`${s.url}/docs`);
    await page.getByRole('heading', { name: 'Operations Platform API' }).first().waitFor();
    await page.getByText('What an API key may not do').first().waitFor();
    // An operation of the webhooks tag, by its summary.
    await page.getByText('Webhooks').first().click();
    const doc = (await (await fetch(`${s.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { summary: string }>>;
    };
    const summary = doc.paths['/webhooks/add.json'].post.summary;
    await page.getByText(summary).first().waitFor();
    await page.getByText(summary).first().scrollIntoViewIfNeeded();
    await screenshot(page, 'api-docs');

    // Nothing left the origin: no CDN script, style or font was requested.
    expect(foreign).toEqual([]);
    // The renderer's optional remote features (its AI agent's registry at *.scalar.com) are stopped
    // by the page's Content-Security-Policy; nothing of our own may be refused.
    const refused = errors.filter((e) => /Content Security Policy|Refused to/i.test(e));
    expect(refused.filter((e) => !/https:\/\/[\w.]*scalar\.com\//.test(e))).toEqual([]);
    await context.close();
  });
});
