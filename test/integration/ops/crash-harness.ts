/**
 * Crash safety of REST writes: cycles of (start the production server, stream
 * REST writes from several clients, SIGKILL the server at a random moment),
 * then checks on the database that every write acknowledged with 2xx is
 * present exactly once, no write is present twice, and nothing is
 * half-written (a flight without its history row, per-status flight counters
 * that disagree with the rows, a damaged SQLite file).
 * Writes: flight types (one row) and flights (the flight, its history row, the
 * company counters and change number in one transaction).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../../../server/src/db/database.ts';
import { createPgSchema, PG_URL, type TestDialect } from '../../setup/dialects.ts';
import { type ProdProcess, startProd } from './prod-process.ts';

export interface CrashReport {
  dialect: TestDialect;
  cycles: number;
  attempted: number;
  acknowledged: number;
  unacknowledged: number;
  unacknowledgedButStored: number;
  missing: string[];
  duplicated: string[];
  halfWritten: string[];
  ms: number;
}

interface Attempt {
  kind: 'type' | 'flight';
  marker: string;
  acked: boolean;
}

export async function crashWrites(dialect: TestDialect, cycles: number, opts: { writers?: number; log?: (s: string) => void } = {}): Promise<CrashReport> {
  const started = Date.now();
  const writers = opts.writers ?? 4;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-crash-'));
  const pgSchema = dialect === 'postgres' ? await createPgSchema() : null;
  const env: Record<string, string> = pgSchema ? { DATABASE_URL: PG_URL, DATABASE_SCHEMA: pgSchema.schema } : { DATA_DIR: dataDir };
  const attempts: Attempt[] = [];
  let seq = 0;
  const run = `${Date.now().toString(36).slice(-4)}`;

  // Seed once, learn the ids the writes need, stop gracefully.
  let p: ProdProcess = await startProd({ ...env, SEED: 'fixtures' });
  const admin = await p.login('admin@skyline.test');
  const pilot = await p.login('pilot@skyline.test');
  const types = await p.api('GET', '/flight_types/index.json', { token: admin.token });
  const typeId = types.body.flight_types.find((t: { FlightType: { name: string } }) => t.FlightType.name === 'Solo')?.FlightType.id ?? types.body.flight_types[0].FlightType.id;
  const aircraft = await p.api('GET', '/aircraft/index.json', { token: admin.token });
  const aircraftId = aircraft.body.aircraft.find((a: { Aircraft: { registration: string } }) => a.Aircraft.registration === 'EC-ABC')?.Aircraft.id ?? aircraft.body.aircraft[0].Aircraft.id;
  await p.stop();

  let onAck: (() => void) | null = null;
  const writeOne = async (proc: ProdProcess) => {
    const n = seq++;
    const kind: Attempt['kind'] = n % 2 ? 'flight' : 'type';
    const marker = `K${run}${n.toString(36)}`;
    const attempt: Attempt = { kind, marker, acked: false };
    attempts.push(attempt);
    const day = new Date(Date.UTC(2023, 0, 1) + (n % 700) * 86400000).toISOString().slice(0, 10);
    const r =
      kind === 'type'
        ? await proc.api('POST', '/flight_types/manager_add.json', { token: admin.token, body: { FlightType: { name: marker } } })
        : await proc.api('POST', '/flights/edit.json', {
            token: admin.token,
            body: {
              Flight: {
                date: day,
                aircraft_id: aircraftId,
                flight_type_id: typeId,
                pic_id: pilot.userId,
                departure_airport: 'LECU',
                landing_airport: 'LECU',
                offblocks_time: '10:00',
                takeoff_time: '10:10',
                landing_time: '11:05',
                onblocks_time: '11:15',
                landings: 1,
                callsign: marker,
              },
            },
          });
    attempt.acked = r.status >= 200 && r.status < 300 && r.body?.result !== false;
    if (attempt.acked) onAck?.();
    if (r.status >= 400 && r.status < 500) throw new Error(`write refused (${r.status}): ${JSON.stringify(r.body)}`);
  };

  for (let c = 0; c < cycles; c++) {
    p = await startProd({ ...env, SEED: 'none' });
    // The kill lands at a random moment once writes flow (a loaded machine starts slowly).
    const flowing = new Promise<void>((resolve) => {
      onAck = resolve;
      setTimeout(resolve, 15_000);
    });
    const killAt = Math.random() * 400;
    let alive = true;
    const streams = Array.from({ length: writers }, async () => {
      while (alive) {
        try {
          await writeOne(p);
        } catch (err) {
          if (err instanceof Error && err.message.startsWith('write refused')) throw err;
          // Connection reset by the kill: unacknowledged.
        }
      }
    });
    await flowing;
    onAck = null;
    await new Promise((r) => setTimeout(r, killAt));
    // No new writes from here: the ones in flight are cut by the kill.
    alive = false;
    await p.kill();
    await Promise.all(streams);
    opts.log?.(`${dialect} cycle ${c + 1}/${cycles}: ${attempts.length} writes so far`);
  }

  // Verify on the database itself.
  const database = openDatabase({ databaseUrl: pgSchema ? PG_URL : null, dataDir, pgSchema: pgSchema?.schema ?? null, poolSize: 2 });
  const db = database.db;
  const missing: string[] = [];
  const duplicated: string[] = [];
  const halfWritten: string[] = [];
  let unackedStored = 0;
  try {
    const typeCounts = new Map<string, number>();
    for (const r of await db.selectFrom('flight_types').select(['name']).where('name', 'like', `K${run}%`).execute()) typeCounts.set(r.name, (typeCounts.get(r.name) ?? 0) + 1);
    const flights = await db.selectFrom('flights').select(['id', 'callsign', 'company_id']).where('callsign', 'like', `K${run}%`).execute();
    const flightCounts = new Map<string, number>();
    for (const f of flights) flightCounts.set(f.callsign as string, (flightCounts.get(f.callsign as string) ?? 0) + 1);
    for (const a of attempts) {
      const n = (a.kind === 'type' ? typeCounts : flightCounts).get(a.marker) ?? 0;
      if (n > 1) duplicated.push(a.marker);
      if (a.acked && n !== 1) missing.push(a.marker);
      if (!a.acked && n === 1) unackedStored++;
    }
    // Every stored flight has exactly its creation history row.
    if (flights.length) {
      const creates = await db
        .selectFrom('flight_changes')
        .select(['flight_id', sql<number>`count(*)`.as('n')])
        .where('action', '=', 'create')
        .where(
          'flight_id',
          'in',
          flights.map((f) => f.id),
        )
        .groupBy('flight_id')
        .execute();
      const byFlight = new Map(creates.map((c) => [c.flight_id, Number(c.n)]));
      for (const f of flights) if (byFlight.get(f.id) !== 1) halfWritten.push(`flight ${f.callsign} has ${byFlight.get(f.id) ?? 0} create history rows`);
    }
    // The per-status counters agree with the rows.
    const company = flights[0]?.company_id;
    if (company) {
      const counted = await db.selectFrom('flight_counts').select(['status', 'count']).where('company_id', '=', company).execute();
      const actual = await db
        .selectFrom('flights')
        .select(['status', sql<number>`count(*)`.as('n')])
        .where('company_id', '=', company)
        .where('deleted', '=', 0)
        .groupBy('status')
        .execute();
      const want = new Map(actual.map((r) => [r.status, Number(r.n)]));
      for (const c of counted) if (Number(c.count) !== (want.get(c.status) ?? 0)) halfWritten.push(`flight_counts ${c.status} = ${c.count}, rows ${want.get(c.status) ?? 0}`);
    }
    if (!pgSchema) {
      const check = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
      if (check.rows[0]?.integrity_check !== 'ok') halfWritten.push(`integrity_check: ${JSON.stringify(check.rows)}`);
    }
  } finally {
    await database.close();
    await pgSchema?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const acknowledged = attempts.filter((a) => a.acked).length;
  return {
    dialect,
    cycles,
    attempted: attempts.length,
    acknowledged,
    unacknowledged: attempts.length - acknowledged,
    unacknowledgedButStored: unackedStored,
    missing,
    duplicated,
    halfWritten,
    ms: Date.now() - started,
  };
}
