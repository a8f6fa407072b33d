/**
 * Offline photos on a defect (issue 15) in Chromium: a mechanic without network
 * reports a defect, photographs it (the file input a camera fills), sees the
 * photo and "1 file pending"; back online the defect is pushed, the file queue
 * signs, PUTs and completes, and the server has the photo attached with its
 * dimensions. It survives a restart of the app while offline. Offline is the
 * browser context's network switched off.
 *
 * Run: npx vitest run test/e2e/files.test.ts --config test/e2e/vitest.config.ts
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
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
  waitForServiceWorker,
  waitOffline,
  waitOnline,
} from './support.ts';

if (!hasChromium) console.warn(`[e2e] skipped: ${CHROMIUM} not found`);

/** The image element finished loading a decodable picture. */
const loaded = (img: unknown) => {
  const i = img as { complete: boolean; naturalWidth: number };
  return i.complete && i.naturalWidth > 0;
};

/** A camera-like JPEG (a tyre with a cut, EXIF of a hangar camera), 1600×1200. */
async function tyrePhoto(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1200">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#9aa3ab"/><stop offset="1" stop-color="#4b535a"/></linearGradient></defs>
    <rect width="1600" height="1200" fill="url(#g)"/>
    <circle cx="800" cy="600" r="470" fill="#1d1f21"/><circle cx="800" cy="600" r="330" fill="#2c2f33"/>
    <circle cx="800" cy="600" r="190" fill="#b8bec4"/><circle cx="800" cy="600" r="60" fill="#6d747b"/>
    <path d="M1120 300 L1185 380 L1150 395 L1215 470" stroke="#e0533a" stroke-width="22" fill="none" stroke-linecap="round"/>
  </svg>`;
  return sharp(Buffer.from(svg))
    .jpeg({ quality: 85 })
    .withExif({ IFD0: { Make: 'HangarCam', Model: 'HC-20' } })
    .toBuffer();
}

describe.skipIf(!hasChromium)('offline photos in the technical log (Chromium)', () => {
  let s: TestServer;
  let browser: Browser;
  let url: string;

  beforeAll(async () => {
    s = await startTestServer(DIALECTS[0], { seed: 'fixtures' });
    browser = await launch();
    url = `${s.url}/app/`;
  });

  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it('a mechanic offline attaches a photo to a new defect; it uploads when back online', async () => {
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, url, 'mechanic@skyline.test');
      await page.waitForSelector('[data-testid=fleet-board] [data-registration=EC-ABC]');
      await waitOnline(page);
      expect(await page.locator('[data-testid=sync-files]').textContent()).toBe('0 files pending');
      await waitForServiceWorker(page);

      await context.setOffline(true);
      await waitOffline(page);
      await page.locator('[data-registration=EC-ABC] button', { hasText: 'Technical log' }).click();
      await page.click('button:has-text("Report a defect")');
      const form = page.locator('form[aria-label="Report a defect"]');
      await form.locator('input[name=title]').fill('Left main tyre cut');
      await form.locator('input[name=ata]').fill('32');
      await form.locator('button[type=submit]').click();
      const defect = page.locator('[data-testid=defects] article.report[data-title="Left main tyre cut"]');
      await defect.locator('.badge-pending').waitFor();
      const reportId = (await defect.getAttribute('data-report-id')) as string;

      // The camera's picture: the file input with `capture` receives a JPEG.
      const input = defect.locator('input[type=file][aria-label="Add photo"]');
      expect(await input.getAttribute('capture')).toBe('environment');
      expect(await input.getAttribute('accept')).toBe('image/*');
      await input.setInputFiles({ name: 'tyre.jpg', mimeType: 'image/jpeg', buffer: await tyrePhoto() });

      const waiting = defect.locator('[data-testid=photos] li.photo[data-state=pending]');
      await waiting.waitFor();
      // Its thumbnail was made on the device (no server involved).
      await expect.poll(() => waiting.locator('img').getAttribute('src')).toMatch(/^data:image\/jpeg;base64,/);
      expect(await waiting.locator('img').evaluate(loaded)).toBe(true);
      await expect.poll(() => page.locator('[data-testid=sync-files]').textContent()).toBe('1 file pending');
      expect(await page.locator('[data-testid=sync-pending]').textContent()).toContain('1 change');
      await screenshot(page, 'techlog-photo-offline');
      expect(
        await s.ctx.db.selectFrom('uploads').select('id').where('foreign_key', '=', reportId).executeTakeFirst(),
      ).toBeUndefined();

      // Still offline, the app restarts: the photo waits in IndexedDB with its thumbnail.
      await page.reload();
      await page.waitForSelector('header.topbar');
      await page.click('nav button:has-text("Technical log")');
      await defect.locator('[data-testid=photos] li.photo[data-state=pending] img').waitFor();
      await expect.poll(() => page.locator('[data-testid=sync-files]').textContent()).toBe('1 file pending');

      await context.setOffline(false);
      const row = await eventually(
        () =>
          s.ctx.db
            .selectFrom('uploads')
            .selectAll()
            .where('model', '=', 'AircraftReport')
            .where('foreign_key', '=', reportId)
            .where('active', '=', 1)
            .executeTakeFirst(),
        'the photo confirmed on the server',
        60_000,
      );
      expect(row).toMatchObject({
        filename: 'tyre.jpg',
        mime: 'image/jpeg',
        type: 'photo',
        verified: 1,
        width: 1600,
        height: 1200,
        user_id: s.userId('mechanic@skyline.test'),
      });
      expect(row.thumb_key).toBeTruthy();
      expect(
        await s.ctx.db.selectFrom('aircraft_reports').select('title').where('id', '=', reportId).executeTakeFirst(),
      ).toMatchObject({ title: 'Left main tyre cut' });

      await waitOnline(page);
      await expect
        .poll(() => page.locator('[data-testid=sync-files]').textContent(), { timeout: 30_000 })
        .toBe('0 files pending');
      // The photo now comes from the `files` collection with the server's thumbnail.
      const uploaded = defect.locator(`[data-testid=photos] li.photo[data-upload-id="${row.id}"]`);
      await uploaded.waitFor();
      await expect.poll(() => uploaded.locator('img').getAttribute('src'), { timeout: 30_000 }).toMatch(/^http/);
      await expect.poll(() => uploaded.locator('img').evaluate(loaded)).toBe(true);
      expect(await defect.locator('[data-testid=photos] li.photo[data-state=pending]').count()).toBe(0);
      await screenshot(page, 'techlog-photo-uploaded');
    } finally {
      await context.close();
    }
  });
});
