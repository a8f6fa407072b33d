import type { AppContext } from '../context.ts';
import { HttpError } from '../http/errors.ts';
import { said } from '../http/messages.ts';

/** Pulls of one process that run against the database at once when the pool size is unknown (SQLite). */
const DEFAULT_CONCURRENCY = 4;
/** Connections of the pool left to everything else (pushes, credential lookups, the fan-out, REST). */
const POOL_RESERVE = 3;
/** Queued pulls beyond which a new one is refused (503 + Retry-After) instead of waiting. */
const DEFAULT_MAX_QUEUED = 5000;

interface Waiting {
  /** Its turn came (true), or it was skipped because its client left (false). */
  start: (run: boolean) => void;
  gone: () => boolean;
}

/**
 * Admission of sync pulls in one process (issue 34): at most `concurrency`
 * run at once, the others wait in a bounded queue, served round-robin across
 * companies (one company's reconnecting herd does not starve another's
 * device) and in arrival order within a company. A pull whose client went
 * away while it waited is skipped. Only when the queue is full is a pull
 * refused, with 503 and a Retry-After from the queue's length and the recent
 * pull time.
 *
 * Before, 5,000 devices opening their catch-up pulls at once all waited in
 * the pool's own queue, whose 5 s limit answered 503 to thousands of them;
 * those retried and kept the pool full (332 of 5,000 connected in 240 s).
 */
export class PullGate {
  private running = 0;
  private queued = 0;
  private readonly queues = new Map<string, Waiting[]>();
  /** Recent pull time in ms (exponential average), for Retry-After. */
  private avgMs = 20;
  readonly stats = { admitted: 0, waited: 0, refused: 0, skipped: 0, maxQueued: 0 };

  constructor(
    readonly concurrency: number,
    readonly maxQueued: number,
  ) {}

  get waiting(): number {
    return this.queued;
  }

  get active(): number {
    return this.running;
  }

  /**
   * Runs `fn` when its turn comes; `gone` tells whether the client left meanwhile (then `fn` is not run and
   * null is answered). Throws 503 (Retry-After) when the queue is full.
   */
  async run<T>(company: string, gone: () => boolean, fn: () => Promise<T>): Promise<T | null> {
    this.stats.admitted++;
    if (this.running >= this.concurrency || this.queued > 0) {
      if (this.queued >= this.maxQueued) {
        this.stats.refused++;
        const seconds = this.retryAfter();
        throw new HttpError(
          503,
          { result: false, ...said('errors.busy', { seconds }) },
          { 'Retry-After': String(seconds) },
        );
      }
      this.stats.waited++;
      const turn = await new Promise<boolean>((resolve) => this.enqueue(company, { start: resolve, gone }));
      if (!turn) return null;
    } else this.running++;
    const t0 = performance.now();
    try {
      return await fn();
    } finally {
      this.avgMs = this.avgMs * 0.9 + (performance.now() - t0) * 0.1;
      this.running--;
      this.next();
    }
  }

  /** Seconds until the queue has likely drained: queued × pull time ÷ concurrency, 1 to 30. */
  retryAfter(): number {
    return Math.min(30, Math.max(1, Math.ceil((this.queued * this.avgMs) / this.concurrency / 1000)));
  }

  private enqueue(company: string, w: Waiting): void {
    const q = this.queues.get(company);
    if (q) q.push(w);
    else this.queues.set(company, [w]);
    this.queued++;
    if (this.queued > this.stats.maxQueued) this.stats.maxQueued = this.queued;
  }

  /** Starts waiting pulls while under the limit: the first company in turn, which then goes to the back. */
  private next(): void {
    while (this.running < this.concurrency && this.queued > 0) {
      const [company, q] = this.queues.entries().next().value as [string, Waiting[]];
      const w = q.shift() as Waiting;
      this.queued--;
      this.queues.delete(company);
      if (q.length) this.queues.set(company, q);
      if (w.gone()) {
        this.stats.skipped++;
        w.start(false);
        continue;
      }
      this.running++;
      w.start(true);
    }
  }
}

const gates = new WeakMap<AppContext['database'], PullGate>();

/** The process's pull gate: concurrency from the pool size (minus a reserve), or `SYNC_PULL_CONCURRENCY`. */
export function pullGateOf(ctx: AppContext): PullGate {
  let g = gates.get(ctx.database);
  if (!g) {
    const poolMax = ctx.database.pool?.options.max;
    const concurrency =
      ctx.config.syncPullConcurrency ?? (poolMax ? Math.max(1, poolMax - POOL_RESERVE) : DEFAULT_CONCURRENCY);
    g = new PullGate(concurrency, ctx.config.syncPullQueue ?? DEFAULT_MAX_QUEUED);
    gates.set(ctx.database, g);
  }
  return g;
}
