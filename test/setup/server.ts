import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type RunningServer, startServer } from '@ops/server';
import { observeResponses } from '@ops/server/http/observe';
import { CONTRACT_DIR_ENV, contractRecorder } from './contract.ts';
import type { SeedRefs } from '../../server/src/seed/refs.ts';
import { createPgSchema, dropPgSchema, markDialectRan, PG_URL, pgSchemaName, type TestDialect } from './dialects.ts';
import { copyPgTemplate, copySqliteTemplate, dropSchemaLater } from './template.ts';

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

/** The test file that asked for a server, for OPS_SERVER_LOG (counting server starts per file, docs/testing.md). */
function callerTestFile(): string {
  const line = new Error().stack?.split('\n').find((l) => /\.test\.tsx?/.test(l)) ?? '';
  return /([^\s(]*\.test\.tsx?)/.exec(line)?.[1]?.replace(/^file:\/\//, '') ?? 'unknown';
}

export async function startTestServer(dialect: TestDialect, opts: TestServerOptions = {}): Promise<TestServer> {
  const startedAt = performance.now();
  const dataDir = opts.reuse?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'ops-test-'));
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
  // A new fixture database is a copy of the run's template (test/setup/template.ts) when there is one.
  const fromTemplate = config.seed !== 'none' && !opts.reuse ? config.seed : null;
  let templateRefs: SeedRefs | null = null;
  let pgSchema: { schema: string; drop(): Promise<void> } | null = null;
  if (dialect === 'postgres') {
    if (opts.reuse?.schema) pgSchema = { schema: opts.reuse.schema, drop: async () => {} };
    else if (fromTemplate) {
      const schema = pgSchemaName();
      templateRefs = await copyPgTemplate(schema, fromTemplate, startTestServer);
      if (templateRefs) pgSchema = { schema, drop: () => dropPgSchema(schema) };
    }
    pgSchema ??= await createPgSchema();
    const { schema, drop } = pgSchema;
    if (!opts.reuse?.schema) pgSchema = { schema, drop: async () => (dropSchemaLater(schema) ? undefined : drop()) };
  } else if (fromTemplate) templateRefs = await copySqliteTemplate(dataDir, fromTemplate, startTestServer);
  markDialectRan(dialect);
  const running = await startServer({ ...config, databaseSchema: pgSchema?.schema ?? null }, { poolSize: 5 });
  if (process.env.OPS_SERVER_LOG)
    fs.appendFileSync(
      process.env.OPS_SERVER_LOG,
      `${callerTestFile()}\t${dialect}\t${config.seed}${templateRefs ? ' (copy)' : ''}\t${Math.round(performance.now() - startedAt)}\n`,
    );
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
  const refs = running.seeded?.refs ??
    templateRefs ?? {
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
