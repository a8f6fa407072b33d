/**
 * Office screens, own account and the role-aware navigation: a mechanic sees no
 * office administration; a pilot keeps the profile, closes another session,
 * checks the email form, turns on an authenticator app from the QR code and
 * changes the password; a login with two companies switches between them.
 */
import { authenticator } from 'otplib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../setup/dialects.ts';
import { startTestServer, type TestServer } from '../setup/server.ts';
import { checkAccessibility, openScreen } from './office-support.ts';
import { hasChromium, launch, newPage, screenshot, signIn, screensHalf } from './support.ts';

describe.skipIf(!hasChromium || !screensHalf)('office: own account and navigation (Chromium)', () => {
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

  it('navigation follows the role: a mechanic gets no office administration, even by address', async () => {
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, `${s.url}/app/`, 'mechanic@skyline.test');
      const labels = await page.locator('nav[aria-label="Screens"] button').allTextContents();
      expect(labels).toEqual(expect.arrayContaining(['Fleet', 'News', 'My account']));
      for (const hidden of ['Users', 'Company settings', 'Operating hours', 'API keys', 'Pilot groups'])
        expect(labels).not.toContain(hidden);
      await page.evaluate("location.hash = '#users'");
      await page.waitForTimeout(300);
      expect(await page.locator('[data-testid=users]').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('a pilot keeps the profile, sessions, email, two-factor and password', async () => {
    const other = await s.login('pilot@skyline.test'); // another device
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, `${s.url}/app/`, 'pilot@skyline.test');
      await openScreen(page, 'My account', 'account');

      // Profile.
      const profile = page.locator('form[aria-label=Profile]');
      await profile.getByLabel('City').fill('Getafe');
      await profile.getByLabel('Phone', { exact: true }).fill('abc');
      await profile.locator('button[type=submit]').click();
      await expect.poll(() => profile.locator('.field-error').textContent()).toContain('phone number');
      await profile.getByLabel('Phone', { exact: true }).fill('600 123 456');
      await profile.locator('button[type=submit]').click();
      await page.waitForSelector('text=Profile saved');

      // Sessions: close every other one; the other device's token stops working.
      await page.waitForSelector('[data-testid=sessions] tbody tr');
      for (;;) {
        const close = page.locator('[data-testid=sessions] button:has-text("Close session")');
        if ((await close.count()) === 0) break;
        await close.first().click();
        await page.waitForSelector('[data-testid=sessions] .form-done');
        await page.waitForTimeout(200);
      }
      expect((await s.api('GET', '/users/view.json', { token: other })).status).toBe(401);

      // Email: the repeat must match (checked here), the password must be right (checked by the server).
      const email = page.locator('form[aria-label="Email address"]');
      await email.getByLabel('New address', { exact: true }).fill('paula.new@skyline.test');
      await email.getByLabel('New address again').fill('paula.other@skyline.test');
      await email.getByLabel('Current password').fill('demo1234');
      await email.locator('button[type=submit]').click();
      await expect.poll(() => email.locator('.field-error').textContent()).toContain('do not match');
      await email.getByLabel('New address again').fill('paula.new@skyline.test');
      await email.getByLabel('Current password').fill('wrong-password');
      await email.locator('button[type=submit]').click();
      await email.locator('.form-error').waitFor();

      // Two-factor with an authenticator app: QR code, then a code from the app.
      const tf = page.locator('[data-testid=two-factor]');
      await tf.locator('button:has-text("Set up an authenticator app")').click();
      const qr = tf.locator('[data-testid=totp-qr]');
      await qr.waitFor();
      expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
      const secret = (await tf.locator('[data-testid=totp-secret]').textContent()) ?? '';
      await checkAccessibility(page, 'account with the TOTP setup');
      await screenshot(page, 'office-account-totp');
      await tf.getByLabel('Code from the app').fill('12');
      await tf.locator('button:has-text("Switch on")').click();
      await expect.poll(() => tf.locator('.field-error').textContent()).toContain('6-digit');
      await tf.getByLabel('Code from the app').fill(authenticator.generate(secret));
      await tf.locator('button:has-text("Switch on")').click();
      await expect.poll(() => tf.locator('[data-testid=two-factor-mode]').textContent()).toBe('authenticator app');
      const login = await s.api('POST', '/login.json', { body: { email: 'pilot@skyline.test', password: 'demo1234' } });
      expect(login.body.two_factor).toBe('TOTP');

      // Password: too short is refused here; a good one saves.
      const pw = page.locator('form[aria-label=Password]');
      await pw.getByLabel('Current password').fill('demo1234');
      await pw.getByLabel('New password', { exact: true }).fill('short');
      await pw.getByLabel('New password again').fill('short');
      await pw.locator('button[type=submit]').click();
      await expect.poll(() => pw.locator('.field-error').textContent()).toContain('At least 8');
      await pw.getByLabel('New password', { exact: true }).fill('flying-high-42');
      await pw.getByLabel('New password again').fill('flying-high-42');
      await pw.locator('button[type=submit]').click();
      await page.waitForSelector('text=Password changed');
      const relogin = await s.api('POST', '/login.json', {
        body: { email: 'pilot@skyline.test', password: 'flying-high-42' },
      });
      expect(relogin.body.two_factor).toBe('TOTP'); // the new password is accepted, then the app's code is asked
      await checkAccessibility(page, 'account');
      await screenshot(page, 'office-account');
    } finally {
      await context.close();
    }
  });

  it('a login with two companies switches from the account screen', async () => {
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, `${s.url}/app/`, 'dual@demo.test');
      expect(await page.locator('.brand strong').textContent()).toContain('Skyline');
      await openScreen(page, 'My account', 'account');
      await page.locator('[data-testid=companies] button:has-text("Switch")').click();
      await expect.poll(() => page.locator('.brand strong').textContent(), { timeout: 30_000 }).toContain('Harbor');
      await screenshot(page, 'office-company-switch');
    } finally {
      await context.close();
    }
  });
});
