/**
 * Who had the two cores during a window of a bench (issue 35): the CPU time of
 * this Node process (the server and the bench driving the browser) and of every
 * Chromium process (renderer, browser with its IndexedDB, GPU, utility), from
 * /proc, sampled every `everyMs`. Linux only; elsewhere Chromium reads 0. The
 * processes are listed at the start: one started later is not counted.
 */
import fs from 'node:fs';
import os from 'node:os';

interface CpuSample {
  /** Unix ms. */
  at: number;
  nodeMs: number;
  chromiumMs: number;
  /** Per Chromium process type (browser, renderer, utility, gpu, zygote): where the browser's time went. */
  byType: Record<string, number>;
}

export interface CpuWindow {
  wallMs: number;
  nodeMs: number;
  chromiumMs: number;
  byType: Record<string, number>;
  /** Of every core's time in the window (1 = all cores busy all along). */
  busy: number;
}

const TICK_MS = 10; // USER_HZ 100 on Linux

/** The ids of Chromium's processes (command starting with "chrom"). */
function chromiumPids(): string[] {
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return [];
  }
  return pids.filter((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('chrom');
    } catch {
      return false; // gone meanwhile
    }
  });
}

/** A Chromium process's `--type=` (renderer, utility, gpu-process, zygote), or browser for the main one. */
function typeOf(pid: string): string {
  try {
    // Chromium rewrites its process title: the arguments come joined by spaces, not NULs.
    const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/);
    const type = args.find((a) => a.startsWith('--type='))?.slice(7) ?? 'browser';
    const service = args.find((a) => a.startsWith('--utility-sub-type='))?.slice(19);
    return service ? `${type} ${service.replace(/^.*\./, '')}` : type;
  } catch {
    return 'gone';
  }
}

/** utime + stime of these processes, in ms (one that exited counts nothing from then on). */
function cpuOf(pids: readonly string[], byType?: Map<string, string>, into?: Record<string, number>): number {
  let ms = 0;
  for (const pid of pids) {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue;
    }
    // After the command (in parentheses, may hold spaces): state is field 3, utime and stime fields 14 and 15.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const own = (Number(f[11]) + Number(f[12])) * TICK_MS;
    ms += own;
    const type = byType?.get(pid);
    if (into && type) into[type] = (into[type] ?? 0) + own;
  }
  return ms;
}

const nodeMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

export class CpuSampler {
  private readonly samples: CpuSample[] = [];
  private timer: ReturnType<typeof setInterval> | null = null;
  /** Listed once (the browser and its pages run before the window starts): sampling stays cheap. */
  private pids: string[] = [];
  private types = new Map<string, string>();

  /** Call once the pages the window measures are open. */
  start(everyMs = 25): void {
    this.pids = chromiumPids();
    this.types = new Map(this.pids.map((pid) => [pid, typeOf(pid)]));
    this.sample();
    this.timer = setInterval(() => this.sample(), everyMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.sample();
  }

  sample(): void {
    const byType: Record<string, number> = {};
    this.samples.push({ at: Date.now(), nodeMs: nodeMs(), chromiumMs: cpuOf(this.pids, this.types, byType), byType });
  }

  /** The CPU used between two instants (unix ms): the last sample at or before `from`, the first at or after `to`. */
  between(from: number, to: number): CpuWindow | null {
    const a = this.samples.filter((s) => s.at <= from).at(-1);
    const b = this.samples.find((s) => s.at >= to);
    if (!a || !b) return null;
    const wallMs = b.at - a.at;
    const node = b.nodeMs - a.nodeMs;
    const chromium = b.chromiumMs - a.chromiumMs;
    const byType = Object.fromEntries(Object.keys(b.byType).map((k) => [k, (b.byType[k] ?? 0) - (a.byType[k] ?? 0)]));
    return {
      wallMs,
      nodeMs: node,
      chromiumMs: chromium,
      byType,
      busy: (node + chromium) / (wallMs * os.cpus().length),
    };
  }
}

export const cpuLine = (w: CpuWindow | null) =>
  w
    ? `${Math.round(w.wallMs)} ms: Node (server and bench) ${Math.round(w.nodeMs)} ms CPU, Chromium ${Math.round(w.chromiumMs)} ms CPU (${Object.entries(
        w.byType,
      )
        .filter(([, ms]) => ms > 0)
        .sort((x, y) => y[1] - x[1])
        .map(([t, ms]) => `${t} ${ms}`)
        .join(', ')}); ${Math.round(w.busy * 100)} % of ${os.cpus().length} cores`
    : '-';

/**
 * Waits until this process and Chromium together use less than `share` of one core over `windowMs` (at most
 * `maxMs`): what a run before left running (IndexedDB compacting what it wrote, a database being removed) is
 * done, so the next run does not pay for it. Answers the time waited.
 */
export async function waitQuiet(windowMs = 500, share = 0.1, maxMs = 15_000): Promise<number> {
  const pids = chromiumPids();
  const used = () => nodeMs() + cpuOf(pids);
  const t0 = Date.now();
  for (;;) {
    const before = used();
    await new Promise((r) => setTimeout(r, windowMs));
    if (used() - before < windowMs * share || Date.now() - t0 >= maxMs) return Date.now() - t0;
  }
}
