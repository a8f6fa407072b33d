import { getAirport } from '@ops/shared/airports';
import { z } from 'zod';
import { zBoolish, zId, zUnix } from '../../http/zod.ts';

export const SCHEDULE_TYPES = ['DUTY', 'OFF', 'STANDBY', 'REST'] as const;
export type ScheduleType = (typeof SCHEDULE_TYPES)[number];

/** Acronyms (ICAO codes, "JFK") keep their capitals; any other word gets one capital then lower case. */
export function titleCase(name: string): string {
  return name
    .trim()
    .replace(/\s+/g, ' ')
    .split(/([ -])/)
    .map((w) => (/^\p{Lu}{2,4}$/u.test(w) ? w : w.charAt(0).toLocaleUpperCase() + w.slice(1).toLocaleLowerCase()))
    .join('');
}

/** Bodies arrive as JSON, as `Base[...]` or as `data[Base][...]` form fields. */
const unwrap = (key: string) => (raw: unknown) => {
  let b = (raw ?? {}) as Record<string, unknown>;
  if (typeof b.data === 'object' && b.data !== null) b = b.data as Record<string, unknown>;
  const inner = b[key];
  return typeof inner === 'object' && inner !== null ? inner : b;
};

/** An ICAO code of the shipped airport database; '' or null clears it. */
const zAirport = z.union([z.literal(''), z.null(), z.string().trim().toUpperCase()]).transform((v, ctx) => {
  if (v === '' || v === null) return null;
  if (!getAirport(v)) {
    ctx.addIssue({ code: 'custom', message: 'Unknown airport; expected an ICAO code such as LECU' });
    return z.NEVER;
  }
  return v;
});

const zName = z
  .string({ error: 'Name is required' })
  .trim()
  .min(1, 'Name is required')
  .max(80, 'At most 80 characters')
  .transform(titleCase);

export const ZBaseAdd = z.preprocess(
  unwrap('Base'),
  z.object({
    name: zName,
    airport_id: zAirport.optional(),
    default: zBoolish.optional(),
  }),
);
export type TBaseAdd = z.output<typeof ZBaseAdd>;

/**
 * An edit must name at least one field: a body whose wrapper or keys were
 * misspelt would otherwise read as "nothing to change" and answer 200, so the
 * client would believe a rename that never happened.
 */
export const ZBaseEdit = z
  .preprocess(
    unwrap('Base'),
    z.object({
      name: zName.optional(),
      airport_id: zAirport.optional(),
      default: zBoolish.optional(),
    }),
  )
  .refine((v) => v.name !== undefined || v.airport_id !== undefined || v.default !== undefined, {
    path: ['Base'],
    message: 'Nothing to change: send name, airport_id or default',
  });
export type TBaseEdit = z.output<typeof ZBaseEdit>;

/** 2100-01-01T00:00:00Z: a duty roster entry beyond that is a typo (milliseconds sent as seconds, say). */
export const SCHEDULE_MAX_UNIX = 4_102_444_800;
const zTime = zUnix.pipe(z.number().max(SCHEDULE_MAX_UNIX, 'Expected unix seconds before 2100 (not milliseconds)'));

const zType = z.enum(SCHEDULE_TYPES, { error: `Expected one of ${SCHEDULE_TYPES.join(', ')}` });

export const ZScheduleAdd = z
  .preprocess(
    unwrap('BaseSchedule'),
    z.object({
      base: zId,
      pilot: zId,
      start: zTime.optional(),
      end: zTime.optional(),
      type: zType.default('DUTY'),
      always: zBoolish.default(false),
    }),
  )
  .superRefine((v, ctx) => {
    if (v.always) {
      if (v.start !== undefined || v.end !== undefined)
        ctx.addIssue({ code: 'custom', path: ['always'], message: 'An always-available entry has no start or end' });
      return;
    }
    if (v.start === undefined) ctx.addIssue({ code: 'custom', path: ['start'], message: 'Start is required' });
    if (v.end === undefined) ctx.addIssue({ code: 'custom', path: ['end'], message: 'End is required' });
    if (v.start !== undefined && v.end !== undefined && v.end <= v.start)
      ctx.addIssue({ code: 'custom', path: ['end'], message: 'End must be after start' });
  });
export type TScheduleAdd = z.output<typeof ZScheduleAdd>;

export const ZScheduleEdit = z
  .preprocess(
    unwrap('BaseSchedule'),
    z.object({
      id: z.uuid({ error: 'Expected a schedule id (UUID)' }),
      start: zTime,
      end: zTime,
      type: zType.optional(),
    }),
  )
  .refine((v) => v.end > v.start, { path: ['end'], message: 'End must be after start' });
export type TScheduleEdit = z.output<typeof ZScheduleEdit>;
