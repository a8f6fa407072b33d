import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../setup/process.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** `npm run build`'s server part (the typecheck and renderer steps are CI's own jobs). */
export function buildServer(): void {
  execFileSync(process.execPath, [path.join(root, 'scripts/build-server.mjs')], { cwd: root, stdio: 'pipe' });
}

export interface ProdProcess {
  url: string;
  baseUrl: string;
  child: ChildProcess;
  api(
    method: string,
    pathname: string,
    o?: { token?: string | null; body?: unknown },
  ): Promise<{ status: number; body: any; headers: Headers }>;
  login(email: string, password?: string): Promise<{ token: string; sessionId: string; userId: string }>;
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/** `npm run start:prod` (plain node on server/dist), resolved on its ready line; another port when the chosen one was taken meanwhile. */
export async function startProd(env: Record<string, string>): Promise<ProdProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startProdOnce(env);
    } catch (err) {
      if (attempt >= 3 || !String((err as Error).message).includes('EADDRINUSE')) throw err;
    }
  }
}

async function startProdOnce(env: Record<string, string>): Promise<ProdProcess> {
  const port = await freePort();
  // NODE_ARGS: flags Node refuses in NODE_OPTIONS (--cpu-prof, for bench:fanout), given on the command line.
  const nodeArgs = (env.NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, path.join(root, 'server/dist/main.js')], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`start:prod did not start: ${output}`)), 60_000);
    child.stdout?.on('data', (d: Buffer) => {
      output += d.toString();
      if (output.includes('listening on')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr?.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`start:prod exited with ${code}: ${output}`));
    });
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const baseUrl = `${url}/api/v1`;
  const api: ProdProcess['api'] = async (method, pathname, o = {}) => {
    const headers: Record<string, string> = {};
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    if (o.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${baseUrl}${pathname}`, {
      method,
      headers,
      body: o.body === undefined ? undefined : JSON.stringify(o.body),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body, headers: res.headers };
  };
  return {
    url,
    baseUrl,
    child,
    api,
    async login(email, password = 'demo1234') {
      const r = await api('POST', '/login.json', { body: { email, password } });
      if (r.status !== 200 || !r.body?.token) throw new Error(`login ${email}: ${r.status} ${JSON.stringify(r.body)}`);
      const token = r.body.token as string;
      const mine = await api('GET', '/users/logins.json', { token });
      return { token, sessionId: mine.body.currentSession, userId: r.body.user.id };
    },
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
