import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PG_URL, type TestDialect } from './dialects.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export interface ServerProcess {
  baseUrl: string;
  child: ChildProcess;
  /** Everything the process printed so far (for a failing test's message). */
  output(): string;
  /** SIGKILL: no graceful shutdown, like a crash. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A real server process (`tsx server/src/main.ts`, or the build) on a given SQLite data dir or
 * PostgreSQL schema, resolved when it prints its ready line.
 */
export async function spawnServer(
  dialect: TestDialect,
  where: { dataDir?: string; schema?: string },
  env: Record<string, string> = {},
  /** How long it may take to print its ready line (a restart on a machine at load 70 took more than 120 s). */
  startMs = 120_000,
  /**
   * `built`: the production build (`node server/dist/main.js`, see scripts/build-server.mjs, built by the
   * caller). Scenarios that kill and restart processes under load use it: under tsx a restart compiles the
   * whole server again, which took more than 10 minutes at load 80 (sim:convergence, 50 devices).
   */
  entry: 'source' | 'built' = 'source',
): Promise<ServerProcess> {
  const port = await freePort();
  // SERVER_CPU_PROFILE=<dir> writes a V8 CPU profile of the server when it stops (benchmarks).
  const profile = process.env.SERVER_CPU_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.SERVER_CPU_PROFILE}`]
    : [];
  const main =
    entry === 'built'
      ? [path.join(root, 'server/dist/main.js')]
      : ['--import', 'tsx', path.join(root, 'server/src/main.ts')];
  const child = spawn(process.execPath, [...profile, ...main], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SEED: 'none',
      LOG_LEVEL: 'warn',
      ...(dialect === 'postgres'
        ? { DATABASE_URL: PG_URL, DATABASE_SCHEMA: where.schema ?? '' }
        : { DATA_DIR: where.dataDir ?? '' }),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in ${startMs} ms: ${output}`)), startMs);
    const onData = (d: Buffer) => {
      output += d.toString();
      if (output.includes('listening on')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${output}`));
    });
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v1`,
    child,
    output: () => output,
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
