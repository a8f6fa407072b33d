import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { uuidv7 } from '@ops/shared';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { DIALECTS } from '../setup/dialects.ts';
import type { TestServer } from '../setup/server.ts';

export const CHROMIUM = '/usr/bin/chromium';
/**
 * Whether screen-only e2e files run here: in the SQLite half of CI (and locally), not again in the
 * PostgreSQL half, which keeps the whole CI run under 45 minutes. What they check (menus, texts,
 * forms, languages, layout) does not depend on the database; the files that exercise sync, offline
 * decisions and server rules (field client, first sync, bookings, readiness, billing...) run in both.
 */
export const screensHalf = DIALECTS[0] === 'sqlite';
/** Without Chromium the suite skips locally; under CI it runs and fails, so a missing browser is never silent. */
export const hasChromium = fs.existsSync(CHROMIUM) || !!process.env.CI;
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SCREENSHOTS = path.join(ROOT, 'docs/screenshots');

/** Builds the renderer the server serves at /app/ (skip with E2E_SKIP_BUILD=1 when it is fresh). */
export function buildRenderer(): void {
  if (process.env.E2E_SKIP_BUILD === '1' && fs.existsSync(path.join(ROOT, 'desktop/renderer-dist/index.html'))) return;
  const r = spawnSync('npm', ['run', 'build', '-w', '@ops/desktop'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (r.status !== 0) throw new Error(`renderer build failed:\n${r.stdout}\n${r.stderr}`);
}

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export async function newPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  return { context, page };
}

export async function signIn(page: Page, url: string, email: string, password = 'demo1234'): Promise<void> {
  await page.goto(url);
  await page.fill('form[aria-label="Sign in"] input[name=email]', email);
  await page.fill('form[aria-label="Sign in"] input[name=password]', password);
  await page.click('form[aria-label="Sign in"] button[type=submit]');
  await page.waitForSelector('header.topbar');
}

/**
 * Signs in a user with two-factor EMAIL (the demo auditor): the code is read
 * from the mail outbox, and only a code mailed after this sign-in began counts.
 */
export async function signInWithEmailCode(
  page: Page,
  s: Pick<TestServer, 'url' | 'ctx'>,
  email: string,
  password = 'demo1234',
): Promise<void> {
  const asked = Math.floor(Date.now() / 1000) - 1;
  await page.goto(`${s.url}/app/`);
  await page.fill('form[aria-label="Sign in"] input[name=email]', email);
  await page.fill('form[aria-label="Sign in"] input[name=password]', password);
  await page.click('form[aria-label="Sign in"] button[type=submit]');
  await page.waitForSelector('form[aria-label="Sign in"] input[name=code]');
  const mail = await s.ctx.db
    .selectFrom('mail_outbox')
    .select(['body_text'])
    .where('to_address', '=', email)
    .where('template', '=', 'two_factor_code')
    .where('created', '>=', asked)
    .orderBy('created', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  await page.fill('form[aria-label="Sign in"] input[name=code]', /code is (\d{6})/.exec(mail.body_text)?.[1] ?? '');
  await page.click('form[aria-label="Sign in"] button[type=submit]');
  await page.waitForSelector('header.topbar');
}

export const waitOnline = (page: Page) =>
  page.waitForSelector('[data-testid=sync-status] .sync-state[data-online=true]');
export const waitOffline = (page: Page) =>
  page.waitForSelector('[data-testid=sync-status] .sync-state[data-online=false]');

/**
 * The service worker is active with the shell precached, so the next load works
 * offline. (This page may not be controlled yet: it can have loaded while the
 * worker was installing.)
 */
export const waitForServiceWorker = (page: Page) =>
  page.waitForFunction(
    "navigator.serviceWorker.getRegistration().then((r) => !!r && !!r.active && r.active.state === 'activated')",
    null,
    { timeout: 30_000 },
  );

export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: false });
}

/** Polls until `fn` answers something truthy. */
export async function eventually<T>(
  fn: () => Promise<T | null | undefined | false>,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Records every script the page loads, to sum their gzip sizes. */
/**
 * Records the scripts a page loads (gzip size by URL). With `firstScreen` (a selector), it also tells which
 * of them the page asked for before that element first showed: the screen's own load, not the code the app
 * preloads once it shows (the sign-in screen loads the signed-in app's code while the person types).
 */
export async function scriptRecorder(page: Page, firstScreen?: string) {
  const scripts = new Map<string, number>();
  page.on('response', async (res) => {
    if (res.request().resourceType() !== 'script' || !res.ok()) return;
    try {
      scripts.set(res.url(), gzipSync(await res.body()).length);
    } catch {
      // A body the browser did not keep (redirects): nothing to count.
    }
  });
  if (firstScreen) {
    // A mutation observer's callback runs before any timer the render set, so before the preload starts.
    await page.addInitScript({
      content: `new MutationObserver((_, o) => {
        if (!document.querySelector(${JSON.stringify(firstScreen)})) return;
        window.firstScreenAt = performance.now();
        o.disconnect();
      }).observe(document, { childList: true, subtree: true });`,
    });
  }
  const kb = (urls: Iterable<string>) => [...urls].reduce((a, u) => a + (scripts.get(u) ?? 0), 0) / 1024;
  return {
    scripts,
    totalKb: () => kb(scripts.keys()),
    /** kB of the scripts requested before `firstScreen` showed. */
    firstScreenKb: async () =>
      kb(
        await page.evaluate<string[]>(`performance.getEntriesByType('resource')
          .filter((e) => e.startTime < (window.firstScreenAt ?? Infinity)).map((e) => e.name)`),
      ),
  };
}

/** An open MEL item whose 3-day window ended yesterday (blocks the aircraft), through the data layer. */
export async function insertExpiredMel(
  s: TestServer,
  companyId: string,
  aircraftId: string,
  title: string,
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const id = uuidv7();
  await s.ctx.tx(async (uow) => {
    const change_no = await uow.changeNo(companyId, 'aircraft_reports');
    await uow.trx
      .insertInto('aircraft_reports')
      .values(reportRow({ id, companyId, aircraftId, change_no, title, ata: '30', created: now - 5 * 86400 }))
      .execute();
    await uow.trx
      .insertInto('mel_items')
      .values(
        melRow({
          reportId: id,
          companyId,
          category: 'B',
          starts: now - 4 * 86400,
          expires: now - 86400,
          created: now - 5 * 86400,
        }),
      )
      .execute();
  });
  return id;
}

export function reportRow(o: {
  id: string;
  companyId: string;
  aircraftId: string;
  change_no: number;
  title: string;
  ata: string;
  created: number;
  type?: string;
}): any {
  return {
    id: o.id,
    company_id: o.companyId,
    change_no: o.change_no,
    deleted: 0,
    created: o.created,
    modified: o.created,
    aircraft_id: o.aircraftId,
    flight_id: null,
    user_id: null,
    type: o.type ?? 'MEL',
    title: o.title,
    description: null,
    ata_chapter: o.ata,
    system: null,
    severity: 'LOW',
    aircraft_status: 'FLYABLE',
    dispatch_condition: o.type ?? 'MEL',
    status: 'OPEN',
    hours: null,
    cycles: null,
    deferred_until: null,
    deferred_reference: null,
    closed: null,
    closed_by: null,
    maintenance_job_id: null,
  };
}

export function melRow(o: {
  reportId: string;
  companyId: string;
  category: string;
  starts: number;
  expires: number | null;
  created: number;
  intervalDays?: number;
}): any {
  return {
    id: uuidv7(),
    company_id: o.companyId,
    aircraft_report_id: o.reportId,
    mel_reference: '30-1',
    category: o.category,
    interval_type: 'CALENDAR_DAYS',
    interval_value: o.intervalDays ?? 3,
    starts: o.starts,
    expires: o.expires,
    baseline_flights: null,
    baseline_cycles: null,
    placard_fitted: 1,
    procedures: null,
    released_by: null,
    released: o.created,
    extended: 0,
    extended_by: null,
    extended_until: null,
    extension_reason: null,
    created: o.created,
    modified: o.created,
  };
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
