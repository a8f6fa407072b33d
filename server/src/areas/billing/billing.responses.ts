import { z } from 'zod';
import { ZPaginate } from '../../http/responses.ts';

/** Response schemas of the billing routes (CONTRACT 6), checked by the contract test. */

export const zRate = z.strictObject({ id: z.string(), kind: z.string(), target_id: z.string(), amount: z.number() });

export const zEntry = z.strictObject({
  id: z.string(),
  user_id: z.string(),
  kind: z.enum(['flight', 'instructor', 'package', 'payment', 'adjustment', 'reversal']),
  amount: z.number(),
  tax: z.number(),
  hours: z.number(),
  aircraft_id: z.string().nullable(),
  flight_id: z.string().nullable(),
  reverses_id: z.string().nullable(),
  description: z.string().nullable(),
  created: z.number(),
  created_by: z.string().nullable(),
});

export const zAccount = z.strictObject({
  user_id: z.string(),
  balance: z.number(),
  package_balance: z.number(),
  currency: z.string(),
});

/** GET /billing/rates.json */
export const ZBillingRates = z.strictObject({
  rates: z.array(z.strictObject({ Rate: zRate })),
  currency: z.string(),
  basis: z.enum(['block', 'flight']),
});

/** POST /manager/billing/rates/edit.json */
export const ZBillingRateEdit = z.strictObject({ result: z.literal(true), id: z.string() });

/** POST /manager/billing/rates/delete/{id}.json */
export const ZBillingRateDelete = z.strictObject({ result: z.literal(true) });

/** GET /billing/account.json, /billing/account/{userId}.json */
export const ZBillingAccount = z.strictObject({
  Account: zAccount,
  entries: z.array(z.strictObject({ Entry: zEntry })),
  paginate: ZPaginate,
});

/** GET /billing/accounts.json (an extension of CONTRACT 6, docs/areas/billing.md) */
export const ZBillingAccounts = z.strictObject({
  accounts: z.array(
    z.strictObject({
      Account: zAccount,
      User: z.strictObject({ id: z.string(), name: z.string(), surname: z.string(), billing: z.boolean() }),
    }),
  ),
  paginate: ZPaginate,
});

/** POST /manager/billing/entries/add.json */
export const ZBillingEntryAdd = z.strictObject({ result: z.literal(true), id: z.string(), Account: zAccount });

/** POST /manager/billing/entries/reverse/{id}.json */
export const ZBillingEntryReverse = z.strictObject({ result: z.literal(true), id: z.string() });

/** POST /manager/billing/provider.json: whether each secret is set; the secrets themselves are never returned. */
export const ZBillingProvider = z.strictObject({
  result: z.literal(true),
  public_key: z.string().nullable(),
  secret_key_set: z.boolean(),
  webhook_secret_set: z.boolean(),
});

/** POST /billing/checkout.json */
export const ZBillingCheckout = z.strictObject({ result: z.literal(true), url: z.string(), id: z.string() });

/** POST /billing/stripe/{companyId}.json (the provider's webhook) */
export const ZBillingStripeWebhook = z.strictObject({ received: z.literal(true), credited: z.boolean() });
