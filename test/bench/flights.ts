/**
 * `npm run bench:flights`: GET /flights/load with 20 rows (paginate counts
 * included) out of 100,000 flights of one company.
 * (1) In process: median time of the rendered page (count, page query with its
 *     joins, presentation, JSON text) over many calls, cold (no page cache) and
 *     hot (no write since the page was rendered). Target < 10 ms. Filtered pages,
 *     common and rare combinations, cold. Then the live
 *     heap while limit:20000 streams into a sink.
 * (2) Under load: requests per second of the real endpoint (server in a child
 *     process, bearer session) against a bare Express JSON endpoint measured in
 *     the same run with the same load. Target ratio >= 0.5. The same path with
 *     one row shows what the application around the list costs by itself.
 * SQLite by default; BENCH_DIALECT=postgres runs on TEST_DATABASE_URL in a fresh schema.
 * SERVER_CPU_PROFILE=<dir> writes a V8 CPU profile of the spawned server when it stops.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import v8 from 'node:v8';
import vm from 'node:vm';
import { uuidv7 } from '@ops/shared';
import autocannon from 'autocannon';
import pg from 'pg';
import {
  filtersFor,
  loadFlights,
  parseLoadParams,
  renderFlightsPage,
} from '../../server/src/areas/flights/load.service.ts';
import { adjustFlightCount, compiledPage } from '../../server/src/areas/flights/flights.repository.ts';
import { openDatabase } from '../../server/src/db/database.ts';
import { inTransaction } from '../../server/src/db/unit-of-work.ts';
import { authenticate } from '../../server/src/http/authenticate.ts';
import { PG_URL, type TestDialect } from '../setup/dialects.ts';
import { freePort, spawnServer } from '../setup/process.ts';

const FLIGHTS = Number(process.env.BENCH_FLIGHTS ?? 100_000);
const CALLS = Number(process.env.BENCH_CALLS ?? 2000);
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const dialect: TestDialect = process.env.BENCH_DIALECT === 'postgres' ? 'postgres' : 'sqlite';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-bench-flights-'));
const schema = dialect === 'postgres' ? `bench_${Date.now().toString(36)}` : undefined;
if (schema) {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  await c.query(`CREATE SCHEMA ${schema}`);
  await c.end();
}
const server = await spawnServer(dialect, { dataDir, schema }, { SEED: 'fixtures', LOG_LEVEL: 'silent' });
const database = openDatabase({
  databaseUrl: dialect === 'postgres' ? PG_URL : null,
  dataDir,
  pgSchema: schema ?? null,
});
const db = database.db;
const children: ChildProcess[] = [];

/** Thrown to stop after the office plans (BENCH_OFFICE_ONLY=1); the cleanup still runs. */
const OFFICE_DONE = new Error('office figures done');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.99)];

/** A bare Express app answering a small JSON object: the ceiling for this machine and load. */
async function startBare(): Promise<string> {
  const port = await freePort();
  const code = `import express from 'express'; const app = express(); app.get('/bare.json', (_q, r) => { r.json({ result: true, time: String(Math.floor(Date.now() / 1000)) }); }); app.listen(${port}, '127.0.0.1', () => console.log('ready'));`;
  const bare = spawn(process.execPath, ['--input-type=module', '-e', code], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(bare);
  await new Promise<void>((resolve) => bare.stdout!.once('data', () => resolve()));
  return `http://127.0.0.1:${port}/bare.json`;
}

try {
  const company = await db
    .selectFrom('companies')
    .select('id')
    .where('name', '=', 'Skyline Flight Academy')
    .executeTakeFirstOrThrow();
  const aircraft = await db
    .selectFrom('aircraft')
    .select(['id', 'base_id'])
    .where('company_id', '=', company.id)
    .execute();
  const pilots = await db
    .selectFrom('users')
    .select('id')
    .where('company_id', '=', company.id)
    .where('user_group_id', 'in', [150, 190, 200])
    .execute();
  const types = await db.selectFrom('flight_types').select('id').where('company_id', '=', company.id).execute();

  const t0 = performance.now();
  const now = Math.floor(Date.now() / 1000);
  const start = now - 5 * 365 * 86400;
  for (let done = 0; done < FLIGHTS; ) {
    const n = Math.min(5000, FLIGHTS - done);
    await inTransaction(db, null, async (uow) => {
      const changeNo = await uow.changeNo(company.id, 'flights');
      const rows = Array.from({ length: n }, (_, k) => {
        const i = done + k;
        const off = start + Math.floor((i / FLIGHTS) * 5 * 365 * 86400);
        const a = aircraft[i % aircraft.length];
        return {
          id: uuidv7(),
          company_id: company.id,
          change_no: changeNo,
          deleted: 0,
          created: now,
          modified: now,
          date: new Date(off * 1000).toISOString().slice(0, 10),
          status: 'LANDED',
          callsign: `SKY${i}`,
          aircraft_id: a.id,
          flight_type_id: types[i % types.length].id,
          base_id: a.base_id,
          pic_id: pilots[i % pilots.length].id,
          sic_id: i % 3 ? null : pilots[(i + 1) % pilots.length].id,
          supervisor_id: null,
          user_id: pilots[i % pilots.length].id,
          departure_airport: 'LECU',
          landing_airport: i % 2 ? 'LECU' : 'LELL',
          offblocks: off,
          takeoff: off + 600,
          landing: off + 4200,
          onblocks: off + 4800,
          starts: off,
          block_time: 4800,
          flight_time: 3600,
          night_flight_time: 0,
          ifr_flight_time: 0,
          rules: 'VFR',
          crosscountry: i % 2 ? 0 : 1,
          multiengine: 0,
          landings: 1,
          night_landings: 0,
          engine_starts: 1,
          pax: 0,
          oil: null,
          fuel: null,
          cargo: null,
          route: null,
          remarks: null,
          pf: null,
          confirmed_at: now,
          confirmed_by: null,
          dispatched_at: null,
          dispatched_by: null,
        };
      });
      for (let i = 0; i < rows.length; i += 250)
        await uow.trx
          .insertInto('flights')
          .values(rows.slice(i, i + 250))
          .execute();
      // The counters are part of every write, bulk loads included.
      await adjustFlightCount(uow.trx, company.id, 'LANDED', n);
    });
    done += n;
  }
  if (dialect === 'postgres')
    await database.db.executeQuery({ sql: 'ANALYZE flights', parameters: [], query: { kind: 'RawNode' } } as never);
  console.log(
    `${dialect}: seeded ${FLIGHTS} flights of one company in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  const login = await fetch(`${server.baseUrl}/login.json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'dispatch@skyline.test', password: 'demo1234' }),
  });
  const { token } = (await login.json()) as { token: string };

  // (1) In process: the rendered page (count, page query with its joins,
  // presentation, JSON), cold (`cache: false`: everything every call) and
  // hot (the company has not written since: the page text comes from the cache).
  const auth = await authenticate(db, token);
  if (!auth.ok) throw new Error('token refused');
  const ctx = { db, database } as any;
  const time = async (named: string[], cache: boolean, calls = CALLS) => {
    const params = parseLoadParams(named);
    const samples: number[] = [];
    let body: Buffer = Buffer.alloc(0);
    for (let i = 0; i < calls; i++) {
      const s0 = process.hrtime.bigint();
      body = await renderFlightsPage(ctx, auth.actor, params, undefined, { cache });
      samples.push(Number(process.hrtime.bigint() - s0) / 1e6);
    }
    return { samples, body: JSON.parse(body.toString()) };
  };
  const ms = (xs: number[]) => `median ${median(xs).toFixed(2)} ms, p99 ${p99(xs).toFixed(2)} ms`;
  await time([], false); // warm up: JIT, statement cache, page cache
  const cold = await time([], false);
  if (cold.body.flights.length !== 20 || cold.body.paginate.count !== FLIGHTS)
    throw new Error(`unexpected page: ${cold.body.flights.length} rows, count ${cold.body.paginate.count}`);
  console.log(`in process, page 1 of 20 (count from counters), cold: ${ms(cold.samples)} (target median < 10 ms)`);
  const hot = await time([], true);
  if (JSON.stringify(hot.body.flights) !== JSON.stringify(cold.body.flights))
    throw new Error('the cached page differs');
  console.log(`in process, page 1 of 20, hot (no write since): ${ms(hot.samples)}`);
  // An exact COUNT over a third of the rows is slow: fewer calls.
  const pilot = await time([`pilot:${pilots[0].id}`, 'page:10'], false, Math.min(CALLS, 50));
  console.log(
    `in process, pilot filter page 10 (exact COUNT of ${pilot.body.paginate.count}), cold: ${ms(pilot.samples)}`,
  );
  const pilotHot = await time([`pilot:${pilots[0].id}`, 'page:10'], true);
  console.log(`in process, pilot filter page 10, hot: ${ms(pilotHot.samples)}`);
  const range = await time(['from:2023-01-01', 'to:2023-03-31'], false);
  console.log(`in process, one quarter (exact COUNT of ${range.body.paginate.count}), cold: ${ms(range.samples)}`);
  // Filter combinations, common and rare (few or no rows): the page must come
  // from an index range already in (starts, id) order, not from scanning the
  // company's rows newest first until 20 match.
  const filtered: Array<[string, string[]]> = [
    ['aircraft', [`aircraft:${aircraft[0].id}`]],
    ['base', [`base:${aircraft[0].base_id}`]],
    ['flight_type', [`flight_type:${types[0].id}`]],
    ['aircraft + flight_type', [`aircraft:${aircraft[0].id}`, `flight_type:${types[1 % types.length].id}`]],
    ['aircraft + pilot', [`aircraft:${aircraft[0].id}`, `pilot:${pilots[1 % pilots.length].id}`]],
    [
      'base + flight_type + quarter',
      [`base:${aircraft[0].base_id}`, `flight_type:${types[0].id}`, 'from:2023-01-01', 'to:2023-03-31'],
    ],
    ['status:DRAFT (no rows)', ['status:DRAFT']],
    ['pilot with no flights', [`pilot:${uuidv7()}`]],
    ['aircraft with no flights', [`aircraft:${uuidv7()}`]],
    ['status:LANDED + aircraft', ['status:LANDED', `aircraft:${aircraft[0].id}`]],
    // The office's Company flights screen (issue 28): 25 a page, its filters, a deep page, an export page.
    ['office: status:LANDED + quarter', ['limit:25', 'status:LANDED', 'from:2023-01-01', 'to:2023-03-31']],
    ['office: pilot + status:LANDED', ['limit:25', `pilot:${pilots[0].id}`, 'status:LANDED']],
    [
      'office: aircraft + pilot + quarter',
      [
        'limit:25',
        `aircraft:${aircraft[0].id}`,
        `pilot:${pilots[1 % pilots.length].id}`,
        'from:2023-01-01',
        'to:2023-03-31',
      ],
    ],
    ['office: page 2000 of 25', ['limit:25', 'page:2000']],
    ['office: 500-row page (rendered whole; export pages of 5,000 stream)', ['limit:500', 'page:10']],
  ];
  for (const [label, named] of filtered) {
    const r = await time(named, false, Math.min(CALLS, 50));
    console.log(`in process, ${label} (${r.body.paginate.count} rows), cold: ${ms(r.samples)}`);
  }

  // The plans of the office screen's pages (issue 28): each must be an index range, no full scan or sort.
  for (const [label, named] of filtered.filter(([l]) => l.startsWith('office:'))) {
    const p = parseLoadParams(named);
    const c = compiledPage(db, company.id, filtersFor(auth.actor, p, now), p.limit, (p.page - 1) * p.limit);
    const prefix = dialect === 'postgres' ? 'EXPLAIN ' : 'EXPLAIN QUERY PLAN ';
    const plan = await db.executeQuery({ ...c, sql: prefix + c.sql });
    const lines = plan.rows.map((r: any) => r['QUERY PLAN'] ?? r.detail);
    console.log(`plan, ${label}:\n  ${lines.join('\n  ')}`);
  }
  // BENCH_OFFICE_ONLY=1: the in-process figures and plans only (skips streaming and the load test).
  if (process.env.BENCH_OFFICE_ONLY === '1') throw OFFICE_DONE;

  // limit:20000 in process into a sink that reads as fast as it can, with a
  // full GC every 50 writes: the live heap while streaming, against the answer.
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  gc();
  const heap0 = process.memoryUsage().heapUsed;
  let written = 0;
  let writes = 0;
  let livePeak = 0;
  const sink = new Writable({
    write(chunk, _enc, done) {
      written += chunk.length;
      writes += 1;
      if (writes % 50 === 0) {
        gc();
        livePeak = Math.max(livePeak, process.memoryUsage().heapUsed - heap0);
      }
      setImmediate(done);
    },
  });
  Object.assign(sink, { status: () => sink, setHeader: () => sink });
  const s0 = performance.now();
  await loadFlights(ctx, auth.actor, parseLoadParams(['limit:20000']), sink as any);
  console.log(
    `in process, limit:20000 streamed: ${(written / 1024 / 1024).toFixed(1)} MB in ${(performance.now() - s0).toFixed(0)} ms; live heap at most +${(livePeak / 1024 / 1024).toFixed(1)} MB (${Math.floor(writes / 50)} samples)`,
  );

  // A streamed 20,000-row page over HTTP, once. The server's peak resident memory
  // during the request (VmHWM after resetting it through clear_refs, Linux) against
  // the size of the answer: a page held as rows and as text would add about twice that.
  const pid = server.child.pid;
  const status = (key: string) => {
    const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : Number.NaN;
  };
  let peakKnown = true;
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    peakKnown = false; // not Linux, or not allowed: only the time is reported
  }
  const rssBefore = peakKnown ? status('VmRSS') : Number.NaN;
  const b0 = performance.now();
  const big = await fetch(`${server.baseUrl}/flights/load/limit:20000.json`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const bigText = await big.text();
  const bigMs = performance.now() - b0;
  const bigBody = JSON.parse(bigText) as { flights: unknown[] };
  const bodyMb = Buffer.byteLength(bigText) / 1024 / 1024;
  console.log(
    `limit:20000 streamed: ${bigBody.flights.length} rows, ${bodyMb.toFixed(1)} MB in ${bigMs.toFixed(0)} ms`,
  );
  if (peakKnown) {
    const peak = status('VmHWM');
    console.log(
      `  server resident memory: ${rssBefore.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB during (+${(peak - rssBefore).toFixed(0)} MB for a ${bodyMb.toFixed(1)} MB answer)`,
    );
  }

  // (2) Under load, in one run: the endpoint, then the bare Express ceiling.
  const url = `${server.baseUrl}/flights/load.json`;
  const headers = { authorization: `Bearer ${token}` };
  // Server CPU time per request (utime + stime of the process, Linux): unlike req/s, barely moved by other load on the machine.
  const cpuOf = (p: number | undefined) => {
    try {
      const f = fs.readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      return ((Number(f[11]) + Number(f[12])) / 100) * 1e6;
    } catch {
      return Number.NaN;
    }
  };
  const measured = async (pid: number | undefined, o: Parameters<typeof autocannon>[0]) => {
    const c0 = cpuOf(pid);
    const r = await autocannon(o);
    return Object.assign(r, { cpuUs: (cpuOf(pid) - c0) / r.requests.total });
  };
  await autocannon({ url, connections: CONNECTIONS, duration: 2, headers });
  const flights = await measured(server.child.pid, { url, connections: CONNECTIONS, duration: DURATION, headers });
  // The same path with one row: what the application around the list (request
  // id and logger, router, session lookup) leaves of the bare figure here.
  const oneUrl = `${server.baseUrl}/flights/load/limit:1.json`;
  await autocannon({ url: oneUrl, connections: CONNECTIONS, duration: 2, headers });
  const one = await measured(server.child.pid, { url: oneUrl, connections: CONNECTIONS, duration: DURATION, headers });
  const bareUrl = await startBare();
  await autocannon({ url: bareUrl, connections: CONNECTIONS, duration: 2 });
  const ceiling = await measured(children.at(-1)?.pid, { url: bareUrl, connections: CONNECTIONS, duration: DURATION });
  if (flights.non2xx || one.non2xx || ceiling.non2xx)
    throw new Error(`non-2xx answers: ${flights.non2xx} / ${one.non2xx} / ${ceiling.non2xx}`);
  const ratio = flights.requests.average / ceiling.requests.average;
  console.log(
    `GET /flights/load.json: ${flights.requests.average.toFixed(0)} req/s, median latency ${flights.latency.p50} ms`,
  );
  console.log(
    `GET /flights/load/limit:1.json: ${one.requests.average.toFixed(0)} req/s (${(one.requests.average / ceiling.requests.average).toFixed(2)} of bare)`,
  );
  console.log(
    `bare Express JSON:     ${ceiling.requests.average.toFixed(0)} req/s, median latency ${ceiling.latency.p50} ms`,
  );
  console.log(`ratio: ${ratio.toFixed(2)} (target >= 0.5)`);
  console.log(
    `server CPU per request: page ${flights.cpuUs.toFixed(0)} µs, one row ${one.cpuUs.toFixed(0)} µs, bare ${ceiling.cpuUs.toFixed(0)} µs; bare / page = ${(ceiling.cpuUs / flights.cpuUs).toFixed(2)} (the ratio a machine with a core per process would show)`,
  );
} catch (err) {
  if (err !== OFFICE_DONE) throw err;
} finally {
  for (const c of children) c.kill('SIGTERM');
  await database.close();
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (schema) {
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await c.end();
  }
}
