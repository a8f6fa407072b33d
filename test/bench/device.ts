/**
 * `npm run bench:device` (issue 35): first sync of the real app. The renderer
 * (built as for e2e, served at /app/) in Debian's Chromium, against a server on
 * SQLite with the company of `device-seed.ts`, signing in through the sign-in
 * form as an office user and as a pilot, each in a fresh browser profile.
 *
 * Printed per person: time to the shell, time until the person's own screens
 * have their data (reference, people, device, inbox complete), time until every
 * collection is complete, documents and documents per second per collection,
 * IndexedDB usage (`navigator.storage.estimate()`) and JS heap (CDP, after a
 * GC). "Complete" means the collection's IndexedDB store holds as many
 * documents as the server sends that person from a null checkpoint (pulled
 * over HTTP by the bench first). Then, in the same browser, the ceiling: a raw
 * `bulkInsert` of the same documents into a fresh database on the same Dexie
 * storage (`device-ceiling.ts`), three runs each after the machine is quiet (the median counts), and the
 * bootstrap stream stored by a page that runs nothing else (what the app would be without itself). For the
 * app's window and each ceiling run it prints who had the cores (`cpu-share.ts`: this Node process, which
 * is the server, and Chromium per process type), since server and browser share this machine's two cores
 * and the ceiling runs with the server idle. Per collection it also prints the first-sync steps the app marks
 * (`client-core/src/first-sync-marks.ts`): last page stored, then its mark, its live replication running
 * and its first pull answered, the fixed cost a collection pays once loaded.
 *
 * BENCH_DIALECT=postgres runs the server on PostgreSQL (default SQLite).
 * BENCH_SCALE=0.1 seeds a tenth of the company (a quick check), BENCH_WHO=office|pilot runs one.
 * BENCH_TRACE=1 records a Chromium trace of the app's first sync and of the first ceiling run, and prints
 * what each page's main thread did per event (`trace-summary.ts`: IndexedDB requests, React's tasks, layout).
 * BENCH_PROFILE=1 records a CPU profile of the app's page during the first sync (CDP) and prints
 * where the main thread's time went (self time per function; build the renderer with
 * `npx vite build --minify false` in desktop/ and run with E2E_SKIP_BUILD=1 for readable names).
 * BENCH_KEEP=<name> keeps the seeded database (SQLite: a data dir in the temp dir; PostgreSQL: a schema
 * `devbench_<name>`, not `t_…`, which test clean-ups drop) and reuses it on the next run with the same name:
 * the seed takes minutes, and a run before and after a server change then reads the same rows (the
 * server migrates the kept database on start, so a new index is built on it).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import type { Page, Request } from 'playwright-core';
import { COLLECTIONS } from '@ops/shared';
import { buildRenderer, launch, ROOT } from '../e2e/support.ts';
import { PG_URL } from '../setup/dialects.ts';
import { startTestServer } from '../setup/server.ts';
import pg from 'pg';
import { COMPANY_SIZE, seedDeviceBench } from './device-seed.ts';
import { CpuSampler, cpuLine, waitQuiet } from './cpu-share.ts';
import { summarizeTrace } from './trace-summary.ts';

const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const WHO = (process.env.BENCH_WHO ?? 'office,pilot').split(',');
const DIALECT = process.env.BENCH_DIALECT === 'postgres' ? 'postgres' : 'sqlite';
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 600_000);
/** Collections the person's own screens need (home, profile, messages, their commands). */
const OWN = ['reference', 'people', 'device', 'inbox'];
const PROFILE = process.env.BENCH_PROFILE === '1';
/** BENCH_TRACE=1: a Chromium trace of the first sync, summed per event on the page's main thread (trace-summary.ts). */
const TRACE = process.env.BENCH_TRACE === '1';
const TRACE_CATEGORIES = ['devtools.timeline', 'v8', 'v8.execute', 'blink', 'IndexedDB'];
/** Runs of the ceiling; its median is the one compared. */
const CEILING_RUNS = Number(process.env.BENCH_CEILING_RUNS ?? 3);
/** The bootstrap stream stored by a page that runs nothing else (device-ceiling.ts); BENCH_STREAM_CEILING=0 skips it. */
const STREAM_CEILING = process.env.BENCH_STREAM_CEILING !== '0';
const PEOPLE = { office: 'admin@skyline.test', pilot: 'pilot@skyline.test' } as const;

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

async function countVisible(baseUrl: string, token: string, name: string): Promise<number> {
  let checkpoint: unknown = null;
  // Ids, not rows: a collection fed by several sources may send a document twice (reference: airports).
  const ids = new Set<string>();
  for (;;) {
    const res = await fetch(`${baseUrl}/sync/${name}/pull.json`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ checkpoint, limit: 1000 }),
    });
    const out = (await res.json()) as { documents: Array<{ id: string; _deleted?: boolean }>; checkpoint: unknown };
    for (const d of out.documents) {
      if (d._deleted) ids.delete(d.id);
      else ids.add(d.id);
    }
    checkpoint = out.checkpoint;
    if (out.documents.length < 1000) return ids.size;
  }
}

/** Documents per collection in this page's IndexedDB (RxDB's Dexie stores `rxdb-dexie-<db>--<version>--<collection>`). */
const COUNT_SCRIPT = `(async () => {
  const out = {};
  for (const { name } of await indexedDB.databases()) {
    const m = /^rxdb-dexie-ops_.*--\\d+--([a-z_]+)$/.exec(name ?? '');
    if (!m) continue;
    const idb = await new Promise((ok, ko) => { const r = indexedDB.open(name); r.onsuccess = () => ok(r.result); r.onerror = () => ko(r.error); });
    try {
      if (!idb.objectStoreNames.contains('docs')) continue;
      out[m[1]] = await new Promise((ok, ko) => { const r = idb.transaction('docs').objectStore('docs').count(); r.onsuccess = () => ok(r.result); r.onerror = () => ko(r.error); });
    } finally { idb.close(); }
  }
  return out;
})()`;

/** The sync bar's first-sync list (`[data-testid=first-sync]`), null when the app shows none. */
const DOM_SCRIPT = `(() => {
  const section = document.querySelector('[data-testid=first-sync]');
  if (!section) return null;
  return { done: section.dataset.done === 'true', collections: [...section.querySelectorAll('li[data-collection]')].map((li) => ({
    name: li.dataset.collection, phase: li.dataset.phase, documents: Number(li.dataset.documents),
    started: li.dataset.started ? Number(li.dataset.started) : null, finished: li.dataset.finished ? Number(li.dataset.finished) : null,
  })) };
})()`;

interface DomProgress {
  done: boolean;
  collections: Array<{
    name: string;
    phase: string;
    documents: number;
    started: number | null;
    finished: number | null;
  }>;
}

interface Timing {
  collection: string;
  expected: number;
  firstAt: number | null;
  doneAt: number | null;
}

/**
 * A pull of the first sync as the browser saw it: when it was sent, the server's wait, when it was read (ms from the
 * submit). The bootstrap stream (`POST /sync/bootstrap.json`, all fresh collections in one answer) is `bootstrap`.
 */
interface PullSeen {
  collection: string;
  sentAt: number;
  waitMs: number;
  doneAt: number;
}

async function firstSync(page: Page, appUrl: string, email: string, expected: Map<string, number>) {
  const timings = new Map<string, Timing>(
    [...expected].map(([collection, n]) => [collection, { collection, expected: n, firstAt: null, doneAt: null }]),
  );
  const pulls: PullSeen[] = [];
  let t0 = 0;
  const seen = (req: Request) => {
    const m = /\/sync\/(?:([a-z_]+)\/pull|(bootstrap))\.json$/.exec(req.url());
    if (!m || !t0) return;
    const timing = req.timing();
    // startTime is epoch ms; the others are ms after it (-1 when not applicable).
    const sentAt = timing.startTime - t0;
    pulls.push({
      collection: m[1] ?? m[2],
      sentAt,
      waitMs: Math.max(0, timing.responseStart - Math.max(0, timing.requestStart)),
      doneAt: sentAt + timing.responseEnd,
    });
  };
  page.on('requestfinished', seen);
  // Chromium reports a `no-store` fetch stream read to its end as aborted (microsoft/playwright#42742): the
  // bootstrap stream arrives here; the app's own first-sync list says whether it was complete.
  page.on('requestfailed', (req) => {
    if (/\/sync\/bootstrap\.json$/.test(req.url())) seen(req);
  });
  await page.goto(appUrl);
  await page.fill('form[aria-label="Sign in"] input[name=email]', email);
  await page.fill('form[aria-label="Sign in"] input[name=password]', 'demo1234');
  // The seed and the bench's own pulls are done: the first sync starts on a quiet machine, as the ceiling's runs do.
  await waitQuiet();
  const cdp = PROFILE ? await page.context().newCDPSession(page) : null;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  const browserOf = page.context().browser();
  if (TRACE && browserOf) await browserOf.startTracing(page, { categories: TRACE_CATEGORIES });
  const cpu = new CpuSampler();
  cpu.start();
  // The page's clock just before the click: the app's times (data-started, data-finished) are read against it.
  const pageT0 = (await page.evaluate('Date.now()')) as number;
  t0 = Date.now();
  const started = performance.now();
  await page.click('form[aria-label="Sign in"] button[type=submit]');
  // The app's own first-sync display (data-started/data-finished, page clock) when it has one; IndexedDB counts otherwise.
  let appSignal = false;
  let shellMs = 0;
  let ownMs: number | null = null;
  let completeMs: number | null = null;
  let samples = 0;
  void page.waitForSelector('header.topbar').then(() => {
    shellMs = performance.now() - started;
  });
  while (performance.now() - started < TIMEOUT_MS) {
    const dom = (await page.evaluate(DOM_SCRIPT).catch(() => null)) as DomProgress | null;
    samples++;
    if (dom) {
      appSignal = true;
      for (const p of dom.collections) {
        const t = timings.get(p.name);
        if (!t) continue;
        if (p.started) t.firstAt = p.started - pageT0;
        if (p.finished) t.doneAt = p.finished - pageT0;
      }
      // Collections loaded before (none on a fresh profile) are not listed: complete from the start.
      for (const t of timings.values())
        if (!dom.collections.some((p) => p.name === t.collection)) t.doneAt = t.doneAt ?? 0;
    } else if (!appSignal) {
      const counts = (await page.evaluate(COUNT_SCRIPT).catch(() => ({}))) as Record<string, number>;
      const at = performance.now() - started;
      for (const t of timings.values()) {
        const n = counts[t.collection] ?? 0;
        if (n > 0 && t.firstAt === null) t.firstAt = at;
        if (n >= t.expected && t.doneAt === null) t.doneAt = at;
      }
    }
    const done = (names: string[]) => names.every((n) => (timings.get(n)?.doneAt ?? null) !== null);
    if (ownMs === null && shellMs && done(OWN))
      ownMs = Math.max(shellMs, ...OWN.map((n) => timings.get(n)?.doneAt ?? 0));
    if (done([...timings.keys()]) && shellMs) {
      completeMs = Math.max(...[...timings.values()].map((t) => t.doneAt ?? 0));
      break;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  cpu.stop();
  const trace = TRACE && browserOf ? await browserOf.stopTracing() : null;
  const profile = cdp ? ((await cdp.send('Profiler.stop')) as { profile: CpuProfile }).profile : null;
  // The app's signal is checked against the database itself: every collection holds what the server sends.
  const counts = (await page.evaluate(COUNT_SCRIPT).catch(() => ({}))) as Record<string, number>;
  const short = [...timings.values()].filter((t) => (counts[t.collection] ?? 0) < t.expected);
  for (const t of short) console.log(`!! ${t.collection}: ${counts[t.collection] ?? 0} stored, ${t.expected} expected`);
  // Every collection is stored; its live replication's start and first pull follow (a few hundred ms): wait for them.
  await page
    .waitForFunction(
      `(() => { const m = performance.getEntriesByType('mark').map((e) => e.name);
        const stored = m.filter((n) => n.startsWith('ops-sync:') && n.endsWith(':stored')).length;
        return stored > 0 && m.filter((n) => n.startsWith('ops-sync:') && n.endsWith(':pulled')).length >= stored; })()`,
      undefined,
      { timeout: 5000 },
    )
    .catch(() => console.log('!! not every loaded collection answered its first pull within 5 s of the end'));
  // The app's own marks of its start (desktop/renderer/src/perf.ts), ms from the submit.
  const marks = (await page.evaluate(
    `performance.getEntriesByType('mark').filter((m) => m.name.startsWith('ops:') || m.name.startsWith('ops-sync:')).map((m) => ({ name: m.name.replace(/^ops-?/, ''), at: performance.timeOrigin + m.startTime }))`,
  )) as Array<{ name: string; at: number }>;
  const startup = Object.fromEntries(
    marks.filter((m) => !m.name.startsWith('sync:')).map((m) => [m.name, Math.round(m.at - t0)]),
  );
  // Each collection's first-sync steps (client-core/src/first-sync-marks.ts), ms from the submit.
  const steps = new Map<string, Record<string, number>>();
  for (const m of marks) {
    const [, collection, step] = m.name.split(':');
    if (!m.name.startsWith('sync:') || !collection || !step) continue;
    steps.set(collection, { ...steps.get(collection), [step]: Math.round(m.at - t0) });
  }
  return {
    shellMs,
    ownMs,
    completeMs,
    timings: [...timings.values()],
    samples,
    appSignal,
    pulls,
    startup,
    steps,
    profile,
    cpu,
    t0,
    trace,
  };
}

interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
  samples: number[];
  timeDeltas: number[];
}

/** Self time per function of a CPU profile, the largest first. */
function topFunctions(profile: CpuProfile, n: number) {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const self = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const f = byNode.get(id);
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    total += dt;
    const key = f ? `${f.functionName || '(anonymous)'} ${f.url.split('/').pop() ?? ''}:${f.lineNumber + 1}` : '?';
    self.set(key, (self.get(key) ?? 0) + dt);
  });
  return {
    totalMs: Math.round(total),
    top: [...self]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([fn, ms]) => ({ fn, ms: Math.round(ms) })),
  };
}

const fmt = (ms: number | null) => (ms === null ? 'timeout' : `${(ms / 1000).toFixed(1)} s`);
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;

buildRenderer();
const bundle = await build({
  entryPoints: [path.join(ROOT, 'test/bench/device-ceiling.ts')],
  bundle: true,
  format: 'iife',
  platform: 'browser',
  write: false,
  minify: true,
  define: { 'process.env.NODE_ENV': '"production"' },
});
const ceilingJs = bundle.outputFiles[0].text;

/** Where a kept database lives (BENCH_KEEP), created empty the first time. */
async function kept(name: string): Promise<{ schema?: string; dataDir?: string }> {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error('BENCH_KEEP: lower-case letters, digits and _ only');
  if (DIALECT === 'sqlite') {
    const dataDir = path.join(os.tmpdir(), `ops-devbench-${name}`);
    fs.mkdirSync(dataDir, { recursive: true });
    return { dataDir };
  }
  const schema = `devbench_${name}`;
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  await c.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  await c.end();
  return { schema };
}

const KEEP = process.env.BENCH_KEEP;
const s = await startTestServer(DIALECT, { seed: 'demo', ...(KEEP ? { reuse: await kept(KEEP) } : {}) });
const size = Object.fromEntries(
  Object.entries(COMPANY_SIZE).map(([k, v]) => [k, Math.max(1, Math.round(v * SCALE))]),
) as unknown as typeof COMPANY_SIZE;
console.log(`${DIALECT}; company: ${JSON.stringify(size)}; load average ${load()} on ${os.cpus().length} cores`);
// A kept database seeded before (its bench users exist) is read as it is; the size printed is the one asked then.
const seededBefore =
  KEEP && (await s.ctx.db.selectFrom('users').select('id').where('email', '=', 'pilot0@bench.test').executeTakeFirst());
if (seededBefore) console.log(`reusing the kept database ${KEEP}`);
else await seedDeviceBench(s, size);
const browser = await launch();
const report: Record<string, unknown> = {};
try {
  for (const who of WHO as Array<keyof typeof PEOPLE>) {
    const email = PEOPLE[who];
    const token = await s.login(email);
    const expected = new Map<string, number>();
    const tPull = performance.now();
    for (const def of COLLECTIONS) expected.set(def.name, await countVisible(s.baseUrl, token, def.name));
    const total = [...expected.values()].reduce((a, b) => a + b, 0);
    const pullMs = performance.now() - tPull;
    console.log(
      `\n== ${who} (${email}): ${total} documents; the server sends them in ${fmt(pullMs)} to Node (${Math.round(total / (pullMs / 1000))} docs/s); load ${load()}`,
    );

    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(TIMEOUT_MS);
    const r = await firstSync(page, `${s.url}/app/`, email, expected);
    const storage = (await page.evaluate('navigator.storage.estimate()')) as { usage: number };
    const cdp = await context.newCDPSession(page);
    await cdp.send('HeapProfiler.collectGarbage');
    const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number; totalSize: number };
    console.log(
      `${r.appSignal ? "times from the app's first-sync display" : `times from IndexedDB counts (${r.samples} samples)`}; shell ${fmt(r.shellMs)}; own screens ready ${fmt(r.ownMs)}; every collection complete ${fmt(r.completeMs)}; IndexedDB ${mb(storage.usage)}; JS heap ${mb(heap.usedSize)} (of ${mb(heap.totalSize)}); load ${load()}`,
    );
    const rows = r.timings.map((t) => {
      const span = t.doneAt !== null && t.firstAt !== null ? t.doneAt - t.firstAt : null;
      return {
        collection: t.collection,
        docs: t.expected,
        first: t.firstAt === null ? '-' : fmt(t.firstAt),
        complete: fmt(t.doneAt),
        'docs/s': span && t.expected > 1 ? Math.round(t.expected / (span / 1000)) : '-',
      };
    });
    console.table(rows);
    // A second start: the same profile opened again, its data stored (a laptop opened in the hangar, offline or not).
    await waitQuiet();
    const again = new CpuSampler();
    again.start();
    const reopened = Date.now();
    await page.reload();
    await page.waitForSelector('header.topbar');
    const drawn = Date.now();
    await waitQuiet(300);
    again.stop();
    console.log(
      `second start (the same profile reloaded, its data stored): shell drawn in ${fmt(drawn - reopened)}; CPU until then ${cpuLine(again.between(reopened, drawn))}`,
    );
    const firstPull = Math.min(...r.pulls.map((p) => p.sentAt));
    if (r.trace && r.completeMs && Number.isFinite(firstPull)) {
      const sum = summarizeTrace(r.trace, firstPull, r.completeMs);
      console.log(
        `the page's main thread from the first sync request to complete: busy ${sum.busyMs} of ${Math.round(sum.windowMs)} ms`,
      );
      console.table(sum.topLevel);
      console.table(sum.inside);
    }
    // Server and browser share the machine's cores; the ceiling below runs with the server idle.
    if (r.completeMs && Number.isFinite(firstPull))
      console.log(
        `CPU from the first sync request to complete, ${cpuLine(r.cpu.between(r.t0 + firstPull, r.t0 + r.completeMs))}`,
      );
    console.log(
      `start: ${JSON.stringify(r.startup)} (ms from the submit); first sync request ${Number.isFinite(firstPull) ? `${Math.round(firstPull)} ms` : '-'} after the submit`,
    );
    // Per collection, the pulls as the browser saw them: the server's wait against the time the collection took.
    console.table(
      [...expected.keys(), 'bootstrap'].map((name) => {
        const mine = r.pulls.filter((p) => p.collection === name);
        return {
          collection: name,
          pulls: mine.length,
          'first sent': mine.length ? fmt(Math.min(...mine.map((p) => p.sentAt))) : '-',
          'last read': mine.length ? fmt(Math.max(...mine.map((p) => p.doneAt))) : '-',
          'server wait ms': Math.round(mine.reduce((a, p) => a + p.waitMs, 0)),
        };
      }),
    );
    // After each collection's last page: its first-sync mark, its live replication's start (RxDB: meta storage,
    // checkpoints), its first pull answered; "after stored" is what a collection pays once loaded.
    const stepRows = [...r.steps]
      .sort((a, b) => (a[1].stored ?? 0) - (b[1].stored ?? 0))
      .map(([collection, t]) => {
        const at = (k: string) => (t[k] === undefined ? '-' : Math.round(t[k]));
        const after = (k: string) => (t[k] === undefined || t.stored === undefined ? '-' : Math.round(t[k] - t.stored));
        return {
          collection,
          'last page stored': at('stored'),
          'mark +ms': after('marked'),
          'replicating +ms': after('replicating'),
          'first pull +ms': after('pulled'),
        };
      });
    if (stepRows.length) {
      const last = Math.max(...[...r.steps.values()].map((t) => t.stored ?? 0));
      const lastReady = Math.max(...[...r.steps.values()].map((t) => t.pulled ?? t.replicating ?? 0));
      console.log(
        `first-sync steps (ms from the submit; +ms after the collection's last page was stored); last page of all stored at ${last} ms, last replication running at ${lastReady} ms`,
      );
      console.table(stepRows);
    }
    if (r.profile) {
      const top = topFunctions(r.profile, 25);
      console.log(`main thread profile: ${top.totalMs} ms sampled`);
      console.table(top.top);
    }

    // The ceiling, same browser and profile: a page of the same origin that does not run the app.
    const ceilingPage = await context.newPage();
    await ceilingPage.route(`${s.url}/ceiling.html`, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>ceiling</title>' }),
    );
    await ceilingPage.goto(`${s.url}/ceiling.html`);
    await ceilingPage.addScriptTag({ content: ceilingJs });
    await page.close(); // one RxDB per context: the app's database is closed by its page going away
    type CeilingRun = Array<{ collection: string; docs: number; ms: number; startedAt: number; endedAt: number }>;
    // Runs in the page: the functions device-ceiling.ts put on its globalThis.
    type InPage = { fetchCeiling(b: string, t: string): Promise<number>; runCeiling(): Promise<CeilingRun> };
    await ceilingPage.evaluate(([base, tok]) => (globalThis as unknown as InPage).fetchCeiling(base, tok), [
      s.baseUrl,
      token,
    ] as const);
    // Three runs, each after the machine is quiet (IndexedDB compacts what the run before wrote, in the browser
    // process, for a second or more): the median is the ceiling, the spread is printed.
    const runs: Array<{ run: CeilingRun; ms: number; cpu: string; waited: number }> = [];
    for (let i = 0; i < CEILING_RUNS; i++) {
      const waited = await waitQuiet();
      const cpu = new CpuSampler();
      cpu.start();
      const tracing = TRACE && i === 0 ? ceilingPage.context().browser() : null;
      if (tracing)
        await tracing.startTracing(ceilingPage, {
          categories: TRACE_CATEGORIES,
        });
      const tracedAt = Date.now();
      const run = await ceilingPage.evaluate(() => (globalThis as unknown as InPage).runCeiling());
      cpu.stop();
      if (tracing) {
        const trace = await tracing.stopTracing();
        const from = Math.min(...run.map((c) => c.startedAt)) - tracedAt;
        const to = Math.max(...run.map((c) => c.endedAt)) - tracedAt;
        const sum = summarizeTrace(trace, from, to);
        console.log(
          `the ceiling page's main thread during its inserts: busy ${sum.busyMs} of ${Math.round(sum.windowMs)} ms`,
        );
        console.table(sum.topLevel);
        console.table(sum.inside);
      }
      const window = cpu.between(Math.min(...run.map((c) => c.startedAt)), Math.max(...run.map((c) => c.endedAt)));
      runs.push({ run, ms: run.reduce((a, c) => a + c.ms, 0), cpu: cpuLine(window), waited });
    }
    for (const [i, r] of runs.entries())
      console.log(`ceiling run ${i + 1} (after ${fmt(r.waited)} waiting for quiet): ${fmt(r.ms)}; CPU ${r.cpu}`);
    const ceiling = [...runs].sort((a, b) => a.ms - b.ms)[Math.floor(runs.length / 2)].run;
    // Why the app stays under the ceiling: the same stream stored by a page that runs nothing else (device-ceiling.ts),
    // recorded first (parse and store only) and live (the server produces it meanwhile on the same cores).
    const streamed: Partial<Record<'recorded' | 'live', number>> = {};
    if (STREAM_CEILING)
      for (const mode of ['recorded', 'live'] as const) {
        type Streamed = { docs: number; ms: number; startedAt: number; endedAt: number };
        await waitQuiet();
        const cpu = new CpuSampler();
        cpu.start();
        const run = await ceilingPage.evaluate(
          ([base, tok, m]) =>
            (
              globalThis as unknown as { runStreamCeiling(b: string, t: string, m: string): Promise<Streamed> }
            ).runStreamCeiling(base, tok, m),
          [s.baseUrl, token, mode] as const,
        );
        cpu.stop();
        streamed[mode] = run.docs / (run.ms / 1000);
        console.log(
          `the bootstrap stream ${mode === 'live' ? 'as the server sends it' : 'recorded first'}, stored by a bare page: ${run.docs} docs in ${fmt(run.ms)}; CPU ${cpuLine(cpu.between(run.startedAt, run.endedAt))}`,
        );
      }
    const cDocs = ceiling.reduce((a, c) => a + c.docs, 0);
    const cMs = ceiling.reduce((a, c) => a + c.ms, 0);
    const appRate = r.completeMs ? total / (r.completeMs / 1000) : null;
    const ceilingRate = cDocs / (cMs / 1000);
    // Sync only: from the first collection's first request, without the sign-in and the app's start before it.
    const firstAt = Math.min(...r.timings.map((t) => t.firstAt ?? Number.POSITIVE_INFINITY));
    const syncRate = r.completeMs && Number.isFinite(firstAt) ? total / ((r.completeMs - firstAt) / 1000) : null;
    // From the first sync request the browser sent (the bootstrap stream or a pull): the sign-in and the app's start
    // before it are left out, the server's first answer and every write after it are in.
    const requestRate = r.completeMs && Number.isFinite(firstPull) ? total / ((r.completeMs - firstPull) / 1000) : null;
    const share = (rate: number | null) =>
      rate ? `${Math.round(rate)} docs/s = ${(rate / ceilingRate).toFixed(2)}` : '-';
    console.log(
      `ceiling (raw bulkInsert, same browser): ${cDocs} docs in ${fmt(cMs)} = ${Math.round(ceilingRate)} docs/s; first sync end to end ${share(appRate)} of the ceiling, from the first collection's start ${share(syncRate)}, from the first request ${share(requestRate)}; load ${load()}`,
    );
    const streamRate = streamed.live ?? null;
    if (streamed.live && streamed.recorded)
      console.log(
        `a bare page stored the recorded stream at ${(streamed.recorded / ceilingRate).toFixed(2)} of the ceiling (parsing), the live one at ${(streamed.live / ceilingRate).toFixed(2)} (the server beside it); the app from its first request is ${requestRate ? (requestRate / streamed.live).toFixed(2) : '-'} of the live bare page`,
      );
    console.table(
      ceiling.map((c) => ({
        collection: c.collection,
        docs: c.docs,
        ms: Math.round(c.ms),
        'docs/s': c.docs > 1 ? Math.round(c.docs / (c.ms / 1000)) : '-',
      })),
    );
    report[who] = {
      documents: total,
      shellMs: Math.round(r.shellMs),
      ownMs: r.ownMs && Math.round(r.ownMs),
      completeMs: r.completeMs && Math.round(r.completeMs),
      indexedDbBytes: storage.usage,
      heapBytes: heap.usedSize,
      docsPerSecond: appRate && Math.round(appRate),
      ceilingDocsPerSecond: Math.round(ceilingRate),
      ratio: appRate && Number((appRate / ceilingRate).toFixed(2)),
      syncOnlyRatio: syncRate && Number((syncRate / ceilingRate).toFixed(2)),
      fromRequestRatio: requestRate && Number((requestRate / ceilingRate).toFixed(2)),
      firstRequestMs: Number.isFinite(firstPull) ? Math.round(firstPull) : null,
      recordedStreamRatio: streamed.recorded && Number((streamed.recorded / ceilingRate).toFixed(2)),
      streamRatio: streamRate && Number((streamRate / ceilingRate).toFixed(2)),
      appToStream: streamRate && requestRate && Number((requestRate / streamRate).toFixed(2)),
    };
    await context.close();
  }
} finally {
  await browser.close();
  await s.close();
}
console.log(`\n${JSON.stringify({ dialect: DIALECT, scale: SCALE, load: load(), ...report })}`);
