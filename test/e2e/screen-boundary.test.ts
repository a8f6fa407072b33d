/**
 * Issue 28 item 2: one screen's fault never blanks the app. The auditor's pilot
 * directory (the API leaves the role name out for role 250) shows, also after a
 * reload on `#pilots`; a screen that throws shows "This screen could not be
 * shown: …" with Retry and a way home, and the menu and the other screens stay usable.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../setup/dialects.ts';
import { startTestServer, type TestServer } from '../setup/server.ts';
import { openScreen } from './office-support.ts';
import { hasChromium, launch, newPage, signIn, signInWithEmailCode, screensHalf } from './support.ts';

describe.skipIf(!hasChromium || !screensHalf)('a screen that fails stays inside its screen (Chromium)', () => {
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

  /** Page errors (uncaught exceptions): a white screen shows up here. */
  const watch = (page: Page) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    return errors;
  };

  async function as(email: string, body: (page: Page, errors: string[]) => Promise<void>) {
    let context: BrowserContext | undefined;
    try {
      const opened = await newPage(browser);
      context = opened.context;
      const errors = watch(opened.page);
      if (email.startsWith('auditor')) await signInWithEmailCode(opened.page, s, email);
      else await signIn(opened.page, `${s.url}/app/`, email);
      await body(opened.page, errors);
    } finally {
      await context?.close();
    }
  }

  it('the auditor sees the pilot directory, and again after a reload on #pilots', async () => {
    await as('auditor@skyline.test', async (page, errors) => {
      await openScreen(page, 'Pilot directory', 'pilots');
      await page.waitForSelector('[data-testid=pilot-table] tbody tr');
      expect(await page.locator('[data-testid=pilot-table] tbody tr').count()).toBeGreaterThan(0);
      expect(await page.locator('[data-testid=screen-error]').count()).toBe(0);

      await page.reload();
      await page.waitForSelector('header.topbar');
      expect(page.url()).toContain('#pilots');
      await page.waitForSelector('[data-testid=pilot-table] tbody tr');
      expect(await page.locator('[data-testid=screen-error]').count()).toBe(0);
      expect(errors).toEqual([]);
    });
  });

  it('a screen that throws shows the sentence, Retry and the way home; the menu stays usable, after a reload too', async () => {
    await as('admin@skyline.test', async (page, errors) => {
      // A directory answer the screen cannot draw (rows without their sections): the screen throws while rendering.
      let broken = true;
      await page.route('**/pilots/index**', async (route) => {
        if (!broken) return route.continue();
        await route.fulfill({
          status: 200,
          contentType: 'application/json',
          body: JSON.stringify({
            pilots: [{ User: { id: 'x' } }],
            paginate: { page: 1, current: 1, count: 1, pageCount: 1, limit: 25 },
          }),
        });
      });

      await page.click('nav[aria-label="Screens"] button:text-is("Pilot directory")');
      const failed = page.locator('[data-testid=screen-error]');
      await failed.waitFor();
      expect(await failed.textContent()).toMatch(/This screen could not be shown: .+/);
      expect(await page.locator('header.topbar').count()).toBe(1);

      // The rest of the app works: another screen from the menu.
      await openScreen(page, 'Users', 'users');
      expect(await failed.count()).toBe(0);

      // A reload on the failing screen keeps the app (top bar, menu) around the sentence.
      await page.click('nav[aria-label="Screens"] button:text-is("Pilot directory")');
      await failed.waitFor();
      await page.reload();
      await page.waitForSelector('header.topbar');
      expect(page.url()).toContain('#pilots');
      await failed.waitFor();
      expect(await page.locator('nav[aria-label="Screens"] button').count()).toBeGreaterThan(5);

      // "Go to the home screen" leaves it; Retry draws it once the cause is gone.
      await failed.locator('button:has-text("Go to the home screen")').click();
      await page.waitForSelector('[data-testid=fleet-board]');
      await page.click('nav[aria-label="Screens"] button:text-is("Pilot directory")');
      await failed.waitFor();
      broken = false;
      await failed.locator('button:has-text("Retry")').click();
      await page.waitForSelector('[data-testid=pilot-table] tbody tr');
      expect(await failed.count()).toBe(0);
      // Caught by the boundary, so nothing reached the page as an uncaught error.
      expect(errors).toEqual([]);
    });
  });
});
