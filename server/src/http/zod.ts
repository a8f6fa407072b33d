import { z } from 'zod';

/**
 * Input helpers for bodies that arrive as JSON or as form fields (where every
 * value is a string): booleans and numbers are accepted in both spellings.
 */
export const zId = z.string().trim().min(1, 'Required').max(64, 'Too long');

export const zBoolish = z.union([z.boolean(), z.number(), z.string()]).transform((v, ctx) => {
  if (typeof v === 'boolean') return v;
  if (v === 1 || v === '1' || v === 'true' || v === 'on') return true;
  if (v === 0 || v === '0' || v === 'false' || v === '' || v === 'off') return false;
  ctx.addIssue({ code: 'custom', message: 'Expected a boolean' });
  return z.NEVER;
});

export const zIntish = z
  .union([
    z.number(),
    z
      .string()
      .trim()
      .regex(/^-?\d+$/, 'Expected an integer'),
  ])
  .transform(Number)
  .pipe(z.number().int());

/** Unix seconds, as a number or numeric string. */
export const zUnix = zIntish.pipe(z.number().int().nonnegative('Expected unix seconds'));

export const zEmail = z.string().trim().toLowerCase().pipe(z.email('Invalid email address'));

/** A list of ids posted as an array, a comma list, a single value or `''` (an empty form multi-select). */
export const zIdList = z.preprocess(
  (v) => {
    if (v === undefined || v === null || v === '') return [];
    if (Array.isArray(v)) return v.filter((x) => x !== '' && x !== null);
    if (typeof v === 'object') return Object.values(v as Record<string, unknown>).filter((x) => x !== '' && x !== null);
    // Text or a number only: `true` is no list of ids (left for the array schema to refuse).
    if (typeof v !== 'string' && typeof v !== 'number') return v;
    return String(v)
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
  },
  z.array(z.union([z.string(), z.number()]).transform(String).pipe(z.string().min(1).max(64))).max(1000),
);

/** Empty strings from forms mean "not given". */
export const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);
export const emptyToNull = (v: unknown) => (v === '' ? null : v);

export const zOptText = (max: number) =>
  z.preprocess(emptyToNull, z.string().trim().max(max, `At most ${max} characters`).nullable().optional());

export const zDecimal = z
  .union([
    z.number(),
    z
      .string()
      .trim()
      .regex(/^-?\d+(\.\d+)?$/, 'Expected a number'),
  ])
  .transform(Number)
  .pipe(z.number().finite());

export const zPage = z.preprocess(
  emptyToUndefined,
  z
    .union([z.number(), z.string().regex(/^\d+$/)])
    .transform(Number)
    .pipe(z.number().int().min(1))
    .optional(),
);

/** Calendar date `YYYY-MM-DD` (also accepts unix seconds, converted in UTC). */
export const zDate = z.preprocess(
  (v) => {
    if (v === '' || v === undefined) return undefined;
    if (v === null) return null;
    if (typeof v === 'number' || (typeof v === 'string' && /^\d{9,11}$/.test(v)))
      return new Date(Number(v) * 1000).toISOString().slice(0, 10);
    return v;
  },
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Expected a date YYYY-MM-DD')
    .refine(
      (d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
      'Not a calendar date',
    )
    .nullable()
    .optional(),
);
