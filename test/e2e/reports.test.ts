/**
 * The pilot's logbook screen: totals, currency, certificates, the monthly chart
 * with its table fallback and the routes, against the demo school.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../setup/dialects.ts';
import { startTestServer, type TestServer } from '../setup/server.ts';
import { startWeatherFake, type WeatherFake } from '../setup/weather-fake.ts';
import { checkAccessibility, openScreen } from './office-support.ts';
import { hasChromium, launch, newPage, screenshot, signIn, waitOffline, screensHalf } from './support.ts';

describe.skipIf(!hasChromium || !screensHalf)('reports: the pilot logbook (Chromium)', () => {
  let s: TestServer;
  let browser: Browser;
  let fake: WeatherFake;

  beforeAll(async () => {
    fake = await startWeatherFake();
    const t = Math.floor(Date.now() / 1000) - 900;
    fake.metars.push({ station: 'LEMD', time: t, raw: 'LEMD 231200Z 27008KT CAVOK 15/09 Q1015 NOSIG' });
    fake.tafs.push({ station: 'LEMD', time: t, raw: 'TAF LEMD 231100Z 2312/2418 27010KT CAVOK' });
    s = await startTestServer(DIALECTS[0], {
      seed: 'demo',
      env: { WEATHER_AVIATION_URL: fake.aviationUrl, WEATHER_ARCHIVE_URL: fake.archiveUrl },
    });
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await fake?.close();
  });

  it('shows the pilot totals, currency, certificates, hours by month (chart and table) and routes', async () => {
    const token = await s.login('pilot@skyline.test');
    const expected = await s.api('GET', '/reports/total_hours.json', { token });
    const months = await s.api('GET', '/reports/flight_hours_by_month/11.json', { token });
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, `${s.url}/app/`, 'pilot@skyline.test');
      await openScreen(page, 'My logbook', 'logbook');
      const secs = expected.body.seconds as number;
      const hhmm = `${Math.floor(secs / 3600)}:${String(Math.floor((secs % 3600) / 60)).padStart(2, '0')}`;
      await expect.poll(() => page.locator('[data-testid=logbook-totals]').textContent()).toContain(hhmm);
      await expect.poll(() => page.locator('[data-testid=logbook-months] tbody tr').count()).toBe(12);
      const firstRow = await page.locator('[data-testid=logbook-months] tbody tr').first().locator('th').textContent();
      expect(firstRow).toBe(months.body[0].label);
      await page.waitForSelector('[data-testid=logbook-chart] canvas');
      await expect
        .poll(() => page.locator('[data-testid=logbook-currency]').textContent())
        .toMatch(/Current|Not current/);
      await page.waitForSelector('[data-testid=logbook-routes] li');
      await screenshot(page, 'reports-logbook');
      await checkAccessibility(page, 'logbook');

      // Network cut: the figures come from the replicated flights (shared rules), the same as the server's.
      const routes = await page.locator('[data-testid=logbook-routes] li').allTextContents();
      await context.setOffline(true);
      await waitOffline(page);
      await openScreen(page, 'My flights', 'flights');
      await openScreen(page, 'My logbook', 'logbook');
      await expect.poll(() => page.locator('[data-testid=logbook-totals]').textContent()).toContain(hhmm);
      await expect.poll(() => page.locator('[data-testid=logbook-months] tbody tr').count()).toBe(12);
      expect(await page.locator('[data-testid=logbook-months] tbody tr').first().locator('th').textContent()).toBe(
        months.body[0].label,
      );
      const cells = await page.locator('[data-testid=logbook-months] tbody tr').first().locator('td').allTextContents();
      expect(cells[1]).toBe(String(months.body[0].flights));
      expect(await page.locator('[data-testid=logbook-routes] li').allTextContents()).toEqual(routes);
      await context.setOffline(false);
    } finally {
      await context.close();
    }
  });

  it('office staff see the company statistics: per month, per aircraft and per flight type, charts with tables', async () => {
    const token = await s.login('admin@skyline.test');
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, `${s.url}/app/`, 'admin@skyline.test');
      await openScreen(page, 'Company statistics', 'company-stats');
      await expect
        .poll(() => page.locator('[data-testid=company-stats-months] tbody tr').count(), { timeout: 15_000 })
        .toBe(12);
      await page.waitForSelector('[data-testid=company-stats-months-chart] canvas');
      await page.waitForSelector('[data-testid=company-stats-aircraft-chart] canvas');
      await page.waitForSelector('[data-testid=company-stats-types-chart] canvas');
      // The month figures are the fleet's sum of the per-aircraft report.
      const fleet = await s.ctx.db
        .selectFrom('aircraft')
        .select('id')
        .where('company_id', '=', s.refs.companies.skyline)
        .where('deleted', '=', 0)
        .execute();
      const ids = fleet.map((a) => a.id);
      let flights = 0;
      for (const id of ids)
        flights += (await s.api('GET', `/reports/flight_hours_by_month/11/null/${id}.json`, { token })).body.reduce(
          (t: number, b: any) => t + b.flights,
          0,
        );
      const shown = (
        await page.locator('[data-testid=company-stats-months] tbody tr td:nth-child(3)').allTextContents()
      ).reduce((t, v) => t + Number(v), 0);
      expect(shown).toBe(flights);
      expect(await page.locator('[data-testid=company-stats-aircraft] tbody tr').count()).toBeGreaterThan(0);
      expect(await page.locator('[data-testid=company-stats-types] tbody tr').count()).toBeGreaterThan(0);
      await screenshot(page, 'reports-company-stats');
      await checkAccessibility(page, 'company-stats');
    } finally {
      await context.close();
    }
  });

  it('the flight form shows the current METAR and TAF of its airports when online', async () => {
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, `${s.url}/app/`, 'pilot@skyline.test');
      await openScreen(page, 'My flights', 'flights');
      await page.click('button:text-is("New flight")');
      await page.locator('input[name=departure_airport]').fill('LEMD');
      await page.locator('input[name=landing_airport]').fill('LFPG');
      const box = page.locator('[data-testid=flight-weather]');
      await expect.poll(() => box.textContent(), { timeout: 10_000 }).toContain('LEMD 231200Z 27008KT');
      expect(await box.textContent()).toContain('TAF LEMD 231100Z');
      expect(await box.textContent()).toContain('NIL');
      await box.scrollIntoViewIfNeeded();
      await screenshot(page, 'reports-flight-weather');
    } finally {
      await context.close();
    }
  });
});
