import { randomInt } from 'node:crypto';
import { uuidv7 } from '@ops/shared';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../http/actor.ts';
import { badRequest, notFound, tooManyRequests, validationFailed } from '../../http/errors.ts';
import { said } from '../../http/messages.ts';
import { nowSeconds, safeEqual, sha256 } from '../../lib/tokens.ts';
import { sendMessage } from '../../mail/messages.ts';
import './whatsapp.tables.ts';

/** Limits of the WhatsApp verification (docs/areas/company-news-users.md). */
export const WHATSAPP = {
  /** A code is valid this long. */
  codeTtl: 10 * 60,
  /** At least this long between two codes of one account. */
  resendAfter: 60,
  /** At most this many codes per login in `window`. */
  perWindow: 5,
  window: 60 * 60,
  /** Wrong codes before the code is void. */
  maxAttempts: 5,
} as const;

const E164 = /^\+[1-9]\d{7,14}$/;

/** `+34 600 11-22 33`, `0034600112233` → `+34600112233`; null when it is not an E.164 number. */
export function normalisePhone(raw: string): string | null {
  let s = raw.replace(/[\s().-]/g, '');
  if (s.startsWith('00')) s = `+${s.slice(2)}`;
  return E164.test(s) ? s : null;
}

/** The account's own number: `UserDetail.phone`, prefixed by `phonecode` unless it is already international. */
function phoneOfDetail(phonecode: string | null, phone: string | null): string | null {
  if (!phone) return null;
  const p = phone.trim();
  if (p.startsWith('+') || p.startsWith('00')) return normalisePhone(p);
  if (!phonecode) return null;
  return normalisePhone(`+${phonecode.replace(/^\+/, '')}${p.replace(/^0+/, '')}`);
}

async function ownAccount(ctx: AppContext, actor: Actor) {
  const u = await ctx.db
    .selectFrom('users')
    .select(['id', 'identity_id', 'phonecode', 'phone'])
    .where('company_id', '=', actor.companyId)
    .where('id', '=', actor.userId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!u) throw notFound('Account not found');
  if (!u.identity_id) throw badRequest('This account has no login, so it has no preferences');
  return { ...u, identity_id: u.identity_id };
}

/**
 * POST /users/whatsapp.json without `code`: sends a 6-digit code by WhatsApp to
 * `phone` (E.164) or to the account's own phone. The code is stored hashed,
 * valid 10 minutes and single use; a new code voids the older ones. At most
 * one code a minute per account and 5 an hour per login (429 beyond).
 */
export async function requestWhatsappCode(ctx: AppContext, actor: Actor, phoneInput: string | undefined) {
  const u = await ownAccount(ctx, actor);
  const phone = phoneInput ? normalisePhone(phoneInput) : phoneOfDetail(u.phonecode, u.phone);
  if (!phone) {
    throw validationFailed(
      {
        phone: [
          phoneInput
            ? 'Expected an international number such as +34600112233'
            : 'Give a phone number: your profile has no international phone',
        ],
      },
      'errors',
      phoneInput ? 'Invalid phone number' : 'Phone number is required',
    );
  }
  const now = nowSeconds();
  const recent = await ctx.db
    .selectFrom('whatsapp_verifications')
    .select(['created'])
    .where('identity_id', '=', u.identity_id)
    .where('created', '>', now - WHATSAPP.window)
    .orderBy('created', 'desc')
    .execute();
  const last = await ctx.db
    .selectFrom('whatsapp_verifications')
    .select('created')
    .where('company_id', '=', actor.companyId)
    .where('user_id', '=', u.id)
    .orderBy('created', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (last && now - Number(last.created) < WHATSAPP.resendAfter) {
    throw tooManyRequests(
      'A code was sent less than a minute ago; wait before asking again',
      Number(last.created) + WHATSAPP.resendAfter - now,
    );
  }
  if (recent.length >= WHATSAPP.perWindow) {
    const oldest = Math.min(...recent.map((r) => Number(r.created)));
    throw tooManyRequests('Too many codes requested; try again later', Math.max(1, oldest + WHATSAPP.window - now));
  }

  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const id = uuidv7();
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('whatsapp_verifications')
      .set({ used_at: now })
      .where('company_id', '=', actor.companyId)
      .where('user_id', '=', u.id)
      .where('used_at', 'is', null)
      .execute();
    await trx
      .insertInto('whatsapp_verifications')
      .values({
        id,
        company_id: actor.companyId,
        user_id: u.id,
        identity_id: u.identity_id,
        phone,
        code_hash: sha256(`${id}:${code}`),
        attempts: 0,
        expires: now + WHATSAPP.codeTtl,
        used_at: null,
        verified_at: null,
        created: now,
      })
      .execute();
  });
  const company = await ctx.db
    .selectFrom('companies')
    .select('name')
    .where('id', '=', actor.companyId)
    .executeTakeFirst();
  await sendMessage(ctx.db, ctx.log, {
    channel: 'whatsapp',
    to: phone,
    template: 'whatsapp_code',
    data: { code, company: company?.name ?? '' },
    companyId: actor.companyId,
    locale: actor.language,
  });
  return {
    result: true,
    ...said('errors.whatsappCodeSent', { phone }),
    phone,
    expires: now + WHATSAPP.codeTtl,
  };
}

/**
 * POST /users/whatsapp.json with `code`: checks the latest code of the account;
 * when right, the login's `whatsapp` preference goes on (every company account
 * of the email shares it). Wrong codes count; the fifth voids the code.
 */
export async function verifyWhatsappCode(ctx: AppContext, actor: Actor, code: string) {
  const u = await ownAccount(ctx, actor);
  const now = nowSeconds();
  const row = await ctx.db
    .selectFrom('whatsapp_verifications')
    .selectAll()
    .where('company_id', '=', actor.companyId)
    .where('user_id', '=', u.id)
    .where('used_at', 'is', null)
    .orderBy('created', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) throw validationFailed({ code: ['No code is pending; ask for a new one'] }, 'errors', 'No code is pending');
  if (Number(row.expires) <= now)
    throw validationFailed({ code: ['The code has expired; ask for a new one'] }, 'errors', 'The code has expired');
  if (!safeEqual(row.code_hash, sha256(`${row.id}:${code}`))) {
    const attempts = row.attempts + 1;
    const spent = attempts >= WHATSAPP.maxAttempts;
    await ctx.db
      .updateTable('whatsapp_verifications')
      .set({ attempts, ...(spent ? { used_at: now } : {}) })
      .where('id', '=', row.id)
      .execute();
    throw validationFailed(
      { code: [spent ? 'Too many wrong codes; ask for a new one' : 'Wrong code'] },
      'errors',
      spent ? 'Too many wrong codes' : 'Wrong code',
    );
  }
  const claimed = await ctx.db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable('whatsapp_verifications')
      .set({ used_at: now, verified_at: now })
      .where('id', '=', row.id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return false;
    await trx.updateTable('identities').set({ whatsapp: 1, modified: now }).where('id', '=', u.identity_id).execute();
    return true;
  });
  if (!claimed)
    throw validationFailed({ code: ['This code was already used; ask for a new one'] }, 'errors', 'Code already used');
  return { result: true, message: 'WhatsApp messages are on', whatsapp: true, phone: row.phone };
}
