/**
 * Issue 28, "done means": a walk of every menu entry of every demo role, in
 * Chromium on the demo data. Each role signs in and opens each entry of its
 * menu in turn; the walk fails on a page error, a console error, a screen's
 * error boundary or an empty main area, naming the role and the screen. One
 * role walks again on a phone (390x844), where the menu folds behind its
 * button. One server and one browser for the whole file, so it stays fast.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../setup/dialects.ts';
import { startTestServer, type TestServer } from '../setup/server.ts';
import { CHROMIUM, hasChromium, launch, signIn, signInWithEmailCode, waitOnline, screensHalf } from './support.ts';

if (!hasChromium) console.warn(`[e2e] skipped: ${CHROMIUM} not found`);

const ROLES = ['admin', 'ops', 'instructor', 'pilot', 'student', 'mechanic', 'auditor'] as const;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1360, height: 900 };

/** What a screen shows while it loads: not yet a verdict on the screen. */
const LOADING = /^(Loading…|Loading\.\.\.)$/;

interface Finding {
  role: string;
  screen: string;
  what: string;
}

describe.skipIf(!hasChromium || !screensHalf)('every menu entry of every role (Chromium, demo data)', () => {
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

  /** Signs in; the auditor's emailed two-factor code (two_factor EMAIL in the seed) comes from the outbox. */
  const signInAs = (page: Page, email: string): Promise<void> =>
    email.startsWith('auditor@') ? signInWithEmailCode(page, s, email) : signIn(page, url, email);

  /** Page and console errors since the last `take()`. */
  const watch = (page: Page) => {
    let errors: string[] = [];
    page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console error: ${m.text()}`);
    });
    return {
      take() {
        const out = errors;
        errors = [];
        return out;
      },
    };
  };

  /**
   * The main area once it has settled (polled inside the page: cheap on a
   * loaded machine): null, or why it failed.
   */
  async function settle(page: Page): Promise<string | null> {
    // In-page code as text: this file compiles without the DOM library.
    const STATE = `(() => {
      const main = document.querySelector('main.content');
      const broken = main && main.querySelector('[data-testid=screen-error]');
      if (broken) return { done: true, error: 'error boundary: ' + (broken.textContent || '').slice(0, 200) };
      const text = ((main && main.textContent) || '').trim();
      const busy = !!(main && main.querySelector('.busy'));
      return { done: !!text && !${LOADING}.test(text) && !busy, error: text ? null : 'empty main area', text };
    })()`;
    type State = { done: boolean; error: string | null; text?: string };
    // The verdict comes from the same evaluation that ended the wait: a screen
    // may show a refresh indicator (`.busy`) again a moment after it settled.
    try {
      const handle = await page.waitForFunction(
        `(() => { const s = ${STATE}; return s.done || (s.error && s.error !== 'empty main area') ? s : null; })()`,
        null,
        {
          timeout: 10_000,
          polling: 100,
        },
      );
      const st = (await handle.jsonValue()) as State;
      return st.error;
    } catch {
      const st = (await page.evaluate(STATE)) as State;
      return st.error ?? `still loading: ${String(st.text).slice(0, 80)}`;
    }
  }

  /** Signs in and opens every menu entry; answers the findings and the entries walked. */
  async function walk(
    role: string,
    viewport: { width: number; height: number },
  ): Promise<{ findings: Finding[]; entries: string[] }> {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const errors = watch(page);
    const findings: Finding[] = [];
    const phone = viewport.width < 600;
    try {
      await signInAs(page, `${role}@skyline.test`);
      await waitOnline(page);
      const first = await settle(page);
      if (first) findings.push({ role, screen: '(home)', what: first });
      for (const e of errors.take()) findings.push({ role, screen: '(home)', what: e });
      const menu = page.locator('nav[aria-label="Screens"] button');
      if (phone) await page.click('[data-testid=menu-toggle]');
      const entries = (await menu.allInnerTexts()).map((t) => t.replace(/\s*\d+$/, '').trim());
      expect(entries.length, `${role} has a menu`).toBeGreaterThan(0);
      for (const [i, label] of entries.entries()) {
        // On a phone the menu folds after each choice: open it again.
        if (phone && (await page.getAttribute('[data-testid=menu-toggle]', 'aria-expanded')) !== 'true')
          await page.click('[data-testid=menu-toggle]');
        await menu.nth(i).click();
        await page.waitForSelector(`nav[aria-label="Screens"] button[aria-current=page]:has-text("${label}")`, {
          state: 'attached',
        });
        const problem = await settle(page);
        if (problem) findings.push({ role, screen: label, what: problem });
        // A refusal on merely opening an entry: the menu offered what the role cannot use.
        const alerts = await page.locator('main.content [role=alert]').allInnerTexts();
        for (const a of alerts) findings.push({ role, screen: label, what: `alert on opening: ${a.slice(0, 160)}` });
        if (phone) {
          // The screen comes first on a phone: the menu is folded again after choosing.
          if ((await page.getAttribute('[data-testid=menu-toggle]', 'aria-expanded')) !== 'false')
            findings.push({ role, screen: label, what: 'menu stays open over the screen on a phone' });
          const wide = (await page.evaluate(`(() => {
            const over = document.documentElement.scrollWidth - window.innerWidth;
            if (over <= 8) return null;
            // The outermost elements sticking out of the page (not inside a scrolling box), to name the culprit.
            const clipped = (el) => {
              for (let p = el.parentElement; p; p = p.parentElement)
                if (/(auto|scroll|hidden)/.test(getComputedStyle(p).overflowX)) return true;
              return false;
            };
            const out = [...document.querySelectorAll('body *')]
              .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 8 && !clipped(el))
              .filter((el, _i, all) => !all.some((o) => o !== el && o.contains(el)))
              .slice(0, 3)
              .map((el) => el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).split(' ').join('.') : ''));
            return 'page ' + over + 'px wider than the phone (' + out.join(', ') + ')';
          })()`)) as string | null;
          if (wide) findings.push({ role, screen: label, what: wide });
        }
        for (const e of errors.take()) findings.push({ role, screen: label, what: e });
      }
      return { findings, entries };
    } finally {
      await context.close();
    }
  }

  const report = (fs: Finding[]) => fs.map((f) => `${f.role} › ${f.screen}: ${f.what}`);

  it('opens every menu entry of the seven demo roles on a desktop without an error or a blank screen', async () => {
    const all: Finding[] = [];
    const walked: Record<string, number> = {};
    // Three roles at a time in one browser (separate contexts): the walk waits on the server more than on the CPU.
    const queue = [...ROLES];
    const worker = async () => {
      for (let role = queue.shift(); role; role = queue.shift()) {
        const t0 = Date.now();
        const { findings, entries } = await walk(role, DESKTOP);
        walked[role] = entries.length;
        all.push(...findings);
        console.info(`[menu walk] ${role}: ${entries.length} entries in ${Date.now() - t0} ms`);
      }
    };
    await Promise.all([worker(), worker(), worker()]);
    console.info(`[menu walk] entries per role: ${JSON.stringify(walked)}`);
    expect(report(all)).toEqual([]);
    // Each role has its own menu: a walk that found no entries would prove nothing.
    for (const role of ROLES) expect(walked[role], role).toBeGreaterThanOrEqual(3);
  });

  it('opens every menu entry on a phone (390x844) through the folding menu', async () => {
    const all = (await Promise.all((['pilot', 'admin'] as const).map((role) => walk(role, PHONE)))).flatMap(
      (w) => w.findings,
    );
    expect(report(all)).toEqual([]);
  });
});
