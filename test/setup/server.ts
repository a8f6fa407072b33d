import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type RunningServer, startServer } from '@ops/server';
import { observeResponses } from '@ops/server/http/observe';
import { CONTRACT_DIR_ENV, contractRecorder } from './contract.ts';
import { createPgSchema, markDialectRan, PG_URL, type TestDialect } from './dialects.ts';

export interface TestServer extends RunningServer {
  dialect: TestDialect;
  /** Where the data lives, to start another server process on the same database. */
  where: { dataDir: string; schema?: string };
  refs: NonNullable<RunningServer['seeded']>['refs'];
  /** Signs in and returns the bearer token. */
  login(email: string, password?: string): Promise<string>;
  /** JSON request against the API; `token` optional. */
  api(
    method: string,
    pathname: string,
    opts?: { token?: string | null; body?: unknown; form?: Record<string, string>; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any; headers: Headers }>;
  /** User id of a fixture email in Skyline (or Harbor with company 'harbor'). */
  userId(email: string, company?: 'skyline' | 'harbor'): string;
}

export interface TestServerOptions {
  seed?: 'fixtures' | 'demo' | 'none';
  env?: Record<string, string>;
  /** Reuse an existing PostgreSQL schema or SQLite data dir (restart tests). */
  reuse?: { schema?: string; dataDir?: string };
}

/** The contract recorder of this worker, when the global setup asked for one (test/setup/contract-global.ts). */
const contractDir = process.env[CONTRACT_DIR_ENV];
const recorder = contractDir && fs.existsSync(contractDir) ? contractRecorder(contractDir) : null;
if (recorder) observeResponses(recorder.observe);

export async function startTestServer(dialect: TestDialect, opts: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = opts.reuse?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'ops-test-'));
  const pgSchema =
    dialect === 'postgres'
      ? opts.reuse?.schema
        ? { schema: opts.reuse.schema, drop: async () => {} }
        : await createPgSchema()
      : null;
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SEED: opts.seed ?? 'fixtures',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    // Query-count assertions need every request to read its credential; the cache is tested across processes (ops).
    AUTH_CACHE_MS: '0',
    ...(dialect === 'postgres' ? { DATABASE_URL: PG_URL } : {}),
    ...opts.env,
  });
  markDialectRan(dialect);
  const running = await startServer({ ...config, databaseSchema: pgSchema?.schema ?? null }, { poolSize: 5 });
  const api: TestServer['api'] = async (method, pathname, o = {}) => {
    const headers: Record<string, string> = { ...o.headers };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    let body: string | undefined;
    if (o.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(o.form).toString();
    } else if (o.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
    }
    const res = await fetch(`${running.baseUrl}${pathname}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed, headers: res.headers };
  };
  const refs = running.seeded?.refs ?? {
    companies: { skyline: '', harbor: '' },
    users: { skyline: {}, harbor: {} },
    bases: {},
    aircraft: {},
    now: 0,
  };
  return {
    ...running,
    dialect,
    where: { dataDir, schema: pgSchema?.schema },
    refs,
    api,
    /** Signs in, answering an EMAIL two-factor challenge (the auditor) with the code from the outbox. */
    async login(email, password = 'demo1234') {
      const r = await api('POST', '/login.json', { body: { email, password } });
      if (r.status === 200 && r.body?.token) return r.body.token as string;
      if (r.body?.two_factor !== 'EMAIL')
        throw new Error(`login ${email} failed: ${r.status} ${JSON.stringify(r.body)}`);
      const mail = await running.ctx.db
        .selectFrom('mail_outbox')
        .select('body_text')
        .where('to_address', '=', email)
        .where('template', '=', 'two_factor_code')
        .orderBy('created', 'desc')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      const code = /code is (\d{6})/.exec(mail.body_text)?.[1];
      const v = await api('POST', '/login/verify.json', { body: { challenge: r.body.challenge, code } });
      if (!v.body?.token) throw new Error(`verify ${email} failed: ${v.status} ${JSON.stringify(v.body)}`);
      return v.body.token as string;
    },
    userId(email, company = 'skyline') {
      const id = refs.users[company][email];
      if (!id) throw new Error(`no fixture user ${email} in ${company}`);
      return id;
    },
    async close() {
      await running.close();
      recorder?.flush();
      await pgSchema?.drop();
      if (!opts.reuse?.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
