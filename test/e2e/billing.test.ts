/**
 * Billing screens end to end (issue 29 item 6, CONTRACT 6), as people use
 * them in Chromium: a manager adds and edits an aircraft rate; the office adds
 * a payment to a pilot's account (the dialog says the effect first), refuses an
 * amount with three decimals, and reverses an adjustment with a reason; the
 * pilot sees the payment in their own account, and again offline after a
 * reload (the account replicated to the device). Screenshots:
 * docs/screenshots/billing-rates.png, billing-accounts.png, billing-my-account.png.
 */
import type { Browser, Download } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '../../desktop/renderer/src/areas/billing/money.ts';
import { DIALECTS } from '../setup/dialects.ts';
import { startTestServer, type TestServer } from '../setup/server.ts';
import { checkAccessibility, openScreen } from './office-support.ts';
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

/** Chromium's default locale here; the screens format with the browser's locale. */
const LOCALE = 'en-US';
const eur = (n: number) => formatMoney(n, 'EUR', LOCALE);

async function readDownload(d: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of await d.createReadStream()) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

describe.skipIf(!hasChromium)('billing (Chromium)', () => {
  let s: TestServer;
  let browser: Browser;
  let url: string;
  let office: string;

  beforeAll(async () => {
    s = await startTestServer(DIALECTS[0], { seed: 'demo' });
    browser = await launch();
    url = `${s.url}/app/`;
    office = await s.login('dispatch@skyline.test');
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  const accountOf = async (email: string) => {
    const r = await s.api('GET', `/billing/account/${s.userId(email)}.json?limit=50`, { token: office });
    expect(r.status).toBe(200);
    return r.body as {
      Account: { balance: number; package_balance: number };
      entries: Array<{ Entry?: Record<string, unknown> } & Record<string, unknown>>;
    };
  };
  const entriesOf = (a: Awaited<ReturnType<typeof accountOf>>) =>
    a.entries.map(
      (e) =>
        (e.Entry ?? e) as {
          id: string;
          kind: string;
          amount: number;
          description: string | null;
          reverses_id: string | null;
        },
    );

  it('a manager adds an aircraft rate and edits it; a dispatcher reads rates without the buttons', async () => {
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, url, 'ops@skyline.test');
      await openScreen(page, 'Rates', 'billing-rates');
      const add = page.locator('form[aria-label="Add a rate"]');
      await add.getByLabel('Kind').selectOption('aircraft');
      await add.getByLabel('Aircraft').selectOption({ label: 'EC-ABC' });
      // A negative rate and three decimals are refused on the screen; nothing is sent.
      await add.getByLabel(/Per hour/).fill('-150');
      await add.locator('button[type=submit]').click();
      await expect.poll(() => add.locator('.field-error').textContent()).toContain('minus');
      await add.getByLabel(/Per hour/).fill('150.005');
      await add.locator('button[type=submit]').click();
      await expect.poll(() => add.locator('.field-error').textContent()).toContain('two decimals');
      const aircraftId = s.refs.aircraft['EC-ABC'];
      const rateOf = (body: {
        rates: Array<{ Rate?: { target_id: string; amount: number } } & { target_id?: string; amount?: number }>;
      }) =>
        body.rates
          .map((r) => r.Rate ?? (r as { target_id: string; amount: number }))
          .find((r) => r.target_id === aircraftId);

      await add.getByLabel(/Per hour/).fill('150');
      await add.locator('button[type=submit]').click();
      await page.waitForSelector(`text=the aircraft rate of EC-ABC is ${eur(150)} per hour`);
      expect(rateOf((await s.api('GET', '/billing/rates.json', { token: office })).body)?.amount).toBe(150);

      // Edit in the row.
      const row = page.locator('[data-testid=rates] tr[data-target="EC-ABC"]');
      await row.locator('button:has-text("Edit")').click();
      await row.getByLabel(/Per hour/).fill('162.50');
      await row.locator('button:has-text("Save")').click();
      await page.waitForSelector(`text=The aircraft rate of EC-ABC is now ${eur(162.5)} per hour`);
      await expect.poll(() => row.locator('td').nth(2).textContent()).toBe(eur(162.5));
      expect(rateOf((await s.api('GET', '/billing/rates.json', { token: office })).body)?.amount).toBe(162.5);

      // An instructor rate.
      await add.getByLabel('Kind').selectOption('instructor');
      await add.getByLabel('Instructor').selectOption({ label: 'Ivan Instructor' });
      await add.getByLabel(/Per hour/).fill('55');
      await add.locator('button[type=submit]').click();
      await page.waitForSelector(`text=the instructor rate of Ivan Instructor is ${eur(55)} per hour`);
      expect(
        (await s.api('GET', '/billing/rates.json', { token: office })).body.rates
          .map((r: { Rate?: { target_id: string; amount: number } }) => r.Rate)
          .find((r: { target_id: string }) => r.target_id === s.userId('instructor@skyline.test'))?.amount,
      ).toBe(55);

      // Delete asks first and says the effect; cancelling keeps the rate.
      await row.locator('button:has-text("Delete")').click();
      const dialog = page.locator('[data-testid=confirm-dialog]');
      expect(await dialog.locator('[data-testid=confirm-effect]').textContent()).toContain(
        'Entries already booked stay as they are',
      );
      await dialog.locator('button:has-text("Cancel")').click();
      expect(rateOf((await s.api('GET', '/billing/rates.json', { token: office })).body)?.amount).toBe(162.5);
      await checkAccessibility(page, 'rates');
      await screenshot(page, 'billing-rates');
    } finally {
      await context.close();
    }

    const d = await newPage(browser);
    try {
      await signIn(d.page, url, 'dispatch@skyline.test');
      await openScreen(d.page, 'Rates', 'billing-rates');
      await d.page.locator('[data-testid=rates] tr[data-target="EC-ABC"]').waitFor();
      expect(await d.page.locator('form[aria-label="Add a rate"]').count()).toBe(0);
      expect(await d.page.locator('[data-testid=rates] button').count()).toBe(0);
    } finally {
      await d.context.close();
    }
  });

  it('the office adds a payment (the dialog says the effect), refuses bad input, and reverses an adjustment with a reason', async () => {
    const paula = s.userId('pilot@skyline.test');
    const start = await accountOf('pilot@skyline.test');
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, url, 'dispatch@skyline.test');
      await openScreen(page, 'Accounts', 'billing-accounts');
      const list = page.locator('[data-testid=balances]');
      await list.locator(`tr[data-user="${paula}"]`).waitFor();
      // Most negative first.
      const shown = await list.locator('[data-testid=row-balance]').allTextContents();
      const values = shown.map((t) => Number(t.replace(/[^\d.-]/g, '')));
      expect(values).toEqual([...values].sort((a, b) => a - b));

      await list.locator(`tr[data-user="${paula}"] button`).click();
      const panel = page.locator('[data-testid=account-panel]');
      await expect
        .poll(() => panel.locator('[data-testid=panel-balance]').textContent())
        .toBe(eur(start.Account.balance));
      const form = panel.locator('form[aria-label="Add an entry"]');

      // Three decimals: refused here, nothing written.
      await form.getByLabel(/Amount/).fill('12.345');
      await form.locator('button[type=submit]').click();
      await expect.poll(() => form.locator('.field-error').textContent()).toContain('two decimals');
      expect(await page.locator('[data-testid=confirm-dialog]').count()).toBe(0);

      // A payment: the dialog says what it books and the balance after.
      await form.getByLabel(/Amount/).fill('250');
      await form.getByLabel('Description').fill('Bank transfer 0425');
      await form.locator('button[type=submit]').click();
      const dialog = page.locator('[data-testid=confirm-dialog]');
      const after = Math.round(start.Account.balance * 100 + 25000) / 100;
      expect(await dialog.locator('[data-testid=confirm-effect]').textContent()).toBe(
        `This books a payment of ${eur(250)} for Paula Pilot. Paula Pilot’s balance goes from ${eur(start.Account.balance)} to ${eur(after)}.`,
      );
      await dialog.locator('button[type=submit]').click();
      await expect
        .poll(() => panel.locator('[data-testid=saved]').textContent())
        .toBe(`Payment of ${eur(250)} booked for Paula Pilot.`);
      await expect.poll(() => panel.locator('[data-testid=panel-balance]').textContent()).toBe(eur(after));
      const paid = await accountOf('pilot@skyline.test');
      expect(paid.Account.balance).toBe(after);
      expect(entriesOf(paid).find((e) => e.kind === 'payment' && e.description === 'Bank transfer 0425')?.amount).toBe(
        250,
      );
      await expect
        .poll(() => list.locator(`tr[data-user="${paula}"] [data-testid=row-balance]`).textContent())
        .toBe(eur(after));

      // An adjustment, then reversed with a reason: back to the same balance.
      await panel.locator('button:has-text("Adjustment")').click();
      await form.getByLabel(/Amount/).fill('-12.40');
      await form.getByLabel('Description').fill('Fuel surcharge');
      await form.locator('button[type=submit]').click();
      expect(await dialog.locator('[data-testid=confirm-effect]').textContent()).toContain('(a charge)');
      await dialog.locator('button[type=submit]').click();
      await expect.poll(() => panel.locator('[data-testid=saved]').textContent()).toContain('Adjustment of');
      const adjusted = entriesOf(await accountOf('pilot@skyline.test')).find((e) => e.description === 'Fuel surcharge');
      expect(adjusted?.amount).toBe(-12.4);
      const adjRow = panel.locator(`[data-testid=entries] tr[data-entry="${adjusted?.id}"]`);
      await adjRow.locator('[data-testid=reverse]').click();
      expect(await dialog.locator('[data-testid=confirm-effect]').textContent()).toContain(`reversal of ${eur(12.4)}`);
      // The reason is asked for.
      await dialog.locator('button[type=submit]').click();
      await expect.poll(() => dialog.locator('[role=alert]').textContent()).toContain('Say why');
      await dialog.locator('[data-testid=reverse-reason]').fill('Surcharge waived');
      await dialog.locator('button[type=submit]').click();
      await expect.poll(() => panel.locator('[data-testid=saved]').textContent()).toContain('was reversed');
      const reversed = await accountOf('pilot@skyline.test');
      expect(reversed.Account.balance).toBe(after);
      expect(entriesOf(reversed).find((e) => e.kind === 'reversal' && e.reverses_id === adjusted?.id)?.amount).toBe(
        12.4,
      );
      // A reversed entry and the reversal offer no second reversal.
      await expect.poll(() => adjRow.locator('[data-testid=reverse]').count()).toBe(0);
      await expect
        .poll(() => panel.locator('[data-testid=entries] tr[data-kind=reversal] [data-testid=reverse]').count())
        .toBe(0);

      // The accountant's export of this month, as CSV: the payment and the reversal are rows.
      const exporter = page.locator('fieldset.export');
      await exporter.getByLabel('Format').selectOption('csv');
      const [file] = await Promise.all([
        page.waitForEvent('download'),
        exporter.locator('[data-testid=export]').click(),
      ]);
      expect(file.suggestedFilename()).toMatch(/^billing-entries-\d{4}-\d{2}-01-to-\d{4}-\d{2}-\d{2}\.csv$/);
      const csv = await readDownload(file);
      expect(csv.toString('utf8')).toContain('Bank transfer 0425');
      expect(csv.toString('utf8')).toContain('Surcharge waived');

      await checkAccessibility(page, 'accounts');
      await screenshot(page, 'billing-accounts');
    } finally {
      await context.close();
    }
  });

  it('the pilot sees the payment in My billing, also offline after a reload; no office screens', async () => {
    const expected = await accountOf('pilot@skyline.test');
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, url, 'pilot@skyline.test');
      await waitOnline(page);
      const labels = await page.locator('nav[aria-label="Screens"] button').allTextContents();
      expect(labels).toContain('My billing');
      expect(labels).not.toContain('Accounts');
      expect(labels).not.toContain('Rates');
      await page.evaluate("location.hash = '#billing-accounts'");
      await page.waitForTimeout(300);
      expect(await page.locator('[data-testid=billing-accounts]').count()).toBe(0);

      await openScreen(page, 'My billing', 'my-billing');
      await expect.poll(() => page.locator('[data-testid=balance]').textContent()).toBe(eur(expected.Account.balance));
      await page.locator('[data-testid=entries] td:has-text("Bank transfer 0425")').waitFor();
      // The replicated account has reached this device (not only the REST answer).
      await page
        .locator('[data-testid=my-billing] .badge:has-text("Stored on this device")')
        .waitFor({ timeout: 30_000 });

      await waitForServiceWorker(page);
      await context.setOffline(true);
      await page.reload();
      await waitOffline(page);
      await openScreen(page, 'My billing', 'my-billing');
      await expect.poll(() => page.locator('[data-testid=balance]').textContent()).toBe(eur(expected.Account.balance));
      await page.locator('[data-testid=entries] td:has-text("Bank transfer 0425")').waitFor();
      await page.locator('.offline-note').waitFor();
      expect(await page.locator('[data-testid=download-statement]').isDisabled()).toBe(true);
      await checkAccessibility(page, 'my billing offline');
      await screenshot(page, 'billing-my-account');
      await context.setOffline(false);
      await waitOnline(page);
      await eventually(
        async () => (await page.locator('[data-testid=download-statement]').isDisabled()) === false,
        'the statement button online again',
      );

      // Online again: the statement of this month: a PDF download.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.click('[data-testid=download-statement]'),
      ]);
      expect(download.suggestedFilename()).toMatch(/^statement-\d{4}-\d{2}\.pdf$/);
      expect((await readDownload(download)).subarray(0, 5).toString()).toBe('%PDF-');
    } finally {
      await context.close();
    }
  });
});
