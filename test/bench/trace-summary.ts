/**
 * Where a page's main thread spent a window (bench:device with BENCH_TRACE=1): a Chromium trace
 * (`browser.startTracing`) summed per event name over the renderer main threads. "Top level" counts an event
 * only where no other event of the thread encloses it, so the top-level times add up to the thread's busy time;
 * "inside" lists what the scripts' time was made of (compiling, garbage collection, IndexedDB calls).
 */
interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

export interface TraceSummary {
  windowMs: number;
  busyMs: number;
  topLevel: Array<{ name: string; ms: number; count: number }>;
  inside: Array<{ name: string; ms: number; count: number }>;
}

/** Wrappers of every task: their children are counted instead. */
const WRAPPERS = new Set(['RunTask', 'ThreadControllerImpl::RunTask', 'ThreadPool_RunTask']);
const INSIDE = /compile|GC|Parse|Layout|UpdateLayoutTree|Paint|IndexedDB|IDB|Deserialize|Serialize|JSON/i;

export function summarizeTrace(buffer: Buffer, fromMs: number, toMs: number, top = 14): TraceSummary {
  const parsed = JSON.parse(buffer.toString('utf8')) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
  const mains = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  // The trace clock is microseconds of its own origin: the window is relative to the first event.
  let origin = Number.POSITIVE_INFINITY;
  for (const e of events) if (e.ts > 0 && e.ts < origin) origin = e.ts;
  const from = origin + fromMs * 1000;
  const to = origin + toMs * 1000;
  const spans = events
    .filter(
      (e) =>
        e.ph === 'X' &&
        e.dur !== undefined &&
        !WRAPPERS.has(e.name) &&
        mains.has(`${e.pid}:${e.tid}`) &&
        e.ts < to &&
        e.ts + (e.dur ?? 0) > from,
    )
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const topLevel = new Map<string, { ms: number; count: number }>();
  const inside = new Map<string, { ms: number; count: number }>();
  const ends = new Map<string, number>();
  let busy = 0;
  for (const e of spans) {
    const thread = `${e.pid}:${e.tid}`;
    const ms = (Math.min(e.ts + (e.dur ?? 0), to) - Math.max(e.ts, from)) / 1000;
    if (e.ts >= (ends.get(thread) ?? 0)) {
      ends.set(thread, e.ts + (e.dur ?? 0));
      busy += ms;
      const t = topLevel.get(e.name) ?? { ms: 0, count: 0 };
      topLevel.set(e.name, { ms: t.ms + ms, count: t.count + 1 });
    } else if (INSIDE.test(e.name)) {
      const t = inside.get(e.name) ?? { ms: 0, count: 0 };
      inside.set(e.name, { ms: t.ms + ms, count: t.count + 1 });
    }
  }
  const list = (m: Map<string, { ms: number; count: number }>) =>
    [...m]
      .sort((a, b) => b[1].ms - a[1].ms)
      .slice(0, top)
      .map(([name, v]) => ({ name, ms: Math.round(v.ms), count: v.count }));
  return { windowMs: toMs - fromMs, busyMs: Math.round(busy), topLevel: list(topLevel), inside: list(inside) };
}
