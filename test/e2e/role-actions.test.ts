/**
 * Issue 28, items 3 and 8 and the missing actions, as people click them on the
 * demo data: a safety report filed with two presses is one report, a future
 * event date is refused beside the field, the form empties after filing; the
 * safety manager reviews, classifies, assigns a reviewer and closes (with a
 * confirmation), the assigned reviewer reviews without assigning, the author
 * is told who reviews; a teacher unsigns a signed class; "Deactivate all" asks
 * first and names how many lose access. Screenshots in
 * docs/screenshots/safety-review-*.png.
 */
import type { Browser, Page } from 'playwright-core';
import { EVENT_IN_FUTURE } from '@ops/shared/rules/safety-reports/safety';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../setup/dialects.ts';
import { startTestServer, type TestServer } from '../setup/server.ts';
import { openScreen } from './office-support.ts';
import { CHROMIUM, hasChromium, launch, screenshot, signIn, waitOnline, screensHalf } from './support.ts';

if (!hasChromium) console.warn(`[e2e] skipped: ${CHROMIUM} not found`);

const PHONE = { width: 390, height: 844 };

describe.skipIf(!hasChromium || !screensHalf)('role actions of issue 28 (Chromium, demo data)', () => {
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

  /** A signed-in page of `email`; page errors collected (any fails the case). */
  async function as(
    email: string,
    fn: (page: Page, errors: string[]) => Promise<void>,
    viewport = { width: 1360, height: 900 },
  ) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await signIn(page, url, email);
      await waitOnline(page);
      await fn(page, errors);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }

  const reportsNamed = (name: string) =>
    s.ctx.db.selectFrom('safety_reports').selectAll().where('name', '=', name).execute();

  const NAME = 'Drone over the threshold';
  let idn = '';

  it('files once however often "File report" is pressed; a future date is refused beside the field; the form empties', async () => {
    await as('pilot@skyline.test', async (page) => {
      await openScreen(page, 'Safety reports', 'safety');
      await page.click('[data-testid=safety-tab-file]');
      await page.waitForSelector('[data-testid=safety-form] option:has-text("Airprox")', { state: 'attached' });
      const form = page.locator('[data-testid=safety-form]');
      await form.locator('input[name=name]').fill(NAME);
      await form.locator('input[name=datetime]').fill('2090-06-01T10:00');
      await form.locator('input[name=location]').fill('LECU');
      await form.locator('select[name=flight_phase]').selectOption('APR');
      await form.locator('select[name=safety_report_category_id]').selectOption({ label: 'Airprox' });
      await form.locator('textarea[name=events]').fill('A drone hovered at 200 ft over the threshold of runway 27.');
      await form.locator('button[type=submit]').click();
      await expect.poll(() => page.locator('[data-testid=safety-datetime-error]').textContent()).toBe(EVENT_IN_FUTURE);
      expect(await form.locator('input[name=datetime]').getAttribute('aria-invalid')).toBe('true');
      await screenshot(page, 'safety-review-future-date');
      expect(await reportsNamed(NAME)).toEqual([]);

      // Two presses in the same instant (before the first one's answer): one form, one report.
      const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 16);
      await form.locator('input[name=datetime]').fill(yesterday);
      expect(await page.locator('[data-testid=safety-datetime-error]').count()).toBe(0);
      await page.evaluate(
        "(() => { const f = document.querySelector('[data-testid=safety-form]'); f.requestSubmit(); f.requestSubmit(); })()",
      );
      await page.waitForSelector('[data-testid=safety-form] [role=status]:has-text("Report sent")');
      // The form is empty again for the next report (the old handler failed on "reading 'reset'").
      expect(await form.locator('input[name=name]').inputValue()).toBe('');
      expect(await form.locator('textarea[name=events]').inputValue()).toBe('');
      await expect.poll(async () => (await reportsNamed(NAME)).length, { timeout: 30_000 }).toBe(1);
      // Both presses reached the server as commands, both accepted with the same report: still one report.
      const decided = async () =>
        (
          await s.ctx.db
            .selectFrom('commands')
            .select(['status', 'result'])
            .where('name', '=', 'safety.file')
            .where('user_id', '=', s.userId('pilot@skyline.test'))
            .execute()
        ).filter((c) => c.status === 'accepted');
      await expect.poll(async () => (await decided()).length, { timeout: 30_000 }).toBe(2);
      const results = (await decided()).map((c) => JSON.parse(String(c.result)).idn);
      expect(new Set(results).size).toBe(1);
      const [row] = await reportsNamed(NAME);
      expect(row.idn).toMatch(/^\d{4}\/\d{5}$/);
      expect(await reportsNamed(NAME)).toHaveLength(1);
      idn = row.idn ?? '';
    });
  });

  it('the safety manager classifies, assigns a reviewer, marks reviewed and closes after a confirmation', async () => {
    expect(idn).not.toBe('');
    await as('safety@skyline.test', async (page) => {
      await openScreen(page, 'Safety reports', 'safety');
      await page.click(`[data-testid=safety-list] td:has-text("${idn}")`);
      const panel = page.locator('[data-testid=safety-review]');
      await panel.waitFor();
      await panel.locator('select[name=type]').selectOption('INFORMATION');
      await panel.locator('select[name=severity]').selectOption('hazard');
      await panel.locator('select[name=risk_probability]').selectOption('probable');
      await panel.locator('select[name=risk_severity]').selectOption('hazardous');
      await panel.locator('select[name=mitigated_risk_probability]').selectOption('improbable');
      await panel.locator('select[name=mitigated_risk_severity]').selectOption('marginal');
      await panel.locator('select[name=reviewer_id]').selectOption({ label: 'Ivan Instructor' });
      await panel
        .locator('textarea[name=reviewer_outcome]')
        .fill('NOTAM requested; drone flights near the field reported to the authority.');
      await panel.locator('[data-testid=safety-review-save]').click();
      await page.waitForSelector('[data-testid=safety-review] [role=status]:has-text("Review saved")');
      await page.waitForSelector('[data-testid=safety-risk-view]:has-text("4B intolerable")');
      await page.waitForSelector('[data-testid=safety-risk-view]:has-text("2D acceptable")');
      await screenshot(page, 'safety-review-classify');

      await page.click('[data-testid=safety-step-reviewed]');
      await page.waitForSelector('[data-testid=safety-steps] strong:text-is("Reviewed")');
      // Closing asks first and says what it does; dismissing it changes nothing.
      const messages: string[] = [];
      page.once('dialog', (d) => {
        messages.push(d.message());
        void d.dismiss();
      });
      await page.click('[data-testid=safety-step-closed]');
      await expect.poll(() => messages.length).toBe(1);
      expect(messages[0]).toContain('Close this report?');
      expect((await reportsNamed(NAME))[0].status).toBe('reviewed');
      page.once('dialog', (d) => void d.accept());
      await page.click('[data-testid=safety-step-closed]');
      await page.waitForSelector('[data-testid=safety-steps] strong:text-is("Closed")');
      await page.waitForSelector('[data-testid=safety-step-published]');
      await page.waitForSelector('[data-testid=safety-trail] td:has-text("edit")');
      await screenshot(page, 'safety-review-closed');
      const [row] = await reportsNamed(NAME);
      expect(row).toMatchObject({
        status: 'closed',
        type: 'INFORMATION',
        severity: 'hazard',
        reviewer_id: s.userId('instructor@skyline.test'),
        mitigated_risk_probability: 'improbable',
      });
    });
  });

  it('the assigned reviewer reviews without assigning; the author (on a phone) is told who reviews', async () => {
    await as('instructor@skyline.test', async (page) => {
      await openScreen(page, 'Safety reports', 'safety');
      await page.click(`[data-testid=safety-list] td:has-text("${idn}")`);
      const panel = page.locator('[data-testid=safety-review]');
      await panel.waitFor();
      expect(await panel.locator('select[name=reviewer_id]').count()).toBe(0);
      await page.waitForSelector('[data-testid=safety-step-published]');
    });
    await as(
      'pilot@skyline.test',
      async (page) => {
        await page.click('[data-testid=menu-toggle]');
        await openScreen(page, 'Safety reports', 'safety');
        await page.click(`[data-testid=safety-list] td:has-text("${idn}")`);
        await page.waitForSelector('[data-testid=safety-review-none]');
        expect(await page.locator('[data-testid=safety-review]').count()).toBe(0);
        expect(await page.locator('[data-testid=safety-step-closed], [data-testid=safety-step-open]').count()).toBe(0);
        await screenshot(page, 'safety-review-author-phone');
      },
      PHONE,
    );
  });

  it('a company whose plan has no safety reports: no menu entry; a link to the screen reads a sentence, not a form', async () => {
    await as('pilot@harbor.test', async (page) => {
      // The menu waits for the company document (its plan) before it leaves the entry out.
      await page.waitForSelector('nav[aria-label="Screens"] button:text-is("My flights")');
      await page.waitForFunction(
        `![...document.querySelectorAll('nav[aria-label="Screens"] button')].some((b) => b.textContent === 'Safety reports')`,
      );
      await page.evaluate(`location.hash = '#safety'`);
      await page.waitForSelector('[data-testid=safety]');
      await page.waitForSelector('[data-testid=safety-off]:has-text("does not include safety reports")');
      expect(await page.locator('[data-testid=safety-form], [data-testid=safety-tab-file]').count()).toBe(0);
    });
  });

  it('the teacher unsigns a signed class after a confirmation; the marks open again', async () => {
    const teacher = s.userId('instructor@skyline.test');
    const today = await s.ctx.db
      .selectFrom('training_sessions')
      .select(['id'])
      .where('teacher_id', '=', teacher)
      .where('signed_at', 'is', null)
      .executeTakeFirstOrThrow();
    const token = await s.login('instructor@skyline.test');
    const signed = await s.api('POST', '/trainings/onsite/sign_class.json', {
      token,
      body: { classId: today.id, password: 'demo1234' },
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    const signedAt = async () =>
      (
        await s.ctx.db
          .selectFrom('training_sessions')
          .select('signed_at')
          .where('id', '=', today.id)
          .executeTakeFirstOrThrow()
      ).signed_at;
    await as('instructor@skyline.test', async (page) => {
      await openScreen(page, 'Classes today', 'training-today');
      const card = page.locator(`[data-class="${today.id}"]`);
      await card.locator('[data-testid=unsign-class]').waitFor();
      page.once('dialog', (d) => void d.dismiss());
      await card.locator('[data-testid=unsign-class]').click();
      expect(await signedAt()).not.toBeNull();
      page.once('dialog', (d) => void d.accept());
      await card.locator('[data-testid=unsign-class]').click();
      await expect.poll(signedAt).toBeNull();
      await card.locator('[data-testid=sign-class]').waitFor();
      expect(await card.locator('header .badge').textContent()).toBe('Not signed');
    });
  });

  it('"Deactivate all" asks first and names how many lose access', async () => {
    const active = async () =>
      (
        await s.ctx.db
          .selectFrom('users')
          .select('active')
          .where('id', 'in', [s.userId('pilot@skyline.test')])
          .executeTakeFirstOrThrow()
      ).active;
    await as('admin@skyline.test', async (page) => {
      await openScreen(page, 'Pilot groups', 'pilot-groups');
      const group = page.locator('li[data-group="Private pilots"]');
      await group.waitFor();
      const messages: string[] = [];
      page.once('dialog', (d) => {
        messages.push(d.message());
        void d.dismiss();
      });
      await group.locator('button:has-text("Deactivate all")').click();
      await expect.poll(() => messages.length).toBe(1);
      expect(messages[0]).toMatch(/^Deactivate 2 members of Private pilots\? They lose access at once/);
      expect(Number(await active())).toBe(1);
      page.once('dialog', (d) => void d.accept());
      await group.locator('button:has-text("Deactivate all")').click();
      await page.waitForSelector('[data-testid=pilot-groups] [role=status]:has-text("deactivated")');
      expect(Number(await active())).toBe(0);
    });
  });
});
