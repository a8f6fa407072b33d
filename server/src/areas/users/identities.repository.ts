import { randomBytes } from 'node:crypto';
import { uuidv7 } from '@ops/shared';
import argon2 from 'argon2';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { newSecret, nowSeconds, sha256 } from '../../lib/tokens.ts';
import type { OutgoingMail } from '../../mail/mailer.ts';
import './users.tables.ts';

/** Activation links stay valid a week; address confirmations too. */
export const TOKEN_TTL_SECONDS = 7 * 24 * 3600;

export type TokenPurpose = 'activate' | 'confirm';

/**
 * A login identity for a new email: its password is the hash of a random
 * secret nobody knows (a real argon2id hash, so sign-in timing does not tell
 * it apart), until the person sets one through the activation link. A
 * concurrent creation of the same email reuses the winner's row.
 */
export async function createPendingIdentity(db: Kysely<DB>, email: string): Promise<{ id: string; created: boolean }> {
  const now = nowSeconds();
  const id = uuidv7();
  const hash = await argon2.hash(randomBytes(32).toString('base64url'), { type: argon2.argon2id });
  await db
    .insertInto('identities')
    .values({
      id,
      email,
      password_hash: hash,
      alerts: 1,
      message_alerts: 1,
      newsletter: 0,
      whatsapp: 0,
      created: now,
      modified: now,
    })
    .onConflict((oc) => oc.column('email').doNothing())
    .execute();
  const row = await db.selectFrom('identities').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  return { id: row.id, created: row.id === id };
}

/** A one-time token: the plaintext goes into the mail, only its SHA-256 is stored. Earlier unused tokens of the same purpose lapse. */
export async function issueToken(
  db: Kysely<DB>,
  t: {
    purpose: TokenPurpose;
    identityId: string | null;
    userId: string | null;
    companyId: string | null;
    email: string;
  },
): Promise<string> {
  const token = newSecret('stm_').slice(4);
  const now = nowSeconds();
  let stale = db
    .updateTable('email_tokens')
    .set({ expires: now })
    .where('purpose', '=', t.purpose)
    .where('used_at', 'is', null);
  stale =
    t.purpose === 'activate'
      ? stale.where('identity_id', '=', t.identityId ?? '')
      : stale.where('user_id', '=', t.userId ?? '');
  await stale.where('expires', '>', now).execute();
  await db
    .insertInto('email_tokens')
    .values({
      id: uuidv7(),
      purpose: t.purpose,
      identity_id: t.identityId,
      user_id: t.userId,
      company_id: t.companyId,
      email: t.email,
      token_hash: sha256(token),
      expires: now + TOKEN_TTL_SECONDS,
      used_at: null,
      created: now,
    })
    .execute();
  return token;
}

/** True while the identity was created by an administrator and its owner has not set a password yet. */
export async function activationPending(db: Kysely<DB>, identityId: string): Promise<boolean> {
  const row = await db
    .selectFrom('email_tokens')
    .select('id')
    .where('identity_id', '=', identityId)
    .where('purpose', '=', 'activate')
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return !!row;
}

/** Mails decided inside a transaction are sent after it commits (the outbox write must not join it). */
export type MailQueue = OutgoingMail[];
