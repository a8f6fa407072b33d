/**
 * Issue 33: a pilot switches to Spanish on their account screen; the app changes
 * language at once (no reload), the choice is saved to the profile and survives
 * a new sign-in, and the translated screens show no English leftovers.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../setup/dialects.ts';
import { startTestServer, type TestServer } from '../setup/server.ts';
import { hasChromium, launch, newPage, screenshot, signIn, screensHalf } from './support.ts';

describe.skipIf(!hasChromium || !screensHalf)('languages: a user switches to Spanish (Chromium)', () => {
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

  const navLabels = (page: import('playwright-core').Page) => page.locator('nav.sidenav button').allTextContents();

  it('switches on the profile screen without a reload, saves it, and walks the translated screens', async () => {
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, `${s.url}/app/`, 'pilot@skyline.test');
      expect(await navLabels(page)).toEqual(expect.arrayContaining(['My account', 'News']));
      await page.click('nav.sidenav button:text-is("My account")');
      await page.waitForSelector('[data-testid=account]');
      // A marker on the window: a reload would lose it.
      await page.evaluate('window.__noReload = true');

      await page.selectOption('[data-testid=language-picker]', 'es');
      await page.waitForSelector('h1:text-is("Mi cuenta"), h2:text-is("Perfil")');
      await page.waitForSelector('[data-testid=language] .form-done');
      expect(await page.evaluate('window.__noReload === true')).toBe(true);
      expect(await page.evaluate('document.documentElement.lang')).toBe('es');

      // Saved to the profile through the profile endpoint.
      const token = await s.login('pilot@skyline.test');
      expect((await s.api('GET', '/users/view.json', { token })).body.User.language).toBe('es');

      // The shell: menu, groups, sync bar, sign-out.
      const labels = await navLabels(page);
      expect(labels).toEqual(expect.arrayContaining(['Mi cuenta', 'Noticias', 'Mis vuelos']));
      expect(labels).not.toContain('My account');
      const groups = await page.locator('nav.sidenav .nav-group-title').allTextContents();
      expect(groups).toContain('Cuenta');
      expect(groups).not.toContain('Account');
      const bar = (await page.locator('[data-testid=sync-status]').textContent()) ?? '';
      expect(bar).toMatch(/En línea|Sin conexión/);
      expect(bar).toContain('Sincronizar ahora');
      expect(bar).not.toContain('Sync now');
      expect(await page.locator('header.topbar button').textContent()).toBe('Cerrar sesión');

      // The account screen: Spanish throughout its main area, none of its English texts left.
      const main = (await page.locator('main.content').textContent()) ?? '';
      for (const es of ['Mi cuenta', 'Perfil', 'Idioma', 'Contraseña', 'Sesiones abiertas', 'Historial de accesos'])
        expect(main).toContain(es);
      expect(main).toContain('Idioma guardado');
      for (const en of [
        'Language saved',
        'Save profile',
        'Email address',
        'Open sessions',
        'Sign-in history',
        'Two-factor',
        'Surname',
        'Now:',
      ])
        expect(main).not.toContain(en);
      await screenshot(page, 'languages-es-profile');

      // Saving the profile answers in Spanish too.
      await page.locator('[data-testid=account] form').first().locator('button[type=submit]').click();
      await page.waitForSelector('text=Perfil guardado');

      // A phone-sized viewport: the folded menu says "Menú" and the screen's name in Spanish.
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await page.locator('[data-testid=menu-toggle]').textContent()).toContain('Menú · Mi cuenta');
      await screenshot(page, 'languages-es-phone');
      await page.setViewportSize({ width: 1280, height: 800 });
    } finally {
      await context.close();
    }

    // A new sign-in on a fresh device (browser in English) opens in the profile's language.
    const fresh = await newPage(browser);
    try {
      await signIn(fresh.page, `${s.url}/app/`, 'pilot@skyline.test');
      await fresh.page.waitForSelector('nav.sidenav button:text-is("Mi cuenta")');
      await fresh.page.click('nav.sidenav button:text-is("Mi cuenta")');
      await fresh.page.waitForSelector('[data-testid=account] h2:text-is("Perfil")');
      // And back to English, again without a reload.
      await fresh.page.selectOption('[data-testid=language-picker]', 'en');
      await fresh.page.waitForSelector('nav.sidenav button:text-is("My account")');
      await fresh.page.waitForSelector('[data-testid=account] h2:text-is("Profile")');
    } finally {
      await fresh.context.close();
    }
  });
});
