/**
 * Crash safety of REST writes: cycles of (start the production server, stream
 * REST writes from several clients, SIGKILL the server at a random moment),
 * then checks on the database that every write acknowledged with 2xx is
 * present exactly once, no write is present twice, and nothing is
 * half-written.
 * Writes, in turn per client: flight types (one row); flights (the flight, its
 * history row, the company counters and change number in one transaction);
 * flight confirms (status, confirm history row, aircraft books, webhook
 * outbox); MEL raise, extend and close (report, MEL item, outbox); safety
 * reports filed open, or as a draft then submitted (number `YYYY/NNNNN` from
 * the company counter, trail row, outbox).
 * Half-written means: a flight without its create history row, LANDED without
 * its confirm row (or the reverse), counters or aircraft books that disagree
 * with the rows, a MEL report without its item, an extension half-stamped, a
 * safety number gap or duplicate, a submitted report without number or trail,
 * an outbox event without its change or a change without its event, a damaged
 * SQLite file.
 * Confirms are billed (an aircraft rate is set after the seed): each LANDED
 * flight of the run carries exactly its charge, every other flight none, and
 * every account's totals row equals a recount of its entries (CONTRACT 6);
 * the duty running totals equal a recount from the flights (issue 30).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../../../server/src/db/database.ts';
import { createPgSchema, PG_URL, type TestDialect } from '../../setup/dialects.ts';
import { recountLedger } from '../billing/recount.ts';
import { recountDutyOn } from '../duty/recount.ts';
import { type ProdProcess, startProd } from './prod-process.ts';

export interface CrashReport {
  dialect: TestDialect;
  cycles: number;
  attempted: number;
  acknowledged: number;
  unacknowledged: number;
  unacknowledgedButStored: number;
  /** Attempts and acknowledgements per kind of write. */
  byKind: Record<string, { attempted: number; acknowledged: number; cutButStored: number }>;
  /** Webhook outbox events checked against the changes they describe. */
  webhookEvents: number;
  missing: string[];
  duplicated: string[];
  halfWritten: string[];
  /** Billed confirms: LANDED flights of the run checked, and flights charged twice or not at all (or charged while not LANDED). */
  billing: {
    landed: number;
    charged: number;
    doubled: string[];
    missing: string[];
    accounts: number;
    totalsOff: string[];
  };
  /** Duty running totals that disagree with a recount from the flights. */
  dutyTotalsOff: string[];
  ms: number;
}

/** The harness's aircraft rate: 100.00 an hour; a flight of 1:15 block at 21 % tax is 125.00 + 26.25. */
const RATE = 100;
const CHARGE_CENTS = -15125;

type Kind =
  | 'type'
  | 'flight'
  | 'confirm'
  | 'mel.raise'
  | 'mel.extend'
  | 'mel.close'
  | 'safety.open'
  | 'safety.draft'
  | 'safety.submit';

interface Attempt {
  kind: Kind;
  /** The marker of the record (name, callsign, title), the same for every step on it. */
  marker: string;
  /** The record id, once its creation was acknowledged. */
  id?: string;
  acked: boolean;
}

/** A receiver for the harness's webhook endpoint (deliveries are not what is checked here, the outbox is). */
async function sink() {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export async function crashWrites(
  dialect: TestDialect,
  cycles: number,
  opts: { writers?: number; log?: (s: string) => void } = {},
): Promise<CrashReport> {
  const started = Date.now();
  const writers = opts.writers ?? 4;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-crash-'));
  const pgSchema = dialect === 'postgres' ? await createPgSchema() : null;
  const env: Record<string, string> = pgSchema
    ? { DATABASE_URL: PG_URL, DATABASE_SCHEMA: pgSchema.schema }
    : { DATA_DIR: dataDir };
  const open = () =>
    openDatabase({ databaseUrl: pgSchema ? PG_URL : null, dataDir, pgSchema: pgSchema?.schema ?? null, poolSize: 2 });
  const attempts: Attempt[] = [];
  let seq = 0;
  let confirmDay = 0;
  const run = `${Date.now().toString(36).slice(-4)}`;
  const hook = await sink();

  // Seed once, learn the ids the writes need, subscribe to every event, stop gracefully.
  let p: ProdProcess = await startProd({ ...env, SEED: 'fixtures' });
  const admin = await p.login('admin@skyline.test');
  const pilot = await p.login('pilot@skyline.test');
  const mechanic = await p.login('mechanic@skyline.test');
  const types = await p.api('GET', '/flight_types/index.json', { token: admin.token });
  const typeId =
    types.body.flight_types.find((t: { FlightType: { name: string } }) => t.FlightType.name === 'Solo')?.FlightType
      .id ?? types.body.flight_types[0].FlightType.id;
  const aircraft = await p.api('GET', '/aircraft/index.json', { token: admin.token });
  const reg = (r: string) =>
    aircraft.body.aircraft.find((a: { Aircraft: { registration: string } }) => a.Aircraft.registration === r)?.Aircraft
      .id;
  const aircraftId = reg('EC-ABC') ?? aircraft.body.aircraft[0].Aircraft.id;
  const melAircraftId = reg('EC-DEF') ?? aircraftId;
  const events = (await p.api('GET', '/webhooks/events.json', { token: admin.token })).body.events as string[];
  const endpoint = await p.api('POST', '/webhooks/add.json', { token: admin.token, body: { url: hook.url, events } });
  if (endpoint.status !== 200) throw new Error(`webhook endpoint: ${endpoint.status} ${JSON.stringify(endpoint.body)}`);
  // Billed confirms: the confirm's transaction also books the charge.
  const rate = await p.api('POST', '/manager/billing/rates/edit.json', {
    token: admin.token,
    body: { Rate: { kind: 'aircraft', target_id: aircraftId, amount: RATE } },
  });
  if (rate.status !== 200) throw new Error(`rate: ${rate.status} ${JSON.stringify(rate.body)}`);
  await p.stop();
  const seeded = open();
  const category = await seeded.db
    .selectFrom('safety_report_categories')
    .select('id')
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const booksBefore = await seeded.db
    .selectFrom('aircraft')
    .select(['flights', 'landings'])
    .where('id', '=', aircraftId)
    .executeTakeFirstOrThrow();
  await seeded.close();

  let onAck: (() => void) | null = null;
  let alive = true;
  const step = async (a: Attempt, call: () => Promise<{ status: number; body: any }>): Promise<boolean> => {
    attempts.push(a);
    const r = await call();
    a.acked = r.status >= 200 && r.status < 300 && r.body?.result !== false;
    if (a.acked) onAck?.();
    if (r.status >= 400 && r.status < 500)
      throw new Error(`write refused (${a.kind} ${r.status}): ${JSON.stringify(r.body)}`);
    // A later step on the same record only after this one was acknowledged.
    return a.acked;
  };
  const flightBody = (day: string, callsign: string) => ({
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
      callsign,
    },
  });
  const safetyBody = (name: string, status: 'open' | 'draft') => ({
    SafetyReport: {
      name,
      status,
      datetime: '2026-03-14T10:30:00Z',
      location: 'LECU',
      events: 'Crash harness',
      flight_phase: 'APR',
      safety_report_category_id: category.id,
    },
  });

  /**
   * Second steps on acknowledged records (confirm, extend, close, submit), taken
   * before any new record: in the same cycle while writes flow, else first
   * thing in the next one, so they meet the kill as often as creations do.
   */
  const followUps: Array<(proc: ProdProcess) => Promise<void>> = [];
  const writeOne = async (proc: ProdProcess) => {
    const next = followUps.shift();
    if (next) return next(proc);
    const n = seq++;
    const marker = `K${run}${n.toString(36)}`;
    const token = admin.token;
    switch (n % 6) {
      case 0:
        await step({ kind: 'type', marker, acked: false }, () =>
          proc.api('POST', '/flight_types/manager_add.json', { token, body: { FlightType: { name: marker } } }),
        );
        return;
      case 1: {
        const day = new Date(Date.UTC(2023, 0, 1) + (n % 700) * 86400000).toISOString().slice(0, 10);
        await step({ kind: 'flight', marker, acked: false }, () =>
          proc.api('POST', '/flights/edit.json', { token, body: flightBody(day, marker) }),
        );
        return;
      }
      case 2: {
        // One day per confirmed flight, before the drafts' range: confirms never overlap.
        const day = new Date(Date.UTC(1990, 0, 1) + confirmDay++ * 86400000).toISOString().slice(0, 10);
        let id = '';
        const created = await step({ kind: 'flight', marker, acked: false }, async () => {
          const r = await proc.api('POST', '/flights/edit.json', { token, body: flightBody(day, marker) });
          id = r.body?.id ?? '';
          return r;
        });
        if (created)
          followUps.push((q) =>
            step({ kind: 'confirm', marker, id, acked: false }, () =>
              q.api('POST', `/flights/confirm/${id}.json`, { token, body: { pass: 'demo1234' } }),
            ).then(() => {}),
          );
        return;
      }
      case 3: {
        let id = '';
        let expires = 0;
        const raised = await step({ kind: 'mel.raise', marker, acked: false }, async () => {
          const r = await proc.api('POST', '/maintenance/aircraft_reports/create.json', {
            token,
            body: {
              AircraftReport: { aircraft_id: melAircraftId, type: 'MEL', title: marker, ata_chapter: '34' },
              MelItem: { released_by: mechanic.userId, category: 'C' },
            },
          });
          id = r.body?.id ?? '';
          expires = Number(r.body?.MelItem?.expires ?? 0);
          return r;
        });
        if (!raised) return;
        const close = (q: ProdProcess) =>
          step({ kind: 'mel.close', marker, id, acked: false }, () =>
            q.api('POST', `/maintenance/aircraft_reports/edit/${id}.json`, {
              token,
              body: { AircraftReport: { status: 'CLOSED' } },
            }),
          ).then(() => {});
        // Every other item is extended before it is closed.
        if (n % 12 === 3) {
          followUps.push(async (q) => {
            if (
              await step({ kind: 'mel.extend', marker, id, acked: false }, () =>
                q.api('POST', `/maintenance/aircraft_reports/extend/${id}.json`, {
                  token,
                  body: { extended_until: expires + 86400 },
                }),
              )
            )
              followUps.push(close);
          });
        } else followUps.push(close);
        return;
      }
      case 4:
        await step({ kind: 'safety.open', marker, acked: false }, () =>
          proc.api('POST', '/safety_reports/create.json', { token, body: safetyBody(marker, 'open') }),
        );
        return;
      default: {
        let id = '';
        const drafted = await step({ kind: 'safety.draft', marker, acked: false }, async () => {
          const r = await proc.api('POST', '/safety_reports/create.json', { token, body: safetyBody(marker, 'draft') });
          id = r.body?.id ?? '';
          return r;
        });
        if (drafted)
          followUps.push((q) =>
            step({ kind: 'safety.submit', marker, id, acked: false }, () =>
              q.api('POST', `/safety_reports/edit/${id}.json`, { token, body: { SafetyReport: { status: 'open' } } }),
            ).then(() => {}),
          );
      }
    }
  };

  for (let c = 0; c < cycles; c++) {
    p = await startProd({ ...env, SEED: 'none' });
    // The kill lands at a random moment once writes flow (a loaded machine starts slowly).
    const flowing = new Promise<void>((resolve) => {
      onAck = resolve;
      setTimeout(resolve, 15_000);
    });
    // Up to 1.5 s: on a loaded machine a write takes a few hundred ms, so several are acknowledged and several cut per cycle.
    const killAt = Math.random() * 1500;
    alive = true;
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
  await hook.close();

  // Verify on the database itself.
  const database = open();
  const db = database.db;
  const missing: string[] = [];
  const duplicated: string[] = [];
  const halfWritten: string[] = [];
  const stored = new Set<Attempt>();
  let webhookEvents = 0;
  const billing: CrashReport['billing'] = {
    landed: 0,
    charged: 0,
    doubled: [],
    missing: [],
    accounts: 0,
    totalsOff: [],
  };
  let dutyTotalsOff: string[] = [];
  try {
    const count = (keys: (string | null)[]) => {
      const m = new Map<string, number>();
      for (const k of keys) m.set(k ?? '', (m.get(k ?? '') ?? 0) + 1);
      return m;
    };
    const like = `K${run}%`;
    const typeCounts = count(
      (await db.selectFrom('flight_types').select(['name']).where('name', 'like', like).execute()).map((r) => r.name),
    );
    const flights = await db
      .selectFrom('flights')
      .select(['id', 'callsign', 'company_id', 'status', 'confirmed_at'])
      .where('callsign', 'like', like)
      .execute();
    const flightCounts = count(flights.map((f) => f.callsign));
    const reports = await db
      .selectFrom('aircraft_reports')
      .select(['id', 'title', 'status', 'closed'])
      .where('title', 'like', like)
      .where('deleted', '=', 0)
      .execute();
    const reportCounts = count(reports.map((r) => r.title));
    const melItems = reports.length
      ? await db
          .selectFrom('mel_items')
          .select(['aircraft_report_id', 'extended', 'extended_by', 'extended_until'])
          .where(
            'aircraft_report_id',
            'in',
            reports.map((r) => r.id),
          )
          .execute()
      : [];
    const safety = await db
      .selectFrom('safety_reports')
      .select(['id', 'name', 'status', 'idn', 'reported'])
      .where('name', 'like', like)
      .execute();
    const safetyCounts = count(safety.map((r) => r.name));
    const flightByMarker = new Map(flights.map((f) => [f.callsign as string, f]));
    const reportByMarker = new Map(reports.map((r) => [r.title, r]));
    const itemByReport = new Map(melItems.map((m) => [m.aircraft_report_id, m]));
    const safetyByMarker = new Map(safety.map((r) => [r.name, r]));
    const confirmRows = count(
      (flights.length
        ? await db
            .selectFrom('flight_changes')
            .select('flight_id')
            .where('action', '=', 'confirm')
            .where(
              'flight_id',
              'in',
              flights.map((f) => f.id),
            )
            .execute()
        : []
      ).map((r) => r.flight_id),
    );

    /** Whether the change of an attempt is in the database (counted once: duplicates are reported apart). */
    const present = (a: Attempt): number => {
      switch (a.kind) {
        case 'type':
          return typeCounts.get(a.marker) ?? 0;
        case 'flight':
          return flightCounts.get(a.marker) ?? 0;
        case 'confirm':
          return flightByMarker.get(a.marker)?.status === 'LANDED' ? 1 : 0;
        case 'mel.raise':
          return reportCounts.get(a.marker) ?? 0;
        case 'mel.extend':
          return itemByReport.get(reportByMarker.get(a.marker)?.id as string)?.extended ? 1 : 0;
        case 'mel.close':
          return reportByMarker.get(a.marker)?.status === 'CLOSED' ? 1 : 0;
        case 'safety.open':
        case 'safety.draft':
          return safetyCounts.get(a.marker) ?? 0;
        case 'safety.submit':
          return safetyByMarker.get(a.marker)?.status === 'open' ? 1 : 0;
      }
    };
    for (const a of attempts) {
      const n = present(a);
      if (n > 1) duplicated.push(`${a.kind} ${a.marker}`);
      if (a.acked && n !== 1) missing.push(`${a.kind} ${a.marker}`);
      if (n >= 1) stored.add(a);
    }

    // Flights: exactly one create history row; LANDED exactly when there is one confirm row and a confirmation stamp.
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
      for (const f of flights) {
        if (byFlight.get(f.id) !== 1)
          halfWritten.push(`flight ${f.callsign} has ${byFlight.get(f.id) ?? 0} create history rows`);
        const confirms = confirmRows.get(f.id) ?? 0;
        const landed = f.status === 'LANDED';
        if (confirms !== (landed ? 1 : 0) || landed !== (f.confirmed_at !== null))
          halfWritten.push(
            `flight ${f.callsign} is ${f.status} (confirmed_at ${f.confirmed_at}) with ${confirms} confirm rows`,
          );
      }
    }
    // The per-status counters agree with the rows.
    const company = flights[0]?.company_id;
    if (company) {
      const counted = await db
        .selectFrom('flight_counts')
        .select(['status', 'count'])
        .where('company_id', '=', company)
        .execute();
      const actual = await db
        .selectFrom('flights')
        .select(['status', sql<number>`count(*)`.as('n')])
        .where('company_id', '=', company)
        .where('deleted', '=', 0)
        .groupBy('status')
        .execute();
      const want = new Map(actual.map((r) => [r.status, Number(r.n)]));
      for (const c of counted)
        if (Number(c.count) !== (want.get(c.status) ?? 0))
          halfWritten.push(`flight_counts ${c.status} = ${c.count}, rows ${want.get(c.status) ?? 0}`);
    }
    // The aircraft books moved once per confirmed flight (each one landing).
    const landed = flights.filter((f) => f.status === 'LANDED').length;
    const books = await db
      .selectFrom('aircraft')
      .select(['flights', 'landings'])
      .where('id', '=', aircraftId)
      .executeTakeFirstOrThrow();
    if (
      Number(books.flights) - Number(booksBefore.flights) !== landed ||
      Number(books.landings) - Number(booksBefore.landings) !== landed
    ) {
      halfWritten.push(
        `aircraft books moved by ${Number(books.flights) - Number(booksBefore.flights)} flights and ${Number(books.landings) - Number(booksBefore.landings)} landings for ${landed} confirmed flights`,
      );
    }
    // MEL: every report has its item; an extension is stamped whole; a closure has its time.
    for (const r of reports) {
      const item = itemByReport.get(r.id);
      if (!item) halfWritten.push(`MEL report ${r.title} has no item`);
      else if (item.extended ? item.extended_until === null || item.extended_by === null : item.extended_until !== null)
        halfWritten.push(`MEL item ${r.title} extension half-stamped`);
      if ((r.status === 'CLOSED') !== (r.closed !== null))
        halfWritten.push(`MEL report ${r.title} is ${r.status} with closed ${r.closed}`);
    }
    // Safety: a submitted report has its number and time, a draft neither; one creation trail row, one submission row when submitted from a draft.
    if (safety.length) {
      const trail = await db
        .selectFrom('safety_report_changes')
        .select(['safety_report_id', 'action'])
        .where(
          'safety_report_id',
          'in',
          safety.map((r) => r.id),
        )
        .execute();
      for (const r of safety) {
        const open = r.status !== 'draft';
        if (open !== (r.idn !== null) || open !== (r.reported !== null))
          halfWritten.push(`safety report ${r.name} is ${r.status} with number ${r.idn}`);
        const rows = trail.filter((t) => t.safety_report_id === r.id);
        if (rows.filter((t) => t.action === 'create').length !== 1)
          halfWritten.push(
            `safety report ${r.name} has ${rows.filter((t) => t.action === 'create').length} create trail rows`,
          );
        const wantSubmit = attempts.some((a) => a.kind === 'safety.draft' && a.marker === r.name) && open ? 1 : 0;
        if (rows.filter((t) => t.action === 'submit').length !== wantSubmit)
          halfWritten.push(
            `safety report ${r.name} has ${rows.filter((t) => t.action === 'submit').length} submit trail rows`,
          );
      }
    }
    // Safety numbers of the company: 1..N per year, no gap, no duplicate, the counter at N.
    const companyId = (
      await db.selectFrom('safety_reports').select('company_id').where('name', 'like', like).executeTakeFirst()
    )?.company_id;
    if (companyId) {
      const numbered = await db
        .selectFrom('safety_reports')
        .select(['idn_year', 'idn_seq'])
        .where('company_id', '=', companyId)
        .where('idn_seq', 'is not', null)
        .execute();
      const counters = await db
        .selectFrom('safety_report_counters')
        .select(['year', 'value'])
        .where('company_id', '=', companyId)
        .execute();
      for (const year of new Set(numbered.map((r) => Number(r.idn_year)))) {
        const seqs = numbered.filter((r) => Number(r.idn_year) === year).map((r) => Number(r.idn_seq));
        const max = Math.max(...seqs);
        if (new Set(seqs).size !== seqs.length) halfWritten.push(`safety numbers of ${year}: duplicates`);
        if (new Set(seqs).size !== max)
          halfWritten.push(`safety numbers of ${year}: ${max - new Set(seqs).size} gaps below ${max}`);
        const counter = counters.find((c) => Number(c.year) === year);
        if (Number(counter?.value) !== max)
          halfWritten.push(`safety counter of ${year} is ${counter?.value}, highest number ${max}`);
      }
    }
    // Outbox: one event per stored change of a subscribed type, none for a change that is not there.
    const eventOf: Partial<Record<Kind, { type: string; id: (a: Attempt) => string | undefined }>> = {
      confirm: { type: 'flight.confirmed', id: (a) => flightByMarker.get(a.marker)?.id },
      'mel.raise': { type: 'mel.raised', id: (a) => reportByMarker.get(a.marker)?.id },
      'mel.extend': { type: 'mel.extended', id: (a) => reportByMarker.get(a.marker)?.id },
      'mel.close': { type: 'mel.closed', id: (a) => reportByMarker.get(a.marker)?.id },
      'safety.open': { type: 'safety_report.submitted', id: (a) => safetyByMarker.get(a.marker)?.id },
      'safety.submit': { type: 'safety_report.submitted', id: (a) => safetyByMarker.get(a.marker)?.id },
    };
    const recordIds = [...flights.map((f) => f.id), ...reports.map((r) => r.id), ...safety.map((r) => r.id)];
    const outbox = recordIds.length
      ? await db
          .selectFrom('webhook_events')
          .select(['type', 'record_id'])
          .where('record_id', 'in', recordIds)
          .execute()
      : [];
    const got = new Map<string, number>();
    for (const e of outbox) got.set(`${e.type} ${e.record_id}`, (got.get(`${e.type} ${e.record_id}`) ?? 0) + 1);
    const want = new Map<string, string>();
    for (const a of attempts) {
      const ev = eventOf[a.kind];
      const id = ev && events.includes(ev.type) ? ev.id(a) : undefined;
      if (ev && id && stored.has(a)) want.set(`${ev.type} ${id}`, `${a.kind} ${a.marker}`);
    }
    for (const [key, what] of want)
      if (got.get(key) !== 1) halfWritten.push(`${what}: ${got.get(key) ?? 0} outbox events`);
    for (const [key, n] of got) {
      const type = key.split(' ')[0];
      if (!want.has(key) && Object.values(eventOf).some((e) => e.type === type))
        halfWritten.push(`outbox event ${key} (${n}) without its change`);
    }
    webhookEvents = outbox.length;
    // Billing: a LANDED flight has its one charge (no reversal: nothing edits it), any other flight no entry.
    const entries = flights.length
      ? await db
          .selectFrom('billing_entries')
          .select(['flight_id', 'kind', 'amount'])
          .where(
            'flight_id',
            'in',
            flights.map((f) => f.id),
          )
          .execute()
      : [];
    for (const f of flights) {
      const mine = entries.filter((e) => e.flight_id === f.id);
      const sum = mine.reduce((x, e) => x + Number(e.amount), 0);
      if (f.status === 'LANDED') {
        billing.landed++;
        if (mine.length === 1 && sum === CHARGE_CENTS) billing.charged++;
        else if (mine.length > 1 || sum < CHARGE_CENTS)
          billing.doubled.push(`${f.callsign}: ${mine.length} entries, ${sum} cents`);
        else billing.missing.push(`${f.callsign}: ${mine.length} entries, ${sum} cents`);
      } else if (mine.length) billing.doubled.push(`${f.callsign} is ${f.status} with ${mine.length} entries`);
    }
    billing.totalsOff = await recountLedger(db);
    billing.accounts = Number(
      (
        await db
          .selectFrom('billing_accounts')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirst()
      )?.n ?? 0,
    );
    dutyTotalsOff = await recountDutyOn(db);
    if (!pgSchema) {
      const check = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
      if (check.rows[0]?.integrity_check !== 'ok') halfWritten.push(`integrity_check: ${JSON.stringify(check.rows)}`);
    }
  } finally {
    await database.close();
    await pgSchema?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const byKind: CrashReport['byKind'] = {};
  for (const a of attempts) {
    byKind[a.kind] ??= { attempted: 0, acknowledged: 0, cutButStored: 0 };
    const k = byKind[a.kind];
    k.attempted++;
    if (a.acked) k.acknowledged++;
    else if (stored.has(a)) k.cutButStored++;
  }
  const acknowledged = attempts.filter((a) => a.acked).length;
  return {
    dialect,
    cycles,
    attempted: attempts.length,
    acknowledged,
    unacknowledged: attempts.length - acknowledged,
    unacknowledgedButStored: attempts.filter((a) => !a.acked && stored.has(a)).length,
    byKind,
    webhookEvents,
    missing,
    duplicated,
    halfWritten,
    billing,
    dutyTotalsOff,
    ms: Date.now() - started,
  };
}
