import { isRole, TWO_FACTOR_MODES } from '@ops/shared';
import { canonicalTimeZone, isCountryCode } from '@ops/shared/reference/index';
import { DateTime } from 'luxon';
import { z } from 'zod';
import { zBoolish, zEmail, zId } from '../../http/zod.ts';

/** '' or null clears an optional field; absent leaves it alone. */
const clearable = <T extends z.ZodType>(inner: T) =>
  z
    .union([z.literal(''), z.null(), inner])
    .optional()
    .transform((v) => (v === '' ? null : v) as z.output<T> | null | undefined);

const text = (max: number) => clearable(z.string().trim().max(max, `At most ${max} characters`));

export const zCalendarDate = z
  .string()
  .trim()
  .refine((v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && DateTime.fromISO(v).isValid, 'Expected a date YYYY-MM-DD');

const zCountry = z
  .string()
  .trim()
  .toUpperCase()
  .refine(isCountryCode, 'Unknown country; expected an ISO 3166 code such as ES');
const zZone = z
  .string()
  .trim()
  .transform((v, ctx) => {
    const zone = canonicalTimeZone(v);
    if (!zone) {
      ctx.addIssue({ code: 'custom', message: 'Unknown time zone; expected an IANA name such as Europe/Madrid' });
      return z.NEVER;
    }
    return zone;
  });

/** Part A 2.6 `UserDetail` fields a person may edit about themself (and a manager about anyone). */
export const ZUserDetailFields = z.object({
  name: z.string().trim().min(1, 'Name is required').max(80, 'At most 80 characters').optional(),
  surname: z.string().trim().min(1, 'Surname is required').max(80, 'At most 80 characters').optional(),
  passport: text(40),
  companyid: text(40),
  dob: clearable(
    zCalendarDate.refine((v) => v <= DateTime.now().toISODate()!, 'A date of birth cannot be in the future'),
  ),
  phonecode: clearable(
    z
      .string()
      .trim()
      .regex(/^\+?\d{1,4}$/, 'Expected a dialling code such as +34'),
  ),
  phone: clearable(
    z
      .string()
      .trim()
      .regex(/^[\d\s().-]{3,30}$/, 'Expected a phone number'),
  ),
  phonecode2: clearable(
    z
      .string()
      .trim()
      .regex(/^\+?\d{1,4}$/, 'Expected a dialling code such as +34'),
  ),
  phone2: clearable(
    z
      .string()
      .trim()
      .regex(/^[\d\s().-]{3,30}$/, 'Expected a phone number'),
  ),
  emergency_contact: text(200),
  public_phone: zBoolish.optional(),
  address: text(200),
  pc: text(20),
  city: text(80),
  country_id: clearable(zCountry),
  timezone_id: clearable(zZone),
  nationality: clearable(zCountry),
  birthcountry_id: clearable(zCountry),
  color: clearable(
    z
      .string()
      .trim()
      .regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'Expected a hex colour such as #3788d8'),
  ),
});
export type TUserDetailFields = z.output<typeof ZUserDetailFields>;

/** Fields only managers set. */
export const ZManagerDetailFields = ZUserDetailFields.extend({
  notes: text(5000),
  flight_hours: z
    .union([
      z.number(),
      z
        .string()
        .trim()
        .regex(/^\d+(\.\d+)?$/, 'Expected hours as a number')
        .transform(Number),
    ])
    .pipe(z.number().min(0, 'At least 0').max(100_000, 'At most 100000 hours'))
    .optional(),
});

const zRole = z
  .union([z.number(), z.string().trim().regex(/^\d+$/, 'Expected a role number').transform(Number)])
  .refine((v) => isRole(v), 'Unknown role');

/** Part A 4.4 create and edit: `User` and `UserDetail` (form names `data[User][...]` accepted). */
export const ZUserWrite = z.preprocess(
  (raw) => {
    const b = (raw ?? {}) as Record<string, unknown>;
    return typeof b.data === 'object' && b.data !== null ? b.data : b;
  },
  z.object({
    User: z
      .object({
        id: zId.optional(),
        email: clearable(zEmail),
        user_group_id: zRole.optional(),
        active: zBoolish.optional(),
        pilot: zBoolish.optional(),
        billing: zBoolish.optional(),
        api: zBoolish.optional(),
        base_id: clearable(zId),
        supervisor_id: clearable(zId),
        language: z
          .string()
          .trim()
          .regex(/^[a-z]{2}(-[A-Z]{2})?$/, 'Expected a language code such as en or pt-BR')
          .optional(),
        two_factor: z.enum(TWO_FACTOR_MODES, { error: `Expected one of ${TWO_FACTOR_MODES.join(', ')}` }).optional(),
        expiration: clearable(zCalendarDate),
        send_email: zBoolish.optional(),
      })
      .prefault({}),
    UserDetail: ZManagerDetailFields.prefault({}),
  }),
);
export type TUserWrite = z.output<typeof ZUserWrite>;
