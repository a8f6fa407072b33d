/**
 * Scheduling end to end: two students book the same slot while offline; when
 * they come back the server decides once: exactly one wins, the other sees why
 * and the competing booking. Also the office's board. Screenshots in
 * docs/screenshots/schedules-*.png.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../setup/dialects.ts';
import { startTestServer, type TestServer } from '../setup/server.ts';
import { addUser } from '../integration/pilots/people-helpers.ts';
import { buildRenderer, CHROMIUM, eventually, hasChromium, launch, newPage, screenshot, signIn, waitOffline, waitOnline } from './support.ts';

if (!hasChromium) console.warn(`[e2e] skipped: ${CHROMIUM} not found`);

describe.skipIf(!hasChromium)('scheduling (Chromium, offline-first)', () => {
  let s: TestServer;
  let browser: Browser;
  let url: string;

  beforeAll(async () => {
    buildRenderer();
    s = await startTestServer(DIALECTS[0], { seed: 'fixtures' });
    browser = await launch();
    url = `${s.url}/app/`;
    await addUser(s, { role: 200, name: 'Sofia', surname: 'Second', email: 'student2@skyline.test', login: true });
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  /** Tomorrow in the company calendar (Europe/Madrid). */
  const tomorrow = () => new Date(Date.now() + 86_400_000).toLocaleDateString('en-CA', { timeZone: 'Europe/Madrid' });

  async function openLessons(page: Page, email: string, date: string) {
    await signIn(page, url, email);
    await page.click('nav button:has-text("Schedule")');
    await page.waitForSelector('[data-testid=lesson-flow]');
    await waitOnline(page);
    // Wait for the replicated reference data the flow needs (aircraft, bookable types).
    await page.waitForSelector('select[aria-label="Lesson aircraft"] option:has-text("EC-ABC")', { state: 'attached' });
    await page.waitForSelector('select[aria-label="Lesson type"] option:has-text("Solo")', { state: 'attached' });
    await page.locator('[data-testid=lesson-flow] input[type=date]').fill(date);
    await page.selectOption('select[aria-label="Lesson aircraft"]', { label: 'EC-ABC' });
    await page.selectOption('select[aria-label="Lesson type"]', { label: 'Solo' });
  }

  it('two offline students book the same slot: exactly one wins, the other sees why and the competing booking', async () => {
    const date = tomorrow();
    const a = await newPage(browser);
    const b = await newPage(browser);
    try {
      await openLessons(a.page, 'student@skyline.test', date);
      await openLessons(b.page, 'student2@skyline.test', date);
      await a.context.setOffline(true);
      await b.context.setOffline(true);
      await waitOffline(a.page);
      await waitOffline(b.page);

      // Only allowed slots are offered (inside the hours, in the future); both pick 10:00.
      const slot = a.page.locator('ul[aria-label="Open slots"] button', { hasText: /^10:00/ }).first();
      const at = (await slot.getAttribute('data-slot')) as string;
      await slot.click();
      await b.page.locator(`ul[aria-label="Open slots"] button[data-slot="${at}"]`).click();
      for (const p of [a.page, b.page]) await p.locator('[data-testid=my-bookings]').getByText('waiting for the server').waitFor();
      await screenshot(a.page, 'schedules-lesson-offline');

      // The first student comes back first and wins.
      await a.context.setOffline(false);
      await waitOnline(a.page);
      await eventually(async () => (await s.ctx.db.selectFrom('commands').select('status').where('name', '=', 'schedule.book').where('status', '=', 'accepted').execute()).length === 1, 'the first booking accepted');
      await a.page.locator('[data-testid=my-bookings]').getByText('booked').waitFor();

      await b.context.setOffline(false);
      await waitOnline(b.page);
      const refused = b.page.locator('[data-testid=booking-refused]');
      await refused.waitFor({ timeout: 45_000 });
      expect(await refused.textContent()).toContain('aircraft is already booked');
      expect(await refused.textContent()).toContain('CONFLICT_AIRCRAFT');
      expect(await refused.locator('[data-testid=competing-booking]').first().textContent()).toContain('EC-ABC');
      await screenshot(b.page, 'schedules-refused');

      const stored = await s.ctx.db.selectFrom('schedules').select(['pilot_id', 'start_at']).where('aircraft_id', '=', s.refs.aircraft['EC-ABC']).execute();
      expect(stored).toEqual([{ pilot_id: s.userId('student@skyline.test'), start_at: Number(at) }]);
    } finally {
      await a.context.close();
      await b.context.close();
    }
  });

  it("the office's board shows the day by aircraft and by instructor and books from an empty slot", async () => {
    const { context, page } = await newPage(browser);
    try {
      // A dual lesson booked by the office through the API, so the board has content of its own.
      const token = await s.login('dispatch@skyline.test');
      const types = (await s.api('GET', '/flight_types/index.json', { token })).body.flight_types.map((x: any) => x.FlightType);
      const [y, m, d] = tomorrow().split('-').map(Number);
      const start = Date.UTC(y, m - 1, d, 12, 0) / 1000;
      const lesson = await s.api('POST', '/schedules/edit.json', {
        token,
        body: { Schedule: { aircraft_id: s.refs.aircraft['SIM-01'], pilot_id: s.userId('student@skyline.test'), instructor_id: s.userId('instructor@skyline.test'), flight_type_id: types.find((t: any) => t.name === 'Dual training').id, start, end: start + 2 * 3600 } },
      });
      expect(lesson.body.result, JSON.stringify(lesson.body)).toBe(true);
      await signIn(page, url, 'dispatch@skyline.test');
      await page.click('nav button:has-text("Schedule")');
      await page.waitForSelector('[data-testid=schedule-board]');
      await waitOnline(page);
      await page.locator('.board-controls input[type=date]').fill(tomorrow());
      await page.locator(`[data-testid=schedule-board] .booking[data-booking="${lesson.body.id}"]`).waitFor();
      const before = await page.locator('[data-testid=schedule-board] .booking').count();
      // Book EC-DEF from its empty lane.
      const lane = page.locator('[data-testid=schedule-board] tbody tr', { hasText: 'EC-DEF' }).locator('td.lane');
      const box = await lane.boundingBox();
      if (!box) throw new Error('no lane');
      await page.mouse.click(box.x + box.width * 0.5, box.y + box.height / 2);
      const form = page.locator('form[aria-label="New booking"]');
      await form.waitFor();
      await form.locator('select').nth(1).selectOption({ label: 'Paula Pilot' });
      await form.locator('button[type=submit]').click();
      await eventually(async () => (await s.ctx.db.selectFrom('schedules').select('id').where('aircraft_id', '=', s.refs.aircraft['EC-DEF']).execute()).length === 1, 'the office booking');
      await expect.poll(() => page.locator('[data-testid=schedule-board] .booking').count()).toBe(before + 1);
      await screenshot(page, 'schedules-board-day');
      await page.click('button:has-text("Week")');
      await page.click('button:has-text("By instructor")');
      await page.click('button:has-text("By aircraft")');
      await screenshot(page, 'schedules-board-week');
    } finally {
      await context.close();
    }
  });
});
