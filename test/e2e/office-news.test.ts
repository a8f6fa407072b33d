/**
 * Office screens, news: an administrator writes an article for pilots that needs
 * a read acknowledgement; a pilot finds it in the news panel and signs it with
 * the password (a wrong one is refused); the administrator sees the receipt.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../setup/dialects.ts';
import { startTestServer, type TestServer } from '../setup/server.ts';
import { checkAccessibility, openScreen } from './office-support.ts';
import { hasChromium, launch, newPage, screenshot, signIn, screensHalf } from './support.ts';

describe.skipIf(!hasChromium || !screensHalf)('office: news (Chromium)', () => {
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

  it('write for pilots with acknowledgement, sign with the password, read the receipts', async () => {
    const admin = await newPage(browser);
    const pilot = await newPage(browser);
    try {
      await signIn(admin.page, `${s.url}/app/`, 'admin@skyline.test');
      const a = admin.page;
      await openScreen(a, 'News', 'news');
      await a.click('button:has-text("Write an article")');
      const form = a.locator('[data-testid=news-write]');
      await form.locator('button[type=submit]').click();
      await expect.poll(() => form.locator('.field-error').count()).toBeGreaterThanOrEqual(2); // title and text, checked before sending
      await form.getByLabel('Title').fill('New fuel policy');
      await form.getByLabel('Category').fill('Operations');
      await form
        .getByLabel('Text')
        .fill('From Monday every flight lands with 45 minutes of final reserve.\n\nSign to confirm you read it.');
      // Only pilots and students receive it.
      const boxes = form.locator('fieldset .check');
      for (let i = 0; i < (await boxes.count()); i++) {
        const label = await boxes.nth(i).textContent();
        const box = boxes.nth(i).locator('input');
        if (label === 'Pilot' || label === 'Student pilot') await box.check();
        else await box.uncheck();
      }
      await form.getByLabel('Needs a read acknowledgement (signed with the password)').check();
      await checkAccessibility(a, 'news write');
      await screenshot(a, 'office-news-write');
      await form.locator('button[type=submit]').click();
      await a.waitForSelector('[data-testid=news-article] h1:has-text("New fuel policy")');
      await a.waitForSelector('[data-testid=receipts]:has-text("Pilot, Student pilot")');

      // The pilot's news panel: the article awaits the signature.
      await signIn(pilot.page, `${s.url}/app/`, 'pilot@skyline.test');
      const p = pilot.page;
      await openScreen(p, 'News', 'news');
      await p.waitForSelector('[data-testid=to-sign]');
      await p.locator('li:has-text("New fuel policy") .badge:has-text("signature needed")').waitFor();
      await checkAccessibility(p, 'news panel');
      await screenshot(p, 'office-news-panel');
      await p.click('a:has-text("New fuel policy")');
      const sign = p.locator('form[aria-label="Acknowledge with your password"]');
      await sign.getByLabel('Your password').fill('wrong-password');
      await sign.locator('button[type=submit]').click();
      await p.waitForSelector('[data-testid=news-article] .form-error');
      await sign.getByLabel('Your password').fill('demo1234');
      await sign.locator('button[type=submit]').click();
      await p.waitForSelector('[data-testid=signed]');
      await checkAccessibility(p, 'signed article');
      await screenshot(p, 'office-news-signed');

      // The administrator's receipts name the pilot.
      await a.reload();
      await a.waitForSelector('[data-testid=receipts] li:has-text("Paula Pilot")');
      expect(await a.locator('[data-testid=receipts] p').textContent()).toContain('1 signed');
      await screenshot(a, 'office-news-receipts');
    } finally {
      await admin.context.close();
      await pilot.context.close();
    }
  });
});
