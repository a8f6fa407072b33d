import { uuidv7 } from '@ops/shared';
import type { TestServer } from '../../setup/server.ts';

/** Helpers of the fleet suites (aircraft, inventory, reports, jobs, plans). */

/** Unix seconds of an ISO instant with explicit offset. */
export const u = (iso: string): number => {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new Error(`bad ISO ${iso}`);
  return ms / 1000;
};
export const DAY = 86400;

export function tokens(get: () => TestServer) {
  const cache: Record<string, string> = {};
  return async (email: string): Promise<string> => {
    cache[email] ??= await get().login(email);
    return cache[email];
  };
}

/** The auditor signs in with an emailed code (forced EMAIL two-factor). */
export async function auditorToken(s: TestServer): Promise<string> {
  const r = await s.api('POST', '/login.json', { body: { email: 'auditor@skyline.test', password: 'demo1234' } });
  const mail = await s.ctx.db
    .selectFrom('mail_outbox')
    .select('body_text')
    .where('to_address', '=', 'auditor@skyline.test')
    .orderBy('created', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const code = /code is (\d{6})/.exec(mail.body_text)![1];
  const v = await s.api('POST', '/login/verify.json', { body: { challenge: r.body.challenge, code } });
  return v.body.token as string;
}

/** A new user of a fixture company (password demo1234), e.g. a second mechanic. */
export async function addUser(
  s: TestServer,
  opts: { email: string; role: number; company?: 'skyline' | 'harbor'; name?: string },
): Promise<string> {
  const db = s.ctx.db as any;
  const hash = await db
    .selectFrom('identities')
    .select('password_hash')
    .where('email', '=', 'mechanic@skyline.test')
    .executeTakeFirstOrThrow();
  const identityId = uuidv7();
  const userId = uuidv7();
  const now = Math.floor(Date.now() / 1000);
  await db
    .insertInto('identities')
    .values({
      id: identityId,
      email: opts.email,
      password_hash: hash.password_hash,
      alerts: 1,
      message_alerts: 1,
      newsletter: 0,
      whatsapp: 0,
      created: now,
      modified: now,
    })
    .execute();
  await db
    .insertInto('users')
    .values({
      id: userId,
      company_id: s.refs.companies[opts.company ?? 'skyline'],
      change_no: 0,
      deleted: 0,
      created: now,
      modified: now,
      identity_id: identityId,
      email: opts.email,
      email_status: 'confirmed',
      active: 1,
      pilot: 0,
      billing: 0,
      user_group_id: opts.role,
      language: 'en',
      api: 0,
      two_factor: 'OFF',
      name: opts.name ?? 'Test',
      surname: 'User',
      public_phone: 0,
      flight_hours: 0,
    })
    .execute();
  return userId;
}

/** A flight straight into the table (the flights area owns the API): LANDED by default. */
export async function insertFlight(
  s: TestServer,
  opts: { aircraftId: string; onblocks: number; landings?: number; status?: string; company?: 'skyline' | 'harbor' },
): Promise<string> {
  const id = uuidv7();
  const now = Math.floor(Date.now() / 1000);
  await (s.ctx.db as any)
    .insertInto('flights')
    .values({
      id,
      company_id: s.refs.companies[opts.company ?? 'skyline'],
      change_no: 0,
      deleted: 0,
      created: now,
      modified: now,
      date: new Date(opts.onblocks * 1000).toISOString().slice(0, 10),
      status: opts.status ?? 'LANDED',
      aircraft_id: opts.aircraftId,
      offblocks: opts.onblocks - 3600,
      takeoff: opts.onblocks - 3300,
      landing: opts.onblocks - 300,
      onblocks: opts.onblocks,
      block_time: 3600,
      flight_time: 3000,
      landings: opts.landings ?? 1,
    })
    .execute();
  return id;
}

export const createReport = (s: TestServer, token: string, body: unknown) =>
  s.api('POST', '/maintenance/aircraft_reports/create.json', { token, body });

/** A MEL item of a category on an aircraft, released by `releasedBy`. */
export function melBody(
  aircraftId: string,
  releasedBy: string,
  mel: Record<string, unknown> = { category: 'B' },
  report: Record<string, unknown> = {},
) {
  return {
    AircraftReport: { aircraft_id: aircraftId, type: 'MEL', title: 'Item', ata_chapter: '34', ...report },
    MelItem: { released_by: releasedBy, ...mel },
  };
}

export const statusOf = async (s: TestServer, token: string, aircraftId: string) => {
  const r = await s.api('GET', `/maintenance/aircraft_reports/aircraft_status.json?aircraft_id=${aircraftId}`, {
    token,
  });
  if (r.status !== 200) throw new Error(`aircraft_status ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};

/** Sets a fixture company's plan (the plan gate is read on every request). */
export const setPlan = (s: TestServer, company: 'skyline' | 'harbor', plan: string) =>
  (s.ctx.db as any).updateTable('companies').set({ plan }).where('id', '=', s.refs.companies[company]).execute();

/**
 * SQL statements the server runs while `fn` (a read) runs, the fewest of three runs: the test
 * server is in this process and its background work (job leases, batched last-seen touches)
 * shares the executor and can only add. A list answering with a constant count whatever its
 * size has no N+1.
 */
export async function countQueries(s: TestServer, fn: () => Promise<unknown>, runs = 3): Promise<number> {
  const executor = s.ctx.db.getExecutor() as any;
  const original = executor.executeQuery;
  let fewest = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    let n = 0;
    executor.executeQuery = function (this: unknown, ...args: unknown[]) {
      n += 1;
      return original.apply(this, args);
    };
    try {
      await fn();
    } finally {
      executor.executeQuery = original;
    }
    fewest = Math.min(fewest, n);
  }
  return fewest;
}
