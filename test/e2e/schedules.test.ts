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
import {
  CHROMIUM,
  eventually,
  hasChromium,
  insertExpiredMel,
  launch,
  newPage,
  screenshot,
  signIn,
  waitOffline,
  waitOnline,
} from './support.ts';

if (!hasChromium) console.warn(`[e2e] skipped: ${CHROMIUM} not found`);

describe.skipIf(!hasChromium)('scheduling (Chromium, offline-first)', () => {
  let s: TestServer;
  let browser: Browser;
  let url: string;

  beforeAll(async () => {
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
      for (const p of [a.page, b.page])
        await p.locator('[data-testid=my-bookings]').getByText('waiting for the server').waitFor();
      await screenshot(a.page, 'schedules-lesson-offline');

      // The first student comes back first and wins.
      await a.context.setOffline(false);
      await waitOnline(a.page);
      await eventually(
        async () =>
          (
            await s.ctx.db
              .selectFrom('commands')
              .select('status')
              .where('name', '=', 'schedule.book')
              .where('status', '=', 'accepted')
              .execute()
          ).length === 1,
        'the first booking accepted',
      );
      await a.page.locator('[data-testid=my-bookings]').getByText('booked').waitFor();

      await b.context.setOffline(false);
      await waitOnline(b.page);
      const refused = b.page.locator('[data-testid=booking-refused]');
      await refused.waitFor({ timeout: 45_000 });
      expect(await refused.textContent()).toContain('aircraft is already booked');
      expect(await refused.textContent()).not.toContain('CONFLICT_AIRCRAFT');
      expect(await refused.locator('[data-testid=competing-booking]').first().textContent()).toContain('EC-ABC');
      await screenshot(b.page, 'schedules-refused');

      const stored = await s.ctx.db
        .selectFrom('schedules')
        .select(['pilot_id', 'start_at'])
        .where('aircraft_id', '=', s.refs.aircraft['EC-ABC'])
        .execute();
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
      const types = (await s.api('GET', '/flight_types/index.json', { token })).body.flight_types.map(
        (x: any) => x.FlightType,
      );
      const [y, m, d] = tomorrow().split('-').map(Number);
      const start = Date.UTC(y, m - 1, d, 12, 0) / 1000;
      const lesson = await s.api('POST', '/schedules/edit.json', {
        token,
        body: {
          Schedule: {
            aircraft_id: s.refs.aircraft['SIM-01'],
            pilot_id: s.userId('student@skyline.test'),
            instructor_id: s.userId('instructor@skyline.test'),
            flight_type_id: types.find((t: any) => t.name === 'Dual training').id,
            start,
            end: start + 2 * 3600,
          },
        },
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
      await eventually(
        async () =>
          (
            await s.ctx.db
              .selectFrom('schedules')
              .select('id')
              .where('aircraft_id', '=', s.refs.aircraft['EC-DEF'])
              .execute()
          ).length === 1,
        'the office booking',
      );
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

  it('the office drags a booking to another time and aircraft (a move the server decides); a clash and a MEL-blocked aircraft are refused with reasons', async () => {
    const token = await s.login('dispatch@skyline.test');
    const types = (await s.api('GET', '/flight_types/index.json', { token })).body.flight_types.map(
      (x: any) => x.FlightType,
    );
    const [y, m, d] = tomorrow().split('-').map(Number);
    const start = Date.UTC(y, m - 1, d, 6, 0) / 1000; // 07:00 or 08:00 in Madrid
    const solo = types.find((t: any) => t.name === 'Solo').id;
    const made = await s.api('POST', '/schedules/edit.json', {
      token,
      body: {
        Schedule: {
          aircraft_id: s.refs.aircraft['EC-DEF'],
          pilot_id: s.userId('pilot@skyline.test'),
          flight_type_id: solo,
          start,
          end: start + 3600,
        },
      },
    });
    expect(made.body.result, JSON.stringify(made.body)).toBe(true);
    const id = made.body.id as string;
    // An expired MEL item on EC-JET: the shared rule refuses a drop there on the device.
    await insertExpiredMel(s, s.refs.companies.skyline, s.refs.aircraft['EC-JET']!, 'Pitot heat inoperative');
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, url, 'dispatch@skyline.test');
      await page.click('nav button:has-text("Schedule")');
      await page.waitForSelector('[data-testid=schedule-board]');
      await waitOnline(page);
      await page.locator('.board-controls input[type=date]').fill(tomorrow());
      const booking = page.locator(`[data-testid=schedule-board] .booking[data-booking="${id}"]`);
      await booking.waitFor();
      const lane = (reg: string) =>
        page.locator('[data-testid=schedule-board] tbody tr', { hasText: reg }).locator('td.lane');
      // Lanes show 06:00-22:00 company time. Drag to EC-ABC; the pointer lands 11 hours (of 16) across the lane, the booking's middle under it.
      const abc = lane('EC-ABC');
      const box = await abc.boundingBox();
      if (!box) throw new Error('no lane');
      await booking.dragTo(abc, { targetPosition: { x: box.width * (11.5 / 16), y: box.height / 2 } });
      await eventually(async () => {
        const row = await s.ctx.db
          .selectFrom('schedules')
          .select(['aircraft_id', 'start_at', 'end_at'])
          .where('id', '=', id)
          .executeTakeFirst();
        return row?.aircraft_id === s.refs.aircraft['EC-ABC'] ? row : null;
      }, 'the move decided by the server');
      const moved = await s.ctx.db
        .selectFrom('schedules')
        .select(['start_at', 'end_at', 'flight_id'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(Number(moved.end_at) - Number(moved.start_at)).toBe(3600);
      const madrid = new Date(Number(moved.start_at) * 1000).toLocaleTimeString('en-GB', {
        timeZone: 'Europe/Madrid',
        hour: '2-digit',
        minute: '2-digit',
      });
      expect(['16:45', '17:00', '17:15']).toContain(madrid);
      // The linked flight moved with it.
      const flight = await s.ctx.db
        .selectFrom('flights')
        .select(['aircraft_id'])
        .where('id', '=', moved.flight_id as string)
        .executeTakeFirstOrThrow();
      expect(flight.aircraft_id).toBe(s.refs.aircraft['EC-ABC']);
      await page
        .locator(`[data-testid=schedule-board] tbody tr:has-text("EC-ABC") .booking[data-booking="${id}"]`)
        .waitFor();
      await screenshot(page, 'schedules-board-drag');

      // Dropped over the student's 10:00 lesson on EC-ABC: the server refuses the move and the board says why.
      const lesson = page.locator('[data-testid=schedule-board] tbody tr:has-text("EC-ABC") .booking').first();
      const lb = await lesson.boundingBox();
      if (!lb) throw new Error('no lesson');
      await page
        .locator(`[data-testid=schedule-board] .booking[data-booking="${id}"]`)
        .dragTo(abc, { targetPosition: { x: lb.x - box.x + lb.width / 2, y: box.height / 2 } });
      const refused = page.locator('[data-testid=booking-refused]').first();
      await refused.waitFor({ timeout: 45_000 });
      expect(await refused.textContent()).not.toContain('CONFLICT_AIRCRAFT');
      expect(
        (await s.ctx.db.selectFrom('schedules').select('aircraft_id').where('id', '=', id).executeTakeFirstOrThrow())
          .aircraft_id,
      ).toBe(s.refs.aircraft['EC-ABC']);

      // Offline, onto the MEL-blocked EC-JET: refused on the device with the server's code and words, nothing queued.
      await context.setOffline(true);
      await waitOffline(page);
      const before = await s.ctx.db.selectFrom('commands').select('id').where('name', '=', 'schedule.book').execute();
      await page
        .locator(`[data-testid=schedule-board] .booking[data-booking="${id}"]`)
        .dragTo(lane('EC-JET'), { targetPosition: { x: box.width * (4.5 / 16), y: box.height / 2 } });
      const here = page.locator('[data-testid=booking-refused-here]');
      await here.waitFor();
      expect(await here.textContent()).not.toContain('AIRCRAFT_BLOCKED');
      expect(await here.textContent()).toMatch(
        /EC-JET cannot be booked: MEL item 30 \(category B\): Pitot heat inoperative is expired/,
      );
      expect(await page.locator('[data-testid=bookings-pending]').count()).toBe(0);
      await screenshot(page, 'schedules-board-blocked');
      await context.setOffline(false);
      await waitOnline(page);
      expect(
        (await s.ctx.db.selectFrom('commands').select('id').where('name', '=', 'schedule.book').execute()).length,
      ).toBe(before.length);

      // Keyboard users move through the form: Enter on the booking opens it with its values; the same move command.
      await page.locator(`[data-testid=schedule-board] .booking[data-booking="${id}"]`).focus();
      await page.keyboard.press('Enter');
      const form = page.locator('form[aria-label="Change booking"]');
      await form.waitFor();
      await form.locator('select[aria-label="Start hour"]').selectOption('19');
      await form.locator('select[aria-label="Start minute"]').selectOption('00');
      await form.locator('button[type=submit]').click();
      await eventually(async () => {
        const row = await s.ctx.db
          .selectFrom('schedules')
          .select(['start_at', 'end_at'])
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        const hm = new Date(Number(row.start_at) * 1000).toLocaleTimeString('en-GB', {
          timeZone: 'Europe/Madrid',
          hour: '2-digit',
          minute: '2-digit',
        });
        return hm === '19:00' && Number(row.end_at) - Number(row.start_at) === 3600;
      }, 'the keyboard move');
    } finally {
      await context.close();
    }
  });
});
