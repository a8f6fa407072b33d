import { hoursToSeconds, toCents } from '@ops/shared/rules/billing/money';
import { z } from 'zod';
import { unwrapData } from '../../http/body.ts';
import { emptyToUndefined, zId, zOptText, zUnix } from '../../http/zod.ts';

/** An amount in the company currency with at most two decimals, as integer cents. */
export const zCents = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const cents = toCents(v);
  if (cents === null) {
    ctx.addIssue({ code: 'custom', message: 'Expected an amount with at most two decimals' });
    return z.NEVER;
  }
  return cents;
});

/** Hours with at most two decimals, as integer seconds. */
export const zSeconds = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const s = hoursToSeconds(v);
  if (s === null) {
    ctx.addIssue({ code: 'custom', message: 'Expected hours with at most two decimals' });
    return z.NEVER;
  }
  return s;
});

/** `{Rate: {...}}` as JSON or `data[Rate][...]` form fields. */
export const ZRateEdit = z.preprocess(
  unwrapData,
  z.object({
    Rate: z.object({
      id: z.preprocess(emptyToUndefined, zId.optional()),
      kind: z.enum(['aircraft', 'instructor'], { error: 'Expected aircraft or instructor' }),
      target_id: zId,
      amount: zCents.pipe(
        z.number().int().min(0, 'A rate cannot be negative').max(100_000_000, 'At most 1,000,000 per hour'),
      ),
    }),
  }),
);
export type TRateEdit = z.output<typeof ZRateEdit>;

export const ZEntryAdd = z.preprocess(
  unwrapData,
  z.object({
    Entry: z.object({
      user_id: zId,
      kind: z.enum(['payment', 'adjustment', 'package'], { error: 'Expected payment, adjustment or package' }),
      amount: zCents.pipe(z.number().int().min(-10_000_000_000, 'Too large').max(10_000_000_000, 'Too large')),
      hours: z.preprocess(
        emptyToUndefined,
        zSeconds
          .pipe(
            z
              .number()
              .int()
              .min(0)
              .max(100_000 * 3600, 'At most 100,000 hours'),
          )
          .optional(),
      ),
      aircraft_id: z.preprocess(emptyToUndefined, zId.optional()),
      description: zOptText(500),
    }),
  }),
);
export type TEntryAdd = z.output<typeof ZEntryAdd>;

export const ZReverse = z.preprocess(unwrapData, z.object({ description: zOptText(500) }));

export const ZAccountQuery = z.object({
  page: z.preprocess(
    emptyToUndefined,
    z.coerce.number({ error: 'Expected a page number' }).int().min(1, 'Pages start at 1').max(1_000_000).default(1),
  ),
  limit: z.preprocess(
    emptyToUndefined,
    z.coerce.number({ error: 'Expected a number' }).int().min(1, 'At least 1').max(500, 'At most 500').default(50),
  ),
  from: z.preprocess(emptyToUndefined, zUnix.optional()),
  to: z.preprocess(emptyToUndefined, zUnix.optional()),
});

const zDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Expected YYYY-MM-DD');
export const ZExportQuery = z.object({
  from: zDay,
  to: zDay,
  format: z.enum(['csv', 'xlsx'], { error: 'Expected csv or xlsx' }).default('csv'),
});

export const ZCheckout = z.preprocess(
  unwrapData,
  z.object({ amount: zCents.pipe(z.number().int().min(100, 'At least 1.00').max(10_000_000, 'At most 100,000.00')) }),
);

export const ZProvider = z.preprocess(
  unwrapData,
  z.object({
    secret_key: z.preprocess(emptyToUndefined, z.string().trim().min(8, 'Too short').max(300).nullable().optional()),
    webhook_secret: z.preprocess(
      emptyToUndefined,
      z.string().trim().min(8, 'Too short').max(300).nullable().optional(),
    ),
  }),
);
