import { DATE_FORMATS, DURATION_FORMATS, TIME_FORMATS } from '@ops/shared';
import { canonicalTimeZone, isCountryCode } from '@ops/shared/reference/index';
import { z } from 'zod';
import { zBoolish } from '../../http/zod.ts';
import { COMPANY_FLAG_KEYS } from './company.presenter.ts';

/** '' or null clears a nullable field (form bodies cannot send null). */
const nullable = <T extends z.ZodType>(inner: T) => z.union([z.literal('').transform(() => null), z.null(), inner]);

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** An IANA zone, stored under its canonical name (Intl decides what exists). */
export const zTimeZone = z
  .string()
  .trim()
  .transform((v, ctx) => {
    const zone = canonicalTimeZone(v);
    if (!zone) {
      ctx.addIssue({ code: 'custom', message: `Unknown time zone ${v}; use an IANA name such as Europe/Madrid` });
      return z.NEVER;
    }
    return zone;
  });

const zNumberish = z.union([
  z.number(),
  z
    .string()
    .trim()
    .regex(/^-?\d+(\.\d+)?$/, 'Expected a number')
    .transform(Number),
]);

const flagShape = Object.fromEntries(COMPANY_FLAG_KEYS.map((k) => [k, zBoolish.optional()])) as Record<
  (typeof COMPANY_FLAG_KEYS)[number],
  z.ZodOptional<typeof zBoolish>
>;

/**
 * POST /manager/companies/edit.json: the sections of the settings payload, each
 * partial (an omitted field is left alone). Read-only fields (`id`, `plan`,
 * `disabled`, `api`, `type`, nested Timezone/Country records) are ignored, so
 * a client may post back what GET answered.
 */
export const ZCompanyEdit = z.preprocess(
  (raw) => {
    const b = (raw ?? {}) as Record<string, unknown>;
    return typeof b.data === 'object' && b.data !== null ? b.data : b;
  },
  z.object({
    Company: z
      .object({ name: z.string().trim().min(1, 'Name is required').max(120, 'At most 120 characters') })
      .partial()
      .optional(),
    CompanyTheme: z
      .object({
        logo: nullable(
          z
            .string()
            .trim()
            .max(500, 'At most 500 characters')
            .regex(/^(https?:\/\/|\/)\S+$/, 'Expected an http(s) URL or a path'),
        ),
        color: nullable(
          z
            .string()
            .trim()
            .regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'Expected a hex colour such as #1f6feb'),
        ),
      })
      .partial()
      .optional(),
    CompanyDetail: z
      .object({
        currency: z
          .string()
          .trim()
          .toUpperCase()
          .refine((v) => CURRENCIES.has(v), 'Expected an ISO 4217 currency code such as EUR'),
        icao: nullable(
          z
            .string()
            .trim()
            .toUpperCase()
            .regex(/^[A-Z]{2}[A-Z0-9]{2}$/, 'Expected a 4-letter ICAO code'),
        ),
        timezone_id: zTimeZone,
        country_id: nullable(
          z.string().trim().toUpperCase().refine(isCountryCode, 'Expected an ISO 3166 country code such as ES'),
        ),
        zip: nullable(z.string().trim().max(20, 'At most 20 characters')),
      })
      .partial()
      .optional(),
    CompanySetting: z
      .object({
        flight_timezone_id: nullable(zTimeZone),
        date_format: z.enum(DATE_FORMATS, { error: `Expected one of ${DATE_FORMATS.join(', ')}` }),
        time_format: z
          .union([z.number(), z.string()])
          .transform(String)
          .pipe(z.enum(TIME_FORMATS, { error: `Expected one of ${TIME_FORMATS.join(', ')}` })),
        duration_format: z.enum(DURATION_FORMATS, { error: `Expected one of ${DURATION_FORMATS.join(', ')}` }),
        aoc: zBoolish,
        extracrew: zBoolish,
        cabincrew: zBoolish,
        max_duty_hours: nullable(
          zNumberish.pipe(z.number().gt(0, 'More than 0 hours (leave empty for no limit)').max(24, 'At most 24 hours')),
        ),
        max_flight_hours_year: nullable(
          zNumberish.pipe(
            z
              .number()
              .gt(0, 'More than 0 hours (leave empty for no limit)')
              .max(8784, 'At most 8784 hours (a leap year)'),
          ),
        ),
        booking_horizon_days: nullable(
          zNumberish.pipe(
            z
              .number()
              .int('Whole days')
              .min(1, 'At least 1 day (leave empty for the default of 365)')
              .max(3650, 'At most 3650 days (ten years)'),
          ),
        ),
        ...flagShape,
      })
      .partial()
      .optional(),
    CompanyBillingSetting: z
      .object({
        enabled: zBoolish,
        billed_person: nullable(z.string().trim().max(120, 'At most 120 characters')),
        tax: zNumberish.pipe(z.number().min(0, 'At least 0').max(100, 'At most 100 (percent)')),
        send_notification: zBoolish,
        public_key: nullable(z.string().trim().max(200, 'At most 200 characters')),
        basis: z.enum(['block', 'flight'], { error: 'Expected block or flight' }),
      })
      .partial()
      .optional(),
  }),
);
export type TCompanyEdit = z.output<typeof ZCompanyEdit>;
