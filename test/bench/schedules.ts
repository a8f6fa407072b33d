/**
 * `npm run bench:schedules`: a company with 50 aircraft, 40 instructors, 200
 * pilots and 200,000 bookings (four two-hour slots per aircraft per day, about
 * 2.7 years around today, most with an instructor).
 * (1) Creating a booking through POST /schedules/edit.json (the real endpoint:
 *     auth, validation, write lock, conflict reads, MEL and duty checks, the
 *     SCHEDULED flight, notifications, commit). Target median < 15 ms.
 * (2) The week board GET /schedules/index.json for a whole week of the
 *     company (about 1,400 bookings with aircraft, people and flight type),
 *     cold: a company write before each read. Target median < 20 ms. Also the
 *     same board read again with no write since (the rendered answer reused).
 * SQLite by default; BENCH_DIALECT=postgres runs in a fresh PostgreSQL schema.
 */
import { uuidv7 } from '@ops/shared';
import { startTestServer } from '../setup/server.ts';

const BOOKINGS = Number(process.env.BENCH_BOOKINGS ?? 200_000);
const AIRCRAFT = 50;
const INSTRUCTORS = 40;
const PILOTS = 200;
const CREATES = Number(process.env.BENCH_CREATES ?? 300);
const BOARDS = Number(process.env.BENCH_BOARDS ?? 60);
const dialect = process.env.BENCH_DIALECT === 'postgres' ? 'postgres' : 'sqlite';

const HOUR = 3600;
const DAY = 86400;
const SLOTS = [8, 10, 13, 15];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)];
const ms = (n: number) => `${n.toFixed(2)} ms`;

const s = await startTestServer(dialect);
const db = s.ctx.db as any;
try {
  const company = s.refs.companies.skyline;
  const base = s.refs.bases['Cuatro Vientos'];
  const t0 = performance.now();

  // Fleet: the 4 fixture aircraft plus clones up to 50.
  const template = await db
    .selectFrom('aircraft')
    .selectAll()
    .where('id', '=', s.refs.aircraft['EC-ABC'])
    .executeTakeFirstOrThrow();
  const aircraft: string[] = (
    await db.selectFrom('aircraft').select('id').where('company_id', '=', company).orderBy('registration').execute()
  ).map((r: { id: string }) => r.id);
  const newAircraft = [];
  for (let i = aircraft.length; i < AIRCRAFT; i++) {
    const id = uuidv7();
    aircraft.push(id);
    newAircraft.push({ ...template, id, registration: `EC-B${String(i).padStart(2, '0')}`, base_id: base });
  }
  await db.insertInto('aircraft').values(newAircraft).execute();

  // People: clones of the fixture instructor and pilot (they share the fixture login; the bench signs in as the dispatcher).
  const clone = async (email: string, n: number, prefix: string) => {
    const row = await db.selectFrom('users').selectAll().where('id', '=', s.userId(email)).executeTakeFirstOrThrow();
    const ids: string[] = [];
    const rows = [];
    for (let i = 0; i < n; i++) {
      const id = uuidv7();
      ids.push(id);
      rows.push({ ...row, id, email: null, name: prefix, surname: `${prefix} ${i}` });
    }
    for (let i = 0; i < rows.length; i += 50)
      await db
        .insertInto('users')
        .values(rows.slice(i, i + 50))
        .execute();
    return ids;
  };
  const instructors = await clone('instructor@skyline.test', INSTRUCTORS, 'Instructor');
  const pilots = await clone('pilot@skyline.test', PILOTS, 'Pilot');
  const types = await db.selectFrom('flight_types').select(['id', 'name']).where('company_id', '=', company).execute();
  const dual = types.find((x: { name: string }) => x.name === 'Dual training').id;
  const solo = types.find((x: { name: string }) => x.name === 'Solo').id;

  // Bookings: day by day, slot by slot, every aircraft; distinct pilots and instructors inside one slot.
  const perDay = AIRCRAFT * SLOTS.length;
  const days = Math.ceil(BOOKINGS / perDay);
  const today = Math.floor(Date.now() / 1000 / DAY) * DAY;
  const first = today - Math.floor(days / 2) * DAY;
  let batch: Record<string, unknown>[] = [];
  let written = 0;
  const flush = async () => {
    if (batch.length) await db.insertInto('schedules').values(batch).execute();
    batch = [];
  };
  for (let d = 0; d < days && written < BOOKINGS; d++) {
    for (let k = 0; k < SLOTS.length && written < BOOKINGS; k++) {
      for (let a = 0; a < AIRCRAFT && written < BOOKINGS; a++) {
        const start = first + d * DAY + SLOTS[k] * HOUR;
        const teach = a < INSTRUCTORS && (d + k) % 3 !== 0;
        batch.push({
          id: uuidv7(),
          company_id: company,
          change_no: 1,
          deleted: 0,
          created: start - 7 * DAY,
          modified: start - 7 * DAY,
          aircraft_id: aircraft[a],
          pilot_id: pilots[(a + k * AIRCRAFT + d) % PILOTS],
          instructor_id: teach ? instructors[(a + d) % INSTRUCTORS] : null,
          flight_type_id: teach ? dual : solo,
          base_id: base,
          start_at: start,
          end_at: start + 2 * HOUR,
          status: 'BOOKED',
          flight_id: null,
          remarks: null,
          user_id: null,
          departure_airport: 'LECU',
          landing_airport: 'LECU',
        });
        written++;
        if (batch.length === 1000) await flush();
      }
    }
  }
  await flush();
  if (dialect === 'postgres')
    await db.executeQuery({ sql: 'ANALYZE', parameters: [], query: { kind: 'RawNode' } } as never).catch(() => {});
  console.log(
    `${dialect}: ${written} bookings, ${AIRCRAFT} aircraft, ${INSTRUCTORS} instructors, ${PILOTS} pilots written in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  const token = await s.login('dispatch@skyline.test');

  // (1) Creates: free 18:00-19:30 UTC slots on future days, one aircraft each, with an instructor on half of them.
  const createTimes: number[] = [];
  for (let i = 0; i < CREATES; i++) {
    const start = today + (1 + Math.floor(i / AIRCRAFT)) * DAY + 18 * HOUR;
    const a = i % AIRCRAFT;
    const Schedule = {
      aircraft_id: aircraft[a],
      pilot_id: pilots[(i * 7) % PILOTS],
      instructor_id: i % 2 === 0 && a < INSTRUCTORS ? instructors[a] : null,
      flight_type_id: i % 2 === 0 && a < INSTRUCTORS ? dual : solo,
      start,
      end: start + 90 * 60,
    };
    const t = performance.now();
    const r = await s.api('POST', '/schedules/edit.json', { token, body: { Schedule } });
    createTimes.push(performance.now() - t);
    if (r.body?.result !== true) throw new Error(`create ${i} refused: ${JSON.stringify(r.body)}`);
  }
  if (process.env.BENCH_EXPLAIN) {
    // The conflict reads of a booking (schedules.service.ts `competing`), planned on this data.
    const { sql } = await import('kysely');
    const start = today + 2 * DAY + 9 * HOUR;
    const ex = dialect === 'postgres' ? sql.raw('EXPLAIN (ANALYZE, BUFFERS)') : sql.raw('EXPLAIN QUERY PLAN');
    for (const [col, v] of [
      ['aircraft_id', aircraft[0]],
      ['pilot_id', pilots[0]],
      ['instructor_id', instructors[0]],
    ] as const) {
      const { rows: plan } = await sql<
        Record<string, unknown>
      >`${ex} SELECT id FROM schedules WHERE company_id = ${company} AND start_at < ${start + HOUR} AND start_at > ${start - 7 * DAY} AND end_at > ${start} AND status = 'BOOKED' AND deleted = 0 AND ${sql.ref(col)} = ${v}`.execute(
        db,
      );
      console.log(`-- ${col}`);
      for (const r of plan) console.log(Object.values(r).join(' '));
    }
  }
  const conflictTimes: number[] = [];
  for (let i = 0; i < 50; i++) {
    const start = today + 2 * DAY + SLOTS[i % 4] * HOUR + HOUR;
    const t = performance.now();
    const r = await s.api('POST', '/schedules/edit.json', {
      token,
      body: {
        Schedule: {
          aircraft_id: aircraft[i % AIRCRAFT],
          pilot_id: pilots[0],
          flight_type_id: solo,
          start,
          end: start + HOUR,
        },
      },
    });
    conflictTimes.push(performance.now() - t);
    if (r.body?.result !== false) throw new Error('expected a conflict');
  }

  // (2) Week board: Monday to Sunday of next week, whole company.
  const monday = today + ((8 - new Date(today * 1000).getUTCDay()) % 7 || 7) * DAY;
  const boardTimes: number[] = [];
  const hotTimes: number[] = [];
  let rows = 0;
  for (let i = 0; i < BOARDS; i++) {
    // Cold: a write of the company (a new change number) before each read, so nothing rendered is reused.
    await s.ctx.tx(async (uow) => {
      await uow.changeNo(company, 'schedules');
    });
    const t = performance.now();
    const r = await s.api('GET', `/schedules/index.json?from=${monday}&to=${monday + 7 * DAY}`, { token });
    boardTimes.push(performance.now() - t);
    rows = r.body.schedules.length;
    const h = performance.now();
    await s.api('GET', `/schedules/index.json?from=${monday}&to=${monday + 7 * DAY}`, { token });
    hotTimes.push(performance.now() - h);
  }
  const aircraftWeek: number[] = [];
  for (let i = 0; i < BOARDS; i++) {
    const t = performance.now();
    await s.api(
      'GET',
      `/schedules/index.json?from=${monday}&to=${monday + 7 * DAY}&aircraft_id=${aircraft[i % AIRCRAFT]}`,
      { token },
    );
    aircraftWeek.push(performance.now() - t);
  }

  if (process.env.BENCH_PROFILE) {
    const { listBookings } = await import('../../server/src/areas/schedules/reads.service.ts');
    const { sql } = await import('kysely');
    const actor = {
      userId: s.userId('dispatch@skyline.test'),
      companyId: company,
      role: 170,
      company: { timezone: 'Europe/Madrid' },
    } as never;
    const q = { from: monday, to: monday + 7 * DAY };
    const tq: number[] = [];
    const tj: number[] = [];
    const tr: number[] = [];
    for (let i = 0; i < 20; i++) {
      let t = performance.now();
      const out = await listBookings(db, actor, q);
      tq.push(performance.now() - t);
      t = performance.now();
      JSON.stringify(out);
      tj.push(performance.now() - t);
      t = performance.now();
      await db
        .selectFrom('schedules')
        .selectAll()
        .where('company_id', '=', company)
        .where('start_at', '<', monday + 7 * DAY)
        .where('start_at', '>', monday - 7 * DAY)
        .where('end_at', '>', monday)
        .execute();
      tr.push(performance.now() - t);
    }
    console.log(`profile: listBookings ${ms(median(tq))}, JSON ${ms(median(tj))}, raw rows ${ms(median(tr))}`);
    void sql;
  }
  // Server-side only (no HTTP, no client parsing): the board rendered cold, and a booking decided and committed.
  const { boardText } = await import('../../server/src/areas/schedules/reads.service.ts');
  const { decideBooking } = await import('../../server/src/areas/schedules/schedules.service.ts');
  const me = await db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', s.userId('dispatch@skyline.test'))
    .executeTakeFirstOrThrow();
  const actor = {
    userId: me.id,
    identityId: me.identity_id,
    companyId: company,
    role: 170,
    email: me.email,
    name: me.name,
    surname: me.surname,
    supervisorId: null,
    plan: 'premium',
    company: { name: 'Skyline Flight Academy', timezone: 'Europe/Madrid', flightTimezone: 'UTC', billingEnabled: true },
    credential: { kind: 'session', id: 'bench' },
  } as const;
  const inBoard: number[] = [];
  for (let i = 0; i < BOARDS; i++) {
    const t = performance.now();
    await boardText(db, { ...actor, companyVersion: -1 - i }, { from: monday, to: monday + 7 * DAY });
    inBoard.push(performance.now() - t);
  }
  const inCreate: number[] = [];
  for (let i = 0; i < 100; i++) {
    const start = today + (1 + Math.floor(i / AIRCRAFT)) * DAY + 20 * HOUR;
    const t = performance.now();
    await s.ctx.tx((uow) =>
      decideBooking(uow, actor, {
        aircraft_id: aircraft[i % AIRCRAFT],
        pilot_id: pilots[(i * 7 + 1) % PILOTS],
        instructor_id: null,
        flight_type_id: solo,
        start,
        end: start + HOUR,
      }),
    );
    inCreate.push(performance.now() - t);
  }
  console.log(
    `in process: booking decided and committed median ${ms(median(inCreate))}; week board rendered (query, presentation, JSON) median ${ms(median(inBoard))}`,
  );

  const create = median(createTimes);
  const board = median(boardTimes);
  console.log(
    `create booking (HTTP, ${CREATES} calls): median ${ms(create)}, p95 ${ms(p95(createTimes))}  [target < 15 ms] ${create < 15 ? 'OK' : 'MISSED'}`,
  );
  console.log(`refused booking (conflict, 50 calls): median ${ms(median(conflictTimes))}`);
  console.log(
    `week board (HTTP, ${rows} bookings, ${BOARDS} calls): median ${ms(board)}, p95 ${ms(p95(boardTimes))}  [target < 20 ms] ${board < 20 ? 'OK' : 'MISSED'}`,
  );
  console.log(`week board again, no write since (HTTP, rendered answer reused): median ${ms(median(hotTimes))}`);
  console.log(`one aircraft's week (HTTP): median ${ms(median(aircraftWeek))}`);
  if (process.env.BENCH_STRICT && (create >= 15 || board >= 20)) process.exitCode = 1;
} finally {
  await s.close();
}
