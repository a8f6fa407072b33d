import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { nowSeconds } from '../../lib/tokens.ts';

/** Failed sign-ins allowed per window before 429 (per email, and per client address). */
export const THROTTLE = { window: 15 * 60, perEmail: 5, perAddress: 20 } as const;

const keysFor = (email: string, ip: string) => [
  { key: `email:${email.toLowerCase()}`, limit: THROTTLE.perEmail },
  { key: `ip:${ip}`, limit: THROTTLE.perAddress },
];

/** Seconds to wait when a key is over its limit, else 0. */
export async function throttleWait(db: Kysely<DB>, email: string, ip: string): Promise<number> {
  const now = nowSeconds();
  const keys = keysFor(email, ip);
  const rows = await db
    .selectFrom('auth_failures')
    .selectAll()
    .where(
      'key',
      'in',
      keys.map((k) => k.key),
    )
    .execute();
  let wait = 0;
  for (const r of rows) {
    const limit = keys.find((k) => k.key === r.key)?.limit ?? Number.POSITIVE_INFINITY;
    if (now - r.window_start < THROTTLE.window && r.count >= limit)
      wait = Math.max(wait, r.window_start + THROTTLE.window - now);
  }
  return wait;
}

export async function recordFailure(db: Kysely<DB>, email: string, ip: string): Promise<void> {
  const now = nowSeconds();
  for (const { key } of keysFor(email, ip)) {
    const row = await db.selectFrom('auth_failures').selectAll().where('key', '=', key).executeTakeFirst();
    if (!row) {
      await db
        .insertInto('auth_failures')
        .values({ key, window_start: now, count: 1 })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
    } else if (now - row.window_start >= THROTTLE.window) {
      await db.updateTable('auth_failures').set({ window_start: now, count: 1 }).where('key', '=', key).execute();
    } else {
      await db
        .updateTable('auth_failures')
        .set({ count: row.count + 1 })
        .where('key', '=', key)
        .execute();
    }
  }
}

export async function clearFailures(db: Kysely<DB>, email: string): Promise<void> {
  await db.deleteFrom('auth_failures').where('key', '=', `email:${email.toLowerCase()}`).execute();
}
