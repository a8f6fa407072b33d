/**
 * Duty end to end (issue 30): an instructor, offline, books past the daily
 * duty limit and the device refuses it with the server's code and numbers
 * (the same shared rule); "My duty" computed on the device; the office's crew
 * duty board. Screenshots in docs/screenshots/duty-*.png.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../setup/dialects.ts';
import { startTestServer, type TestServer } from '../setup/server.ts';
import { CHROMIUM, hasChromium, launch, newPage, screenshot, signIn, waitOffline, waitOnline } from './support.ts';

if (!hasChromium) console.warn(`[e2e] skipped: ${CHROMIUM} not found`);

const H = 3600;

describe.skipIf(!hasChromium)('duty limits (Chromium, offline-first)', () => {
  let s: TestServer;
  let browser: Browser;
  let url: string;
  let types: Record<string, string>;

  /** Tomorrow in the company calendar (Europe/Madrid), and its midnight in UTC. */
  const tomorrow = () => new Date(Date.now() + 86_400_000).toLocaleDateString('en-CA', { timeZone: 'Europe/Madrid' });
  const utcMidnight = (iso: string) => {
    const [y, m, d] = iso.split('-').map(Number);
    return Date.UTC(y, m - 1, d) / 1000;
  };

  beforeAll(async () => {
    s = await startTestServer(DIALECTS[0], { seed: 'fixtures' });
    browser = await launch();
    url = `${s.url}/app/`;
    const admin = await s.login('admin@skyline.test');
    const list = (await s.api('GET', '/flight_types/index.json', { token: admin })).body.flight_types as {
      FlightType: { id: string; name: string };
    }[];
    types = Object.fromEntries(list.map((x) => [x.FlightType.name, x.FlightType.id]));
    const limits = await s.api('POST', '/manager/companies/edit.json', {
      token: admin,
      body: { CompanySetting: { max_duty_hours: 8, max_flight_hours_year: 40 } },
    });
    expect(limits.body.result, JSON.stringify(limits.body)).toBe(true);
    // Ivan's day tomorrow: two dual lessons booked by the office (07:00-10:00 and 11:00-13:00 UTC): duty 6:30 with the margins.
    const dispatch = await s.login('dispatch@skyline.test');
    const day = utcMidnight(tomorrow());
    for (const [from, to, reg] of [
      [7, 10, 'EC-ABC'],
      [11, 13, 'EC-ABC'],
    ] as const) {
      const r = await s.api('POST', '/schedules/edit.json', {
        token: dispatch,
        body: {
          Schedule: {
            aircraft_id: s.refs.aircraft[reg],
            pilot_id: s.userId('student@skyline.test'),
            instructor_id: s.userId('instructor@skyline.test'),
            flight_type_id: types['Dual training'],
            start: day + from * H,
            end: day + to * H,
          },
        },
      });
      expect(r.body.result, JSON.stringify(r.body)).toBe(true);
    }
    // Flown this week: lessons Ivan gave, confirmed, so "My duty" and the board have history.
    const today = new Date().toLocaleDateString('en-CA', { timeZone: 'UTC' });
    for (const [date, off, on, pic] of [
      [today, '06:00', '08:30', 'instructor@skyline.test'],
      [today, '09:00', '11:30', 'instructor@skyline.test'],
      [today, '12:00', '16:00', 'pilot@skyline.test'],
    ] as const) {
      const f = await s.api('POST', '/flights/edit.json', {
        token: admin,
        body: {
          Flight: {
            date,
            aircraft_id: s.refs.aircraft['EC-DEF'],
            flight_type_id: types['Dual training'],
            pic_id: s.userId(pic),
            sic_id: s.userId('student@skyline.test'),
            departure_airport: 'LECU',
            landing_airport: 'LECU',
            offblocks_time: off,
            onblocks_time: on,
            landings: 1,
          },
        },
      });
      expect(f.body.result, JSON.stringify(f.body)).toBe(true);
      const c = await s.api('POST', `/flights/confirm/${f.body.id}.json`, { token: admin, body: {} });
      expect(c.body.result, JSON.stringify(c.body)).toBe(true);
    }
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it('an instructor offline books past the daily limit: refused on the device with DUTY_LIMIT and the numbers, nothing queued', async () => {
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, url, 'instructor@skyline.test');
      // Open "My duty" once online so its lazy screen is loaded before the network goes.
      await page.click('nav button:has-text("My duty")');
      await page.locator('[data-testid=duty-this-week]').waitFor();
      await page.click('nav button:has-text("Schedule")');
      await page.waitForSelector('[data-testid=schedule-board]');
      await waitOnline(page);
      await page.locator('.board-controls input[type=date]').fill(tomorrow());
      await expect
        .poll(() => page.locator('[data-testid=schedule-board] .booking').count(), { timeout: 30_000 })
        .toBe(2);

      await context.setOffline(true);
      await waitOffline(page);
      const commandsBefore = (
        await s.ctx.db.selectFrom('commands').select('id').where('name', '=', 'schedule.book').execute()
      ).length;
      // EC-DEF's empty lane at 18:00 Madrid (lanes show 06:00-22:00): one more hour takes Ivan to 8:15 of duty.
      const lane = page.locator('[data-testid=schedule-board] tbody tr', { hasText: 'EC-DEF' }).locator('td.lane');
      const box = await lane.boundingBox();
      if (!box) throw new Error('no lane');
      await page.mouse.click(box.x + box.width * (12 / 16) + 2, box.y + box.height / 2);
      const form = page.locator('form[aria-label="New booking"]');
      await form.waitFor();
      await form.locator('button[type=submit]').click();
      const here = page.locator('[data-testid=booking-refused-here]');
      await here.waitFor();
      const text = (await here.textContent()) ?? '';
      // Refusals read as sentences, never raw codes (issue 28 item 9).
      expect(text).not.toContain('DUTY_LIMIT');
      expect(text).toMatch(
        /Ivan Instructor would be on duty 8:15 hours on \d{4}-\d{2}-\d{2}, over the daily limit of 8:00 hours/,
      );
      expect(await page.locator('[data-testid=bookings-pending]').count()).toBe(0);
      await screenshot(page, 'duty-refused-offline');

      // "My duty", still offline: computed on the device from the replicated flights and bookings.
      await page.click('nav button:has-text("My duty")');
      const week = page.locator('[data-testid=duty-this-week]');
      await week.waitFor();
      expect(await page.locator('[data-testid=duty-year]').textContent()).toMatch(/5:00\s*\/\s*40:00/);
      expect(await week.textContent()).toMatch(/6:30/);
      await screenshot(page, 'duty-my-duty');
      await context.setOffline(false);
      await waitOnline(page);
      expect(
        (await s.ctx.db.selectFrom('commands').select('id').where('name', '=', 'schedule.book').execute()).length,
      ).toBe(commandsBefore);
    } finally {
      await context.close();
    }
  });

  it("the office's crew duty board shows everyone's week with the numbers, who is near a limit first", async () => {
    // Paula rostered 9 hours tomorrow: past the 8-hour day.
    const day = utcMidnight(tomorrow());
    await s.ctx.db
      .insertInto('base_schedules')
      .values({
        id: crypto.randomUUID(),
        company_id: s.refs.companies.skyline,
        change_no: 0,
        deleted: 0,
        created: 1,
        modified: 1,
        base_id: s.refs.bases['Cuatro Vientos'],
        user_id: s.userId('pilot@skyline.test'),
        start_at: day + 6 * H,
        end_at: day + 15 * H,
        type: 'DUTY',
        always: 0,
        created_by: null,
      })
      .execute();
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, url, 'ops@skyline.test');
      await page.click('nav button:has-text("Crew duty")');
      const board = page.locator('[data-testid=duty-board]');
      await board.waitFor();
      const paula = board.locator('tbody tr', { hasText: 'Paula Pilot' });
      await paula.waitFor();
      // Over-limit crew first (Stefan, SIC of three lessons today, and Paula rostered 9 hours tomorrow), then the rest.
      expect(await board.locator('tbody tr').first().getAttribute('data-level')).toBe('over');
      expect(await paula.getAttribute('data-level')).toBe('over');
      expect(await paula.locator('td.level-over').first().textContent()).toBe('9:00');
      const ivan = board.locator('tbody tr', { hasText: 'Ivan Instructor' });
      expect(await ivan.getAttribute('data-level')).toBe('ok');
      expect(await ivan.textContent()).toContain('6:30');
      expect(await ivan.textContent()).toContain('5:00 / 40:00');
      expect(await page.locator('[data-testid=duty-limits]').textContent()).toMatch(/8:00 h.*40:00 h/);
      await screenshot(page, 'duty-board');
    } finally {
      await context.close();
    }
  });
});
