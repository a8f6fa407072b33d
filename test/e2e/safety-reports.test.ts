/**
 * Safety reports in the app: a pilot files a report while offline (a
 * `safety.file` command); the server numbers it when the device is back
 * online; the safety manager sees it in the list, the statistics chart, the
 * risk matrix and the report's trail.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../setup/dialects.ts';
import { startTestServer, type TestServer } from '../setup/server.ts';
import { openScreen } from './office-support.ts';
import {
  eventually,
  hasChromium,
  launch,
  newPage,
  screenshot,
  signIn,
  waitForServiceWorker,
  waitOffline,
  waitOnline,
} from './support.ts';

describe.skipIf(!hasChromium)('safety reports (Chromium, offline filing)', () => {
  let s: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    s = await startTestServer(DIALECTS[0], { seed: 'demo' });
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it('files offline, gets its number on reconnection; the safety office sees list, statistics, risk and trail', async () => {
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, `${s.url}/app/`, 'pilot@skyline.test');
      await waitOnline(page);
      await openScreen(page, 'Safety reports', 'safety');
      await page.click('[data-testid=safety-tab-file]');
      // Categories are kept on the device from this online visit.
      await page.waitForSelector('[data-testid=safety-form] option:has-text("Bird strike")', { state: 'attached' });
      await waitForServiceWorker(page);
      await context.setOffline(true);
      await waitOffline(page);

      const form = page.locator('[data-testid=safety-form]');
      await form.locator('input[name=name]').fill('Cigüeña en final 28');
      await form.locator('input[name=datetime]').fill('2026-05-04T09:30');
      await form.locator('input[name=location]').fill('LECU');
      await form.locator('select[name=flight_phase]').selectOption('APR');
      await form.locator('select[name=safety_report_category_id]').selectOption({ label: 'Bird strike' });
      await form
        .locator('textarea[name=events]')
        .fill('A stork crossed the final approach at 300 ft; go-around flown.');
      await form.locator('select[name=risk_probability]').selectOption('possible');
      await form.locator('select[name=risk_severity]').selectOption('critical');
      await form.locator('button[type=submit]').click();
      await page.waitForSelector('[data-testid=safety-form] [role=status]:has-text("Saved on this device")');
      await expect.poll(() => page.locator('[data-testid=sync-pending]').textContent()).toContain('1 command pending');
      await screenshot(page, 'safety-reports-offline-pending');
      expect(
        await s.ctx.db
          .selectFrom('safety_reports')
          .select('id')
          .where('name', '=', 'Cigüeña en final 28')
          .executeTakeFirst(),
      ).toBeUndefined();

      await context.setOffline(false);
      const row = await eventually(
        () =>
          s.ctx.db
            .selectFrom('safety_reports')
            .selectAll()
            .where('name', '=', 'Cigüeña en final 28')
            .executeTakeFirst(),
        'the report on the server',
      );
      expect(row).toMatchObject({
        status: 'open',
        location: 'LECU',
        user_id: s.userId('pilot@skyline.test'),
        datetime: '2026-05-04 09:30:00',
      });
      expect(row.idn).toMatch(/^\d{4}\/\d{5}$/);
      await page.click('[data-testid=safety-tab-list]');
      await page.waitForSelector(`[data-testid=safety-list] td:has-text("${row.idn}")`);
      await screenshot(page, 'safety-reports-synced');

      // The safety office.
      const office = await newPage(browser);
      const o = office.page;
      await signIn(o, `${s.url}/app/`, 'safety@skyline.test');
      await openScreen(o, 'Safety reports', 'safety');
      await o.waitForSelector(`[data-testid=safety-list] td:has-text("${row.idn}")`);
      await screenshot(o, 'safety-reports-list');
      await o.click('[data-testid=safety-tab-stats]');
      await o.waitForSelector('[data-testid=safety-stats] canvas');
      await o.waitForSelector('[data-testid=safety-stats] td:has-text("Bird strike")');
      await screenshot(o, 'safety-reports-statistics');
      await o.click('[data-testid=safety-tab-risk]');
      await o.waitForSelector('[data-testid=safety-risk] td:has-text("5A intolerable")');
      await screenshot(o, 'safety-reports-risk-matrix');
      await o.click('[data-testid=safety-tab-list]');
      await o.click(`[data-testid=safety-list] td:has-text("${row.idn}")`);
      await o.waitForSelector('[data-testid=safety-risk-view]:has-text("3C tolerable")');
      await o.waitForSelector('[data-testid=safety-trail] td:has-text("create")');
      await screenshot(o, 'safety-reports-trail');
      await office.context.close();
    } finally {
      await context.close();
    }
  });
});
