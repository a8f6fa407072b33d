/**
 * `npm run bench:reports`: every report endpoint of Part A 4.11 over one company
 * of BENCH_FLIGHTS LANDED flights (default 100,000), in process (the service:
 * scope check, SQL, shaping), no response cache. Median of BENCH_CALLS calls
 * per endpoint, target < 50 ms. The company grows with pilots and aircraft
 * (1,000 flights per pilot as PIC and 1,000 as SIC, 5,000 per aircraft), so a
 * run with BENCH_FLIGHTS=1000000 shows the figures stay flat as the company grows.
 * SQLite by default; BENCH_DIALECT=postgres runs on TEST_DATABASE_URL in a fresh schema.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, startServer } from '@ops/server';
import { uuidv7 } from '@ops/shared';
import { sql } from 'kysely';
import pg from 'pg';
import {
  flightHoursByMonth,
  pilotsAirports,
  resolveScope,
  statsFlightTypes,
  statsRules,
  totalFlights,
  totalHours,
  totalLandings,
} from '../../server/src/areas/reports/reports.service.ts';
import type { Actor } from '../../server/src/http/actor.ts';
import { PG_URL, type TestDialect } from '../setup/dialects.ts';

const FLIGHTS = Number(process.env.BENCH_FLIGHTS ?? 100_000);
const CALLS = Number(process.env.BENCH_CALLS ?? 30);
const PILOTS = Math.max(2, Math.round(FLIGHTS / 1000));
const AIRCRAFT = Math.max(1, Math.round(FLIGHTS / 5000));
const dialect: TestDialect = process.env.BENCH_DIALECT === 'postgres' ? 'postgres' : 'sqlite';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-bench-reports-'));
const schema = dialect === 'postgres' ? `bench_${Date.now().toString(36)}` : null;
if (schema) {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  await c.query(`CREATE SCHEMA ${schema}`);
  await c.end();
}
const config = loadConfig({
  NODE_ENV: 'test',
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  SEED: 'fixtures',
  LOG_LEVEL: 'silent',
  ...(dialect === 'postgres' ? { DATABASE_URL: PG_URL } : {}),
});
const running = await startServer({ ...config, databaseSchema: schema }, { poolSize: 5 });
const { ctx } = running;
const db = ctx.db;
const refs = running.seeded!.refs;
const companyId = refs.companies.skyline;

async function clone(
  table: 'users' | 'aircraft',
  fromId: string,
  n: number,
  patch: (i: number) => Record<string, unknown>,
): Promise<string[]> {
  const row = (await (db as any)
    .selectFrom(table)
    .selectAll()
    .where('id', '=', fromId)
    .executeTakeFirstOrThrow()) as Record<string, unknown>;
  const ids: string[] = [];
  const rows = [];
  for (let i = 0; i < n; i++) {
    const id = uuidv7();
    ids.push(id);
    rows.push({ ...row, id, ...patch(i) });
  }
  for (let i = 0; i < rows.length; i += 200)
    await (db as any)
      .insertInto(table)
      .values(rows.slice(i, i + 200))
      .execute();
  return ids;
}

const t0 = Date.now();
const pilotIds = await clone('users', refs.users.skyline['pilot@skyline.test']!, PILOTS, (i) => ({
  identity_id: null,
  email: null,
  surname: `Bench${i}`,
}));
const aircraftIds = await clone('aircraft', refs.aircraft['EC-ABC']!, AIRCRAFT, (i) => ({
  registration: `EC-B${String(i).padStart(4, '0')}`,
}));
const types = await db.selectFrom('flight_types').select('id').where('company_id', '=', companyId).execute();

// Key tables the generator joins on (i mod count).
await sql`CREATE TABLE bench_pilots (k integer PRIMARY KEY, id text NOT NULL)`.execute(db);
await sql`CREATE TABLE bench_aircraft (k integer PRIMARY KEY, id text NOT NULL)`.execute(db);
await sql`CREATE TABLE bench_types (k integer PRIMARY KEY, id text NOT NULL)`.execute(db);
for (let i = 0; i < pilotIds.length; i += 500)
  await sql`INSERT INTO bench_pilots (k, id) VALUES ${sql.join(pilotIds.slice(i, i + 500).map((id, j) => sql`(${i + j}, ${id})`))}`.execute(
    db,
  );
await sql`INSERT INTO bench_aircraft (k, id) VALUES ${sql.join(aircraftIds.map((id, j) => sql`(${j}, ${id})`))}`.execute(
  db,
);
await sql`INSERT INTO bench_types (k, id) VALUES ${sql.join(types.map((t, j) => sql`(${j}, ${t.id})`))}`.execute(db);

const now = Math.floor(Date.now() / 1000);
const SPAN = 3 * 365 * 86400;
const AIRPORTS = ['LECU', 'LEMD', 'LEBL', 'LEMG', 'LEZL', 'LEVC', 'LEPA', 'GCLP'];
const CHUNK = 50_000;
for (let start = 0; start < FLIGHTS; start += CHUNK) {
  const end = Math.min(FLIGHTS, start + CHUNK) - 1;
  // bigint on PostgreSQL: i * 7919 overflows int4 past 271,000 flights.
  const series =
    dialect === 'postgres'
      ? sql`SELECT generate_series(${start}::bigint, ${end}::bigint) AS i`
      : sql`WITH RECURSIVE n(i) AS (SELECT ${start} UNION ALL SELECT i + 1 FROM n WHERE i < ${end}) SELECT i FROM n`;
  const off = sql`(${now} - ((s.i * 7919) % ${SPAN}) - 3600)`;
  const day =
    dialect === 'postgres'
      ? sql`to_char(to_timestamp(${off}) AT TIME ZONE 'UTC', 'YYYY-MM-DD')`
      : sql`date(${off}, 'unixepoch')`;
  const id = dialect === 'postgres' ? sql`md5(s.i::text || 'f')` : sql`lower(hex(randomblob(16)))`;
  const airport = (shift: number) =>
    sql.raw(
      `CASE ((s.i + ${shift}) % ${AIRPORTS.length}) ${AIRPORTS.map((a, j) => `WHEN ${j} THEN '${a}'`).join(' ')} END`,
    );
  await sql`
    INSERT INTO flights (id, company_id, change_no, deleted, created, modified, date, status, aircraft_id, flight_type_id, pic_id, sic_id,
      departure_airport, landing_airport, offblocks, takeoff, landing, onblocks, starts, block_time, flight_time, night_flight_time, ifr_flight_time,
      rules, crosscountry, multiengine, landings, night_landings, engine_starts, pax)
    SELECT ${id}, ${companyId}, 0, 0, ${off}, ${off}, ${day}, 'LANDED', a.id, t.id, p.id, q.id,
      ${airport(0)}, ${airport(3)}, ${off}, ${off} + 300, ${off} + 3300, ${off} + 3600, ${off}, 3600, 3000, 0, 0,
      CASE WHEN s.i % 3 = 0 THEN 'IFR' ELSE 'VFR' END, 0, 0, 1 + s.i % 3, 0, 1, 0
    FROM (${series}) AS s
    JOIN bench_pilots p ON p.k = s.i % ${PILOTS}
    JOIN bench_pilots q ON q.k = (s.i + 1) % ${PILOTS}
    JOIN bench_aircraft a ON a.k = s.i % ${AIRCRAFT}
    JOIN bench_types t ON t.k = s.i % ${types.length}`.execute(db);
  process.stdout.write(`\rseeded ${end + 1} flights`);
}
// PostgreSQL: the steady state autovacuum leaves (statistics and the visibility map that index-only scans need).
if (dialect === 'postgres') await sql`VACUUM ANALYZE flights`.execute(db);
else await sql`ANALYZE`.execute(db);
console.log(
  `\nseeded ${FLIGHTS} LANDED flights, ${PILOTS} pilots, ${AIRCRAFT} aircraft in ${((Date.now() - t0) / 1000).toFixed(1)} s (${dialect})`,
);

const admin = refs.users.skyline['admin@skyline.test']!;
const actor = {
  userId: admin,
  identityId: null,
  companyId,
  role: 100,
  email: 'admin@skyline.test',
  name: 'Ana',
  surname: 'Admin',
  supervisorId: null,
  plan: 'premium',
  company: { name: 'Skyline', timezone: 'Europe/Madrid', flightTimezone: 'UTC', billingEnabled: true },
  credential: { kind: 'session', id: 'bench' },
} as Actor;
const pilot = pilotIds[0]!;
const aircraft = aircraftIds[0]!;

const endpoints: [string, () => Promise<unknown>][] = [
  ['pilots_airports/{user}', async () => pilotsAirports(ctx, companyId, await resolveScope(ctx, actor, pilot))],
  ['stats_rules/{user}', async () => statsRules(ctx, companyId, await resolveScope(ctx, actor, pilot))],
  ['total_flights/{user}', async () => totalFlights(ctx, companyId, await resolveScope(ctx, actor, pilot))],
  ['stats_flight_types/{user}', async () => statsFlightTypes(ctx, companyId, await resolveScope(ctx, actor, pilot))],
  [
    'flight_hours_by_month/12/{user}',
    async () => flightHoursByMonth(ctx, actor, await resolveScope(ctx, actor, pilot), 12),
  ],
  [
    'flight_hours_by_month/36/null/{aircraft}',
    async () => flightHoursByMonth(ctx, actor, await resolveScope(ctx, actor, null, aircraft), 36),
  ],
  ['total_hours/{user}', async () => totalHours(ctx, companyId, await resolveScope(ctx, actor, pilot))],
  ['total_landings/{user}', async () => totalLandings(ctx, companyId, await resolveScope(ctx, actor, pilot), 0, null)],
  [
    'total_landings/-/{aircraft}/{since}',
    async () => totalLandings(ctx, companyId, await resolveScope(ctx, actor, null, aircraft), now - 365 * 86400, null),
  ],
];

if (process.env.BENCH_EXPLAIN) {
  const ex = dialect === 'postgres' ? sql.raw('EXPLAIN (ANALYZE, BUFFERS)') : sql.raw('EXPLAIN QUERY PLAN');
  const { rows } = await sql<
    Record<string, unknown>
  >`${ex} SELECT SUM(block_time), COUNT(*), SUM(landings) FROM (SELECT block_time, landings FROM flights WHERE company_id = ${companyId} AND pic_id = ${pilot} AND status = 'LANDED'
    UNION ALL SELECT block_time, landings FROM flights WHERE company_id = ${companyId} AND sic_id = ${pilot} AND status = 'LANDED' AND (pic_id IS NULL OR pic_id <> ${pilot})) AS f`.execute(
    db,
  );
  for (const r of rows) console.log(Object.values(r).join(' '));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
let worst = 0;
console.log(`endpoint (${FLIGHTS} flights, ${dialect})`.padEnd(48), 'first ms', ' median ms');
for (const [name, fn] of endpoints) {
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const a = performance.now();
    await fn();
    times.push(performance.now() - a);
  }
  const m = median(times);
  worst = Math.max(worst, m);
  console.log(name.padEnd(48), times[0]!.toFixed(2).padStart(8), m.toFixed(2).padStart(10));
}
console.log(`worst median ${worst.toFixed(2)} ms: ${worst < 50 ? 'OK' : 'OVER'} (target < 50 ms)`);
await running.close();
if (schema) {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  await c.query(`DROP SCHEMA ${schema} CASCADE`);
  await c.end();
}
fs.rmSync(dataDir, { recursive: true, force: true });
