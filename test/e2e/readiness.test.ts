/**
 * Readiness end to end (issue 31): a student, offline, on a day whose TAF is
 * below the student minimums, sees the amber weather line computed on the
 * device from the last TAF it held, and books; an office user dispatches a
 * flight on an aircraft with maintenance due and is blocked with the reason; a
 * device that never opened a panel online decides offline with the policy it
 * synced (the `readiness` reference document).
 * Screenshots in docs/screenshots/readiness-*.png.
 */
import { uuidv7 } from '@ops/shared';
import { DEFAULT_READINESS_SETTINGS } from '@ops/shared/rules/readiness/settings';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../setup/dialects.ts';
import { startTestServer, type TestServer } from '../setup/server.ts';
import { startWeatherFake, type WeatherFake } from '../setup/weather-fake.ts';
import {
  CHROMIUM,
  eventually,
  hasChromium,
  launch,
  newPage,
  screenshot,
  signIn,
  waitOffline,
  waitOnline,
} from './support.ts';

if (!hasChromium) console.warn(`[e2e] skipped: ${CHROMIUM} not found`);

const H = 3600;
const pad = (n: number) => String(n).padStart(2, '0');
const ddhh = (t: number) => `${pad(new Date(t * 1000).getUTCDate())}${pad(new Date(t * 1000).getUTCHours())}`;

describe.skipIf(!hasChromium)('flight readiness (Chromium, offline-first)', () => {
  let s: TestServer;
  let fake: WeatherFake;
  let browser: Browser;
  let url: string;
  let admin: string;
  let types: Record<string, string>;
  const tomorrow = () => new Date(Date.now() + 86_400_000).toLocaleDateString('en-CA', { timeZone: 'Europe/Madrid' });
  const policy = async (checks: Partial<typeof DEFAULT_READINESS_SETTINGS.checks>) => {
    const r = await s.api('POST', '/readiness/settings.json', {
      token: admin,
      body: { ...DEFAULT_READINESS_SETTINGS, checks: { ...DEFAULT_READINESS_SETTINGS.checks, ...checks } },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  };

  beforeAll(async () => {
    fake = await startWeatherFake();
    s = await startTestServer(DIALECTS[0], {
      seed: 'fixtures',
      env: { WEATHER_AVIATION_URL: fake.aviationUrl, WEATHER_ARCHIVE_URL: fake.archiveUrl, WEATHER_TIMEOUT_MS: '1000' },
    });
    browser = await launch();
    url = `${s.url}/app/`;
    admin = await s.login('admin@skyline.test');
    const list = (await s.api('GET', '/flight_types/index.json', { token: admin })).body.flight_types as {
      FlightType: { id: string; name: string };
    }[];
    types = Object.fromEntries(list.map((x) => [x.FlightType.name, x.FlightType.id]));
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await fake?.close();
  });

  it('a device that never opened the panel online decides offline with the company policy it synced', async () => {
    await policy({ WEATHER: 'warn', BALANCE: 'ignore' });
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, url, 'student@skyline.test');
      await waitOnline(page);
      // The policy arrives with the first sync (the reference collection); no panel has asked the server yet.
      await page.waitForSelector('[data-testid=first-sync][data-done=true]', { state: 'attached', timeout: 90_000 });
      await context.setOffline(true);
      await waitOffline(page);
      await page.click('nav button:has-text("Schedule")');
      await page.waitForSelector('[data-testid=lesson-flow]');
      await page.waitForSelector('select[aria-label="Lesson aircraft"] option:has-text("EC-ABC")', {
        state: 'attached',
      });
      await page.waitForSelector('select[aria-label="Lesson type"] option:has-text("Solo")', { state: 'attached' });
      await page.locator('[data-testid=lesson-flow] input[type=date]').fill(tomorrow());
      await page.selectOption('select[aria-label="Lesson aircraft"]', { label: 'EC-ABC' });
      await page.selectOption('select[aria-label="Lesson type"]', { label: 'Solo' });
      const panel = page.locator('[data-testid=readiness-panel]');
      await expect.poll(() => panel.textContent(), { timeout: 15_000 }).toContain('this device, offline');
      // The company warns on weather and ignores the rest: one line, amber, saying what the device lacks.
      const weather = page.locator('[data-testid=readiness-line][data-code=WEATHER]');
      expect(await weather.getAttribute('data-level')).toBe('warn');
      expect(await weather.textContent()).toContain('does not hold a weather report');
      expect(await page.locator('[data-testid=readiness-line]').count()).toBe(1);
      await screenshot(page, 'readiness-offline-synced-policy');
    } finally {
      await context.close();
    }
  });

  it('a student offline on a day whose TAF is below minimums sees the amber weather line and books', async () => {
    await policy({ WEATHER: 'warn' });
    const issued = Math.floor(Date.now() / 1000) - H;
    fake.tafs.push({
      station: 'LECU',
      time: issued,
      raw: `TAF LECU ${ddhh(issued)}00Z ${ddhh(issued)}/${ddhh(issued + 47 * H)} 27030G40KT 1500 BKN004`,
    });
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, url, 'student@skyline.test');
      await page.click('nav button:has-text("Schedule")');
      await page.waitForSelector('[data-testid=lesson-flow]');
      await waitOnline(page);
      await page.waitForSelector('select[aria-label="Lesson aircraft"] option:has-text("EC-ABC")', {
        state: 'attached',
      });
      await page.waitForSelector('select[aria-label="Lesson type"] option:has-text("Solo")', { state: 'attached' });
      await page.locator('[data-testid=lesson-flow] input[type=date]').fill(tomorrow());
      await page.selectOption('select[aria-label="Lesson aircraft"]', { label: 'EC-ABC' });
      await page.selectOption('select[aria-label="Lesson type"]', { label: 'Solo' });
      // Online: the server's answer; the device keeps the policy and the TAF it used.
      const weather = page.locator('[data-testid=readiness-line][data-code=WEATHER]');
      // The server's line, not the device's own amber "does not hold a weather report" shown meanwhile.
      await expect.poll(() => weather.textContent(), { timeout: 30_000 }).toContain('Below student minimums at LECU');
      expect(await weather.getAttribute('data-level')).toBe('warn');

      await context.setOffline(true);
      await waitOffline(page);
      // Another length: the panel answers again, now from what the device holds.
      await page.selectOption('select[aria-label="Lesson length"]', '90');
      await expect
        .poll(() => page.locator('[data-testid=readiness-panel]').textContent(), { timeout: 15_000 })
        .toContain('this device, offline');
      expect(await weather.getAttribute('data-level')).toBe('warn');
      expect(await weather.textContent()).toContain('Below student minimums at LECU');
      expect(await weather.textContent()).not.toContain('WEATHER');
      await screenshot(page, 'readiness-student-offline');
      await page.locator('ul[aria-label="Open slots"] button').first().click();
      await page.locator('[data-testid=my-bookings]').getByText('waiting for the server').waitFor();
    } finally {
      await context.close();
    }
  });

  it('an office user dispatches a flight on an aircraft with maintenance due and is blocked', async () => {
    await policy({ MAINTENANCE: 'block' });
    // Made by the dispatcher, so it is on the dispatcher's flights list (the flights one made or crews).
    const made = await s.api('POST', '/flights/edit.json', {
      token: await s.login('dispatch@skyline.test'),
      body: {
        Flight: {
          date: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
          callsign: 'RDY01',
          status: 'SCHEDULED',
          aircraft_id: s.refs.aircraft['EC-DEF'],
          flight_type_id: types.Solo,
          pic_id: s.userId('pilot@skyline.test'),
          departure_airport: 'LECU',
          landing_airport: 'LECU',
          offblocks_time: '09:00',
          onblocks_time: '10:00',
        },
      },
    });
    expect(made.body.result, JSON.stringify(made.body)).toBe(true);
    const now = Math.floor(Date.now() / 1000);
    await s.ctx.db
      .insertInto('maintenance_jobs')
      .values({
        id: uuidv7(),
        company_id: s.refs.companies.skyline,
        change_no: 0,
        deleted: 0,
        created: now,
        modified: now,
        user_id: null,
        aircraft_id: s.refs.aircraft['EC-DEF'],
        name: '100 h inspection',
        description: null,
        status: 'OPEN',
        start: now,
        finish: null,
        crs_signed: 0,
        crs_signed_by: null,
        crs_signed_at: null,
        crs_expiration: null,
        maintenance_plan_id: null,
        repeat: 'NEVER',
      } as never)
      .execute();
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, url, 'dispatch@skyline.test');
      await page.waitForSelector('h2#flights-title');
      await waitOnline(page);
      const flight = page.locator('article.flight[data-callsign=RDY01]');
      await flight.waitFor();
      await flight.locator('button', { hasText: 'Readiness' }).click();
      const line = flight.locator('[data-testid=readiness-line][data-code=MAINTENANCE]');
      await expect.poll(() => line.getAttribute('data-level'), { timeout: 30_000 }).toBe('block');
      expect(await line.textContent()).toContain('100 h inspection');
      await flight.locator('button', { hasText: 'Dispatch' }).click();
      await flight.locator('.decision-rejected').waitFor({ timeout: 45_000 });
      expect(await flight.locator('.decision-rejected').textContent()).toContain('Maintenance due');
      expect(await flight.locator('.decision-rejected').textContent()).not.toContain('READINESS');
      await eventually(
        async () =>
          (
            await s.ctx.db
              .selectFrom('flights')
              .select('status')
              .where('id', '=', made.body.id)
              .executeTakeFirstOrThrow()
          ).status === 'SCHEDULED',
        'the flight stays scheduled',
      );
      await screenshot(page, 'readiness-dispatch-blocked');
    } finally {
      await context.close();
    }
  });
});
