import { bookBalance } from '../billing/helpers.ts';
import { uuidv7 } from '@ops/shared';
import type { TestServer } from '../../setup/server.ts';

/** Helpers of the people suites (bases, pilot groups, pilots, certificates). */

export const now = () => Math.floor(Date.now() / 1000);
export const HOUR = 3600;
export const DAY = 86400;

/** Signs in once per email for a suite; the auditor through its emailed code. */
export function tokens(get: () => TestServer) {
  const cache: Record<string, string> = {};
  return async (email: string): Promise<string> => {
    if (!cache[email])
      cache[email] = email.startsWith('auditor@') ? await auditorToken(get()) : await get().login(email);
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

export interface NewUser {
  company?: 'skyline' | 'harbor';
  role?: number;
  name?: string;
  surname?: string;
  email?: string | null;
  /** Create a login with password demo1234 for the email. */
  login?: boolean;
  active?: boolean;
  pilot?: boolean;
  base?: string | null;
  supervisor?: string | null;
  companyid?: string | null;
  passport?: string | null;
  phone?: string | null;
  city?: string | null;
  notes?: string | null;
  color?: string | null;
  flightHours?: number;
  identityId?: string | null;
  emailStatus?: string;
  billingBalance?: number | null;
}

/** Inserts an account through the data layer (the admin endpoints belong to another area). */
export async function addUser(s: TestServer, o: NewUser = {}): Promise<string> {
  const db = s.ctx.db as any;
  const company = o.company ?? 'skyline';
  const t = now();
  let identityId = o.identityId ?? null;
  if (o.email && o.login && !identityId) {
    const hash = await db
      .selectFrom('identities')
      .select('password_hash')
      .where('email', '=', 'pilot@skyline.test')
      .executeTakeFirstOrThrow();
    identityId = uuidv7();
    await db
      .insertInto('identities')
      .values({
        id: identityId,
        email: o.email,
        password_hash: hash.password_hash,
        alerts: 1,
        message_alerts: 1,
        newsletter: 0,
        whatsapp: 0,
        created: t,
        modified: t,
      })
      .execute();
  }
  const id = uuidv7();
  await db
    .insertInto('users')
    .values({
      id,
      company_id: s.refs.companies[company],
      change_no: 0,
      deleted: 0,
      created: t,
      modified: t,
      identity_id: identityId,
      email: o.email ?? null,
      email_status: o.emailStatus ?? 'confirmed',
      active: o.active === false ? 0 : 1,
      pilot: o.pilot === false ? 0 : 1,
      billing: 0,
      user_group_id: o.role ?? 190,
      base_id: o.base === undefined ? null : o.base,
      supervisor_id: o.supervisor ?? null,
      language: 'en',
      api: 0,
      two_factor: 'OFF',
      name: o.name ?? 'Test',
      surname: o.surname ?? `User${Math.random().toString(36).slice(2, 7)}`,
      companyid: o.companyid ?? null,
      passport: o.passport ?? null,
      phone: o.phone ?? null,
      city: o.city ?? null,
      notes: o.notes ?? null,
      color: o.color ?? null,
      public_phone: 0,
      flight_hours: o.flightHours ?? 0,
    })
    .execute();
  if (o.billingBalance) await bookBalance(s, s.refs.companies[company], id, o.billingBalance);
  return id;
}

export async function flightTypeIds(
  s: TestServer,
  company: 'skyline' | 'harbor' = 'skyline',
): Promise<Record<string, string>> {
  const rows = await s.ctx.db
    .selectFrom('flight_types')
    .select(['id', 'name'])
    .where('company_id', '=', s.refs.companies[company])
    .execute();
  return Object.fromEntries(rows.map((r) => [r.name, r.id]));
}

export interface NewFlight {
  company?: 'skyline' | 'harbor';
  status?: string;
  aircraft?: string | null;
  type?: string | null;
  pic?: string | null;
  sic?: string | null;
  supervisor?: string | null;
  block?: number;
  night?: number;
  ifr?: number;
  rules?: string | null;
  crosscountry?: boolean;
  multiengine?: boolean;
  landings?: number;
  nightLandings?: number;
  /** Unix seconds of on-blocks; the flight starts `block` seconds before. */
  onblocks?: number;
}

/** Inserts a flight through the data layer with every NOT NULL column of migrations 0003 and 0040. */
export async function addFlight(s: TestServer, f: NewFlight): Promise<string> {
  const id = uuidv7();
  const block = f.block ?? HOUR;
  const end = f.onblocks ?? now() - DAY;
  const start = end - block;
  await (s.ctx.db as any)
    .insertInto('flights')
    .values({
      id,
      company_id: s.refs.companies[f.company ?? 'skyline'],
      change_no: 0,
      deleted: 0,
      created: start,
      modified: start,
      date: new Date(start * 1000).toISOString().slice(0, 10),
      status: f.status ?? 'LANDED',
      aircraft_id: f.aircraft ?? null,
      flight_type_id: f.type ?? null,
      pic_id: f.pic ?? null,
      sic_id: f.sic ?? null,
      supervisor_id: f.supervisor ?? null,
      offblocks: start,
      takeoff: start + 300,
      landing: end - 300,
      onblocks: end,
      starts: start,
      block_time: block,
      flight_time: Math.max(0, block - 600),
      night_flight_time: f.night ?? 0,
      ifr_flight_time: f.ifr ?? 0,
      rules: f.rules === undefined ? 'VFR' : f.rules,
      crosscountry: f.crosscountry ? 1 : 0,
      multiengine: f.multiengine ? 1 : 0,
      landings: f.landings ?? 1,
      night_landings: f.nightLandings ?? 0,
      engine_starts: 1,
      pax: 0,
    })
    .execute();
  return id;
}

/** Mails written to the outbox for an address, oldest first. */
export const mailsTo = (s: TestServer, to: string) =>
  s.ctx.db
    .selectFrom('mail_outbox')
    .select(['template', 'subject', 'body_text', 'created'])
    .where('to_address', '=', to)
    .orderBy('created')
    .orderBy('id')
    .execute();

export const userRow = (s: TestServer, id: string) =>
  s.ctx.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** Tables the people endpoints write; a snapshot proves a refused request changed nothing. */
const PEOPLE_TABLES = [
  'users',
  'identities',
  'sessions',
  'bases',
  'base_schedules',
  'aircraft',
  'pilot_groups',
  'pilot_group_members',
  'pilot_aircraft',
  'pilot_flight_types',
  'user_certificates',
  'user_changes',
  'email_tokens',
  'mail_outbox',
  'companies',
] as const;

/** Every row of the people tables, ordered by id (the fixture database is small). */
export async function snapshot(s: TestServer): Promise<Record<string, unknown[]>> {
  const db = s.ctx.db as any;
  const out: Record<string, unknown[]> = {};
  for (const t of PEOPLE_TABLES) out[t] = await db.selectFrom(t).selectAll().orderBy('id').execute();
  // Authentication refreshes these now and then (throttled), whatever the request does.
  out.sessions = out.sessions.map((r: any) => ({ ...r, last_seen: null, expires: null }));
  return out;
}

/**
 * Malformed variants of a body: wrong types in every field, structures where
 * scalars belong, oversized text. Each must answer 4xx, never 500.
 */
export function garbageBodies(model: string | null, fields: Record<string, unknown>): unknown[] {
  const wrap = (inner: unknown) => (model ? { [model]: inner } : inner);
  const junk: unknown[] = [{ nested: { deep: [1, 2] } }, [1, 'two', null], 'x'.repeat(5000), -1e308];
  const out: unknown[] = [wrap(null), wrap([]), wrap('text'), wrap(42)];
  for (const f of Object.keys(fields)) for (const j of junk) out.push(wrap({ ...fields, [f]: j }));
  return out;
}
