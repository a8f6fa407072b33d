#!/usr/bin/env node
/**
 * Startup time (spawn to the "listening on" line) and resident memory (VmRSS
 * once listening, and after 200 health requests) of the development start
 * (tsx) and the production build (plain node), on an already-seeded SQLite
 * data directory and on a fresh one. Run `npm run build` first.
 * Usage: node scripts/measure-startup.mjs
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rssMb = (pid) => {
  const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : Number.NaN;
};

async function run(label, cmd, args, dataDir) {
  const started = process.hrtime.bigint();
  const child = spawn(cmd, args, {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', SEED: 'demo' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      const m = /listening on (\S+)/.exec(buf);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`${label} exited ${code}`)));
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  // The process that serves: tsx runs the server in a child of its own.
  const pid =
    cmd === 'node'
      ? child.pid
      : Number(
          fs.readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/).pop() ||
            child.pid,
        );
  const idle = rssMb(pid);
  for (let i = 0; i < 200; i++) await (await fetch(`${url}/health`)).text();
  const warm = rssMb(pid);
  child.kill('SIGTERM');
  await new Promise((r) => child.on('exit', r));
  return { label, ms: Math.round(ms), idle, warm };
}

const rows = [];
for (const [label, cmd, args] of [
  ['npm start (tsx)', path.join(root, 'node_modules/.bin/tsx'), ['server/src/main.ts']],
  ['start:prod (node)', 'node', ['server/dist/main.js']],
]) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-startup-'));
  rows.push({ ...(await run(label, cmd, args, dir)), db: 'fresh (migrate + demo seed)' });
  for (let i = 0; i < 3; i++) rows.push({ ...(await run(label, cmd, args, dir)), db: 'existing' });
  fs.rmSync(dir, { recursive: true, force: true });
}
console.log('| start | database | to listening (ms) | RSS listening (MB) | RSS after 200 requests (MB) |');
console.log('|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.label} | ${r.db} | ${r.ms} | ${r.idle} | ${r.warm} |`);
