import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { ONLINE_PAYMENT } from '@ops/shared/rules/billing/descriptions';
import type { Request } from 'express';
import Stripe from 'stripe';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../http/actor.ts';
import { badRequest, HttpError, notFound } from '../../http/errors.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { announceEntries } from './billing.notify.ts';
import { appendEntries, billingSettingsOf } from './billing.repository.ts';
import { requireBilling } from './billing.service.ts';

/**
 * Secrets of the payment provider, sealed with AES-256-GCM under a key derived
 * from SECRETS_KEY (SHA-256 of it, so any long random string works): `v1.iv.tag.ciphertext`,
 * base64url. The company id is the associated data, so a sealed value copied to another company does not open.
 */
function keyOf(ctx: AppContext): Buffer {
  const raw = ctx.config.billing.secretsKey;
  if (!raw)
    throw new HttpError(503, {
      result: false,
      message: 'The server has no SECRETS_KEY: payment provider keys cannot be stored',
    });
  return createHash('sha256').update(raw).digest();
}

export function seal(ctx: AppContext, companyId: string, plain: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', keyOf(ctx), iv);
  c.setAAD(Buffer.from(companyId));
  const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
  return ['v1', iv.toString('base64url'), c.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

export function unseal(ctx: AppContext, companyId: string, sealed: string): string {
  const [v, iv, tag, body] = sealed.split('.');
  if (v !== 'v1' || !iv || !tag || !body) throw new Error('not a sealed secret');
  const d = createDecipheriv('aes-256-gcm', keyOf(ctx), Buffer.from(iv, 'base64url'));
  d.setAAD(Buffer.from(companyId));
  d.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([d.update(Buffer.from(body, 'base64url')), d.final()]).toString('utf8');
}

async function providerOf(ctx: AppContext, companyId: string) {
  return ctx.db.selectFrom('billing_providers').selectAll().where('company_id', '=', companyId).executeTakeFirst();
}

/** POST /manager/billing/provider.json: stores the secret key and webhook secret sealed; answers only whether each is set. */
export async function saveProvider(
  ctx: AppContext,
  actor: Actor,
  input: { secret_key?: string | null; webhook_secret?: string | null },
) {
  requireBilling(actor);
  const now = nowSeconds();
  const existing = await providerOf(ctx, actor.companyId);
  const sealOr = (v: string | null | undefined, old: string | null | undefined) =>
    v === undefined ? (old ?? null) : v === null ? null : seal(ctx, actor.companyId, v);
  const row = {
    company_id: actor.companyId,
    secret_key: sealOr(input.secret_key, existing?.secret_key),
    webhook_secret: sealOr(input.webhook_secret, existing?.webhook_secret),
    modified: now,
  };
  if (existing)
    await ctx.db.updateTable('billing_providers').set(row).where('company_id', '=', actor.companyId).execute();
  else await ctx.db.insertInto('billing_providers').values(row).execute();
  const settings = await billingSettingsOf(ctx.db, actor.companyId);
  return {
    result: true as const,
    public_key: settings.billing_public_key,
    secret_key_set: !!row.secret_key,
    webhook_secret_set: !!row.webhook_secret,
  };
}

/** The official client pointed at STRIPE_API_URL (the real API by default, a local fake in tests). */
function stripeClient(ctx: AppContext, secretKey: string): Stripe {
  const url = new URL(ctx.config.billing.stripeApiUrl);
  return new Stripe(secretKey, {
    host: url.hostname,
    port: url.port || (url.protocol === 'http:' ? 80 : 443),
    protocol: url.protocol === 'http:' ? 'http' : 'https',
    maxNetworkRetries: 1,
    timeout: 15000,
    telemetry: false,
  });
}

/** POST /billing/checkout.json: a Checkout Session topping up the caller's own account; answers its URL. */
export async function createCheckout(ctx: AppContext, actor: Actor, amount: number) {
  requireBilling(actor);
  const provider = await providerOf(ctx, actor.companyId);
  if (!provider?.secret_key) throw badRequest('Your company has no online payment provider', { code: 'NO_PROVIDER' });
  const settings = await billingSettingsOf(ctx.db, actor.companyId);
  const stripe = stripeClient(ctx, unseal(ctx, actor.companyId, provider.secret_key));
  const back = `${ctx.config.publicUrl}/app/`;
  try {
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: (settings.currency ?? 'EUR').toLowerCase(),
            unit_amount: amount,
            product_data: { name: `Account top-up, ${settings.name}` },
          },
        },
      ],
      client_reference_id: actor.userId,
      metadata: { company_id: actor.companyId, user_id: actor.userId },
      success_url: `${back}?topup=ok`,
      cancel_url: `${back}?topup=cancel`,
    });
    if (!session.url) throw new Error('no session url');
    return { result: true as const, url: session.url, id: session.id };
  } catch (err) {
    ctx.log.warn({ err }, 'stripe checkout failed');
    throw new HttpError(502, { result: false, message: 'The payment provider did not answer; try again later' });
  }
}

/**
 * POST /billing/stripe/{companyId}.json: the provider's signed event, checked
 * with `stripe.webhooks.constructEvent` against the company's webhook secret.
 * A paid `checkout.session.completed` credits one `payment` to the session's
 * user; the event id is the entry's unique `reference`, so a redelivery credits nothing more.
 */
export async function receiveStripeEvent(ctx: AppContext, companyId: string, req: Request) {
  const provider = await providerOf(ctx, companyId);
  if (!provider?.webhook_secret || !provider.secret_key) throw notFound('No payment provider here');
  const raw = (req as Request & { rawBody?: Buffer }).rawBody;
  const signature = req.headers['stripe-signature'];
  if (!raw || typeof signature !== 'string') throw badRequest('Missing signature or body');
  let event: Stripe.Event;
  try {
    event = stripeClient(ctx, unseal(ctx, companyId, provider.secret_key)).webhooks.constructEvent(
      raw,
      signature,
      unseal(ctx, companyId, provider.webhook_secret),
    );
  } catch {
    throw badRequest('Invalid signature');
  }
  if (event.type !== 'checkout.session.completed') return { received: true as const, credited: false };
  const session = event.data.object;
  const userId = session.metadata?.user_id ?? session.client_reference_id;
  if (
    session.payment_status !== 'paid' ||
    session.metadata?.company_id !== companyId ||
    !userId ||
    !session.amount_total
  )
    return { received: true as const, credited: false };
  const settings = await billingSettingsOf(ctx.db, companyId);
  if ((session.currency ?? '').toUpperCase() !== (settings.currency ?? 'EUR').toUpperCase())
    return { received: true as const, credited: false };
  const user = await ctx.db
    .selectFrom('users')
    .select('id')
    .where('company_id', '=', companyId)
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) return { received: true as const, credited: false };
  const credited = await ctx.tx(async (uow) => {
    await uow.changeNo(companyId, 'billing_accounts'); // the company's write lock before the "seen" read
    const seen = await uow.trx
      .selectFrom('billing_entries')
      .select('id')
      .where('company_id', '=', companyId)
      .where('reference', '=', event.id)
      .executeTakeFirst();
    if (seen) return false;
    const rows = await appendEntries(uow, companyId, userId, userId, [
      {
        kind: 'payment',
        amount: session.amount_total ?? 0,
        tax: 0,
        seconds: 0,
        package_seconds: 0,
        aircraft_id: null,
        flight_id: null,
        reverses_id: null,
        reference: event.id,
        description: ONLINE_PAYMENT,
      },
    ]);
    await announceEntries(uow, companyId, rows);
    return true;
  });
  return { received: true as const, credited };
}
