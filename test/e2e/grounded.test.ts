/**
 * Issue 28 items 1, 6 and 8, and a maintenance job from open reports, as people
 * click them on the demo data: the mechanic grounds EC-JET with a critical
 * defect; the fleet header counts it as blocked; a pilot cannot dispatch a
 * flight on it and reads why (desktop and phone); the pilot is not offered
 * "Close report"; the mechanic closes the defect with a rectification and
 * their password after reading what it unblocks; the pilot then dispatches.
 * Then the mechanic gathers two open reports into a maintenance job.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../setup/dialects.ts';
import { startTestServer, type TestServer } from '../setup/server.ts';
import { eventually, hasChromium, launch, newPage, screenshot, signIn, waitOffline, waitOnline } from './support.ts';

const blockedCount = async (page: Page): Promise<number> => {
  const text = (await page.locator('section[aria-labelledby=fleet-title] .screen-head p').textContent()) ?? '';
  const m = /(\d+) blocked/.exec(text);
  if (!m) throw new Error(`no blocked count in "${text}"`);
  return Number(m[1]);
};

describe.skipIf(!hasChromium)('a grounded aircraft (Chromium, demo data)', () => {
  let s: TestServer;
  let browser: Browser;
  let url: string;
  const date = new Date(Date.now() + 3 * 86400000).toISOString().slice(0, 10);

  beforeAll(async () => {
    s = await startTestServer(DIALECTS[0], { seed: 'demo' });
    browser = await launch();
    url = `${s.url}/app/`;
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it('the mechanic grounds EC-JET; the pilot cannot dispatch and reads why; the release with rectification and password lets the flight go', async () => {
    const mech = await newPage(browser);
    const pilot = await newPage(browser);
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    try {
      // The mechanic reports a critical defect that grounds EC-JET, from its technical log.
      const m = mech.page;
      await signIn(m, url, 'mechanic@skyline.test');
      await m.waitForSelector('[data-testid=fleet-board] [data-registration=EC-JET]');
      await waitOnline(m);
      const before = await blockedCount(m);
      await m.locator('[data-registration=EC-JET] button', { hasText: 'Technical log' }).click();
      await m.click('button:has-text("Report a defect")');
      const form = m.locator('form[aria-label="Report a defect"]');
      await form.locator('input[name=title]').fill('Nose gear shimmy');
      await form.locator('input[name=ata]').fill('32');
      await form.locator('select').first().selectOption('CRITICAL');
      await form.locator('label.check', { hasText: 'Grounds the aircraft' }).locator('input').check();
      await form.locator('button[type=submit]').click();
      const defect = m.locator('[data-testid=defects] article.report[data-title="Nose gear shimmy"]');
      await defect.waitFor();
      const reportId = await eventually(
        () =>
          s.ctx.db
            .selectFrom('aircraft_reports')
            .select(['id', 'aircraft_status', 'severity'])
            .where('title', '=', 'Nose gear shimmy')
            .executeTakeFirst(),
        'the defect on the server',
      );
      expect(reportId).toMatchObject({ aircraft_status: 'GROUNDED', severity: 'CRITICAL' });
      await m.click('nav button:has-text("Fleet")');
      const jet = m.locator('[data-registration=EC-JET]');
      await expect.poll(() => jet.getAttribute('data-blocked')).toBe('true');
      expect(await jet.locator('.badge').first().textContent()).toBe('Grounded');
      expect(await blockedCount(m)).toBe(before + 1);
      expect(await jet.locator('.block-reason').textContent()).toContain('“Nose gear shimmy”');
      await screenshot(m, 'grounded-fleet-board');

      // The pilot plans a flight on EC-JET: Dispatch is refused on the device with the reason.
      const p = pilot.page;
      await signIn(p, url, 'pilot@skyline.test');
      await p.waitForSelector('h2#flights-title');
      await waitOnline(p);
      await p.click('button:has-text("New flight")');
      const nf = p.locator('form[aria-label="New flight"]');
      await nf.locator('input[name=date]').fill(date);
      await nf.locator('input[name=callsign]').fill('JET28');
      await nf.locator('select[name=status]').selectOption('SCHEDULED');
      await nf.locator('select[name=aircraft_id]').selectOption({ label: 'EC-JET' });
      await nf.locator('input[name=departure_airport]').fill('LECU');
      await nf.locator('input[name=landing_airport]').fill('LECU');
      await nf.locator('input[name=offblocks_time]').fill('10:00');
      await nf.locator('input[name=onblocks_time]').fill('11:00');
      await nf.locator('button[type=submit]').click();
      const flight = p.locator('article.flight[data-callsign=JET28]');
      await flight.waitFor();
      const refusal = flight.locator('[data-testid=dispatch-blocked]');
      await expect
        .poll(() => refusal.textContent())
        .toBe('EC-JET cannot be dispatched: Open defect “Nose gear shimmy” (ATA 32, CRITICAL) grounds the aircraft.');
      const dispatchButton = flight.locator('button', { hasText: 'Dispatch' });
      expect(await dispatchButton.isDisabled()).toBe(true);
      await screenshot(p, 'grounded-dispatch-refused');
      const flightId = await eventually(
        () =>
          s.ctx.db.selectFrom('flights').select(['id', 'status']).where('callsign', '=', 'JET28').executeTakeFirst(),
        'the flight on the server',
      );
      // The server gives the same answer to a dispatch sent anyway.
      const token = await s.login('pilot@skyline.test');
      const direct = await s.api('POST', `/flights/dispatch/${flightId.id}.json`, { token });
      expect(direct.body).toMatchObject({ result: false, code: 'AIRCRAFT_GROUNDED' });

      // The pilot is not offered "Close report" on the mechanic's defect (item 8).
      await p.click('nav button:has-text("Technical log")');
      await p.selectOption('select[aria-label=Aircraft]', { label: 'EC-JET' });
      const seen = p.locator('[data-testid=defects] article.report[data-title="Nose gear shimmy"]');
      await seen.waitFor();
      expect(await seen.locator('button', { hasText: 'Close report' }).count()).toBe(0);

      // Offline, the pilot's lesson flow offers no slot on EC-JET and says why: decided on the device.
      await pilot.context.setOffline(true);
      await waitOffline(p);
      await p.click('nav button:has-text("Schedule")');
      await p.waitForSelector('[data-testid=lesson-flow]');
      await p.locator('[data-testid=lesson-flow] input[type=date]').fill(date);
      await p.selectOption('select[aria-label="Lesson aircraft"]', { label: 'EC-JET' });
      await expect
        .poll(() => p.locator('[data-testid=lesson-flow] .empty').textContent())
        .toBe('EC-JET cannot be booked: Open defect “Nose gear shimmy” (ATA 32, CRITICAL) grounds the aircraft.');
      expect(await p.locator('ul[aria-label="Open slots"] button').count()).toBe(0);
      await screenshot(p, 'grounded-lesson-offline');
      await pilot.context.setOffline(false);
      await waitOnline(p);

      // Phone-sized: the same sentence on the pilot's flight.
      const phonePage = await phone.newPage();
      phonePage.setDefaultTimeout(30_000);
      await signIn(phonePage, url, 'pilot@skyline.test');
      await phonePage.waitForSelector('h2#flights-title');
      const small = phonePage.locator('article.flight[data-callsign=JET28]');
      await expect
        .poll(() => small.locator('[data-testid=dispatch-blocked]').textContent())
        .toContain('“Nose gear shimmy”');
      const box = await small.boundingBox();
      expect(box && box.x + box.width).toBeLessThanOrEqual(390 + 1);
      await small.scrollIntoViewIfNeeded();
      await screenshot(phonePage, 'grounded-dispatch-refused-phone');

      // The mechanic closes it: the panel says what it unblocks, and wants the rectification and password.
      await m.locator('[data-registration=EC-JET] button', { hasText: 'Technical log' }).click();
      await defect.locator('button', { hasText: 'Close report' }).click();
      const close = defect.locator('form[aria-label="Close report"]');
      expect(await close.locator('[data-testid=close-effect]').textContent()).toBe('EC-JET becomes dispatchable.');
      await close.locator('button[type=submit]').click();
      await close.locator('.field-error').first().waitFor();
      expect(await close.textContent()).toContain('Say what was done to rectify it.');
      await close.locator('textarea[name=rectification]').fill('Shimmy damper replaced, ops check good');
      await close.locator('input[name=password]').fill('wrong-password');
      await close.locator('button[type=submit]').click();
      await expect.poll(() => close.textContent(), { timeout: 20_000 }).toContain('Wrong password');
      expect(
        (
          await s.ctx.db
            .selectFrom('aircraft_reports')
            .select('status')
            .where('title', '=', 'Nose gear shimmy')
            .executeTakeFirstOrThrow()
        ).status,
      ).toBe('OPEN');
      await screenshot(m, 'grounded-close-report');
      await close.locator('input[name=password]').fill('demo1234');
      await close.locator('button[type=submit]').click();
      await m.waitForSelector(
        '[data-testid=closed-note]:has-text("Closed “Nose gear shimmy”: the aircraft is dispatchable.")',
      );
      await defect.waitFor({ state: 'detached' });
      const closed = await s.ctx.db
        .selectFrom('aircraft_reports')
        .select(['status', 'description', 'closed_by'])
        .where('title', '=', 'Nose gear shimmy')
        .executeTakeFirstOrThrow();
      expect(closed).toMatchObject({
        status: 'CLOSED',
        description: 'Rectification: Shimmy damper replaced, ops check good',
        closed_by: s.userId('mechanic@skyline.test'),
      });

      // The pilot's device learns of the release and dispatches.
      await p.click('nav button:has-text("My flights")');
      await expect.poll(() => flight.locator('[data-testid=dispatch-blocked]').count(), { timeout: 45_000 }).toBe(0);
      await dispatchButton.click();
      await eventually(
        async () =>
          (await s.ctx.db.selectFrom('flights').select('status').where('callsign', '=', 'JET28').executeTakeFirst())
            ?.status === 'DISPATCHED',
        'the flight dispatched',
      );
      await screenshot(p, 'grounded-dispatched-after-release');
    } finally {
      await mech.context.close();
      await pilot.context.close();
      await phone.close();
    }
  });

  it('the mechanic ticks two open reports of EC-ABC and creates a maintenance job linked to them', async () => {
    const { context, page } = await newPage(browser);
    try {
      const token = await s.login('mechanic@skyline.test');
      const abc = s.refs.aircraft['EC-ABC'];
      for (const title of ['Left brake worn', 'Right brake worn']) {
        const r = await s.api('POST', '/maintenance/aircraft_reports/create.json', {
          token,
          body: { AircraftReport: { aircraft_id: abc, type: 'DEFECT', title, ata_chapter: '32', severity: 'HIGH' } },
        });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
      }
      await signIn(page, url, 'mechanic@skyline.test');
      await waitOnline(page);
      await page.locator('[data-registration=EC-ABC] button', { hasText: 'Technical log' }).click();
      for (const title of ['Left brake worn', 'Right brake worn']) {
        const card = page.locator(`[data-testid=defects] article.report[data-title="${title}"]`);
        await card.waitFor();
        await card.locator('label.check', { hasText: 'Select for a job' }).locator('input').check();
      }
      const job = page.locator('form[aria-label="New maintenance job"]');
      expect(await job.textContent()).toContain('with 2 reports');
      await job.locator('input[name=job_name]').fill('Brakes: both sides');
      await screenshot(page, 'maintenance-job-from-reports');
      await job.locator('button[type=submit]').click();
      await page.waitForSelector('text=Maintenance job created for EC-ABC with 2 reports');
      const row = await eventually(
        () =>
          s.ctx.db
            .selectFrom('maintenance_jobs')
            .select(['id', 'aircraft_id'])
            .where('name', '=', 'Brakes: both sides')
            .executeTakeFirst(),
        'the job on the server',
      );
      expect(row.aircraft_id).toBe(abc);
      const linked = await s.ctx.db
        .selectFrom('aircraft_reports')
        .select('title')
        .where('maintenance_job_id', '=', row.id)
        .orderBy('title')
        .execute();
      expect(linked.map((r) => r.title)).toEqual(['Left brake worn', 'Right brake worn']);

      // The Maintenance screen shows the job with its reports once synced.
      await page.click('nav button:has-text("Maintenance")');
      const card = page.locator(`article.job[data-job-id="${row.id}"]`);
      await card.waitFor({ timeout: 45_000 });
      await expect.poll(() => card.locator('ul.job-reports li').count(), { timeout: 45_000 }).toBe(2);
      await screenshot(page, 'maintenance-job-with-reports');
    } finally {
      await context.close();
    }
  });
});
