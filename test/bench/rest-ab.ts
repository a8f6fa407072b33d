/**
 * REST overhead, A/B (issue 34 item 5): server CPU time per request of two source trees served side by side,
 * measured in interleaved rounds so both see the same load. On a shared machine req/s ratios move with the
 * other work; CPU per request (utime + stime of the server process, Linux) far less, and rounds compared in
 * pairs less again.
 *
 *   git archive <commit> server tsconfig.json package.json | tar -x -C /tmp/base && ln -s "$PWD/node_modules" /tmp/base/
 *   AB_BASE=/tmp/base npx tsx test/bench/rest-ab.ts
 *
 * AB_BASE: the other tree (its `server/src/main.ts` runs under tsx; shared/ comes from node_modules, i.e. this
 * tree's). AB_ROUNDS (10), AB_SECONDS (3), AB_PATHS (comma-separated, default the 20-row page and the one-row path).
 * SQLite, fixtures, the dispatcher's session, 10 connections.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { freePort } from '../setup/process.ts';

const here = path.resolve(import.meta.dirname, '../..');
const base = process.env.AB_BASE;
if (!base || !fs.existsSync(path.join(base, 'server/src/main.ts')))
  throw new Error('AB_BASE must name a tree with server/src/main.ts (see the header of test/bench/rest-ab.ts)');
const ROUNDS = Number(process.env.AB_ROUNDS ?? 10);
const SECONDS = Number(process.env.AB_SECONDS ?? 3);
const PATHS = (process.env.AB_PATHS ?? '/flights/load.json,/flights/load/limit:1.json').split(',');

interface Served {
  label: string;
  child: ChildProcess;
  api: string;
  headers: Record<string, string>;
  dataDir: string;
  cpu: Map<string, number[]>;
}

/** utime + stime of a process in µs (Linux). */
function cpuOf(pid: number | undefined): number {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return ((Number(f[11]) + Number(f[12])) / 100) * 1e6;
}

async function serve(label: string, root: string): Promise<Served> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-rest-ab-'));
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/src/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SEED: 'fixtures',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      output += d.toString();
      if (output.includes('listening on')) resolve();
    });
    child.stderr?.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.once('exit', (code) => reject(new Error(`${label} exited with ${code}: ${output}`)));
  });
  const api = `http://127.0.0.1:${port}/api/v1`;
  const login = await fetch(`${api}/login.json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'dispatch@skyline.test', password: 'demo1234' }),
  });
  const { token } = (await login.json()) as { token: string };
  return { label, child, api, headers: { authorization: `Bearer ${token}` }, dataDir, cpu: new Map() };
}

const servers = [await serve('before (AB_BASE)', base), await serve('after (this tree)', here)];
try {
  for (let round = 0; round < ROUNDS; round++)
    for (const s of round % 2 ? [...servers].reverse() : servers)
      for (const p of PATHS) {
        const url = s.api + p;
        await autocannon({ url, connections: 10, duration: 1, headers: s.headers });
        const c0 = cpuOf(s.child.pid);
        const r = await autocannon({ url, connections: 10, duration: SECONDS, headers: s.headers });
        if (r.non2xx) throw new Error(`${s.label} ${p}: ${r.non2xx} non-2xx answers`);
        s.cpu.set(p, [...(s.cpu.get(p) ?? []), (cpuOf(s.child.pid) - c0) / r.requests.total]);
      }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? Number.NaN;
  const [a, b] = servers as [Served, Served];
  for (const p of PATHS) {
    const before = a.cpu.get(p) ?? [];
    const after = b.cpu.get(p) ?? [];
    const paired = before.reduce((sum, v, i) => sum + (after[i] ?? Number.NaN) / v, 0) / before.length;
    console.log(
      `${p}: server CPU per request, median ${median(before).toFixed(0)} → ${median(after).toFixed(0)} µs, minimum ${Math.min(...before).toFixed(0)} → ${Math.min(...after).toFixed(0)} µs; after/before in pairs ${paired.toFixed(2)}, lower in ${before.filter((v, i) => (after[i] ?? Number.POSITIVE_INFINITY) < v).length} of ${before.length} rounds`,
    );
    console.log(
      `  rounds before: ${before.map((v) => v.toFixed(0)).join(' ')}; after: ${after.map((v) => v.toFixed(0)).join(' ')}`,
    );
  }
} finally {
  await Promise.all(
    servers.map(
      (s) =>
        new Promise<void>((resolve) => {
          s.child.once('exit', () => resolve());
          s.child.kill('SIGTERM');
        }),
    ),
  );
  for (const s of servers) fs.rmSync(s.dataDir, { recursive: true, force: true });
}
