import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import pg from 'pg';
import { PG_URL } from '../../setup/dialects.ts';

/**
 * Control of the local PostgreSQL cluster (Debian's pg_ctlcluster) for fault
 * tests. Others use the same server: every caller must end with
 * `ensurePostgresRunning()` in a finally block.
 */
export function pgVersion(): string | null {
  try {
    return fs.readdirSync('/etc/postgresql').sort((a, b) => Number(b) - Number(a))[0] ?? null;
  } catch {
    return null;
  }
}

/** True when this machine runs the test database in a cluster we can restart (local, pg_ctlcluster present). */
export function canRestartPostgres(): boolean {
  const host = new URL(PG_URL).hostname;
  if (!['127.0.0.1', 'localhost', '::1'].includes(host) || !pgVersion()) return false;
  return spawnSync('pg_ctlcluster', ['--help'], { stdio: 'ignore' }).status !== null;
}

const ctl = (action: string) =>
  execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', pgVersion() as string, 'main', action], {
    stdio: 'pipe',
    timeout: 60_000,
  });

/**
 * CHECKPOINT while the database is up: the shutdown checkpoint of a restart then has little to write and fsync
 * (on a shared test server with thousands of files it otherwise takes seconds, all of them an outage).
 */
export async function checkpointPostgres(): Promise<void> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    await c.query('CHECKPOINT');
  } finally {
    await c.end();
  }
}

/**
 * `pg_ctlcluster ... restart` (fast shutdown: sessions are terminated); returns once PostgreSQL accepts connections
 * again. Asynchronous: the caller's probes and writers go on meanwhile.
 */
export async function restartPostgres(): Promise<number> {
  const t0 = performance.now();
  await promisify(execFile)('pg_ctlcluster', ['--skip-systemctl-redirect', pgVersion() as string, 'main', 'restart'], {
    timeout: 60_000,
  });
  await waitForPostgres();
  return performance.now() - t0;
}

export function postgresRunning(): boolean {
  return (
    spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', pgVersion() as string, 'main', 'status'], {
      stdio: 'ignore',
    }).status === 0
  );
}

/** Starts the cluster if it is down (after a failed restart) and waits until it answers. */
export async function ensurePostgresRunning(): Promise<void> {
  if (!pgVersion()) return;
  if (!postgresRunning()) {
    try {
      ctl('start');
    } catch (err) {
      // Started meanwhile by someone else is fine; anything else is reported below by the wait.
      if (!postgresRunning()) console.error(`could not start PostgreSQL: ${(err as Error).message}`);
    }
  }
  await waitForPostgres();
}

export async function waitForPostgres(limitMs = 30_000): Promise<void> {
  const t0 = performance.now();
  for (;;) {
    const c = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
    try {
      await c.connect();
      await c.query('select 1');
      await c.end();
      return;
    } catch (err) {
      await c.end().catch(() => {});
      if (performance.now() - t0 > limitMs)
        throw new Error(`PostgreSQL not back after ${limitMs} ms: ${(err as Error).message}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
