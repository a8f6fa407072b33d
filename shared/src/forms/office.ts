/**
 * Form schemas of the office screens (company, people, news, own account): what
 * a form checks before it sends, with the same messages and limits as the
 * server's request schemas (`server/src/areas/<area>/<area>.schema.ts`). The
 * server stays the authority; its field errors are shown beside the same
 * fields. Browser-safe (no Node, no database).
 */
import { z } from 'zod';
import { DATE_FORMATS, DURATION_FORMATS, TIME_FORMATS } from '../enums.ts';
import { canonicalTimeZone } from '../reference/timezones.ts';
import { isCountryCode } from '../reference/countries.ts';
import { isRole, ROLES } from '../roles.ts';

/** Passwords: at least this many characters (server profile rules). */
export const MIN_PASSWORD_LENGTH = 8;
/** An external auditor's account lasts at most this many days (Part A 4.4). */
export const AUDITOR_MAX_DAYS = 90;
export const SCHEDULE_TYPES = ['DUTY', 'OFF', 'STANDBY', 'REST'] as const;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const HEX = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const email = z
  .string()
  .trim()
  .max(254, 'At most 254 characters')
  .regex(EMAIL, 'Expected an email address such as name@example.com');
const optional = <T extends z.ZodType>(inner: T) => z.union([z.literal(''), inner]);
const zone = z
  .string()
  .trim()
  .refine((v) => canonicalTimeZone(v) !== null, 'Unknown time zone; use an IANA name such as Europe/Madrid');
const number = (min: number, max: number, unit = '') =>
  z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?$/, 'Expected a number')
    .transform(Number)
    .pipe(z.number().min(min, `At least ${min}`).max(max, `At most ${max}${unit}`));

const validDate = (v: string) => DATE.test(v) && new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v;

/** POST /manager/companies/edit.json, as the company settings form holds it (strings from inputs). */
export const ZCompanySettingsForm = z.object({
  Company: z.object({ name: z.string().trim().min(1, 'Name is required').max(120, 'At most 120 characters') }),
  CompanyTheme: z.object({
    logo: optional(
      z
        .string()
        .trim()
        .max(500, 'At most 500 characters')
        .regex(/^(https?:\/\/|\/)\S+$/, 'Expected an http(s) URL or a path'),
    ),
    color: optional(z.string().trim().regex(HEX, 'Expected a hex colour such as #1f6feb')),
  }),
  CompanyDetail: z.object({
    currency: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{3}$/, 'Expected an ISO 4217 currency code such as EUR'),
    icao: optional(
      z
        .string()
        .trim()
        .toUpperCase()
        .regex(/^[A-Z]{2}[A-Z0-9]{2}$/, 'Expected a 4-letter ICAO code'),
    ),
    timezone_id: zone,
    country_id: optional(
      z.string().trim().toUpperCase().refine(isCountryCode, 'Expected an ISO 3166 country code such as ES'),
    ),
    zip: optional(z.string().trim().max(20, 'At most 20 characters')),
  }),
  CompanySetting: z.object({
    flight_timezone_id: optional(zone),
    date_format: z.enum(DATE_FORMATS),
    time_format: z.enum(TIME_FORMATS),
    duration_format: z.enum(DURATION_FORMATS),
    aoc: z.boolean(),
    extracrew: z.boolean(),
    cabincrew: z.boolean(),
    max_duty_hours: optional(number(0, 24, ' hours')),
    max_flight_hours_year: optional(number(0, 8784, ' hours (a leap year)')),
    // CONTRACT 5: empty keeps the default of 365 days.
    booking_horizon_days: optional(
      z
        .string()
        .trim()
        .regex(/^\d+$/, 'Whole days')
        .transform(Number)
        .pipe(z.number().min(1, 'At least 1 day').max(3650, 'At most 3650 days (ten years)')),
    ),
  }),
  CompanyBillingSetting: z.object({
    enabled: z.boolean(),
    billed_person: optional(z.string().trim().max(120, 'At most 120 characters')),
    tax: number(0, 100, ' (percent)'),
    send_notification: z.boolean(),
  }),
});
export type CompanySettingsForm = z.input<typeof ZCompanySettingsForm>;

/**
 * A user as the administration form holds it (create and edit). External auditors: an
 * expiration date is required, in the future and at most 90 days ahead (`today` is the
 * company's calendar date, YYYY-MM-DD).
 */
export function userForm(today: string) {
  return z
    .object({
      User: z.object({
        email: optional(email),
        user_group_id: z.coerce.number().refine(isRole, 'Unknown role'),
        active: z.boolean(),
        pilot: z.boolean(),
        expiration: optional(z.string().trim().refine(validDate, 'Expected a date YYYY-MM-DD')),
        send_email: z.boolean(),
      }),
      UserDetail: z.object({
        name: z.string().trim().min(1, 'Name is required').max(80, 'At most 80 characters'),
        surname: z.string().trim().min(1, 'Surname is required').max(80, 'At most 80 characters'),
      }),
    })
    .superRefine((v, ctx) => {
      if (v.User.user_group_id !== ROLES.AUDITOR) return;
      const exp = v.User.expiration;
      const path = ['User', 'expiration'];
      if (!exp) ctx.addIssue({ code: 'custom', path, message: 'An external auditor needs an expiration date' });
      else if (exp <= today)
        ctx.addIssue({ code: 'custom', path, message: 'The expiration date must be in the future' });
      else if ((Date.parse(`${exp}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000 > AUDITOR_MAX_DAYS)
        ctx.addIssue({
          code: 'custom',
          path,
          message: `An external auditor account lasts at most ${AUDITOR_MAX_DAYS} days`,
        });
    });
}

/** POST /users/edit.json from the own profile form. */
export const ZProfileForm = z.object({
  UserDetail: z.object({
    name: z.string().trim().min(1, 'Name is required').max(80, 'At most 80 characters'),
    surname: z.string().trim().min(1, 'Surname is required').max(80, 'At most 80 characters'),
    phonecode: optional(
      z
        .string()
        .trim()
        .regex(/^\+?\d{1,4}$/, 'Expected a dialling code such as +34'),
    ),
    phone: optional(
      z
        .string()
        .trim()
        .regex(/^[\d\s().-]{3,30}$/, 'Expected a phone number'),
    ),
    city: optional(z.string().trim().max(80, 'At most 80 characters')),
    timezone_id: optional(zone),
  }),
  User: z.object({ alerts: z.boolean(), message_alerts: z.boolean(), newsletter: z.boolean() }),
});

/** POST /users/email.json (Part A 4.5: valid, different from the current address, equal to its repeat, password given). */
export function emailChangeForm(current: string | null) {
  return z
    .object({
      new_email: email,
      new_email_repeat: z.string().trim(),
      password: z.string().min(1, 'Password is required'),
    })
    .superRefine((v, ctx) => {
      if (current && v.new_email.toLowerCase() === current.toLowerCase())
        ctx.addIssue({ code: 'custom', path: ['new_email'], message: 'This is already your address' });
      if (v.new_email_repeat.toLowerCase() !== v.new_email.toLowerCase())
        ctx.addIssue({ code: 'custom', path: ['new_email_repeat'], message: 'The addresses do not match' });
    });
}

/** POST /users/password.json. */
export const ZPasswordForm = z
  .object({
    password: z.string().min(1, 'Current password is required'),
    newpassword: z
      .string()
      .min(MIN_PASSWORD_LENGTH, `At least ${MIN_PASSWORD_LENGTH} characters`)
      .max(1024, 'Too long'),
    newpasswordrepeat: z.string().min(1, 'Repeat the new password'),
  })
  .refine((v) => v.newpassword === v.newpasswordrepeat, {
    path: ['newpasswordrepeat'],
    message: 'The new passwords do not match',
  });

/** POST /users/two_factor/totp/enable.json. */
export const ZTotpCode = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'Expected the 6-digit code from the app'),
});

/** POST /news/news/sign/{id}.json. */
export const ZSignForm = z.object({ password: z.string().min(1, 'Password is required') });

/** POST /manager/news/news/edit.json, as the write form holds it. */
export const ZNewsForm = z.object({
  News: z.object({
    name: z.string().trim().min(1, 'Title is required').max(200, 'At most 200 characters'),
    category: z.string().trim().max(60, 'At most 60 characters'),
    content: z.string().trim().min(1, 'Write the article').max(100_000, 'At most 100000 characters'),
    base_id: z.string(),
    sign: z.boolean(),
    notification: z.boolean(),
  }),
  NewsRecipient: z.object({
    user_group_id: z.array(z.number().refine(isRole, 'Unknown role')).min(1, 'Pick at least one role'),
  }),
});

/** POST /manager/api_keys/add.json: `expires` from a date input (end of that day, UTC), optional. */
export function apiKeyForm(today: string) {
  return z.object({
    name: z.string().trim().min(1, 'Name is required').max(120, 'At most 120 characters'),
    user_id: z.string().min(1, 'Pick the user the key acts as'),
    expires: optional(
      z
        .string()
        .refine(validDate, 'Expected a date YYYY-MM-DD')
        .refine((v) => v > today, 'The expiry must be after today'),
    ),
  });
}

/** POST /bases/add.json and /bases/edit/{id}.json. */
export const ZBaseForm = z.object({
  name: z.string().trim().min(1, 'Name is required').max(80, 'At most 80 characters'),
  airport_id: optional(
    z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z0-9]{3,4}$/, 'Expected an ICAO code such as LECU'),
  ),
  default: z.boolean(),
});

/** POST /bases/add_schedule.json: unix start and end, end after start, not wholly in the past. */
export function scheduleForm(now: number) {
  return z
    .object({
      pilot: z.string().min(1, 'Pick a pilot'),
      start: z.number({ error: 'Start is required' }).int(),
      end: z.number({ error: 'End is required' }).int(),
      type: z.enum(SCHEDULE_TYPES),
    })
    .superRefine((v, ctx) => {
      if (v.end <= v.start) ctx.addIssue({ code: 'custom', path: ['end'], message: 'End must be after start' });
      else if (v.end <= now)
        ctx.addIssue({ code: 'custom', path: ['end'], message: 'An entry wholly in the past cannot be added' });
    });
}

/** POST /pilot_groups/manager_add.json. */
export const ZPilotGroupForm = z.object({
  name: z.string().trim().min(1, 'Name is required').max(80, 'At most 80 characters'),
});
