/**
 * First sync in the real app (issue 35): a fresh browser profile signs in as
 * an office user of a company with a few thousand records. The sync bar lists
 * every collection with its progress (waiting, its share of what the server
 * counted for the load, "People 76 %", ready), the person's own data (company settings, requests, people, messages) is ready
 * before the office-wide record sets start loading, the list hides once all
 * is ready, and the device holds what the server sends: flights of the last
 * 12 months, not the whole history. The first test breaks the bootstrap stream
 * after the directory's first page (the pulls that continue it show their
 * progress); the second goes offline in the middle and completes when the
 * network is back; the third reads the whole stream and pulls nothing from `null`.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDeviceBench } from '../bench/device-seed.ts';
import { DIALECTS } from '../setup/dialects.ts';
import { startTestServer, type TestServer } from '../setup/server.ts';
import { hasChromium, launch, newPage, screenshot } from './support.ts';

interface Row {
  name: string;
  phase: string;
  documents: number;
  total: number | null;
  started: number;
  finished: number;
}

const readList = `[...document.querySelectorAll('[data-testid=first-sync] li[data-collection]')].map((li) => ({
  name: li.dataset.collection, phase: li.dataset.phase, documents: Number(li.dataset.documents),
  total: li.dataset.total === undefined ? null : Number(li.dataset.total), started: Number(li.dataset.started ?? 0), finished: Number(li.dataset.finished ?? 0),
}))`;

describe.skipIf(!hasChromium)('first sync (Chromium)', () => {
  let s: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    s = await startTestServer(DIALECTS[0], { seed: 'demo' });
    // Four years of flights (one in 60 the fixture pilot's), enough that loading them takes a while.
    // 1,300 people: two pages, so the directory is seen half loaded.
    await seedDeviceBench(s, {
      users: 1_300,
      students: 20,
      flights: 4_000,
      bookings: 1_500,
      aircraftReports: 800,
      safetyReports: 200,
    });
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it('shows per-collection progress, own data first, and hides when everything is ready', async () => {
    const { context, page } = await newPage(browser);
    const peoplePulls: Array<{ snap?: number } | null> = [];
    try {
      // The bootstrap stream breaks after the directory's first page: the device goes on with pulls from
      // that page's checkpoint, and the directory's second page takes its time (a slow line), so its share
      // is on screen meanwhile. (The second test reads the whole stream.)
      await page.route('**/api/v1/sync/bootstrap.json', async (route) => {
        const res = await route.fetch();
        const lines = (await res.text()).split('\n');
        const cut = lines.findIndex((l) => l.startsWith('{"collection":"people"'));
        expect(cut).toBeGreaterThan(0);
        await route.fulfill({ response: res, body: `${lines.slice(0, cut + 1).join('\n')}\n` });
      });
      // The directory's first pull finds the server busy (503, retry after a second): the sync bar says so in a
      // sentence while online; the next pull answers.
      let busy = true;
      await page.route('**/api/v1/sync/people/pull.json', async (route) => {
        const body = route.request().postDataJSON() as { checkpoint: { snap?: number } | null };
        peoplePulls.push(body.checkpoint);
        if (busy) {
          busy = false;
          return route.fulfill({
            status: 503,
            headers: { 'retry-after': '1' },
            contentType: 'application/json',
            body: JSON.stringify({ result: false, message: 'Server busy' }),
          });
        }
        if (body.checkpoint?.snap !== undefined) await new Promise((r) => setTimeout(r, 3000));
        await route.continue();
      });
      await page.goto(`${s.url}/app/`);
      await page.fill('form[aria-label="Sign in"] input[name=email]', 'admin@skyline.test');
      await page.fill('form[aria-label="Sign in"] input[name=password]', 'demo1234');
      await page.click('form[aria-label="Sign in"] button[type=submit]');
      const list = page.locator('[data-testid=first-sync]');
      await list.waitFor({ state: 'visible' });
      const problem = page.locator('[data-testid=sync-status] .sync-error');
      await expect.poll(() => problem.textContent()).toBe('People: the server is busy. Sync tries again in a moment.');
      // The technical message stays reachable, as the tooltip.
      expect(await problem.getAttribute('title')).toMatch(/HTTP 503/);
      await screenshot(page, 'sync-bar-server-busy');
      await expect.poll(() => list.textContent()).toMatch(/Setting up this device: \d+ of 10 ready/);
      // Sentences, not collection names: "Flights", "People".
      await expect.poll(() => list.locator('li[data-collection=flights]').textContent()).toMatch(/^Flights /);
      // A share of what the server counted for this person: "People 76 %" (1,000 of about 1,310).
      const people = list.locator('li[data-collection=people]');
      await expect.poll(() => people.textContent(), { timeout: 60_000 }).toMatch(/^People \d{1,2} %$/);
      const share = Number(/(\d+) %/.exec((await people.textContent()) ?? '')?.[1]);
      const [loaded, counted] = (await people.evaluate((li) => [li.dataset.documents, li.dataset.total])).map(Number);
      expect(share).toBe(Math.floor((loaded * 100) / counted));
      expect(share).toBeGreaterThan(50);
      expect(share).toBeLessThan(100);
      expect(await people.locator('progress').getAttribute('value')).toBe(String(share));
      await screenshot(page, 'first-sync-progress');
      // The shell is usable meanwhile: the navigation answers.
      await page.waitForSelector('header.topbar');

      await page.waitForSelector('[data-testid=first-sync][data-done=true]', { state: 'attached', timeout: 120_000 });
      expect(await list.isVisible()).toBe(false);
      // The answer that followed cleared it.
      expect(await problem.count()).toBe(0);
      // The pulls went on from the stream's page, not from the start.
      expect(peoplePulls.length).toBeGreaterThan(0);
      expect(peoplePulls.every((cp) => cp !== null)).toBe(true);
      const rows = (await page.evaluate(readList)) as Row[];
      const by = new Map(rows.map((r) => [r.name, r]));
      expect(rows.map((r) => r.phase)).toEqual(rows.map(() => 'ready'));
      expect(rows).toHaveLength(10);
      // The server's count is what arrived (reference may count an airport twice, from a flight and a base).
      for (const r of rows)
        if (r.name !== 'reference') expect({ [r.name]: r.total }).toEqual({ [r.name]: r.documents });
      // Own data is complete before the office-wide sets start.
      for (const own of ['reference', 'device', 'people', 'inbox'])
        for (const office of ['bookings', 'fleet', 'flights'])
          expect(by.get(own)?.finished).toBeLessThanOrEqual(by.get(office)?.started ?? 0);
      // Bounded: the office device holds the last 12 months of flights (about 400 of 4,064), not ten years.
      const flights = by.get('flights')?.documents ?? 0;
      expect(flights).toBeGreaterThan(300);
      expect(flights).toBeLessThan(1_000);
      expect(by.get('people')?.documents).toBeGreaterThanOrEqual(1_300);
      // What the list says is what the database holds.
      const stored = (await page.evaluate(
        '(async () => { const n = {}; for (const { name } of await indexedDB.databases()) { const m = /^rxdb-dexie-ops_.*--\\d+--([a-z_]+)$/.exec(name ?? ""); if (!m) continue; const db = await new Promise((ok) => { const r = indexedDB.open(name); r.onsuccess = () => ok(r.result); }); n[m[1]] = await new Promise((ok) => { const r = db.transaction("docs").objectStore("docs").count(); r.onsuccess = () => ok(r.result); }); db.close(); } return n; })()',
      )) as Record<string, number>;
      expect(stored.flights).toBe(flights);
    } finally {
      await context.close();
    }
  });

  it('offline in the middle: says so, keeps what is ready, and completes when the network is back', async () => {
    const { context, page } = await newPage(browser);
    let cut = false;
    const streamed: string[][] = [];
    const pulls: unknown[] = [];
    try {
      // The laptop leaves the Wi-Fi while the directory loads: the stream ends after its first page and the
      // pull that would continue it finds no network.
      await page.route('**/api/v1/sync/bootstrap.json', async (route) => {
        const res = await route.fetch();
        const lines = (await res.text()).split('\n');
        const at = lines.findIndex((l) => l.startsWith('{"collection":"people"'));
        streamed.push(lines.slice(0, at + 1).map((l) => l.slice(0, 60)));
        await route.fulfill({ response: res, body: `${lines.slice(0, at + 1).join('\n')}\n` });
      });
      await page.route('**/api/v1/sync/people/pull.json', async (route) => {
        pulls.push((route.request().postDataJSON() as { checkpoint: unknown }).checkpoint);
        if (cut) return route.continue();
        cut = true;
        await context.setOffline(true);
        await route.abort('internetdisconnected');
      });
      await page.goto(`${s.url}/app/`);
      await page.fill('form[aria-label="Sign in"] input[name=email]', 'admin@skyline.test');
      await page.fill('form[aria-label="Sign in"] input[name=password]', 'demo1234');
      await page.click('form[aria-label="Sign in"] button[type=submit]');
      // The network went when the directory's first pull was asked (after its first page was stored).
      await expect.poll(() => cut, { timeout: 60_000 }).toBe(true);
      const list = page.locator('[data-testid=first-sync][data-paused=true]');
      await list.waitFor({ state: 'visible', timeout: 60_000 });
      // One stream, cut after the directory's first page; the directory's pulls continue from that page.
      expect(streamed.map((lines) => lines.at(-1))).toEqual([expect.stringMatching(/^\{"collection":"people"/)]);
      expect(pulls[0]).not.toBeNull();
      expect(await list.locator('strong').textContent()).toMatch(
        /^Offline: 2 of 10 ready\. The rest loads when the connection is back; what is ready works meanwhile\.$/,
      );
      const phase = (name: string) => list.locator(`li[data-collection=${name}]`).getAttribute('data-phase');
      expect([await phase('reference'), await phase('device'), await phase('people')]).toEqual([
        'ready',
        'ready',
        'loading',
      ]);
      // Counts within a phase reach the screen at most every 100 ms (client-core's PROGRESS_EVERY_MS).
      const people = list.locator('li[data-collection=people]');
      await expect.poll(() => people.textContent()).toMatch(/^People \d{1,2} %$/);
      const loadedOffline = await people.getAttribute('data-documents');
      // The status line says it in a sentence, and the shell answers.
      await expect.poll(() => page.locator('[data-testid=sync-status] .sync-state').textContent()).toMatch(/^Offline/);
      await page.waitForSelector('header.topbar');
      // The screen (the fleet board, an office user's home) says its records are not there yet, not "0 aircraft".
      const screenLoading = page.locator('main [data-testid=screen-loading]');
      expect(await screenLoading.textContent()).toMatch(
        /^Still loading on this device: .*Aircraft and defects.*\. This screen is complete once they are ready\.$/,
      );
      expect(await page.locator('main').textContent()).not.toContain('0 aircraft');
      await screenshot(page, 'first-sync-offline');
      // Nothing moves while offline: no progress is invented.
      await page.waitForTimeout(2000);
      expect(await people.getAttribute('data-documents')).toBe(loadedOffline);

      const back = Date.now();
      await context.setOffline(false);
      await page.waitForSelector('[data-testid=first-sync][data-done=true]', { state: 'attached', timeout: 120_000 });
      // The browser's `online` event ends the back-off at once; the rest of the load follows.
      expect(Date.now() - back).toBeLessThan(30_000);
      const rows = (await page.evaluate(readList)) as Row[];
      expect(rows.map((r) => r.phase)).toEqual(rows.map(() => 'ready'));
      for (const r of rows)
        if (r.name !== 'reference') expect({ [r.name]: r.documents }).toEqual({ [r.name]: r.total });
      expect(await screenLoading.count()).toBe(0);
      expect(rows.find((r) => r.name === 'people')?.documents).toBeGreaterThanOrEqual(1_300);
      await expect
        .poll(() => page.locator('[data-testid=sync-status] .sync-state').getAttribute('data-online'))
        .toBe('true');
    } finally {
      await context.close();
    }
  });

  it('a second start of the same profile has nothing to set up', async () => {
    const { context, page } = await newPage(browser);
    const nullPulls: string[] = [];
    page.on('request', (req) => {
      const m = /\/sync\/([a-z_]+)\/pull\.json$/.exec(req.url());
      if (m && (req.postDataJSON() as { checkpoint: unknown }).checkpoint === null) nullPulls.push(m[1]);
    });
    try {
      await page.goto(`${s.url}/app/`);
      await page.fill('form[aria-label="Sign in"] input[name=email]', 'pilot@skyline.test');
      await page.fill('form[aria-label="Sign in"] input[name=password]', 'demo1234');
      await page.click('form[aria-label="Sign in"] button[type=submit]');
      await page.waitForSelector('[data-testid=first-sync][data-done=true]', { state: 'attached', timeout: 120_000 });
      const first = (await page.evaluate(readList)) as Row[];
      // The whole first sync came in the one stream: no pull from a null checkpoint.
      expect(nullPulls).toEqual([]);
      // A pilot's device: their own flights, all of them (one in 60 of the company's).
      expect(first.find((r) => r.name === 'flights')?.documents).toBeGreaterThan(50);
      await page.reload();
      await page.waitForSelector('header.topbar');
      await page.waitForSelector('[data-testid=sync-status] .sync-state[data-online=true]');
      expect(await page.locator('[data-testid=first-sync]').count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
