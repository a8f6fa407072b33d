/**
 * Issue 28, the renderer items, as a person clicks them on the demo data:
 * refusals read as sentences (never a raw code), can be dismissed and go away
 * by themselves once a later booking is accepted; offline, the status bar says
 * a quiet "Offline, N changes waiting"; on a phone the menu folds behind a
 * button so the screen comes first; the logbook names the failing currency
 * rule and lists the flights behind each total. Screenshots in
 * docs/screenshots/app-*.png.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../setup/dialects.ts';
import { startTestServer, type TestServer } from '../setup/server.ts';
import { openScreen } from './office-support.ts';
import {
  CHROMIUM,
  eventually,
  hasChromium,
  launch,
  newPage,
  screenshot,
  signIn,
  waitOffline,
  waitOnline,
  screensHalf,
} from './support.ts';

if (!hasChromium) console.warn(`[e2e] skipped: ${CHROMIUM} not found`);

/** A refusal code as the server names them (CONTRACT 5): none may reach the screen. */
const RAW_CODE = /[A-Z]+_[A-Z_]+/;

describe.skipIf(!hasChromium || !screensHalf)('the app, role by role (Chromium, demo data)', () => {
  let s: TestServer;
  let browser: Browser;
  let url: string;

  beforeAll(async () => {
    s = await startTestServer(DIALECTS[0], { seed: 'demo' });
    browser = await launch();
    url = `${s.url}/app/`;
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  /** Page errors and console errors: any of them fails the case. */
  const watch = (page: Page) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    return errors;
  };

  /** Tomorrow in the company calendar (Europe/Madrid). */
  const tomorrow = () => new Date(Date.now() + 86_400_000).toLocaleDateString('en-CA', { timeZone: 'Europe/Madrid' });

  it('offline, the status bar says quietly what waits, never "stream: Failed to fetch"', async () => {
    const { context, page } = await newPage(browser);
    const errors = watch(page);
    try {
      await signIn(page, url, 'mechanic@skyline.test');
      await waitOnline(page);
      await page.waitForSelector('[data-registration=EC-ABC]');
      await context.setOffline(true);
      await waitOffline(page);
      const state = page.locator('[data-testid=sync-status] .sync-state');
      await expect.poll(() => state.textContent()).toBe('Offline, everything saved');

      // A defect raised offline waits on the device: the status counts it.
      await page.locator('[data-registration=EC-ABC] button', { hasText: 'Technical log' }).click();
      await page.click('button:has-text("Raise MEL/CDL item")');
      const form = page.locator('form[aria-label="Raise MEL or CDL item"]');
      await form.locator('input[name=title]').fill('Cabin light inoperative');
      await form.locator('input[name=ata]').fill('33');
      await form.locator('select[name=category]').selectOption('C');
      await form.locator('button[type=submit]').click();
      await expect.poll(() => state.textContent()).toBe('Offline, 1 change waiting');
      // Give the stream time to fail: its transport error stays out of the bar.
      await page.waitForTimeout(2_000);
      const bar = (await page.locator('[data-testid=sync-status]').textContent()) ?? '';
      expect(bar).not.toMatch(/Failed to fetch|stream:/);
      expect(await page.locator('[data-testid=sync-status] .sync-error').count()).toBe(0);
      await screenshot(page, 'app-offline-status');

      await context.setOffline(false);
      await waitOnline(page);
      await expect.poll(() => state.textContent(), { timeout: 30_000 }).toBe('Online');
      await eventually(
        async () =>
          (
            await s.ctx.db
              .selectFrom('aircraft_reports')
              .select('id')
              .where('title', '=', 'Cabin light inoperative')
              .execute()
          ).length === 1,
        'the defect reached the server',
      );
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a refused booking reads as a sentence, can be dismissed, and goes away by itself after the next accepted booking', async () => {
    const token = await s.login('dispatch@skyline.test');
    const types = (await s.api('GET', '/flight_types/index.json', { token })).body.flight_types.map(
      (x: { FlightType: { id: string; name: string } }) => x.FlightType,
    );
    const solo = types.find((t: { name: string }) => t.name === 'Solo').id as string;
    const { context, page } = await newPage(browser);
    const errors = watch(page);
    try {
      await signIn(page, url, 'student@skyline.test');
      await page.click('nav button:has-text("Schedule")');
      await page.waitForSelector('[data-testid=lesson-flow]');
      await waitOnline(page);
      await page.waitForSelector('select[aria-label="Lesson aircraft"] option:has-text("EC-ABC")', {
        state: 'attached',
      });
      await page.waitForSelector('select[aria-label="Lesson type"] option:has-text("Solo")', { state: 'attached' });
      await page.locator('[data-testid=lesson-flow] input[type=date]').fill(tomorrow());
      await page.selectOption('select[aria-label="Lesson aircraft"]', { label: 'EC-ABC' });
      await page.selectOption('select[aria-label="Lesson type"]', { label: 'Solo' });

      // Offline the student asks for two slots; meanwhile the office books both for someone else.
      await context.setOffline(true);
      await waitOffline(page);
      const slots = page.locator('ul[aria-label="Open slots"] button');
      const first = (await slots.nth(0).getAttribute('data-slot')) as string;
      const second = (await slots.nth(2).getAttribute('data-slot')) as string;
      await slots.nth(0).click();
      await page.locator(`ul[aria-label="Open slots"] button[data-slot="${second}"]`).click();
      await expect
        .poll(() => page.locator('[data-testid=my-bookings]').getByText('waiting for the server').count())
        .toBe(2);
      for (const at of [first, second]) {
        const made = await s.api('POST', '/schedules/edit.json', {
          token,
          body: {
            Schedule: {
              aircraft_id: s.refs.aircraft['EC-ABC'],
              pilot_id: s.userId('pilot@skyline.test'),
              flight_type_id: solo,
              start: Number(at),
              end: Number(at) + 3600,
            },
          },
        });
        expect(made.body.result, JSON.stringify(made.body)).toBe(true);
      }

      await context.setOffline(false);
      await waitOnline(page);
      const refused = page.locator('[data-testid=booking-refused]');
      await expect.poll(() => refused.count(), { timeout: 45_000 }).toBe(2);
      for (const text of await refused.allTextContents()) {
        expect(text).toContain('Not booked');
        expect(text).not.toMatch(RAW_CODE);
      }

      // Dismissed, a banner goes away and stays away after a reload.
      await refused.first().getByRole('button', { name: 'Dismiss' }).click();
      await expect.poll(() => refused.count()).toBe(1);

      // The next booking the server accepts retires the remaining refusal by itself.
      await page.locator('ul[aria-label="Open slots"] button').last().click();
      await eventually(
        async () =>
          (
            await s.ctx.db
              .selectFrom('commands')
              .select('id')
              .where('name', '=', 'schedule.book')
              .where('status', '=', 'accepted')
              .execute()
          ).length >= 1,
        'the third booking accepted',
        45_000,
      );
      await expect.poll(() => refused.count(), { timeout: 45_000 }).toBe(0);
      await page.reload();
      await page.waitForSelector('[data-testid=lesson-flow]');
      await waitOnline(page);
      expect(await refused.count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('on a phone the screen comes first and the menu opens from a menu button', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const errors = watch(page);
    try {
      await signIn(page, url, 'pilot@skyline.test');
      await page.waitForSelector('[data-testid=flights]');
      const nav = page.locator('nav[aria-label="Screens"]');
      const toggle = page.locator('[data-testid=menu-toggle]');
      expect(await nav.isVisible()).toBe(false);
      expect(await toggle.textContent()).toContain('My flights');
      // The screen's heading is in the first screenful, not below the whole menu.
      const head = await page.locator('main.content h2').first().boundingBox();
      expect(head && head.y < 400).toBe(true);
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');

      await toggle.click();
      await nav.waitFor({ state: 'visible' });
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      await screenshot(page, 'app-phone-menu');
      await nav.getByRole('button', { name: 'My logbook' }).click();
      await page.waitForSelector('[data-testid=logbook]');
      expect(await nav.isVisible()).toBe(false);
      expect(await toggle.textContent()).toContain('My logbook');
      // Nothing wider than the phone: no sideways scrolling.
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('the logbook names the currency rule that fails and lists the flights behind each total', async () => {
    // Five night landings in 90 days: the demo pilot falls short of that rule only.
    const admin = await s.login('admin@skyline.test');
    const set = await s.api('POST', '/pilots/currency_requirements.json', {
      token: admin,
      body: { landings: 1, night_landings: 5, hours: 0 },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const pilot = await s.login('pilot@skyline.test');
    const answer = (await s.api('GET', '/pilots/get_currency.json', { token: pilot })).body;
    const w = answer.windows;
    const { context, page } = await newPage(browser);
    const errors = watch(page);
    try {
      await signIn(page, url, 'pilot@skyline.test');
      await openScreen(page, 'My logbook', 'logbook');
      const verdict = page.locator('[data-testid=currency-verdict]');
      await expect
        .poll(() => verdict.textContent())
        .toContain(
          `Not current: night landings (${w.night_landings.count} of 5 needed in ${w.night_landings.days} days)`,
        );
      if (w.landings.current) expect(await verdict.textContent()).not.toMatch(/[:;] landings \(/);

      // Each rule opens onto the flights it counts: the landings listed add up to the total.
      const rule = page.locator('[data-testid=logbook-currency] li[data-rule=landings]');
      expect(await rule.getAttribute('data-met')).toBe(w.landings.count >= 1 ? 'true' : 'false');
      await rule.locator('summary').click();
      // The local flights may still be arriving (a loading collection is read once a second).
      await expect
        .poll(async () =>
          (await rule.locator('tbody tr td:last-child').allTextContents()).reduce((sum, c) => sum + Number(c), 0),
        )
        .toBe(w.landings.count);
      await page.locator('[data-testid=logbook-currency] li[data-rule=night_landings] summary').click();
      await page.locator('[data-testid=logbook-currency]').scrollIntoViewIfNeeded();
      await screenshot(page, 'app-logbook-currency');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
  /** Every control of the named fields lies inside its own field (its column), not past it. */
  async function controlsInside(page: Page, form: string, labels: string[]) {
    for (const label of labels) {
      const field = page.locator(`${form} label.field`, { has: page.locator(`span:text-is("${label}")`) });
      const outer = await field.boundingBox();
      const inner = await field.locator('input, select').first().boundingBox();
      if (!outer || !inner) throw new Error(`no field ${label}`);
      expect(inner.x + inner.width, label).toBeLessThanOrEqual(outer.x + outer.width + 0.5);
    }
  }

  it('Callsign, ICAO, ATA and System inputs stay inside their columns', async () => {
    // A laptop-sized window, where the form grid's columns are narrowest beside the menu.
    const context = await browser.newContext({ viewport: { width: 900, height: 900 } });
    try {
      const mech = await context.newPage();
      await signIn(mech, url, 'mechanic@skyline.test');
      await mech.waitForSelector('[data-registration=EC-ABC]');
      await mech.locator('[data-registration=EC-ABC] button', { hasText: 'Technical log' }).click();
      await mech.click('button:has-text("Report a defect")');
      await controlsInside(mech, 'form[aria-label="Report a defect"]', ['ATA chapter', 'System']);
    } finally {
      await context.close();
    }
    const second = await browser.newContext({ viewport: { width: 900, height: 900 } });
    try {
      const pilot = await second.newPage();
      await signIn(pilot, url, 'pilot@skyline.test');
      await pilot.waitForSelector('[data-testid=flights]');
      await pilot.click('button:has-text("New flight")');
      await controlsInside(pilot, 'main.content form', ['Callsign', 'From (ICAO)', 'To (ICAO)']);
    } finally {
      await second.close();
    }
  });
});
