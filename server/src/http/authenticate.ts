import type { Plan } from '@ops/shared';
import { accountExpired } from '@ops/shared/rules/users/account-expiry';
import { CompiledQuery, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { credentialCacheOf } from '../ops/credential-cache.ts';
import { nowSeconds, sha256 } from '../lib/tokens.ts';
import type { Actor } from './actor.ts';
import { Coalescer } from '../lib/coalesce.ts';

export const SESSION_TTL_SECONDS = 14 * 24 * 3600;
/** last_seen / last_used_at are refreshed at most this often, so reads stay reads. */
const TOUCH_INTERVAL = 60;

export type AuthResult = { ok: true; actor: Actor } | { ok: false; message: string };

export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return m ? m[1] : null;
}

function credentialQuery(db: Kysely<DB>, isKey: boolean, hashes: string | string[]) {
  const base = isKey
    ? db
        .selectFrom('api_keys as k')
        .innerJoin('users as u', 'u.id', 'k.user_id')
        .select([
          'k.id as credential_id',
          'k.key_hash as hash',
          'k.revoked as revoked',
          'k.expires as expires',
          'k.last_used_at as touched',
        ])
        .where('k.key_hash', typeof hashes === 'string' ? '=' : 'in', hashes)
    : db
        .selectFrom('sessions as k')
        .innerJoin('users as u', 'u.id', 'k.user_id')
        .select([
          'k.id as credential_id',
          'k.token_hash as hash',
          'k.revoked as revoked',
          'k.expires as expires',
          'k.last_seen as touched',
        ])
        .where('k.token_hash', typeof hashes === 'string' ? '=' : 'in', hashes);
  return base
    .innerJoin('companies as c', 'c.id', 'u.company_id')
    .select((eb) => [
      eb
        .selectFrom('sync_counters as sc')
        .select('sc.value')
        .whereRef('sc.company_id', '=', 'u.company_id')
        .as('company_version'),
      'u.id as user_id',
      'u.identity_id',
      'u.company_id',
      'u.user_group_id',
      'u.email',
      'u.name',
      'u.surname',
      'u.language',
      'u.supervisor_id',
      'u.active',
      'u.deleted',
      'u.expiration',
      'c.name as company_name',
      'c.plan',
      'c.timezone',
      'c.flight_timezone',
      'c.billing_enabled',
      'c.disabled',
    ]);
}

type CredentialRow = Awaited<ReturnType<ReturnType<typeof credentialQuery>['executeTakeFirst']>>;

// The query runs on every request: build and compile it once per database and
// kind, then execute the compiled SQL with the token hash as its only parameter.
const compiled = new WeakMap<Kysely<DB>, { key: string; session: string }>();

async function lookupOne(db: Kysely<DB>, isKey: boolean, hash: string): Promise<CredentialRow> {
  let sqlText = compiled.get(db);
  if (!sqlText) {
    sqlText = {
      key: credentialQuery(db, true, '?').compile().sql,
      session: credentialQuery(db, false, '?').compile().sql,
    };
    compiled.set(db, sqlText);
  }
  const result = await db.executeQuery<NonNullable<CredentialRow>>(
    CompiledQuery.raw(isKey ? sqlText.key : sqlText.session, [hash]),
  );
  return result.rows[0];
}

/** How many credentials one query looks up (bound parameters stay well under both dialects' limits). */
const MANY_CHUNK = 500;
/** How many of those queries authenticateHashed runs at once. */
const MANY_AT_ONCE = 4;

/**
 * Per database and kind: lookups that miss the cache while others run go together in one query
 * (lib/coalesce.ts), at most two at a time. A herd of 5,000 devices opening streams and catch-up pulls
 * took one pooled connection per request and exhausted the pool (issue 34); now a handful of queries.
 * A lookup never joins a query already running, so it sees every revocation committed before it.
 */
interface Loaders {
  key: Coalescer<string, CredentialRow>;
  session: Coalescer<string, CredentialRow>;
  touchKey: Coalescer<string, true>;
  touchSession: Coalescer<string, true>;
}
const loaders = new WeakMap<Kysely<DB>, Loaders>();

function loadersOf(db: Kysely<DB>): Loaders {
  let l = loaders.get(db);
  if (l) return l;
  const lookup = (isKey: boolean) => async (hashes: string[]) => {
    const out = new Map<string, CredentialRow>();
    if (hashes.length === 1) {
      const row = await lookupOne(db, isKey, hashes[0] as string);
      if (row) out.set(row.hash, row);
      return out;
    }
    for (const row of await credentialQuery(db, isKey, hashes).execute()) out.set(row.hash, row);
    return out;
  };
  // Fire and forget, one statement per batch: a lost update only delays last_seen/last_used_at.
  const touch = (isKey: boolean) => async (ids: string[]) => {
    const now = nowSeconds();
    const q = isKey
      ? db.updateTable('api_keys').set({ last_used_at: now }).where('id', 'in', ids)
      : db.updateTable('sessions').set({ last_seen: now }).where('id', 'in', ids);
    await q.execute().catch(() => {});
    return new Map<string, true>();
  };
  l = {
    key: new Coalescer(lookup(true), undefined, 2, MANY_CHUNK),
    session: new Coalescer(lookup(false), undefined, 2, MANY_CHUNK),
    touchKey: new Coalescer(touch(true), true, 1, MANY_CHUNK),
    touchSession: new Coalescer(touch(false), true, 1, MANY_CHUNK),
  };
  loaders.set(db, l);
  return l;
}

/** Queues a last-seen touch (batched with others; nobody waits for it). */
function touchLater(db: Kysely<DB>, isKey: boolean, id: string): void {
  const l = loadersOf(db);
  void (isKey ? l.touchKey : l.touchSession).load(id).catch(() => {});
}

/** A credential as a long-lived holder keeps it: its hash (what the lookup needs) and whether it is an API key. */
export interface HashedCredential {
  hash: string;
  isKey: boolean;
}

/** `token` hashed once, for a holder that re-checks it many times (a live stream: `authenticateHashed`). */
export const hashedCredential = (token: string): HashedCredential => ({
  hash: sha256(token),
  isKey: token.startsWith('svc_'),
});

/** Resolves a session token or an API key (`svc_...`) to the caller and the company's data version, in one indexed query. */
export async function authenticate(db: Kysely<DB>, token: string): Promise<AuthResult> {
  const { hash, isKey } = hashedCredential(token);
  // A per-process cache of at most ~1 s (ops/credential-cache.ts), both dialects; off in test servers (AUTH_CACHE_MS=0).
  const cache = credentialCacheOf<NonNullable<CredentialRow>>(db);
  let row = cache?.get(hash);
  if (!row) {
    const l = loadersOf(db);
    row = await (isKey ? l.key : l.session).load(hash);
    if (row && cache) cache.set(hash, row);
  }
  return judge(db, row, isKey, nowSeconds(), (id) => touchLater(db, isKey, id));
}

/**
 * `authenticate` for many credentials at once, by hash: one query per kind and 500 distinct hashes
 * (cache hits skip it), and one last-seen update per kind. The live fan-out re-checks every stream it is
 * about to deliver to with it (sync/fanout.ts), so revocation ends streams as before without a query per
 * stream; the streams hash their token once when they open, not at every delivery. Keyed by hash.
 */
export async function authenticateHashed(
  db: Kysely<DB>,
  credentials: Iterable<HashedCredential>,
): Promise<Map<string, AuthResult>> {
  const now = nowSeconds();
  const cache = credentialCacheOf<NonNullable<CredentialRow>>(db);
  const isKeyOf = new Map<string, boolean>();
  for (const c of credentials) isKeyOf.set(c.hash, c.isKey);
  const rows = new Map<string, NonNullable<CredentialRow>>();
  const missing: Record<'key' | 'session', string[]> = { key: [], session: [] };
  for (const [hash, isKey] of isKeyOf) {
    const hit = cache?.get(hash);
    if (hit) rows.set(hash, hit);
    else missing[isKey ? 'key' : 'session'].push(hash);
  }
  // The chunks' queries run side by side, a few at a time: the live fan-out re-checks every stream's credential
  // before a change is delivered, so their round trips, one after another, were a third of its latency
  // (5,000 streams: 68 ms of 165, issue 34). A few, so the pool keeps connections for requests.
  const chunks: Array<{ isKey: boolean; hashes: string[] }> = [];
  for (const kind of ['key', 'session'] as const)
    for (let i = 0; i < missing[kind].length; i += MANY_CHUNK)
      chunks.push({ isKey: kind === 'key', hashes: missing[kind].slice(i, i + MANY_CHUNK) });
  for (let i = 0; i < chunks.length; i += MANY_AT_ONCE)
    for (const found of await Promise.all(
      chunks.slice(i, i + MANY_AT_ONCE).map((c) => credentialQuery(db, c.isKey, c.hashes).execute()),
    ))
      for (const row of found) {
        rows.set(row.hash, row);
        cache?.set(row.hash, row);
      }
  const touched: Record<'key' | 'session', string[]> = { key: [], session: [] };
  const out = new Map<string, AuthResult>();
  for (const [hash, isKey] of isKeyOf)
    out.set(
      hash,
      judge(db, rows.get(hash), isKey, now, (id) => touched[isKey ? 'key' : 'session'].push(id)),
    );
  // Fire and forget, one statement per kind: a lost update only delays last_seen/last_used_at.
  for (let i = 0; i < touched.key.length; i += MANY_CHUNK)
    void db
      .updateTable('api_keys')
      .set({ last_used_at: now })
      .where('id', 'in', touched.key.slice(i, i + MANY_CHUNK))
      .execute()
      .catch(() => {});
  for (let i = 0; i < touched.session.length; i += MANY_CHUNK)
    void db
      .updateTable('sessions')
      .set({ last_seen: now })
      .where('id', 'in', touched.session.slice(i, i + MANY_CHUNK))
      .execute()
      .catch(() => {});
  return out;
}

/** The answer for a credential row (or its absence); `touch` is called when last_seen/last_used_at is due. */
function judge(
  db: Kysely<DB>,
  row: CredentialRow,
  isKey: boolean,
  now: number,
  touch: (credentialId: string, now: number) => void,
): AuthResult {
  if (!row) return { ok: false, message: 'Invalid token' };
  if (row.revoked) return { ok: false, message: isKey ? 'API key revoked' : 'Session ended' };
  if (row.expires !== null && row.expires <= now)
    return { ok: false, message: isKey ? 'API key expired' : 'Session expired' };
  if (!row.active || row.deleted) return { ok: false, message: 'Account inactive' };
  if (row.disabled) return { ok: false, message: 'Company disabled' };
  if (accountExpired(row.expiration, row.timezone, now * 1000)) {
    return { ok: false, message: 'Account expired' };
  }
  if (row.touched === null || now - row.touched >= TOUCH_INTERVAL) {
    row.touched = now; // a cached row touches once, not on every hit
    touch(row.credential_id, now);
  }
  const cache = credentialCacheOf<NonNullable<CredentialRow>>(db);
  return {
    ok: true,
    actor: {
      userId: row.user_id,
      identityId: row.identity_id,
      companyId: row.company_id,
      role: row.user_group_id,
      email: row.email,
      name: row.name,
      surname: row.surname,
      language: row.language,
      supervisorId: row.supervisor_id,
      plan: row.plan as Plan,
      company: {
        name: row.company_name,
        timezone: row.timezone,
        flightTimezone: row.flight_timezone,
        billingEnabled: !!row.billing_enabled,
      },
      credential: { kind: isKey ? 'api_key' : 'session', id: row.credential_id },
      companyVersion: cache
        ? cache.version(row.company_id, Number(row.company_version ?? 0))
        : Number(row.company_version ?? 0),
    },
  };
}
