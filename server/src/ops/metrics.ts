import type { Request, Response } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/database.ts';
import { onJobRun } from '../jobs/scheduler.ts';
import { readinessOf } from './health.ts';

declare module 'express-serve-static-core' {
  interface Request {
    /** The matched route's declared path (`/flights/view/:id.json`), set by the API router; the metrics label. */
    routePattern?: string;
  }
}

const STREAM_ROUTE = '/sync/stream.json';
const PUSH_ROUTE = '/sync/:collection/push.json';

/**
 * One Prometheus registry per server (tests run several servers in one
 * process). Request metrics are labelled by route pattern, never by the raw
 * URL, so ids do not explode the series count.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly requests: Counter<'method' | 'route' | 'status'>;
  readonly errors: Counter<'method' | 'route' | 'kind'>;
  readonly duration: Histogram<'method' | 'route'>;
  readonly jobRuns: Counter<'job' | 'outcome'>;
  readonly jobDuration: Histogram<'job'>;
  /** In-flight requests by route pattern; sync streams and pending commands are read from it. */
  private readonly inFlight = new Map<string, number>();
  private pendingCommands = 0;

  constructor(database: Database) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    const series = this.series;
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      registers,
      collect() {
        this.reset();
        for (const s of series.values()) this.inc(s.labels, s.count);
      },
    });
    this.errors = new Counter({
      name: 'http_request_errors_total',
      help: 'HTTP requests answered with an error: kind client (4xx) or server (5xx), by route pattern',
      labelNames: ['method', 'route', 'kind'],
      registers,
      collect() {
        this.reset();
        for (const s of series.values()) if (s.errorLabels) this.inc(s.errorLabels, s.count);
      },
    });
    this.duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to the response head being finished, by method and route pattern',
      labelNames: ['method', 'route'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    const inFlight = this.inFlight;
    new Gauge({
      name: 'http_requests_in_flight',
      help: 'Requests being answered (sync streams stay in flight while open)',
      registers,
      collect() {
        let n = 0;
        for (const v of inFlight.values()) n += v;
        this.set(n);
      },
    });
    new Gauge({
      name: 'sync_streams_open',
      help: 'Open live-change streams (GET /sync/stream.json)',
      registers,
      collect() {
        this.set(inFlight.get(`GET ${STREAM_ROUTE}`) ?? 0);
      },
    });
    const self = this;
    new Gauge({
      name: 'sync_commands_pending',
      help: 'Offline commands received in sync pushes and not yet decided',
      registers,
      collect() {
        this.set(self.pendingCommands);
      },
    });
    const state = readinessOf(database);
    new Gauge({
      name: 'sync_listener_up',
      help: 'PostgreSQL: 1 while the change listener (LISTEN ops_changes) is connected; always 1 on SQLite',
      registers,
      collect() {
        this.set(state.listening ? 1 : 0);
      },
    });
    new Gauge({
      name: 'sync_listener_reconnects',
      help: 'Times the change listener reconnected after a lost connection since the process started',
      registers,
      collect() {
        this.set(state.listenerReconnects);
      },
    });
    const pool = database.pool;
    new Gauge({
      name: 'db_pool_connections',
      help: 'Database pool connections by state (PostgreSQL; SQLite is one in-process connection)',
      labelNames: ['state'],
      registers,
      collect() {
        if (pool) {
          this.set({ state: 'total' }, pool.totalCount);
          this.set({ state: 'idle' }, pool.idleCount);
          this.set({ state: 'active' }, pool.totalCount - pool.idleCount);
          this.set({ state: 'waiting' }, pool.waitingCount);
        } else {
          this.set({ state: 'total' }, 1);
          this.set({ state: 'idle' }, 0);
          this.set({ state: 'active' }, 1);
          this.set({ state: 'waiting' }, 0);
        }
      },
    });
    this.jobRuns = new Counter({
      name: 'job_runs_total',
      help: 'Background job runs by job name and outcome (ok, error)',
      labelNames: ['job', 'outcome'],
      registers,
    });
    this.jobDuration = new Histogram({
      name: 'job_duration_seconds',
      help: 'Background job run time by job name',
      labelNames: ['job'],
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300],
      registers,
    });
    // Runs of the job scheduler (server/src/jobs/scheduler.ts) of this process.
    onJobRun((job, ok, seconds) => {
      this.jobRuns.inc({ job, outcome: ok ? 'ok' : 'error' });
      this.jobDuration.observe({ job }, seconds);
    });
  }

  /**
   * Requests and errors as plain numbers per method, route and status, given to prom-client only when /metrics is
   * read (the counters' `collect`): prom-client hashes a label object on every inc, a measurable share of a small
   * request (issue 34 item 5). The duration histogram keeps one label child per series. Bounded by routes × statuses.
   */
  private readonly series = new Map<string, RequestSeries>();
  private seriesOf(method: string, route: string, status: number): RequestSeries {
    const key = `${method} ${status} ${route}`;
    let s = this.series.get(key);
    if (!s) {
      s = {
        labels: { method, route, status: String(status) },
        errorLabels: status >= 400 ? { method, route, kind: status >= 500 ? 'server' : 'client' } : null,
        count: 0,
        time: this.duration.labels({ method, route }),
      };
      this.series.set(key, s);
    }
    return s;
  }

  /** Counts, times and tracks the request by its route pattern once it ends; the app's first layer calls it. */
  begin(req: Request, res: Response): void {
    // Shared functions and one state object: no closures made per request.
    req.metricsState = { metrics: this, req, res, started: performance.now(), key: null, commands: 0 };
    req.onRouteMatched = routeMatched;
    // One listener: a response emits 'close' once, a tick after 'finish' or when the client went away first.
    res.on('close', requestClosed);
  }

  /** The route is known once the router matched it; in flight from then. */
  track(state: RequestState): void {
    const { req } = state;
    if (state.key !== null || !req.routePattern) return;
    state.key = `${req.method} ${req.routePattern}`;
    this.inFlight.set(state.key, (this.inFlight.get(state.key) ?? 0) + 1);
    if (req.routePattern === PUSH_ROUTE && req.params?.collection === 'device' && Array.isArray(req.body?.rows)) {
      // The device collection carries commands (and outcomes, which devices never push).
      state.commands = req.body.rows.filter(
        (r: { newDocumentState?: { type?: string } }) => r?.newDocumentState?.type === 'command',
      ).length;
      this.pendingCommands += state.commands;
    }
  }

  done(state: RequestState): void {
    const { req, res, key } = state;
    if (key !== null) {
      const left = (this.inFlight.get(key) ?? 1) - 1;
      if (left > 0) this.inFlight.set(key, left);
      else this.inFlight.delete(key);
      this.pendingCommands -= state.commands;
    }
    const route = req.routePattern ?? (req.path.startsWith('/api/') ? 'unmatched' : 'other');
    const s = this.seriesOf(req.method, route, res.statusCode);
    s.count += 1;
    s.time.observe((performance.now() - state.started) / 1000);
  }

  /** Runs a background job, counting it and timing it; rethrows its error. */
  async runJob<T>(job: string, fn: () => Promise<T>): Promise<T> {
    const end = this.jobDuration.startTimer({ job });
    try {
      const out = await fn();
      this.jobRuns.inc({ job, outcome: 'ok' });
      return out;
    } catch (err) {
      this.jobRuns.inc({ job, outcome: 'error' });
      throw err;
    } finally {
      end();
    }
  }
}

declare module 'express-serve-static-core' {
  interface Request {
    /** Called by the API router once it matched a route (after `routePattern` is set). */
    onRouteMatched?: () => void;
    metricsState?: RequestState;
  }
}

/** What the metrics keep of one request between its start and its end. */
interface RequestState {
  metrics: Metrics;
  req: Request;
  res: Response;
  started: number;
  /** `METHOD pattern` while counted in flight. */
  key: string | null;
  commands: number;
}

interface RequestSeries {
  labels: { method: string; route: string; status: string };
  errorLabels: { method: string; route: string; kind: string } | null;
  count: number;
  time: { observe(seconds: number): void };
}

function routeMatched(this: Request): void {
  const state = this.metricsState;
  if (!state) return;
  // Called once: a long-lived request (a sync stream) need not keep it.
  this.onRouteMatched = undefined;
  state.metrics.track(state);
}

function requestClosed(this: Response): void {
  const state = this.req.metricsState;
  if (!state) return;
  this.req.metricsState = undefined;
  state.metrics.done(state);
}

const byDatabase = new WeakMap<Database, Metrics>();

/** The metrics of the server that owns `database`. */
export function metricsOf(database: Database): Metrics {
  let m = byDatabase.get(database);
  if (!m) {
    m = new Metrics(database);
    byDatabase.set(database, m);
  }
  return m;
}

/**
 * Jobs of the scheduler are counted by themselves (onJobRun); work run outside
 * it (a one-off maintenance task) can be counted the same way:
 *   await runJob(ctx, 'reindex', () => reindex(ctx));
 */
export const runJob = <T>(ctx: AppContext, job: string, fn: () => Promise<T>): Promise<T> =>
  metricsOf(ctx.database).runJob(job, fn);

/** Bearer token the /metrics endpoint requires when METRICS_TOKEN is set (else open, for a private network). */
export function metricsAuthorized(req: Request): boolean {
  const token = process.env.METRICS_TOKEN;
  if (!token) return true;
  return req.headers.authorization === `Bearer ${token}`;
}
