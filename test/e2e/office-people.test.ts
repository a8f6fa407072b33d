/**
 * Office screens, people group: users (search, create with welcome mail, edit,
 * deactivate, delete), the pilot directory with filters and the .xlsx export,
 * a pilot's page, pilot groups with bulk actions, bases with crew and duty, and
 * API keys (secret shown once, works, revoked). axe-core on every screen.
 */
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../setup/dialects.ts';
import { startTestServer, type TestServer } from '../setup/server.ts';
import { checkAccessibility, openScreen } from './office-support.ts';
import { hasChromium, launch, newPage, screenshot, signIn, screensHalf } from './support.ts';

describe.skipIf(!hasChromium || !screensHalf)('office: people (Chromium)', () => {
  let s: TestServer;
  let browser: Browser;
  let page: Page;
  let admin: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    s = await startTestServer(DIALECTS[0], { seed: 'demo' });
    browser = await launch();
    admin = await s.login('admin@skyline.test');
    const opened = await newPage(browser);
    page = opened.page;
    close = () => opened.context.close();
    await signIn(page, `${s.url}/app/`, 'admin@skyline.test');
  });
  afterAll(async () => {
    await close?.();
    await browser?.close();
    await s?.close();
  });

  const outbox = (to: string) =>
    s.ctx.db.selectFrom('mail_outbox').select(['template']).where('to_address', '=', to).execute();

  it('users: search, create with a welcome mail, edit, deactivate, delete', async () => {
    await openScreen(page, 'Users', 'users');
    await page.fill('input[type=search]', 'paula');
    await expect.poll(() => page.locator('[data-testid=users] tbody tr').count()).toBe(1);
    await page.fill('input[type=search]', '');

    await page.click('button:has-text("New user")');
    const form = page.locator('form[aria-label="New user"]');
    await form.locator('button[type=submit]').click();
    await expect.poll(() => form.locator('.field-error').count()).toBeGreaterThanOrEqual(2); // name and surname, before any request
    await form.getByLabel('Name', { exact: true }).fill('Nora');
    await form.getByLabel('Surname').fill('Newcomer');
    await form.getByLabel('Email').fill('nora@skyline.test');
    await form.getByLabel('Role').selectOption('200');
    await form.locator('button[type=submit]').click();
    await page.waitForSelector('[data-user="nora@skyline.test"]');
    expect((await outbox('nora@skyline.test')).length).toBeGreaterThan(0);

    // The server's field error shows beside the field: the same address again.
    await page.click('button:has-text("New user")');
    const again = page.locator('form[aria-label="New user"]');
    await again.getByLabel('Name', { exact: true }).fill('Nora');
    await again.getByLabel('Surname').fill('Twice');
    await again.getByLabel('Email').fill('nora@skyline.test');
    await again.locator('button[type=submit]').click();
    await expect.poll(async () => (await again.locator('.field-error').allTextContents()).join(' ')).not.toBe('');
    await checkAccessibility(page, 'users with a form');
    await again.locator('button:has-text("Cancel")').click();

    await page.click('button[aria-label="Edit Nora Newcomer"]');
    const edit = page.locator('form[aria-label="Edit user"]');
    await edit.getByLabel('Surname').fill('Newman');
    await edit.locator('button[type=submit]').click();
    await page.waitForSelector('[data-user="nora@skyline.test"] a:has-text("Nora Newman")');

    await page.click('button[aria-label="Deactivate Nora Newman"]');
    await page.waitForSelector('[data-user="nora@skyline.test"].inactive');
    await screenshot(page, 'office-users');

    page.once('dialog', (d) => void d.accept());
    await page.click('button[aria-label="Delete Nora Newman"]');
    await page.waitForSelector('[data-user="nora@skyline.test"]', { state: 'detached' });
  });

  it('pilot directory: filters, pages and the .xlsx export; a pilot page', async () => {
    await openScreen(page, 'Pilot directory', 'pilots');
    await page.waitForSelector('[data-testid=pilot-table] tbody tr');
    const all = await page.locator('[data-testid=pilot-table] tbody tr').count();
    await page.locator('form[aria-label=Filters]').getByLabel('Pilot group').selectOption({ label: 'Private pilots' });
    await page.click('form[aria-label=Filters] button[type=submit]');
    await expect.poll(() => page.locator('[data-testid=pilot-table] tbody tr').count()).toBeLessThan(all);
    const download = page.waitForEvent('download');
    await page.click('button:has-text("Export .xlsx")');
    const file = await (await download).path();
    expect(fs.readFileSync(file).subarray(0, 2).toString()).toBe('PK'); // a zip: the xlsx container
    await checkAccessibility(page, 'pilot directory');
    await screenshot(page, 'office-pilot-directory');

    await page.locator('[data-testid=pilot-table] a:has-text("Paula Pilot")').click();
    await page.waitForSelector('[data-testid=pilot-page] [data-cert]');
    await page.waitForSelector('[data-testid=total-time]');
    await checkAccessibility(page, 'pilot page');
    await screenshot(page, 'office-pilot-page');
  });

  it('pilot groups: bulk deactivate, activate and welcome', async () => {
    await openScreen(page, 'Pilot groups', 'pilot-groups');
    const group = page.locator('[data-group="Private pilots"]');
    // "Deactivate all" asks first and names its effect (issue 28).
    let asked = '';
    page.once('dialog', (d) => {
      asked = d.message();
      void d.accept();
    });
    await group.getByRole('button', { name: /^Deactivate all/ }).click();
    await page.waitForSelector('[data-testid=pilot-groups] .form-done');
    expect(asked).toContain('lose access');
    const members = await s.api('GET', `/pilot_groups/manager_pilots/${await groupId('Private pilots')}.json`, {
      token: admin,
    });
    expect(members.body.every((m: { active: boolean }) => !m.active)).toBe(true);
    await group.getByRole('button', { name: /^Activate all/ }).click();
    await expect
      .poll(async () =>
        (
          await s.api('GET', `/pilot_groups/manager_pilots/${await groupId('Private pilots')}.json`, { token: admin })
        ).body.every((m: { active: boolean }) => m.active),
      )
      .toBe(true);
    // Welcome mails ask first too, naming how many get one (issue 28).
    page.once('dialog', (d) => {
      asked = d.message();
      void d.accept();
    });
    await group.getByRole('button', { name: /^Send welcome mails/ }).click();
    await expect.poll(() => page.locator('[data-testid=pilot-groups] .form-done').textContent()).toMatch(/mail/i);
    expect(asked).toMatch(/^Send a welcome mail to \d+ active members? of Private pilots\?/);
    await group.getByRole('button', { name: /^Members/ }).click();
    await page.waitForSelector('[data-group="Private pilots"] .members li');
    await checkAccessibility(page, 'pilot groups');
    await screenshot(page, 'office-pilot-groups');
  });

  async function groupId(name: string): Promise<string> {
    const r = await s.api('GET', '/pilot_groups/manager_index.json', { token: admin });
    return r.body.pilotGroups.find((g: { PilotGroup: { name: string } }) => g.PilotGroup.name === name).PilotGroup.id;
  }

  it('bases: crew and a new duty', async () => {
    await openScreen(page, 'Bases and duty', 'bases');
    await page.waitForSelector('ul.chips li a');
    const duty = page.locator('form[aria-label="Add a duty"]');
    await duty.getByLabel('Pilot').selectOption({ label: 'Paula Pilot' });
    const day = new Date(Date.now() + 45 * 86_400_000).toISOString().slice(0, 10);
    await duty.getByLabel('From').fill(`${day}T09:00`);
    await duty.getByLabel('Until').fill(`${day}T08:00`);
    await duty.locator('button[type=submit]').click();
    await expect.poll(() => duty.locator('.field-error').textContent()).toContain('End must be after start');
    await duty.getByLabel('Until').fill(`${day}T17:00`);
    await duty.getByLabel('Type').selectOption('STANDBY');
    await duty.locator('button[type=submit]').click();
    await expect
      .poll(async () =>
        (
          await page
            .locator(
              '[data-testid=bases] .form-done, [data-testid=bases] .form-error, [data-testid=bases] .field-error',
            )
            .allTextContents()
        ).join(' '),
      )
      .toContain('Duty added');
    await checkAccessibility(page, 'bases');
    await screenshot(page, 'office-bases');
  });

  it('API keys: the secret is shown once, works, and stops when revoked', async () => {
    await openScreen(page, 'API keys', 'api-keys');
    const form = page.locator('form[aria-label="New API key"]');
    await form.getByLabel('Name').fill('Accounting sync');
    await form.getByLabel('Acts as').selectOption({ label: 'Ana Admin' });
    await form.locator('button[type=submit]').click();
    const secret = await page.locator('[data-testid=api-secret] input').inputValue();
    expect(secret).toMatch(/^svc_/);
    expect((await s.api('GET', '/users/view.json', { token: secret })).status).toBe(200);
    await checkAccessibility(page, 'API keys with the new secret');
    await screenshot(page, 'office-api-keys');
    await page.click('[data-testid=api-secret] button:has-text("Done")');
    expect(await page.locator('[data-testid=api-secret]').count()).toBe(0);
    expect(await page.content()).not.toContain(secret);

    page.once('dialog', (d) => void d.accept());
    await page.click('[data-key="Accounting sync"] button:has-text("Revoke")');
    await page.waitForSelector('[data-key="Accounting sync"] .badge:has-text("revoked")');
    expect((await s.api('GET', '/users/view.json', { token: secret })).status).toBe(401);
  });
});
