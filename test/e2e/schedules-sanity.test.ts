/**
 * Issue 28 items 4, 7 and 8 and the cancel of one's own booking, as a person
 * clicks them on the demo data: the office's booking form refuses a past time,
 * a closed Sunday and 2099 in sentences, offers no mechanic as pilot, picks
 * times on a 24-hour clock and moves the board to the day booked; a pilot on a
 * phone books and cancels their own lesson (times labelled with their zone);
 * the auditor and the mechanic are offered no booking action.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../setup/dialects.ts';
import { startTestServer, type TestServer } from '../setup/server.ts';
import {
  CHROMIUM,
  eventually,
  hasChromium,
  launch,
  newPage,
  screenshot,
  signIn,
  signInWithEmailCode,
  waitOffline,
  waitOnline,
} from './support.ts';

if (!hasChromium) console.warn(`[e2e] skipped: ${CHROMIUM} not found`);

/** A refusal code as the server names them: none may reach the screen. */
const RAW_CODE = /\b(PAST|HORIZON|OUTSIDE_HOURS|NOT_ALLOWED)\b/;

/** `YYYY-MM-DD` of the Madrid calendar, `days` from today. */
const madridDay = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toLocaleDateString('en-CA', { timeZone: 'Europe/Madrid' });
const weekdayOf = (iso: string) => new Date(`${iso}T12:00:00Z`).getUTCDay();
/** The first day at least `from` days ahead whose weekday passes `ok` (0 Sunday). */
const firstDay = (from: number, ok: (wd: number) => boolean) => {
  for (let d = from; ; d++) if (ok(weekdayOf(madridDay(d)))) return madridDay(d);
};

describe.skipIf(!hasChromium)('booking sanity, cancel and zones (Chromium, demo data)', () => {
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

  const watch = (page: Page) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      // The browser's own line for a request made while offline is expected, not a fault of the app.
      if (m.type() === 'error' && !/ERR_INTERNET_DISCONNECTED/.test(m.text())) errors.push(m.text());
    });
    return errors;
  };

  it('the office reads sentences for a past time, a closed Sunday and 2099, never sees the mechanic as pilot, and the board follows the day booked', async () => {
    const { context, page } = await newPage(browser);
    const errors = watch(page);
    try {
      await signIn(page, url, 'dispatch@skyline.test');
      await page.click('nav button:has-text("Schedule")');
      await page.waitForSelector('[data-testid=schedule-board]');
      await waitOnline(page);
      // The office books from the board; "Book a lesson" is for pilots and students.
      expect(await page.locator('button:has-text("Book a lesson")').count()).toBe(0);
      await page.locator('.board-controls button:has-text("New booking")').click();
      const form = page.locator('form[aria-label="New booking"]');
      await form.waitFor();
      // Wait for the replicated people and operating hours the device decides with.
      await form.locator('option:has-text("Paula Pilot")').waitFor({ state: 'attached' });

      // Only pilots are offered for the pilot's seat.
      const pilots = await form.locator('select').nth(1).locator('option').allTextContents();
      expect(pilots).toContain('Paula Pilot');
      expect(pilots).not.toContain('Marco Mechanic');
      expect(pilots).not.toContain('Alba Auditor');

      // A 24-hour picker whatever the browser's locale: 00 to 23.
      const hours = await form.locator('select[aria-label="Start hour"] option').allTextContents();
      expect(hours).toHaveLength(24);
      expect(hours.slice(13, 15)).toEqual(['13', '14']);
      expect(await form.locator('input[type=time]').count()).toBe(0);

      const here = page.locator('[data-testid=booking-refused-here]');
      const refusal = async (date: string, expected: RegExp) => {
        await form.locator('input[type=date]').fill(date);
        await form.locator('select[aria-label="Start hour"]').selectOption('10');
        await form.locator('button[type=submit]').click();
        await expect.poll(async () => (await here.textContent()) ?? '').toMatch(expected);
        expect(await here.textContent()).not.toMatch(RAW_CODE);
      };
      await refusal(madridDay(-1), /Not booked: The booking would start in the past \(.+ Europe\/Madrid\)/);
      const sunday = firstDay(1, (wd) => wd === 0);
      await refusal(sunday, new RegExp(`The base is closed on Sunday ${sunday}\\.`));
      await screenshot(page, 'schedules-sanity-closed-sunday');
      await refusal('2099-06-01', /Bookings can be made at most 365 days ahead/);
      // Nothing reached the server.
      expect(await s.ctx.db.selectFrom('commands').select('id').where('name', '=', 'schedule.book').execute()).toEqual(
        [],
      );

      // A day other than the board's: once booked the board shows that day, with the booking on it.
      const day = firstDay(3, (wd) => wd >= 1 && wd <= 5);
      await form.locator('input[type=date]').fill(day);
      await form.locator('select').first().selectOption({ label: 'SIM-01' });
      await form.locator('select[aria-label="Start hour"]').selectOption('18');
      await form.locator('select[aria-label="Start minute"]').selectOption('30');
      await form.locator('button[type=submit]').click();
      await form.waitFor({ state: 'detached' });
      expect(await page.locator('.board-controls input[type=date]').inputValue()).toBe(day);
      await eventually(
        async () =>
          (
            await s.ctx.db
              .selectFrom('schedules')
              .select('id')
              .where('aircraft_id', '=', s.refs.aircraft['SIM-01'])
              .where('pilot_id', '=', s.userId('dispatch@skyline.test'))
              .execute()
          ).length === 1,
        'the office booking',
      );
      const row = page.locator('[data-testid=schedule-board] tbody tr', { hasText: 'SIM-01' });
      await row.locator('.booking', { hasText: '18:30' }).waitFor();
      await screenshot(page, 'schedules-sanity-board-moved');

      // The office cancels it from the board's form, after a confirmation that says what it does.
      await row.locator('button.booking', { hasText: '18:30' }).click();
      const change = page.locator('form[aria-label="Change booking"]');
      await change.getByRole('button', { name: 'Cancel booking' }).click();
      expect(await change.locator('[data-testid=confirm-cancel]').textContent()).toMatch(
        /Its scheduled flight is cancelled with it/,
      );
      await change.getByRole('button', { name: 'Yes, cancel booking' }).click();
      await change.waitFor({ state: 'detached' });
      await eventually(
        async () =>
          (
            await s.ctx.db
              .selectFrom('schedules')
              .select('status')
              .where('aircraft_id', '=', s.refs.aircraft['SIM-01'])
              .where('pilot_id', '=', s.userId('dispatch@skyline.test'))
              .executeTakeFirstOrThrow()
          ).status === 'CANCELED',
        'the office cancel',
      );
      await row.locator('.booking', { hasText: '18:30' }).waitFor({ state: 'detached' });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('on a phone a pilot books a lesson, sees it labelled with its zone, and cancels it after a confirmation', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const errors = watch(page);
    const menu = async (screen: string) => {
      await page.locator('[data-testid=menu-toggle]').click();
      await page.locator('nav[aria-label="Screens"]').getByRole('button', { name: screen, exact: true }).click();
    };
    try {
      await signIn(page, url, 'pilot@skyline.test');
      await menu('Schedule');
      await page.waitForSelector('[data-testid=lesson-flow]');
      await waitOnline(page);
      await page.waitForSelector('select[aria-label="Lesson aircraft"] option:has-text("EC-DEF")', {
        state: 'attached',
      });
      await page.waitForSelector('select[aria-label="Lesson type"] option:has-text("Solo")', { state: 'attached' });
      const day = firstDay(2, (wd) => wd >= 1 && wd <= 5);
      await page.locator('[data-testid=lesson-flow] input[type=date]').fill(day);
      await page.selectOption('select[aria-label="Lesson aircraft"]', { label: 'EC-DEF' });
      await page.selectOption('select[aria-label="Lesson type"]', { label: 'Solo' });
      const slot = page.locator('ul[aria-label="Open slots"] button', { hasText: /^18:00$/ });
      const at = Number(await slot.getAttribute('data-slot'));
      await slot.click();

      const mine = page.locator('[data-testid=my-bookings] li', { hasText: `${day} 18:00` });
      await mine.getByText('booked', { exact: true }).waitFor({ timeout: 45_000 });
      // Company zone and flight zone differ (Madrid, UTC): the time says which.
      expect(await mine.textContent()).toContain('18:00–19:00 Europe/Madrid');
      const booking = await s.ctx.db
        .selectFrom('schedules')
        .select(['id', 'flight_id'])
        .where('pilot_id', '=', s.userId('pilot@skyline.test'))
        .where('aircraft_id', '=', s.refs.aircraft['EC-DEF'])
        .where('start_at', '=', at)
        .where('status', '=', 'BOOKED')
        .executeTakeFirstOrThrow();

      // The same lesson in My flights, in the flight zone, labelled UTC.
      await menu('My flights');
      await page.waitForSelector('[data-testid=flights]');
      await expect
        .poll(() => page.locator('.flight-times').allTextContents(), { timeout: 30_000 })
        .toContainEqual(expect.stringMatching(/Blocks 17:00–18:00 UTC/));
      await menu('Schedule');
      await page.waitForSelector('[data-testid=lesson-flow]');

      await mine.getByRole('button', { name: 'Cancel booking' }).click();
      const confirm = mine.locator('[data-testid=confirm-cancel]');
      expect(await confirm.textContent()).toMatch(/The scheduled flight is cancelled with it/);
      await confirm.scrollIntoViewIfNeeded();
      await screenshot(page, 'schedules-cancel-phone');
      await confirm.getByRole('button', { name: 'Yes, cancel booking' }).click();
      await eventually(
        async () =>
          (
            await s.ctx.db
              .selectFrom('schedules')
              .select('status')
              .where('id', '=', booking.id)
              .executeTakeFirstOrThrow()
          ).status === 'CANCELED',
        'the cancel',
        45_000,
      );
      await mine.waitFor({ state: 'detached', timeout: 45_000 });
      const flight = await s.ctx.db
        .selectFrom('flights')
        .select('status')
        .where('id', '=', booking.flight_id as string)
        .executeTakeFirstOrThrow();
      expect(flight.status).toBe('CANCELED');
      // Nothing wider than the phone.
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('offline a student cancels their own lesson: it waits, and the server cancels it on reconnect', async () => {
    const token = await s.login('student@skyline.test');
    const types = (await s.api('GET', '/flight_types/index.json', { token })).body.flight_types.map(
      (x: any) => x.FlightType,
    );
    const day = firstDay(4, (wd) => wd >= 1 && wd <= 5);
    const [y, m, d] = day.split('-').map(Number);
    const start = Date.UTC(y, m - 1, d, 16, 0) / 1000; // 17:00 Madrid in winter, 18:00 in summer
    const made = await s.api('POST', '/schedules/edit.json', {
      token,
      body: {
        Schedule: {
          aircraft_id: s.refs.aircraft['SIM-01'],
          pilot_id: s.userId('student@skyline.test'),
          flight_type_id: types.find((t: any) => t.name === 'Solo').id,
          start,
          end: start + 3600,
        },
      },
    });
    expect(made.body.result, JSON.stringify(made.body)).toBe(true);
    const { context, page } = await newPage(browser);
    const errors = watch(page);
    try {
      await signIn(page, url, 'student@skyline.test');
      await page.click('nav button:has-text("Schedule")');
      await page.waitForSelector('[data-testid=lesson-flow]');
      await waitOnline(page);
      const mine = page.locator(`[data-testid=my-bookings] li[data-booking="${made.body.id}"]`);
      await mine.waitFor();
      await context.setOffline(true);
      await waitOffline(page);
      await mine.getByRole('button', { name: 'Cancel booking' }).click();
      await mine.getByRole('button', { name: 'Yes, cancel booking' }).click();
      await mine.getByText('cancel waiting for the server').waitFor();
      expect(
        (
          await s.ctx.db
            .selectFrom('schedules')
            .select('status')
            .where('id', '=', made.body.id)
            .executeTakeFirstOrThrow()
        ).status,
      ).toBe('BOOKED');
      await context.setOffline(false);
      await waitOnline(page);
      await eventually(
        async () =>
          (
            await s.ctx.db
              .selectFrom('schedules')
              .select('status')
              .where('id', '=', made.body.id)
              .executeTakeFirstOrThrow()
          ).status === 'CANCELED',
        'the offline cancel',
        45_000,
      );
      await mine.waitFor({ state: 'detached', timeout: 45_000 });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('the mechanic and the auditor read the board and are offered no booking action', async () => {
    for (const email of ['mechanic@skyline.test', 'auditor@skyline.test']) {
      const { context, page } = await newPage(browser);
      const errors = watch(page);
      try {
        if (email.startsWith('auditor')) await signInWithEmailCode(page, s, email);
        else await signIn(page, url, email);
        await page.click('nav button:has-text("Schedule")');
        await page.waitForSelector('[data-testid=schedule-board]');
        await waitOnline(page);
        expect(await page.locator('button:has-text("Book a lesson")').count()).toBe(0);
        expect(await page.locator('button:has-text("New booking")').count()).toBe(0);
        // Bookings are there to read, not buttons to move or open.
        await page.locator('.board-controls input[type=date]').fill(firstDay(1, (wd) => wd >= 1 && wd <= 5));
        await page.locator('[data-testid=schedule-board] .booking').first().waitFor();
        expect(await page.locator('[data-testid=schedule-board] button.booking').count()).toBe(0);
        // A click on an empty lane opens no form.
        const lane = page.locator('[data-testid=schedule-board] td.lane').first();
        const box = await lane.boundingBox();
        if (!box) throw new Error('no lane');
        await page.mouse.click(box.x + box.width * 0.95, box.y + box.height / 2);
        expect(await page.locator('form.booking-form').count()).toBe(0);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });
});
