import { z } from 'zod';
import { type FieldErrors, HttpError, zodFieldErrors } from '../../http/errors.ts';

/**
 * Small helpers shared by the fleet areas (aircraft, inventory, aircraft
 * reports, jobs, plans). Decisions are in docs/areas/fleet.md.
 */

/** Managers and mechanics: maintenance writes, MEL actions, plan edits (Part B 4.2, 4.3, 5). */
export const MAINTENANCE_ROLES = [1, 100, 105, 110, 300] as const;
/** Managers only (Part A 5 threshold "<= 110"). */
export const MANAGER_MAX_ROLE = 110;
/** Aircraft records are managed by company managers (not mechanics: they change the fleet, not its state). */
export const AIRCRAFT_MANAGER_ROLES = [1, 100, 105, 110] as const;
export const REPORT_PLANS = ['premium', 'unlimited'] as const;
export const INVENTORY_PLANS = ['premium', 'unlimited', 'club'] as const;
/** The external auditor is read-only everywhere (Part A 5: temporary, read-only). */
export const AUDITOR_ROLE = 250;

/**
 * Form bodies arrive as `data[Model][field]` (CakePHP style) or `Model[field]`;
 * JSON clients send `{Model: {...}}`. Both reach the same shape.
 */
export function unwrapData(raw: unknown): Record<string, unknown> {
  const b = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const data = b.data;
  if (data && typeof data === 'object' && !Array.isArray(data)) return { ...b, ...(data as Record<string, unknown>) };
  return b;
}

/** `{a: 'x', b: 'y'}` (urlencoded `X[0][...]`, or `X[][...]` of objects) or an array: the list of rows. */
export function rowsOf(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>);
    if (entries.every(([k]) => /^\d+$/.test(k))) return entries.sort((a, b) => Number(a[0]) - Number(b[0])).map(([, x]) => x);
    return [v];
  }
  return [];
}

/** A list of ids posted as an array, a comma list, a single value or `''` (an empty form multi-select). */
export const zIdList = z.preprocess((v) => {
  if (v === undefined || v === null || v === '') return [];
  if (Array.isArray(v)) return v.filter((x) => x !== '' && x !== null);
  if (typeof v === 'object') return Object.values(v as Record<string, unknown>).filter((x) => x !== '' && x !== null);
  return String(v)
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
}, z.array(z.union([z.string(), z.number()]).transform(String).pipe(z.string().min(1).max(64))).max(1000));

/** Empty strings from forms mean "not given". */
export const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);
export const emptyToNull = (v: unknown) => (v === '' ? null : v);

export const zOptText = (max: number) => z.preprocess(emptyToNull, z.string().trim().max(max, `At most ${max} characters`).nullable().optional());

export const zDecimal = z.union([z.number(), z.string().trim().regex(/^-?\d+(\.\d+)?$/, 'Expected a number')]).transform(Number).pipe(z.number().finite());

/** One line naming each field error: the spec's `message` holding field errors. */
export function errorsMessage(errors: FieldErrors): string {
  return Object.entries(errors)
    .map(([k, v]) => `${k}: ${v.join(', ')}`)
    .join('; ');
}

/** 400 `{result: false, message: "<field errors>", errors}`. */
export function invalid(errors: FieldErrors): HttpError {
  return new HttpError(400, { result: false, message: errorsMessage(errors), errors });
}

export function parseOr400<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw invalid(zodFieldErrors(r.error));
  return r.data;
}

/** Part A conventions: page 1-based; the `paginate` block of list responses. */
export function paginate(page: number, limit: number, count: number, current: number) {
  const pageCount = Math.max(1, Math.ceil(count / limit));
  return { page, current, count, prevPage: page > 1, nextPage: page < pageCount, pageCount, limit };
}

export const zPage = z.preprocess(emptyToUndefined, z.union([z.number(), z.string().regex(/^\d+$/)]).transform(Number).pipe(z.number().int().min(1)).optional());

/** Calendar date `YYYY-MM-DD` (also accepts unix seconds, converted in UTC). */
export const zDate = z.preprocess(
  (v) => {
    if (v === '' || v === undefined) return undefined;
    if (v === null) return null;
    if (typeof v === 'number' || (typeof v === 'string' && /^\d{9,11}$/.test(v))) return new Date(Number(v) * 1000).toISOString().slice(0, 10);
    return v;
  },
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Expected a date YYYY-MM-DD')
    .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), 'Not a calendar date')
    .nullable()
    .optional(),
);

/** Adds a message to a field's error list. */
export function addError(errors: FieldErrors, key: string, message: string): void {
  const list = errors[key] ?? [];
  list.push(message);
  errors[key] = list;
}

/** Merges field errors under a key prefix (`MelItem.`, `InventoryUnit.`...). */
export function mergeErrors(errors: FieldErrors, prefix: string, more: FieldErrors): void {
  for (const [k, v] of Object.entries(more)) for (const m of v) addError(errors, prefix + k, m);
}
