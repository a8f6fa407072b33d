import {
  AIR_SPACES,
  DAMAGES,
  FLIGHT_PHASES,
  PERSONAL_DAMAGES,
  RISK_PROBABILITIES,
  RISK_SEVERITIES,
  SAFETY_SEVERITIES,
  SAFETY_STATUSES,
  SAFETY_TYPES,
  eventDateProblem,
} from '@ops/shared/rules/safety-reports/safety';
import { z } from 'zod';
import { rowsOf, unwrapData } from '../../http/body.ts';
import { parseOr400 } from '../../http/errors.ts';
import { emptyToUndefined } from '../../http/zod.ts';

/** Narrative texts: generous, but bounded (a 400 beyond). */
export const NARRATIVE_MAX = 20000;
const keys = <T extends Record<string, unknown>>(o: T) => Object.keys(o) as [keyof T & string, ...(keyof T & string)[]];

const optEnum = <E extends [string, ...string[]]>(values: E) =>
  z.preprocess(
    (v) => (v === '' ? null : v),
    z
      .enum(values, { error: `Expected one of ${values.join(', ')}` })
      .nullable()
      .optional(),
  );
const optText = z.preprocess(
  (v) => (v === '' ? null : v),
  z.string().max(NARRATIVE_MAX, `At most ${NARRATIVE_MAX} characters`).nullable().optional(),
);
const optId = z.preprocess(
  (v) => (v === '' ? null : v),
  z.union([z.string(), z.number()]).transform(String).pipe(z.string().trim().min(1).max(64)).nullable().optional(),
);

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** ISO 8601 (date, date and time, optional offset; no offset is UTC) to `YYYY-MM-DD HH:MM:SS` UTC; null when invalid. */
export function toSafetyDatetime(v: string): string | null {
  const m = ISO.exec(v.trim());
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', sec = '00', off] = m;
  if (+mo < 1 || +mo > 12 || +d < 1 || +d > 31 || +h > 23 || +mi > 59 || +sec > 59) return null;
  const base = Date.UTC(+y, +mo - 1, +d, +h, +mi, +sec);
  const check = new Date(Date.UTC(+y, +mo - 1, +d));
  if (check.getUTCDate() !== +d) return null;
  let offsetMin = 0;
  if (off && off !== 'Z') {
    const om = /^([+-])(\d{2}):?(\d{2})$/.exec(off);
    if (!om) return null;
    offsetMin = (om[1] === '-' ? -1 : 1) * (+om[2] * 60 + +om[3]);
  }
  const t = new Date(base - offsetMin * 60000);
  if (t.getUTCFullYear() < 1900 || t.getUTCFullYear() > 2999) return null;
  return t.toISOString().slice(0, 19).replace('T', ' ');
}

const zDatetime = z.string({ error: 'Expected an ISO 8601 date and time' }).transform((v, ctx) => {
  const out = toSafetyDatetime(v);
  if (!out) {
    ctx.addIssue({ code: 'custom', message: 'Expected an ISO 8601 date and time' });
    return z.NEVER;
  }
  // A report tells what happened: not later than now (the shared rule the form applies too).
  const future = eventDateProblem(out);
  if (future) {
    ctx.addIssue({ code: 'custom', message: future });
    return z.NEVER;
  }
  return out;
});

const zAircraft = z.preprocess(
  (v) =>
    v === undefined
      ? undefined
      : v === '' || v === null
        ? []
        : rowsOf(v).map((x) => (x && typeof x === 'object' ? (x as { id?: unknown }).id : x)),
  z
    .array(z.union([z.string(), z.number()]).transform(String).pipe(z.string().min(1).max(64)))
    .max(50)
    .optional(),
);
const zCrew = z.preprocess(
  (v) =>
    v === undefined
      ? undefined
      : v === '' || v === null
        ? []
        : rowsOf(v).map((x) => (x && typeof x === 'object' ? (x as { id?: unknown }).id : x)),
  z
    .array(z.union([z.string(), z.number()]).transform(String).pipe(z.string().min(1).max(64)))
    .max(50)
    .optional(),
);

const fields = {
  name: z.string({ error: 'Required' }).trim().min(1, 'Required').max(255, 'At most 255 characters'),
  type: optEnum([...SAFETY_TYPES]),
  severity: optEnum(SAFETY_SEVERITIES.map((s) => s.key) as [string, ...string[]]),
  datetime: zDatetime,
  location: z.string({ error: 'Required' }).trim().min(1, 'Required').max(255, 'At most 255 characters'),
  events: z
    .string({ error: 'Required' })
    .trim()
    .min(1, 'Required')
    .max(NARRATIVE_MAX, `At most ${NARRATIVE_MAX} characters`),
  flight_phase: z.enum(keys(FLIGHT_PHASES), { error: `Expected one of ${Object.keys(FLIGHT_PHASES).join(', ')}` }),
  safety_report_category_id: z
    .union([z.string(), z.number()], { error: 'Required' })
    .transform(String)
    .pipe(z.string().trim().min(1, 'Required').max(64)),
  user_id: z.unknown().optional(),
  flight_id: optId,
  flight_type_id: optId,
  parent_id: optId,
  reviewer_id: optId,
  reviewer_outcome: optText,
  damages: optEnum(keys(DAMAGES)),
  personal_damages: optEnum(keys(PERSONAL_DAMAGES)),
  air_space: optEnum(keys(AIR_SPACES)),
  actions: optText,
  result: optText,
  corrective_measures: optText,
  met_conditions: optText,
  immediate_consequences: optText,
  risk_probability: optEnum(keys(RISK_PROBABILITIES)),
  risk_severity: optEnum(keys(RISK_SEVERITIES)),
  mitigated_risk_probability: optEnum(keys(RISK_PROBABILITIES)),
  mitigated_risk_severity: optEnum(keys(RISK_SEVERITIES)),
  Aircraft: zAircraft,
  crew: zCrew,
};

export const ZCreate = z.object({
  ...fields,
  status: optEnum(['open', 'draft']),
  /** The filing form's id, generated when it opened: a repeat with the same id answers the report already filed. */
  client_id: z
    .string({ error: 'Expected a text id' })
    .trim()
    .min(1, 'Expected a text id')
    .max(64, 'At most 64 characters')
    .optional(),
});
export const ZEdit = z.object({
  ...fields,
  name: fields.name.optional(),
  datetime: fields.datetime.optional(),
  location: fields.location.optional(),
  events: fields.events.optional(),
  flight_phase: fields.flight_phase.optional(),
  safety_report_category_id: fields.safety_report_category_id.optional(),
  status: optEnum(SAFETY_STATUSES.map((s) => s.key) as [string, ...string[]]),
});
/**
 * Create and edit bodies as `flatten` reads them, for /openapi.json (the service validates the flat fields):
 * the report under `SafetyReport`; `Aircraft` and `crew` there or at the top level; on edit the id may be `SafetyReport.id`.
 */
export const ZCreateBody = z.object({
  SafetyReport: ZCreate,
  Aircraft: ZCreate.shape.Aircraft,
  crew: ZCreate.shape.crew,
});
export const ZEditBody = z.object({
  SafetyReport: ZEdit.extend({ id: z.string().max(64).optional() }).optional(),
  Aircraft: ZEdit.shape.Aircraft,
  crew: ZEdit.shape.crew,
});
export type TCreate = z.output<typeof ZCreate>;
export type TEdit = z.output<typeof ZEdit>;

/** Never taken from a client (Part B 4.4 item 5); `user_id` is handled apart. */
const IGNORED = ['id', 'company_id', 'idn', 'created', 'deleted', 'reported', 'modified', 'author_id', 'change_no'];

/**
 * `{SafetyReport: {...}, Aircraft?, crew?}` (or `data[SafetyReport][...]`) to
 * the flat fields; `date` is an alias of `datetime`; ignored fields dropped.
 */
export function flatten(raw: unknown): Record<string, unknown> {
  const b = unwrapData(raw);
  const inner =
    b.SafetyReport && typeof b.SafetyReport === 'object' && !Array.isArray(b.SafetyReport)
      ? (b.SafetyReport as Record<string, unknown>)
      : {};
  const out: Record<string, unknown> = { ...inner };
  if (out.Aircraft === undefined && b.Aircraft !== undefined) out.Aircraft = b.Aircraft;
  if (out.crew === undefined && b.crew !== undefined) out.crew = b.crew;
  if (out.datetime === undefined && out.date !== undefined) out.datetime = out.date;
  delete out.date;
  for (const k of IGNORED) delete out[k];
  return out;
}

export const parseCreate = (raw: unknown): TCreate => parseOr400(ZCreate, flatten(raw));
export const parseEdit = (raw: unknown): TEdit => parseOr400(ZEdit, flatten(raw));
export { emptyToUndefined };

/** Named filters of the list and the spreadsheet (Part B 4.4 item 1). */
export const LIST_KEYS = [
  'limit',
  'page',
  'status',
  'report_category',
  'severity',
  'department',
  'from',
  'to',
  'excel',
] as const;
const zDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Expected YYYY-MM-DD');
export const ZListFilters = z.object({
  limit: z.coerce
    .number({ error: 'Expected an integer' })
    .int('Expected an integer')
    .min(1, 'At least 1')
    .max(100, 'At most 100')
    .default(25),
  page: z.coerce.number({ error: 'Expected an integer' }).int('Expected an integer').min(1, 'At least 1').default(1),
  status: z.enum(SAFETY_STATUSES.map((s) => s.key) as [string, ...string[]]).optional(),
  severity: z.enum(SAFETY_SEVERITIES.map((s) => s.key) as [string, ...string[]]).optional(),
  report_category: z.string().max(64).optional(),
  department: z.string().max(64).optional(),
  from: zDay.optional(),
  to: zDay.optional(),
  excel: z.enum(['true', '1', 'false', '0']).optional(),
  flight_id: z.string().max(64).optional(),
});
export type ListFilters = z.output<typeof ZListFilters>;

/** `year:{year}` of the statistics. */
export const ZYearNamed = z.object({
  year: z.coerce
    .number({ error: 'Expected a year' })
    .int('Expected a year')
    .min(1900, 'Expected a year')
    .max(2999, 'Expected a year')
    .optional(),
});
