/**
 * Issue 28 items 5 and 8 (flights) and the office's company-wide flight list,
 * as a person clicks them on the demo data: an empty "Save flight" shows a
 * sentence beside each missing field and saves nothing; a student sees no
 * Edit, Dispatch or Cancel on a lesson the instructor commands; deleting a
 * LANDED flight asks first and says what it takes off the aircraft; the office
 * filters, pages and exports every company flight; the same on a phone.
 * Screenshots in docs/screenshots/flights-*.png.
 */
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../setup/dialects.ts';
import { startTestServer, type TestServer } from '../setup/server.ts';
import { openScreen } from './office-support.ts';
import { CHROMIUM, hasChromium, launch, newPage, screenshot, signIn, waitOnline, screensHalf } from './support.ts';

if (!hasChromium) console.warn(`[e2e] skipped: ${CHROMIUM} not found`);

describe.skipIf(!hasChromium || !screensHalf)(
  'flights: the form, the buttons and the office list (Chromium, demo data)',
  () => {
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
      return errors;
    };
    const flightCount = async () =>
      Number(
        (
          await s.ctx.db
            .selectFrom('flights')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    /** The error shown beside the control named `name` (inside the same field). */
    const besideField = (page: Page, name: string) =>
      page.locator(`form[aria-label="New flight"] .field:has([name=${name}]) .field-error`);

    it('an empty "Save flight" shows a sentence beside each missing field and saves nothing; junk is refused, not cut', async () => {
      const { context, page } = await newPage(browser);
      const errors = watch(page);
      try {
        await signIn(page, url, 'pilot@skyline.test');
        await page.waitForSelector('[data-testid=flights]');
        await waitOnline(page);
        const before = await flightCount();
        await page.click('button:text-is("New flight")');
        const form = page.locator('form[aria-label="New flight"]');
        await form.locator('button[type=submit]').click();
        expect(await besideField(page, 'aircraft_id').textContent()).toBe('Choose the aircraft.');
        expect(await besideField(page, 'departure_airport').textContent()).toContain('departure airport');
        expect(await besideField(page, 'landing_airport').textContent()).toContain('landing airport');
        expect(await besideField(page, 'offblocks_time').textContent()).toContain('off-blocks time');
        expect(await besideField(page, 'onblocks_time').textContent()).toContain('on-blocks time');
        expect(await form.locator('[role=alert]').textContent()).toContain('not saved');
        await screenshot(page, 'flights-form-empty');

        // Junk: a date of 1900, 999 landings, a 25-character callsign (kept whole, not cut).
        await form.locator('input[name=date]').fill('1900-01-01');
        await form.locator('input[name=landings]').fill('999');
        await form.locator('input[name=callsign]').fill('C'.repeat(25));
        await form.locator('button[type=submit]').click();
        expect(await besideField(page, 'date').textContent()).toBe('The date cannot be before 1 January 1950.');
        expect(await besideField(page, 'landings').textContent()).toBe('At most 99 landings on one flight.');
        expect(await besideField(page, 'callsign').textContent()).toContain('at most 20 characters');
        expect((await form.locator('input[name=callsign]').inputValue()).length).toBe(25);
        await form.locator('input[name=date]').fill('2999-12-31');
        expect(await besideField(page, 'date').textContent()).toContain('days ahead');

        // Fixed, it saves.
        const today = new Date().toISOString().slice(0, 10);
        await form.locator('input[name=date]').fill(today);
        await form.locator('input[name=landings]').fill('2');
        await form.locator('input[name=callsign]').fill('FORM01');
        await form.locator('select[name=aircraft_id]').selectOption({ label: 'EC-DEF' });
        await form.locator('input[name=departure_airport]').fill('LECU');
        await form.locator('input[name=landing_airport]').fill('LECU');
        await form.locator('input[name=offblocks_time]').fill('06:00');
        await form.locator('input[name=onblocks_time]').fill('06:40');
        expect(await form.locator('.field-error').count()).toBe(0);
        await form.locator('button[type=submit]').click();
        await page.locator('article.flight[data-callsign=FORM01]').waitFor();
        await expect
          .poll(() => s.ctx.db.selectFrom('flights').select('id').where('callsign', '=', 'FORM01').execute(), {
            timeout: 20_000,
          })
          .toHaveLength(1);
        expect(await flightCount()).toBe(before + 1);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('a student sees no Edit, Dispatch or Cancel on a lesson the instructor commands; a mechanic is told why there is no "New flight"', async () => {
      const lessons = await s.ctx.db
        .selectFrom('flights')
        .select('id')
        .where('sic_id', '=', s.userId('student@skyline.test'))
        .where('pic_id', '=', s.userId('instructor@skyline.test'))
        .where('status', '=', 'SCHEDULED')
        .execute();
      expect(lessons.length).toBeGreaterThan(0);
      const { context, page } = await newPage(browser);
      const errors = watch(page);
      try {
        await signIn(page, url, 'student@skyline.test');
        await page.waitForSelector('h2#flights-title');
        await waitOnline(page);
        for (const { id } of lessons) {
          const row = page.locator(`article.flight[data-flight-id="${id}"]`);
          await row.waitFor();
          expect(await row.locator('.actions-row button').count()).toBe(0);
        }
        // A student holds no Flight.create: no grey button, a sentence instead.
        expect(await page.locator('button:text-is("New flight")').count()).toBe(0);
        expect(await page.locator('[data-testid=flights-create-refusal]').textContent()).toContain(
          'does not log flights',
        );
        await screenshot(page, 'flights-student');
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
      const mech = await newPage(browser);
      try {
        await signIn(mech.page, url, 'mechanic@skyline.test');
        // The mechanic crews no flight: the list is empty, the heading is there.
        await mech.page.click('nav[aria-label="Screens"] button:text-is("My flights")');
        await mech.page.waitForSelector('h2#flights-title');
        expect(await mech.page.locator('button:text-is("New flight")').count()).toBe(0);
        expect(await mech.page.locator('[data-testid=flights-create-refusal]').textContent()).toContain(
          'does not log flights',
        );
      } finally {
        await mech.context.close();
      }
    });

    it('deleting a LANDED flight asks first and says what it takes off the aircraft; then the books drop', async () => {
      const landed = await s.ctx.db
        .selectFrom('flights as f')
        .innerJoin('aircraft as a', 'a.id', 'f.aircraft_id')
        .select(['f.id', 'f.flight_time', 'f.landings', 'a.registration', 'a.id as aircraft_id'])
        .where('f.status', '=', 'LANDED')
        .where('f.company_id', '=', s.refs.companies.skyline)
        .orderBy('f.starts', 'desc')
        .executeTakeFirstOrThrow();
      const books = () =>
        s.ctx.db
          .selectFrom('aircraft')
          .select(['hours', 'landings'])
          .where('id', '=', landed.aircraft_id)
          .executeTakeFirstOrThrow();
      const before = await books();
      const { context, page } = await newPage(browser);
      const errors = watch(page);
      try {
        await signIn(page, url, 'dispatch@skyline.test');
        await openScreen(page, 'My flights', 'flights');
        await waitOnline(page);
        const row = page.locator(`article.flight[data-flight-id="${landed.id}"]`);
        await row.waitFor();
        expect(await row.locator('button:text-is("Cancel flight")').count()).toBe(0);
        await row.locator('button:text-is("Delete from logbook")').click();
        const ft = Number(landed.flight_time);
        const hhmm = `${Math.floor(ft / 3600)}:${String(Math.floor(ft / 60) % 60).padStart(2, '0')}`;
        const effect = await row.locator('[data-testid=cancel-effect]').textContent();
        expect(effect).toBe(
          `This removes the flight from the logbook and takes ${hhmm} off ${landed.registration}'s hours and ${landed.landings} landing${Number(landed.landings) === 1 ? '' : 's'} off its landings.`,
        );
        await screenshot(page, 'flights-delete-confirm');
        // Keeping it changes nothing.
        await row.locator('button:text-is("Keep the flight")').click();
        expect(await row.locator('[data-testid=cancel-effect]').count()).toBe(0);
        expect(
          (await s.ctx.db.selectFrom('flights').select('status').where('id', '=', landed.id).executeTakeFirstOrThrow())
            .status,
        ).toBe('LANDED');
        // Deleting it does what it said.
        await row.locator('button:text-is("Delete from logbook")').click();
        await row.locator('input').first().fill('Logged twice');
        await row.locator('button:text-is("Delete flight now")').click();
        await expect
          .poll(
            async () =>
              (
                await s.ctx.db
                  .selectFrom('flights')
                  .select('status')
                  .where('id', '=', landed.id)
                  .executeTakeFirstOrThrow()
              ).status,
          )
          .toBe('DELETED');
        const after = await books();
        expect(Number(after.landings)).toBe(Number(before.landings) - Number(landed.landings));
        expect(Number(after.hours)).toBeLessThan(Number(before.hours));
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('the office lists every company flight, filters and pages them on the server, and exports the filter as CSV', async () => {
      const { context, page } = await newPage(browser);
      const errors = watch(page);
      try {
        await signIn(page, url, 'dispatch@skyline.test');
        await openScreen(page, 'Company flights', 'company-flights');
        const rows = page.locator('[data-testid=company-flights] tbody tr');
        await expect.poll(() => rows.count()).toBe(25);
        // The count and pages are the server's (the demo's flights, bookings included).
        const all = await s.api('GET', '/flights/load.json', { token: await s.login('dispatch@skyline.test') });
        const pages = Math.ceil(all.body.paginate.count / 25);
        expect(pages).toBeGreaterThan(1);
        const pager = page.locator('nav[aria-label="Pages of flights"]');
        expect(await pager.textContent()).toContain(`Page 1 of ${pages} · ${all.body.paginate.count} in all`);
        const firstPage = await rows.first().getAttribute('data-flight-id');
        await pager.locator('button:text-is("Next")').click();
        await expect.poll(() => pager.textContent()).toContain(`Page 2 of ${pages}`);
        expect(await rows.first().getAttribute('data-flight-id')).not.toBe(firstPage);
        await screenshot(page, 'flights-company-list');

        // Filter: EC-JET, LANDED only.
        const filters = page.locator('form[aria-label="Filter flights"]');
        await filters.locator('select[name=aircraft]').selectOption({ label: 'EC-JET' });
        await filters.locator('select[name=status]').selectOption('LANDED');
        await filters.locator('button[type=submit]').click();
        const jet = await s.ctx.db
          .selectFrom('flights')
          .select('id')
          .where('aircraft_id', '=', s.refs.aircraft['EC-JET'])
          .where('status', '=', 'LANDED')
          .execute();
        await expect.poll(() => rows.count()).toBe(jet.length);
        for (const cell of await rows.locator('td:nth-child(3)').allTextContents()) expect(cell).toBe('EC-JET');
        for (const cell of await rows.locator('td:nth-child(9)').allTextContents()) expect(cell).toBe('LANDED');

        // A range that reads backwards is said, not sent.
        await filters.locator('input[name=from]').fill('2030-01-02');
        await filters.locator('input[name=to]').fill('2030-01-01');
        await filters.locator('button[type=submit]').click();
        expect(await page.locator('.form-error').first().textContent()).toContain('"from" date is after');
        await filters.locator('input[name=from]').fill('');
        await filters.locator('input[name=to]').fill('');
        await filters.locator('button[type=submit]').click();

        const download = page.waitForEvent('download');
        await page.click('button:text-is("Export CSV")');
        const file = await (await download).path();
        const csv = fs.readFileSync(file, 'utf8').trim().split('\r\n');
        expect(csv[0]).toContain('Date,Callsign,Aircraft');
        expect(csv).toHaveLength(jet.length + 1);
        for (const line of csv.slice(1)) expect(line).toContain(',EC-JET,');
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('on a phone: the list scrolls inside its box, the form shows its messages', async () => {
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
      });
      const page = await context.newPage();
      page.setDefaultTimeout(30_000);
      const errors = watch(page);
      try {
        await signIn(page, url, 'dispatch@skyline.test');
        await page.waitForSelector('[data-testid=flights]');
        await page.click('button:text-is("New flight")');
        await page.locator('form[aria-label="New flight"] button[type=submit]').click();
        expect(await besideField(page, 'aircraft_id').textContent()).toBe('Choose the aircraft.');
        await besideField(page, 'aircraft_id').scrollIntoViewIfNeeded();
        await screenshot(page, 'flights-phone-form');
        expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);

        await page.locator('[data-testid=menu-toggle]').click();
        await page.locator('nav[aria-label="Screens"]').getByRole('button', { name: 'Company flights' }).click();
        await expect.poll(() => page.locator('[data-testid=company-flights] tbody tr').count()).toBe(25);
        await screenshot(page, 'flights-phone-list');
        expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  },
);
