import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { AppContext } from '../context.ts';

declare module '../db/schema.ts' {
  interface DB {
    job_leases: { name: string; owner: string | null; lease_until: number; last_run: number; runs: number };
  }
}

/**
 * A periodic job of some area (upload cleanup, tombstone purge, webhook
 * delivery...). Every server process ticks, but a run needs the job's lease
 * row, taken with one conditional UPDATE: with several processes on one
 * database exactly one of them runs the job each interval.
 */
export interface Job {
  name: string;
  everySeconds: number;
  /** How long a run may hold the lease before another process may take over (a crashed runner). */
  leaseSeconds?: number;
  run(ctx: AppContext): Promise<void>;
}

const jobs = new Map<string, Job>();
const runListeners = new Set<(name: string, ok: boolean, seconds: number) => void>();

/** Called by `registerAreas()` for the jobs an area's manifest lists (and by tests for their own). */
export function registerJob(job: Job): void {
  jobs.set(job.name, job);
}

export const jobNames = () => [...jobs.keys()];

/** Metrics and tests listen to finished runs. */
export function onJobRun(fn: (name: string, ok: boolean, seconds: number) => void): () => void {
  runListeners.add(fn);
  return () => runListeners.delete(fn);
}

const OWNER = randomUUID();
const now = () => Math.floor(Date.now() / 1000);

/**
 * Takes the job's lease when it is due and free (or held by a runner whose
 * lease ran out). `force` ignores the interval (tests, manual runs), not a live lease.
 */
async function claim(ctx: AppContext, job: Job, force: boolean): Promise<boolean> {
  const t = now();
  await ctx.db
    .insertInto('job_leases')
    .values({ name: job.name, owner: null, lease_until: 0, last_run: 0, runs: 0 })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  let q = ctx.db
    .updateTable('job_leases')
    .set({ owner: OWNER, lease_until: t + (job.leaseSeconds ?? 300), last_run: t, runs: sql<number>`runs + 1` })
    .where('name', '=', job.name)
    .where('lease_until', '<', t);
  if (!force) q = q.where('last_run', '<=', t - job.everySeconds);
  const res = await q.executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

async function release(ctx: AppContext, job: Job): Promise<void> {
  await ctx.db
    .updateTable('job_leases')
    .set({ lease_until: 0, owner: null })
    .where('name', '=', job.name)
    .where('owner', '=', OWNER)
    .execute();
}

/** Runs one job now if no other process holds its lease; returns whether this process ran it. */
export async function runJob(ctx: AppContext, name: string, force = true): Promise<boolean> {
  const job = jobs.get(name);
  if (!job) throw new Error(`unknown job ${name}`);
  if (!(await claim(ctx, job, force))) return false;
  const started = performance.now();
  let ok = true;
  try {
    await job.run(ctx);
  } catch (err) {
    ok = false;
    ctx.log.error({ err, job: name }, 'job failed');
  } finally {
    await release(ctx, job).catch(() => {});
    for (const fn of runListeners) fn(name, ok, (performance.now() - started) / 1000);
  }
  return true;
}

/**
 * Ticks every `tickSeconds` and runs each due job whose lease is free. Returns
 * the stop function. `JOBS=off` leaves a process out (tests drive jobs with `runJob`).
 */
export function startJobs(ctx: AppContext, tickSeconds = 5): () => void {
  let busy = false;
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      for (const job of jobs.values())
        await runJob(ctx, job.name, false).catch((err) => ctx.log.error({ err, job: job.name }, 'job lease failed'));
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void tick(), tickSeconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
