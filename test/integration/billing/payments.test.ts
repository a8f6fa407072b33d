import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { tokenCache } from '../flights/helpers.ts';
import { recount } from './recount.ts';
import { type StripeFake, startStripeFake } from './stripe-fake.ts';

const SECRET = 'sk_test_51AbCdEfGhIjKlMnOp';
const WHSEC = 'whsec_test_0123456789abcdef';

describe.each(DIALECTS)('online top-up with Stripe on %s', (dialect) => {
  let s: TestServer;
  let fake: StripeFake;
  const t = tokenCache(() => s);
  let paula: string;
  const signer = new Stripe('sk_test_x');

  /** Delivers an event as Stripe does: the JSON body and its `Stripe-Signature` header. */
  const deliver = async (event: Record<string, unknown>, secret = WHSEC, company = s.refs.companies.skyline) => {
    const payload = JSON.stringify(event);
    const header = signer.webhooks.generateTestHeaderString({ payload, secret });
    return s.api('POST', `/billing/stripe/${company}.json`, { body: payload, headers: { 'stripe-signature': header } });
  };
  const completed = (id: string, session: Record<string, unknown>) => ({
    id,
    object: 'event',
    api_version: '2025-01-27.acacia',
    created: Math.floor(Date.now() / 1000),
    type: 'checkout.session.completed',
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object: { ...session, payment_status: 'paid', status: 'complete' } },
  });
  const payments = async () =>
    s.ctx.db
      .selectFrom('billing_entries')
      .selectAll()
      .where('user_id', '=', paula)
      .where('kind', '=', 'payment')
      .execute();

  beforeAll(async () => {
    fake = await startStripeFake();
    s = await startTestServer(dialect, {
      env: { STRIPE_API_URL: fake.url, SECRETS_KEY: 'test-secrets-key-0123456789abcdef' },
    });
    paula = s.userId('pilot@skyline.test');
  });
  afterAll(async () => {
    if (s) expect(await recount(s)).toEqual([]);
    await s?.close();
    await fake?.close();
  });

  it('refuses a top-up without a provider; stores the keys encrypted and never returns them', async () => {
    const none = await s.api('POST', '/billing/checkout.json', {
      token: await t('pilot@skyline.test'),
      body: { amount: 50 },
    });
    expect(none.status).toBe(400);
    expect(
      (
        await s.api('POST', '/manager/billing/provider.json', {
          token: await t('dispatch@skyline.test'),
          body: { secret_key: SECRET },
        })
      ).status,
    ).toBe(403);
    const r = await s.api('POST', '/manager/billing/provider.json', {
      token: await t('ops@skyline.test'),
      body: { secret_key: SECRET, webhook_secret: WHSEC },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ result: true, public_key: null, secret_key_set: true, webhook_secret_set: true });
    const row = await s.ctx.db
      .selectFrom('billing_providers')
      .selectAll()
      .where('company_id', '=', s.refs.companies.skyline)
      .executeTakeFirstOrThrow();
    expect(row.secret_key).not.toContain(SECRET);
    expect(row.secret_key?.startsWith('v1.')).toBe(true);
    const settings = await s.api('GET', '/manager/companies/settings.json', { token: await t('admin@skyline.test') });
    expect(JSON.stringify(settings.body)).not.toContain(SECRET);
    expect(JSON.stringify(settings.body)).not.toContain(WHSEC);
    expect(
      (
        await s.api('POST', '/manager/billing/provider.json', {
          token: await t('admin@harbor.test'),
          body: { secret_key: SECRET },
        })
      ).status,
    ).toBe(403);
  });

  it('creates a Checkout Session with the official client and credits one payment per event, however often delivered', async () => {
    const bad = await s.api('POST', '/billing/checkout.json', {
      token: await t('pilot@skyline.test'),
      body: { amount: 50.001 },
    });
    expect(bad.status).toBe(400);
    const r = await s.api('POST', '/billing/checkout.json', {
      token: await t('pilot@skyline.test'),
      body: { amount: 50 },
    });
    expect(r.status).toBe(200);
    expect(r.body.url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    const sent = fake.requests.at(-1);
    expect(sent?.auth).toBe(`Bearer ${SECRET}`);
    expect(sent?.form).toMatchObject({
      mode: 'payment',
      'line_items[0][price_data][unit_amount]': '5000',
      'line_items[0][price_data][currency]': 'eur',
      'metadata[user_id]': paula,
      client_reference_id: paula,
    });
    const session = fake.sessions.get(r.body.id) as Record<string, unknown>;
    const event = completed('evt_test_0001', session);
    const first = await deliver(event);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ received: true, credited: true });
    const again = await deliver(event);
    expect(again.body).toEqual({ received: true, credited: false });
    const rows = await payments();
    expect(rows.map((p) => [Number(p.amount), p.reference])).toEqual([[5000, 'evt_test_0001']]);
    expect(
      (await s.api('GET', '/billing/account.json', { token: await t('pilot@skyline.test') })).body.Account.balance,
    ).toBe(50);
  });

  it('refuses a wrong signature, another company, and ignores other events; nothing written', async () => {
    const before = (await payments()).length;
    const session = {
      id: 'cs_test_x',
      object: 'checkout.session',
      amount_total: 999,
      currency: 'eur',
      metadata: { company_id: s.refs.companies.skyline, user_id: paula },
      client_reference_id: paula,
    };
    expect((await deliver(completed('evt_test_0002', session), 'whsec_wrong_secret_value')).status).toBe(400);
    const unsigned = await s.api('POST', `/billing/stripe/${s.refs.companies.skyline}.json`, {
      body: completed('evt_test_0003', session),
    });
    expect(unsigned.status).toBe(400);
    expect((await deliver(completed('evt_test_0004', session), WHSEC, s.refs.companies.harbor)).status).toBe(404);
    const other = await deliver({ ...completed('evt_test_0005', session), type: 'payment_intent.created' });
    expect(other.body).toEqual({ received: true, credited: false });
    expect((await payments()).length).toBe(before);
  });
});
