import { isRole } from '@ops/shared';
import { z } from 'zod';
import { unwrapData } from '../../http/body.ts';
import { zBoolish, zEmail, zId, zIntish } from '../../http/zod.ts';
import { zCalendarDate, ZManagerDetailFields } from '../users/users.schema.ts';

/** '' or null clears an optional field; absent leaves it alone. */
const clearable = <T extends z.ZodType>(inner: T) =>
  z
    .union([z.literal(''), z.null(), inner])
    .optional()
    .transform((v) => (v === '' ? null : v) as z.output<T> | null | undefined);

const zRole = z
  .union([z.number(), z.string().trim().regex(/^\d+$/, 'Expected a role number').transform(Number)])
  .refine((v) => isRole(v), 'Unknown role');

/**
 * `User.created` (unix seconds): kept as sent and sanitised by the service,
 * which silently drops a value that is not numeric, not positive or more than
 * 48 hours ahead (Part A 4.8 item 5).
 */
const zCreatedRaw = z.unknown().optional();

/** Falsy map values mean "unchecked" (HTML forms post 0 for an unchecked box); only truthy keys are saved. */
const FALSY = new Set<unknown>([false, 0, '0', 'false', 'off', '', null, undefined]);
const zIdMap = z
  .union([z.literal(''), z.null(), z.array(z.union([zId, z.number()])), z.record(z.string(), z.unknown())], {
    error: 'Expected a map {id: 1}',
  })
  .optional()
  .transform((v) => {
    if (v === undefined) return undefined;
    if (v === '' || v === null) return [];
    if (Array.isArray(v)) return [...new Set(v.map(String))];
    return Object.entries(v)
      .filter(([, on]) => !FALSY.has(on))
      .map(([id]) => id);
  })
  .pipe(z.array(zId).max(1000, 'At most 1000 entries').optional());

export const ZPilotCreate = z.preprocess(
  unwrapData,
  z.object({
    User: z
      .object({
        user_group_id: zRole.optional(),
        email: clearable(zEmail),
        active: zBoolish.optional(),
        pilot: zBoolish.optional(),
        billing: zBoolish.optional(),
        base_id: clearable(zId),
        supervisor_id: clearable(zId),
        language: z
          .string()
          .trim()
          .regex(/^[a-z]{2}(-[A-Z]{2})?$/, 'Expected a language code such as en or pt-BR')
          .optional(),
        expiration: clearable(zCalendarDate),
        created: zCreatedRaw,
        send_email: zBoolish.optional(),
      })
      .prefault({}),
    UserDetail: ZManagerDetailFields.prefault({}),
  }),
);
export type TPilotCreate = z.output<typeof ZPilotCreate>;

export const ZPilotEdit = z.preprocess(
  unwrapData,
  z.object({
    User: z.object(
      {
        id: z.union([zId, z.number().int().positive().transform(String)], { error: 'User id is required' }),
        user_group_id: zRole.optional(),
        email: clearable(zEmail),
        active: zBoolish.optional(),
        pilot: zBoolish.optional(),
        billing: zBoolish.optional(),
        base_id: clearable(zId),
        supervisor_id: clearable(zId),
        language: z
          .string()
          .trim()
          .regex(/^[a-z]{2}(-[A-Z]{2})?$/, 'Expected a language code such as en or pt-BR')
          .optional(),
        expiration: clearable(zCalendarDate),
        created: zCreatedRaw,
        send_email: zBoolish.optional(),
        alerts: zBoolish.optional(),
        message_alerts: zBoolish.optional(),
        newsletter: zBoolish.optional(),
        whatsapp: zBoolish.optional(),
      },
      { error: 'User is required' },
    ),
    UserDetail: ZManagerDetailFields.prefault({}),
    AttributedAircraft: zIdMap,
    FlightType: zIdMap,
    PilotGroup: zIdMap,
  }),
);
export type TPilotEdit = z.output<typeof ZPilotEdit>;

/** Named parameters of /pilots/list: `1`, `0` or `all` (true/false accepted). */
const zTriState = z
  .string()
  .trim()
  .toLowerCase()
  .transform((v, ctx) => {
    if (v === 'all') return null;
    if (v === '1' || v === 'true') return true;
    if (v === '0' || v === 'false') return false;
    ctx.addIssue({ code: 'custom', message: 'Expected 1, 0 or all' });
    return z.NEVER;
  });

export const ZPilotList = z.object({ active: zTriState.default(true), pilot: zTriState.default(true) });

export const INDEX_MAX_LIMIT = 100_000;
export const INDEX_DEFAULT_LIMIT = 50;

/** Bounded so that (page - 1) × limit stays a valid SQL offset on every database. */
export const INDEX_MAX_PAGE = 1_000_000;

export const ZPilotIndex = z.object({
  page: zIntish
    .pipe(z.number().int().min(1, 'Pages start at 1').max(INDEX_MAX_PAGE, `At most page ${INDEX_MAX_PAGE}`))
    .default(1),
  // Above the maximum the page is clamped rather than refused (Part A 8: max 100000).
  limit: zIntish
    .pipe(z.number().int().min(1, 'At least 1'))
    .transform((n) => Math.min(n, INDEX_MAX_LIMIT))
    .default(INDEX_DEFAULT_LIMIT),
  search: z.string().trim().max(100, 'At most 100 characters').optional(),
  // A known role only: an out-of-range number would overflow the integer column on PostgreSQL.
  user_group_id: zIntish
    .pipe(
      z
        .number()
        .int()
        .refine((v) => isRole(v), 'Unknown role'),
    )
    .optional(),
  pilot_group: zId.optional(),
  base_id: zId.optional(),
  active: zBoolish.optional(),
  pilot: zBoolish.optional(),
  excel: zBoolish.optional(),
});
export type TPilotIndex = z.output<typeof ZPilotIndex>;

export const ZCurrencyRequirements = z.preprocess(
  (raw) => {
    const b = (raw ?? {}) as Record<string, unknown>;
    return typeof b.CurrencyRequirements === 'object' && b.CurrencyRequirements !== null ? b.CurrencyRequirements : b;
  },
  z.object({
    landings: zIntish.pipe(z.number().int().min(0, 'At least 0').max(100, 'At most 100')),
    night_landings: zIntish.pipe(z.number().int().min(0, 'At least 0').max(100, 'At most 100')),
    hours: z
      .union([
        z.number(),
        z
          .string()
          .trim()
          .regex(/^\d+(\.\d+)?$/, 'Expected hours as a number')
          .transform(Number),
      ])
      .pipe(z.number().min(0, 'At least 0').max(1000, 'At most 1000')),
  }),
);
