import {
  AIRCRAFT_STATUSES,
  DISPATCH_CONDITIONS,
  INTERVAL_TYPES,
  MEL_CATEGORIES,
  REPORT_STATUSES,
  REPORT_TYPES,
  remapLegacyReportType,
  SEVERITIES,
} from '@ops/shared/rules/aircraft-reports/mel';
import { z } from 'zod';
import { zBoolish, zIntish, zUnix } from '../../http/zod.ts';
import { rowsOf, unwrapData } from '../../http/body.ts';
import { emptyToNull, emptyToUndefined, zDecimal } from '../../http/zod.ts';

/**
 * Input of the aircraft report endpoints (Part B 2.2, 2.3, 4.2), as form
 * fields `AircraftReport[...]`, `MelItem[...]`, `MelItemLimitation[][...]`
 * (urlencoded extended parsing nests them) or JSON with the same nesting.
 * Unknown keys are dropped, so read-only fields (`user_id`, `created`,
 * `closed`, `starts`, `expires`, `baseline_*`...) can never be posted.
 */

const upper = (v: unknown) => (typeof v === 'string' ? v.trim().toUpperCase() : v);
const enumOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((v) => emptyToUndefined(upper(v)), z.enum(values, { error: `One of ${values.join(', ')}` }).optional());
const text = (max: number) =>
  z.preprocess(emptyToNull, z.string().trim().max(max, `At most ${max} characters`).nullable());
const optUnix = z.preprocess(emptyToNull, zUnix.nullable());

/** Legacy OBSERVATION and RESTRICTION are remapped before validation (Part B 9.1). */
const zType = z.preprocess(
  (v) => (typeof v === 'string' ? remapLegacyReportType(v.trim().toUpperCase()) : v),
  z.enum(REPORT_TYPES, { error: `One of ${REPORT_TYPES.join(', ')}` }),
);

/** Fields a report edit may change (all optional, no defaults: a partial update). */
const editable = {
  type: zType.optional(),
  title: z.string().trim().min(1, 'Required').max(180, 'At most 180 characters').optional(),
  description: z.preprocess(emptyToNull, z.string().max(20000, 'Too long').nullable()).optional(),
  ata_chapter: text(10).optional(),
  system: text(120).optional(),
  severity: enumOf(SEVERITIES).optional(),
  aircraft_status: enumOf(AIRCRAFT_STATUSES).optional(),
  dispatch_condition: enumOf(DISPATCH_CONDITIONS).optional(),
  status: enumOf(REPORT_STATUSES).optional(),
  hours: z.preprocess(emptyToNull, zDecimal.pipe(z.number().min(0, 'Must be 0 or more')).nullable()).optional(),
  cycles: z.preprocess(emptyToNull, zIntish.pipe(z.number().min(0, 'Must be 0 or more')).nullable()).optional(),
  deferred_until: optUnix.optional(),
  deferred_reference: text(120).optional(),
};

/**
 * What was done to rectify the defect; required when a change releases an
 * aircraft a report grounded (issue 28 item 6); recorded in the description.
 */
const zRectification = z.preprocess(
  emptyToNull,
  z.string().trim().min(3, 'Say what was done').max(4000, 'At most 4000 characters').nullable(),
);

export const ZReportEdit = z.object({ ...editable, rectification: zRectification.optional() });

/** The app's close: rectification and the closer's password, as a CRS is signed. */
export const ZReportClose = z.object({
  rectification: z
    .string({ error: 'Required' })
    .trim()
    .min(3, 'Say what was done')
    .max(4000, 'At most 4000 characters'),
  password: z.string({ error: 'Required' }).min(1, 'Required').max(1024),
});
export const ZReportCreate = z.object({
  ...editable,
  aircraft_id: z.preprocess(
    emptyToUndefined,
    z.union([z.string(), z.number()], { error: 'Required' }).transform(String).pipe(z.string().trim().min(1).max(64)),
  ),
  type: zType,
  title: z.string({ error: 'Required' }).trim().min(1, 'Required').max(180, 'At most 180 characters'),
  flight_id: z.preprocess(emptyToNull, z.uuid('Expected a flight UUID').nullable()).optional(),
});
export type TReportCreate = z.output<typeof ZReportCreate>;
export type TReportEdit = z.output<typeof ZReportEdit>;

/** `M`, `O` or both (any of `MO`, `OM`, `M,O`, `["M","O"]`), stored as `M`, `O` or `MO`. */
const zProcedures = z.preprocess((v) => {
  if (v === '' || v === null || v === undefined) return v === undefined ? undefined : null;
  const parts = (Array.isArray(v) ? v.join('') : String(v)).toUpperCase().replace(/[\s,]/g, '');
  if (!/^[MO]{1,2}$/.test(parts)) return parts || null;
  return ['M', 'O'].filter((x) => parts.includes(x)).join('');
}, z.enum(['M', 'O', 'MO'], { error: 'M, O or both' }).nullable().optional());

const releasedBy = z
  .union([z.string(), z.number()])
  .transform(String)
  .pipe(z.string().trim().min(1, 'Required').max(64));

export const ZMelCreate = z.object({
  category: z.preprocess(
    (v) => emptyToNull(upper(v)),
    z.enum(MEL_CATEGORIES, { error: 'One of A, B, C, D' }).nullable().optional(),
  ),
  interval_type: z.preprocess(
    (v) => emptyToNull(upper(v)),
    z
      .enum(INTERVAL_TYPES, { error: `One of ${INTERVAL_TYPES.join(', ')}` })
      .nullable()
      .optional(),
  ),
  interval_value: z.preprocess(emptyToNull, zIntish.nullable().optional()),
  mel_reference: text(60).optional(),
  released_by: z.preprocess(emptyToUndefined, releasedBy.optional()),
  placard_fitted: z.preprocess(emptyToUndefined, zBoolish.optional()),
  procedures: zProcedures,
});
export type TMelCreate = z.output<typeof ZMelCreate>;

/** On edit only these MelItem fields may change (Part B 4.2 item 4). */
export const ZMelEdit = z.object({
  mel_reference: text(60).optional(),
  released_by: z.preprocess(emptyToUndefined, releasedBy.optional()),
  placard_fitted: z.preprocess(emptyToUndefined, zBoolish.optional()),
  procedures: zProcedures,
});
export type TMelEdit = z.output<typeof ZMelEdit>;

export const ZLimitation = z.object({
  code: z.preprocess(
    upper,
    z
      .string({ error: 'Required' })
      .min(1, 'Required')
      .max(32)
      .regex(/^[A-Z][A-Z0-9_]*$/, 'A limitation code such as NO_IFR'),
  ),
  value: text(60).optional(),
  note: text(255).optional(),
});
export type TLimitation = z.output<typeof ZLimitation>;

/**
 * Create and edit bodies as `splitReportBody` reads them, for /openapi.json (the service validates each part).
 * `MelItem` may also sit inside `AircraftReport`; an empty `MelItemLimitation` removes all limitations.
 */
export const ZReportCreateBody = z.object({
  AircraftReport: ZReportCreate,
  MelItem: ZMelCreate.optional(),
  MelItemLimitation: z.array(ZLimitation).optional(),
});
export const ZReportEditBody = z.object({
  AircraftReport: ZReportEdit.optional(),
  MelItem: ZMelEdit.optional(),
  MelItemLimitation: z.array(ZLimitation).optional(),
});

export interface ReportInput {
  report: Record<string, unknown>;
  mel: Record<string, unknown> | null;
  /** null when the key was not posted (edit keeps the limitations). */
  limitations: unknown[] | null;
}

/** Splits a posted body into its three parts, whatever the encoding. */
export function splitReportBody(raw: unknown): ReportInput {
  const b = unwrapData(raw);
  const obj = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);
  const report = obj(b.AircraftReport) ?? {};
  const mel = obj(b.MelItem) ?? obj(report.MelItem);
  const limKey =
    'MelItemLimitation' in b
      ? b.MelItemLimitation
      : mel && 'MelItemLimitation' in mel
        ? mel.MelItemLimitation
        : undefined;
  // An empty form value (`MelItemLimitation=`) posts the key with no rows: remove them all.
  const limitations = limKey === undefined ? null : limKey === '' || limKey === null ? [] : zipRows(rowsOf(limKey));
  return { report, mel, limitations };
}

/**
 * Form fields `X[][code]=a&X[][code]=b` parse (qs) into one row of arrays
 * `[{code: ['a', 'b']}]`; spread such a row back into one row per index.
 */
function zipRows(rows: unknown[]): unknown[] {
  if (rows.length !== 1 || !rows[0] || typeof rows[0] !== 'object' || Array.isArray(rows[0])) return rows;
  const row = rows[0] as Record<string, unknown>;
  const arrays = Object.values(row).filter(Array.isArray) as unknown[][];
  if (!arrays.length) return rows;
  const n = Math.max(...arrays.map((a) => a.length));
  return Array.from({ length: n }, (_, i) =>
    Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Array.isArray(v) ? v[i] : i === 0 ? v : undefined])),
  );
}
