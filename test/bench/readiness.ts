/**
 * `npm run bench:readiness` (issue 31): a school's year of data — 40 crew,
 * 20,000 LANDED flights over 365 days on the fixture fleet, 3,000 DUTY roster
 * entries, signed maintenance jobs for each programme item, open MEL items,
 * every check set to warn (balance minimum on), the departure airport's
 * METAR/TAF in the weather cache.
 * (1) Server: one flight's readiness through HTTP, GET /flights/readiness/{id}.json
 *     (auth, SQL, the rule). Target median < 10 ms.
 * (2) Server: the hook of booking and dispatch (`decideReadiness`) inside a
 *     transaction. Target median < 10 ms.
 * (3) Device: the same rule over the data shape an office device holds (every
 *     flight of the year, the jobs, the MEL reports, duty inputs), computed in
 *     Node with the renderer's own `deviceReadiness`. Target median < 20 ms.
 * SQLite by default; BENCH_DIALECT=postgres runs in a fresh PostgreSQL schema.
 * BENCH_PROFILE=<dir> writes a V8 CPU profile of (1) and of (2) there
 * (readiness-<dialect>-http.cpuprofile, …-hook.cpuprofile), taken in-process
 * around the timed loops only, so the seeding is not in it.
 * BENCH_EXPLAIN=1 prints every statement of one request and of one hook run
 * with its plan on this database (EXPLAIN ANALYZE / EXPLAIN QUERY PLAN).
 * Beside wall time each line prints the CPU this Node process spent per run
 * (server and client share the process; PostgreSQL's own CPU is not in it)
 * and the load average, since the machine is shared with other engineers.
 */
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import type {
  AircraftReportDoc,
  BookingDoc,
  FlightDoc,
  MaintenanceJobDoc,
  PersonalDoc,
  ReferenceDoc,
  UserDoc,
} from '@ops/shared';
import { uuidv7 } from '@ops/shared';
import { rebuildDutyTotals } from '@ops/server/areas/duty/duty.repository';
import { decideReadiness } from '@ops/server/areas/readiness/readiness.service';
import type { Actor } from '@ops/server/http/actor';
import { DEFAULT_READINESS_SETTINGS, type ReadinessSettings } from '@ops/shared/rules/readiness/settings';
import { CompiledQuery, sql } from 'kysely';
import type { ReadinessLine, ReadinessSubject } from '@ops/shared/rules/readiness/readiness';
import { startTestServer } from '../setup/server.ts';

const FLIGHTS = Number(process.env.BENCH_FLIGHTS ?? 20_000);
const CREW = 40;
const ENTRIES = 3_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 60);
const dialect = process.env.BENCH_DIALECT === 'postgres' ? 'postgres' : 'sqlite';
const HOUR = 3600;
const DAY = 86400;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)];
const ms = (n: number) => `${n.toFixed(2)} ms`;
const dbPer = (total: number | null) => (total === null ? 'not measured' : ms(total / (RUNS + 5)));
const load = () =>
  `load average ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(', ')}`;
/** Wall and CPU (user + system of this process) milliseconds of one run. */
async function timed(fn: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1000 };
}

/** Runs fn under the V8 profiler when BENCH_PROFILE names a directory; the profile is written as <name>.cpuprofile. */
async function profiled<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const dir = process.env.BENCH_PROFILE;
  if (!dir) return fn();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  try {
    return await fn();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `readiness-${dialect}-${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}

// The renderer's own device code, loaded by path: it is type-checked with the renderer (DOM), not here.
const rendererDir = '../../desktop/renderer/src/areas';
const { deviceDutyOf } = (await import(`${rendererDir}/duty/device-duty.ts`)) as {
  deviceDutyOf(input: Record<string, unknown>): unknown;
};
const { deviceReadiness } = (await import(`${rendererDir}/readiness/device-readiness.ts`)) as {
  deviceReadiness(s: ReadinessSubject, d: Record<string, unknown>, except: { flightId?: string }): ReadinessLine[];
};

// No periodic jobs in this process: their lease statements would be counted with the readiness requests.
const s = await startTestServer(dialect, { env: { JOBS: 'off' } });
const db = s.ctx.db;

/**
 * Counts the statements every Kysely executor of this process runs from now on
 * (the prototype is shared by the server's, the transactions' and the
 * connections' executors) and keeps the first `keep` of them (SQL and
 * parameters, for BENCH_EXPLAIN); the returned function stops counting.
 */
function countQueries(keep = 0): () => { n: number; statements: CompiledQuery[] } {
  let n = 0;
  const statements: CompiledQuery[] = [];
  const proto = Object.getPrototypeOf(db.getExecutor()) as {
    executeQuery: (q: CompiledQuery, ...a: unknown[]) => Promise<unknown>;
  };
  const target = Object.hasOwn(proto, 'executeQuery') ? proto : (Object.getPrototypeOf(proto) as typeof proto);
  const original = target.executeQuery;
  target.executeQuery = function (this: unknown, q: CompiledQuery, ...a: unknown[]) {
    n++;
    if (statements.length < keep) statements.push(q);
    return original.call(this, q, ...a);
  };
  return () => {
    target.executeQuery = original;
    return { n, statements };
  };
}
/**
 * PostgreSQL only: CPU milliseconds (user + system, /proc, 10 ms ticks) the server's pooled backends
 * have spent so far: the database's share of a request, which wall time under load does not show.
 * The pool's five connections are checked out at once to learn their backend pids.
 */
async function backendCpu(): Promise<() => number | null> {
  if (dialect !== 'postgres' || !fs.existsSync('/proc/self/stat')) return () => null;
  const pids = await Promise.all(
    Array.from({ length: 5 }, () =>
      db.connection().execute(async (c) => {
        const r = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(c);
        await new Promise((done) => setTimeout(done, 50));
        return r.rows[0].pid;
      }),
    ),
  );
  const ticks = () =>
    pids.reduce((sum, pid) => {
      const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return sum + Number(f[11]) + Number(f[12]); // utime, stime (fields 14 and 15)
    }, 0);
  const start = ticks();
  return () => ((ticks() - start) * 1000) / 100;
}
try {
  const company = s.refs.companies.skyline;
  const t0 = performance.now();
  const admin = await s.login('admin@skyline.test');
  await s.api('POST', '/manager/companies/edit.json', {
    token: admin,
    body: { CompanySetting: { max_duty_hours: 12, max_flight_hours_year: 900 } },
  });
  const settings: ReadinessSettings = {
    ...DEFAULT_READINESS_SETTINGS,
    checks: {
      BALANCE: 'warn',
      CERTIFICATES: 'warn',
      CURRENCY: 'warn',
      MAINTENANCE: 'warn',
      MEL: 'warn',
      DUTY: 'warn',
      WEATHER: 'warn',
    },
    balance_minimum: 0,
  };
  const saved = await s.api('POST', '/readiness/settings.json', { token: admin, body: settings });
  if (saved.status !== 200) throw new Error(`settings: ${JSON.stringify(saved.body)}`);

  const template = await db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', s.userId('student@skyline.test'))
    .executeTakeFirstOrThrow();
  const crew: string[] = [];
  const people = [];
  for (let i = 0; i < CREW; i++) {
    const id = uuidv7();
    crew.push(id);
    people.push({
      ...template,
      id,
      email: null,
      name: 'Crew',
      surname: `Member ${i}`,
      user_group_id: i % 2 ? 200 : 190,
    });
  }
  await db.insertInto('users').values(people).execute();

  const types = (await s.api('GET', '/flight_types/index.json', { token: admin })).body.flight_types as {
    FlightType: { id: string; name: string };
  }[];
  const solo = types.find((x) => x.FlightType.name === 'Solo')?.FlightType.id as string;
  await db
    .insertInto('flight_type_certificates')
    .values({ id: uuidv7(), company_id: company, flight_type_id: solo, role: 'pic', certificate_type: 'PPL' } as never)
    .execute();
  const made = await s.api('POST', '/flights/edit.json', {
    token: admin,
    body: {
      Flight: {
        date: '2020-01-01',
        aircraft_id: s.refs.aircraft['EC-ABC'],
        flight_type_id: solo,
        pic_id: crew[0],
        departure_airport: 'LECU',
        landing_airport: 'LECU',
        offblocks_time: '10:00',
        onblocks_time: '11:30',
        landings: 1,
        pax: 1,
      },
    },
  });
  const row = await db.selectFrom('flights').selectAll().where('id', '=', made.body.id).executeTakeFirstOrThrow();
  const now = Math.floor(Date.now() / 1000);
  const today = Math.floor(now / DAY) * DAY;
  const aircraft = Object.values(s.refs.aircraft).slice(0, 4);
  const all: (typeof row)[] = [];
  let batch: (typeof row)[] = [];
  for (let i = 0; i < FLIGHTS; i++) {
    const day = today - ((i * 7919) % 365) * DAY;
    const off = day + (6 + (i % 12)) * HOUR;
    const f = {
      ...row,
      id: uuidv7(),
      status: 'LANDED',
      date: new Date(day * 1000).toISOString().slice(0, 10),
      aircraft_id: aircraft[i % aircraft.length],
      pic_id: crew[i % CREW],
      offblocks: off,
      takeoff: off + 600,
      landing: off + 4200,
      onblocks: off + 4800,
      starts: off,
      block_time: 4800,
      flight_time: 3600,
      landings: 1 + (i % 3),
      pax: i % 5 === 0 ? 1 : 0,
    };
    batch.push(f);
    all.push(f);
    if (batch.length === 500) {
      await db.insertInto('flights').values(batch).execute();
      batch = [];
    }
  }
  if (batch.length) await db.insertInto('flights').values(batch).execute();
  // Planned flights to ask about: the coming days, with passengers.
  const planned: string[] = [];
  const plannedRows: (typeof row)[] = [];
  for (let i = 0; i < 50; i++) {
    const off = today + (1 + (i % 10)) * DAY + (8 + (i % 8)) * HOUR;
    const f = {
      ...row,
      id: uuidv7(),
      status: 'SCHEDULED',
      aircraft_id: aircraft[i % aircraft.length],
      pic_id: crew[(i * 7) % CREW],
      offblocks: off,
      onblocks: off + 2 * HOUR,
      starts: off,
      pax: 1,
    };
    planned.push(f.id);
    plannedRows.push(f);
  }
  await db.insertInto('flights').values(plannedRows).execute();
  const base = s.refs.bases['Cuatro Vientos'];
  const entries = [];
  for (let i = 0; i < ENTRIES; i++) {
    const start = today - ((i * 13) % 365) * DAY + 7 * HOUR;
    entries.push({
      id: uuidv7(),
      company_id: company,
      change_no: 0,
      deleted: 0,
      created: 1,
      modified: 1,
      base_id: base,
      user_id: crew[i % CREW],
      start_at: start,
      end_at: start + 4 * HOUR,
      type: 'DUTY',
      always: 0,
      created_by: null,
    });
  }
  for (let i = 0; i < entries.length; i += 500)
    await db
      .insertInto('base_schedules')
      .values(entries.slice(i, i + 500))
      .execute();
  // Three programme items on each aircraft (50 h, 100 h and yearly), so MAINTENANCE projects hours and dates.
  const plans = [
    { name: '50 h check', hours_interval: 50, repeat: 'NEVER' },
    { name: '100 h inspection', hours_interval: 100, repeat: 'NEVER' },
    { name: 'Annual', hours_interval: null, repeat: 'YEAR' },
  ].map((p, i) => ({
    ...p,
    id: uuidv7(),
    company_id: company,
    change_no: 0,
    deleted: 0,
    created: now,
    modified: now,
    user_id: null,
    description: null,
    landings_interval: null,
    maintenance_programme_id: null,
    sort_order: i,
  }));
  await db.insertInto('maintenance_plans').values(plans).execute();
  await db
    .insertInto('plan_aircraft')
    .values(
      plans.flatMap((p) =>
        aircraft.map((a) => ({ company_id: company, maintenance_plan_id: p.id, aircraft_id: a as string })),
      ),
    )
    .execute();
  // The duty running totals of those flights, as the flights area would have kept them.
  await rebuildDutyTotals(db, company);
  // Signed jobs of each programme item linked to each aircraft, every month of the year.
  const links = await db
    .selectFrom('plan_aircraft')
    .select(['maintenance_plan_id', 'aircraft_id'])
    .where('company_id', '=', company)
    .execute();
  const jobs = [];
  for (const l of links)
    for (let m = 0; m < 12; m++)
      jobs.push({
        id: uuidv7(),
        company_id: company,
        change_no: 0,
        deleted: 0,
        created: now,
        modified: now,
        user_id: null,
        aircraft_id: l.aircraft_id,
        name: 'Programme job',
        description: null,
        status: 'COMPLETED',
        start: today - (m * 30 + 1) * DAY,
        finish: today - m * 30 * DAY,
        crs_signed: 1,
        crs_signed_by: null,
        crs_signed_at: today - m * 30 * DAY,
        crs_expiration: null,
        maintenance_plan_id: l.maintenance_plan_id,
        repeat: 'NEVER',
      });
  if (jobs.length)
    await db
      .insertInto('maintenance_jobs')
      .values(jobs as never)
      .execute();
  const t = (raw: string) => JSON.stringify([raw]);
  const tag = new Date(now * 1000);
  const dd = String(tag.getUTCDate()).padStart(2, '0');
  await db
    .insertInto('weather_cache')
    .values([
      {
        key: 'metar:LECU',
        body: t(`LECU ${dd}0600Z 27008KT 9999 FEW030 15/09 Q1015`),
        fetched: now,
        expires: now + 86400,
      },
      {
        key: 'taf:LECU',
        body: t(`TAF LECU ${dd}0500Z ${dd}06/${dd}24 27010KT 9999 SCT030`),
        fetched: now,
        expires: now + 86400,
      },
    ])
    .execute();
  await sql`ANALYZE`.execute(db);
  console.log(
    `${dialect}: ${FLIGHTS} flights, ${CREW} crew, ${ENTRIES} DUTY entries, ${jobs.length} signed jobs written in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  const ops = await s.login('ops@skyline.test').catch(() => s.login('ops@skyline.test'));
  const http: number[] = [];
  const httpCpu: number[] = [];
  let lines = 0;
  console.log(`before (1): ${load()}`);
  const httpDb = await backendCpu();
  const httpQueries = countQueries();
  await profiled('http', async () => {
    for (let i = 0; i < RUNS + 5; i++) {
      let r: Awaited<ReturnType<typeof s.api>> | null = null;
      const spent = await timed(async () => {
        r = await s.api('GET', `/flights/readiness/${planned[i % planned.length]}.json`, { token: ops });
      });
      const got = r as unknown as Awaited<ReturnType<typeof s.api>>;
      if (got.status !== 200) throw new Error(`readiness: ${got.status} ${JSON.stringify(got.body)}`);
      lines = got.body.lines.length;
      if (i >= 5) {
        http.push(spent.wall);
        httpCpu.push(spent.cpu);
      }
    }
  });
  console.log(
    `(1) GET /flights/readiness/{id}.json (${lines} lines): median ${ms(median(http))}, p95 ${ms(p95(http))} (target < 10 ms); CPU per request median ${ms(median(httpCpu))}; ${(httpQueries().n / (RUNS + 5)).toFixed(1)} queries per request; PostgreSQL backend CPU per request ${dbPer(httpDb())}; ${load()}`,
  );

  const c = await db.selectFrom('companies').selectAll().where('id', '=', company).executeTakeFirstOrThrow();
  const actor: Actor = {
    userId: s.userId('ops@skyline.test'),
    identityId: null,
    companyId: company,
    role: 105,
    email: 'ops@skyline.test',
    name: 'Oscar',
    surname: 'Ops',
    supervisorId: null,
    plan: 'premium',
    company: { name: c.name, timezone: c.timezone, flightTimezone: c.flight_timezone, billingEnabled: true },
    credential: { kind: 'session', id: 'bench' },
  };
  const hook: number[] = [];
  const hookCpu: number[] = [];
  const hookDb = await backendCpu();
  const hookQueries = countQueries();
  let amber = 0;
  await profiled('hook', async () => {
    for (let i = 0; i < RUNS + 5; i++) {
      const spent = await timed(() =>
        s.ctx
          .tx(async (uow) => {
            amber = (await decideReadiness(uow, actor, planned[(i * 3) % planned.length])).lines.length;
            throw new Error('rollback');
          })
          .catch(() => undefined),
      );
      if (i >= 5) {
        hook.push(spent.wall);
        hookCpu.push(spent.cpu);
      }
    }
  });
  console.log(
    `(2) decideReadiness (booking/dispatch hook, in a rolled-back transaction, ${amber} amber lines): median ${ms(median(hook))}, p95 ${ms(p95(hook))} (target < 10 ms); CPU median ${ms(median(hookCpu))}; ${(hookQueries().n / (RUNS + 5)).toFixed(1)} queries per run (BEGIN/ROLLBACK not counted); PostgreSQL backend CPU per run ${dbPer(hookDb())}; ${load()}`,
  );

  if (process.env.BENCH_EXPLAIN) {
    const one = async (label: string, run: () => Promise<unknown>) => {
      const stop = countQueries(100);
      await run();
      const { statements } = stop();
      console.log(`\n--- ${label}: ${statements.length} statements`);
      for (const q of statements) {
        console.log(`\n${q.sql}\n  parameters: ${JSON.stringify(q.parameters)}`);
        if (!/^\s*(select|with)/i.test(q.sql)) continue;
        const plan = await db.executeQuery<Record<string, unknown>>(
          CompiledQuery.raw(
            `${dialect === 'postgres' ? 'EXPLAIN (ANALYZE, COSTS OFF, SUMMARY ON)' : 'EXPLAIN QUERY PLAN'} ${q.sql}`,
            [...q.parameters],
          ),
        );
        for (const r of plan.rows) console.log(`  | ${dialect === 'postgres' ? r['QUERY PLAN'] : r.detail}`);
      }
    };
    await one('GET /flights/readiness/{id}.json', () =>
      s.api('GET', `/flights/readiness/${planned[0]}.json`, { token: ops }),
    );
    await one('decideReadiness', () =>
      s.ctx
        .tx(async (uow) => {
          await decideReadiness(uow, actor, planned[0]);
          throw new Error('rollback');
        })
        .catch(() => undefined),
    );
    if (dialect === 'postgres') await planCache();
  }

  /**
   * PostgreSQL only: the combined statement (the request's longest) prepared on one connection and
   * EXPLAIN ANALYZE EXECUTEd 8 times under the server's plan_cache_mode (auto: custom plans for the first
   * five, then the generic one if it costs no more), then with force_custom_plan and force_generic_plan;
   * prints planning and execution time of each run (a reused generic plan plans in a few hundredths of a
   * millisecond) and whether the rows of the generic plan equal those of
   * the unnamed statement.
   */
  async function planCache() {
    const stop = countQueries(100);
    await s.api('GET', `/flights/readiness/${planned[0]}.json`, { token: ops });
    const q = stop().statements.reduce((a, b) => (b.sql.length > a.sql.length ? b : a));
    const literal = (v: unknown) => (typeof v === 'number' ? String(v) : `'${String(v).replaceAll("'", "''")}'`);
    const args = q.parameters.map(literal).join(', ');
    await db.connection().execute(async (c) => {
      const run = (text: string) => c.executeQuery<Record<string, unknown>>(CompiledQuery.raw(text));
      // Another text (a comment in front), so it is not sent under the name executeNamed gave the statement.
      const unnamed = JSON.stringify(
        (await c.executeQuery(CompiledQuery.raw(`/* unnamed */ ${q.sql}`, [...q.parameters]))).rows,
      );
      for (const mode of ['auto', 'force_custom_plan', 'force_generic_plan']) {
        await run(`set plan_cache_mode = ${mode}`);
        await run(`prepare bench_reads as ${q.sql}`);
        const times: string[] = [];
        for (let i = 0; i < 8; i++) {
          const plan = (await run(`explain (analyze, summary) execute bench_reads(${args})`)).rows.map(
            (r) => r['QUERY PLAN'] as string,
          );
          const t = (label: string) => plan.find((l) => l.startsWith(label))?.replace(/.*: /, '') ?? '?';
          times.push(`${t('Planning Time')} / ${t('Execution Time')}`);
        }
        const same = JSON.stringify((await run(`execute bench_reads(${args})`)).rows) === unnamed;
        await run('deallocate bench_reads');
        console.log(
          `\n--- plan cache ${mode}: planning / execution of runs 1-8\n  ${times.join('\n  ')}\n  rows equal to the unnamed statement's: ${same}`,
        );
      }
      await run('reset plan_cache_mode');
    });
  }

  // (3) The device: the documents an office device holds, in their replicated shapes.
  const asDoc = (f: typeof row): FlightDoc =>
    ({
      ...f,
      offblocks: Number(f.offblocks),
      onblocks: Number(f.onblocks),
      flight_time: Number(f.flight_time),
      landings: Number(f.landings),
      night_landings: 0,
      block_time: Number(f.block_time),
      pax: Number(f.pax),
    }) as unknown as FlightDoc;
  const flightDocs = [...all, ...plannedRows].map(asDoc);
  const users = new Map<string, UserDoc>(
    people.map((p) => [
      p.id,
      { id: p.id, name: p.name, surname: p.surname, user_group_id: p.user_group_id } as unknown as UserDoc,
    ]),
  );
  const duty = deviceDutyOf({
    flights: flightDocs,
    personal: [] as PersonalDoc[],
    bookings: [] as BookingDoc[],
    aircraft: [],
    company: { CompanySetting: { max_duty_hours: 12, max_flight_hours_year: 900 } },
    zone: 'Europe/Madrid',
    users,
  });
  const flightTypes = [
    {
      id: solo,
      type: 'flight_type',
      name: 'Solo',
      data: { FlightType: { id: solo }, RequiredCertificate: [{ role: 'pic', certificate_type: 'PPL' }] },
      updated: 0,
    },
  ] as ReferenceDoc[];
  const jobDocs = jobs.map((j) => ({ ...j, crs_signed: true, WorkOrder: [] })) as unknown as MaintenanceJobDoc[];
  const data = {
    me: crew[0],
    myRole: 105,
    zone: 'Europe/Madrid',
    now,
    settings,
    flights: flightDocs,
    bookings: [],
    personal: [],
    flightTypes,
    jobs: jobDocs,
    reports: [] as AircraftReportDoc[],
    duty,
    roles: new Map(people.map((p) => [p.id, p.user_group_id])),
    pilotGroups: {},
    weather: () => ({
      metar: `LECU ${dd}0600Z 27008KT 9999 FEW030`,
      taf: `TAF LECU ${dd}0500Z ${dd}06/${dd}24 27010KT 9999`,
      fetched: now - 1800,
    }),
  };
  const device: number[] = [];
  for (let i = 0; i < RUNS + 5; i++) {
    const f = plannedRows[i % plannedRows.length];
    const subject = {
      start: Number(f.offblocks),
      end: Number(f.onblocks),
      aircraft_id: f.aircraft_id,
      flight_type_id: f.flight_type_id,
      pic_id: f.pic_id,
      pic_role: null,
      sic_id: null,
      supervisor_id: null,
      billed_id: f.pic_id,
      pax: 1,
      night: false,
      departure_airport: 'LECU',
    };
    const t1 = performance.now();
    const out = deviceReadiness(subject, data, { flightId: f.id });
    if (out.length !== 7) throw new Error('device: expected 7 lines');
    if (i >= 5) device.push(performance.now() - t1);
  }
  console.log(
    `(3) device readiness over ${flightDocs.length} flight documents: median ${ms(median(device))}, p95 ${ms(p95(device))} (target < 20 ms); ${load()}`,
  );
} finally {
  await s.close();
}
