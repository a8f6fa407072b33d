/**
 * `npm run bench:duty` (issue 30): a company with 300 crew, 100,000 LANDED
 * flights over two years (each with a PIC and most with a SIC) and 15,000
 * DUTY roster entries, limits set.
 * (1) One person's year of days: GET /duty/{userId}.json for 365 days through
 *     HTTP (auth, validation, SQL, the rule). Target median < 20 ms.
 * (2) What the duty check adds to a booking: `bookingDutyRefusal` (the hook
 *     of POST /schedules/edit.json) for a pilot and an instructor. Target < 5 ms.
 * (3) The week board for 300 crew: GET /duty/board.json. Target < 50 ms.
 * SQLite by default; BENCH_DIALECT=postgres runs in a fresh PostgreSQL schema.
 */
import { uuidv7 } from '@ops/shared';
import { rebuildDutyTotals } from '@ops/server/areas/duty/duty.repository';
import { bookingDutyRefusal } from '@ops/server/areas/duty/duty.service';
import type { Actor } from '@ops/server/http/actor';
import { sql } from 'kysely';
import { DateTime } from 'luxon';
import { startTestServer } from '../setup/server.ts';

const FLIGHTS = Number(process.env.BENCH_FLIGHTS ?? 100_000);
const CREW = 300;
const ENTRIES = 15_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 60);
const dialect = process.env.BENCH_DIALECT === 'postgres' ? 'postgres' : 'sqlite';
const HOUR = 3600;
const DAY = 86400;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)];
const ms = (n: number) => `${n.toFixed(2)} ms`;
/** CPU milliseconds of this process (server and client share it) since `from`: the work done, less disturbed than wall time when other jobs share the cores. */
const cpuSince = (from: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(from);
  return (u.user + u.system) / 1000;
};

const s = await startTestServer(dialect);
// The bench writes generated rows straight through the data layer.
const db = s.ctx.db;
try {
  const company = s.refs.companies.skyline;
  const t0 = performance.now();
  const admin = await s.login('admin@skyline.test');
  await s.api('POST', '/manager/companies/edit.json', {
    token: admin,
    body: { CompanySetting: { max_duty_hours: 12, max_flight_hours_year: 900 } },
  });

  // Crew: clones of the fixture pilot.
  const template = await db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', s.userId('pilot@skyline.test'))
    .executeTakeFirstOrThrow();
  const crew: string[] = [];
  const people = [];
  for (let i = 0; i < CREW; i++) {
    const id = uuidv7();
    crew.push(id);
    people.push({ ...template, id, email: null, name: 'Crew', surname: `Member ${i}` });
  }
  for (let i = 0; i < people.length; i += 50)
    await db
      .insertInto('users')
      .values(people.slice(i, i + 50))
      .execute();

  // One real confirmed flight as the row template.
  const types = (await s.api('GET', '/flight_types/index.json', { token: admin })).body.flight_types as {
    FlightType: { id: string; name: string };
  }[];
  const dual = types.find((x) => x.FlightType.name === 'Dual training')?.FlightType.id as string;
  const made = await s.api('POST', '/flights/edit.json', {
    token: admin,
    body: {
      Flight: {
        date: '2020-01-01',
        aircraft_id: s.refs.aircraft['EC-ABC'],
        flight_type_id: dual,
        pic_id: crew[0],
        sic_id: crew[1],
        departure_airport: 'LECU',
        landing_airport: 'LECU',
        offblocks_time: '10:00',
        onblocks_time: '11:30',
        landings: 1,
      },
    },
  });
  const row = await db.selectFrom('flights').selectAll().where('id', '=', made.body.id).executeTakeFirstOrThrow();
  const now = Math.floor(Date.now() / 1000);
  const today = Math.floor(now / DAY) * DAY;
  const aircraft = Object.values(s.refs.aircraft);
  let batch: (typeof row)[] = [];
  for (let i = 0; i < FLIGHTS; i++) {
    const day = today - ((i * 7919) % 730) * DAY;
    const off = day + (6 + (i % 12)) * HOUR;
    const pic = crew[i % CREW];
    const sic = i % 4 === 0 ? null : crew[(i * 31 + 7) % CREW];
    batch.push({
      ...row,
      id: uuidv7(),
      status: 'LANDED',
      date: new Date(day * 1000).toISOString().slice(0, 10),
      aircraft_id: aircraft[i % aircraft.length],
      pic_id: pic,
      sic_id: sic === pic ? null : sic,
      offblocks: off,
      takeoff: off + 600,
      landing: off + 5400,
      onblocks: off + 6000,
      starts: off,
      block_time: 6000,
      flight_time: 4800,
    });
    if (batch.length === 500) {
      await db.insertInto('flights').values(batch).execute();
      batch = [];
    }
  }
  if (batch.length) await db.insertInto('flights').values(batch).execute();
  const base = s.refs.bases['Cuatro Vientos'];
  const entries = [];
  for (let i = 0; i < ENTRIES; i++) {
    const start = today - ((i * 13) % 400) * DAY + 7 * HOUR;
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
  // The flights went straight into the table, around the flights area's hook: the running totals are recounted from them.
  await rebuildDutyTotals(db, company);
  // Planner statistics, as the reports bench does on both databases (SQLite otherwise may pick the status index over the seat index).
  await sql`ANALYZE`.execute(db);
  console.log(
    `${dialect}: ${FLIGHTS} flights, ${CREW} crew, ${ENTRIES} DUTY entries written in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  // A fresh connection after the long insert (the idle keep-alive socket may have been closed).
  const dispatch = await s.login('dispatch@skyline.test').catch(() => s.login('dispatch@skyline.test'));
  const zone = 'Europe/Madrid';
  const to = DateTime.now().setZone(zone).toISODate() as string;
  const from = DateTime.now().setZone(zone).minus({ days: 364 }).toISODate() as string;

  // (1) A person's year of days.
  const year: number[] = [];
  const yearCpu: number[] = [];
  let days = 0;
  for (let i = 0; i < RUNS + 5; i++) {
    const c0 = process.cpuUsage();
    const t = performance.now();
    const r = await s.api('GET', `/duty/${crew[(i * 37) % CREW]}.json?from=${from}&to=${to}`, { token: dispatch });
    const spent = performance.now() - t;
    if (r.status !== 200) throw new Error(`duty: ${r.status} ${JSON.stringify(r.body)}`);
    days = r.body.days.length;
    if (i >= 5) {
      year.push(spent);
      yearCpu.push(cpuSince(c0));
    }
  }
  console.log(
    `(1) GET /duty/{userId}.json, 365 days (${days} days with duty): median ${ms(median(year))}, p95 ${ms(p95(year))}, CPU median ${ms(median(yearCpu))} (target < 20 ms)`,
  );

  // (2) The booking's duty check.
  const c = await db.selectFrom('companies').selectAll().where('id', '=', company).executeTakeFirstOrThrow();
  const actor: Actor = {
    userId: s.userId('dispatch@skyline.test'),
    identityId: null,
    companyId: company,
    role: 170,
    email: 'dispatch@skyline.test',
    name: 'Diego',
    surname: 'Dispatch',
    supervisorId: null,
    plan: 'premium',
    company: { name: c.name, timezone: c.timezone, flightTimezone: c.flight_timezone, billingEnabled: true },
    credential: { kind: 'session', id: 'bench' },
  };
  const check: number[] = [];
  const checkCpu: number[] = [];
  for (let i = 0; i < RUNS + 5; i++) {
    const c0 = process.cpuUsage();
    const start = today - ((i * 11) % 300) * DAY + 15 * HOUR;
    const t = performance.now();
    await bookingDutyRefusal(db, actor, {
      aircraft_id: s.refs.aircraft['EC-ABC'],
      pilot_id: crew[(i * 13) % CREW],
      instructor_id: crew[(i * 17 + 1) % CREW],
      start,
      end: start + 2 * HOUR,
    });
    if (i >= 5) {
      check.push(performance.now() - t);
      checkCpu.push(cpuSince(c0));
    }
  }
  console.log(
    `(2) duty check of a booking (pilot and instructor): median ${ms(median(check))}, p95 ${ms(p95(check))}, CPU median ${ms(median(checkCpu))} (target < 5 ms)`,
  );

  // (3) The week board.
  const week = DateTime.now().setZone(zone).startOf('week').toISODate() as string;
  const board: number[] = [];
  const boardCpu: number[] = [];
  let shown = 0;
  for (let i = 0; i < Math.min(RUNS, 40) + 3; i++) {
    const c0 = process.cpuUsage();
    const t = performance.now();
    const r = await s.api('GET', `/duty/board.json?from=${week}`, { token: dispatch });
    const spent = performance.now() - t;
    if (r.status !== 200) throw new Error(`board: ${r.status}`);
    shown = r.body.people.length;
    if (i >= 3) {
      board.push(spent);
      boardCpu.push(cpuSince(c0));
    }
  }
  console.log(
    `(3) GET /duty/board.json, ${shown} crew: median ${ms(median(board))}, p95 ${ms(p95(board))}, CPU median ${ms(median(boardCpu))} (target < 50 ms)`,
  );
} finally {
  await s.close();
}
