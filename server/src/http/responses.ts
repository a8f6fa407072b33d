import { z } from 'zod';

/**
 * Response schemas every area shares: the spec's error envelope, the paging
 * blocks and plain acknowledgements. Documented in /openapi.json and checked
 * by the contract test against every response the integration suite produces.
 */

const zFieldErrors = z.record(z.string(), z.array(z.string()));
/** Uploads (Part A 4.9) key one message per field. */
const zFieldError = z.record(z.string(), z.string());

/**
 * Part A 7 error envelope (401, 403, 404, 405, 409, 410, 413, 429, 5xx). A few routes add a machine-readable
 * `code` or `error`; 429 adds `retry_after` seconds; an unexpected error adds the `request_id` to quote.
 */
export const ZError = z.strictObject({
  result: z.literal(false),
  message: z
    .string()
    .describe(
      "For a person, in the request's language (Accept-Language, else the caller's own, else English); match on `code`",
    ),
  code: z.string().optional(),
  error: z.string().optional(),
  retry_after: z.number().optional(),
  request_id: z.string().optional(),
});

/** 400: as `ZError`, with the field errors under `errors` (or `validation` on the spec routes that say so). */
export const ZValidationError = ZError.extend({
  // Most routes key messages by field; the pilot import lists whole-row messages.
  errors: z.union([zFieldErrors, zFieldError, z.array(z.string())]).optional(),
  validation: zFieldErrors.optional(),
  /** Operating hours: one message list per submitted row. */
  rows: z.array(z.unknown()).optional(),
  /** Pilot edit echoes the id it was saving (null for a new pilot). */
  id: z.string().nullable().optional(),
  /** Flight overlap (`code: FLIGHT_OVERLAP`): the confirmed flights in the way and the list that shows them. */
  url: z.string().optional(),
  conflicts: z
    .array(
      z.object({
        id: z.string(),
        callsign: z.string().nullable(),
        date: z.string(),
        offblocks_time: z.number().nullable(),
        onblocks_time: z.number().nullable(),
        link: z.string().nullable(),
      }),
    )
    .optional(),
});

/** `{result: true, message?}`: a write that answers no record. */
export const ZOk = z.strictObject({ result: z.literal(true), message: z.string().optional() });

/** `{result: true, id, message?}`: a write that answers the id it saved. */
export const ZOkId = ZOk.extend({ id: z.string() });

/** Part A conventions: the `paginate` block of list answers (page 1-based). */
export const ZPaginate = z.strictObject({
  page: z.number().int(),
  current: z.number().int(),
  count: z.number().int(),
  prevPage: z.boolean(),
  nextPage: z.boolean(),
  pageCount: z.number().int(),
  limit: z.number().int(),
});
export type TPaginate = z.infer<typeof ZPaginate>;
/** The same block under the name news and trainings use (`pagination`). */
export const ZPagination = ZPaginate;

/** Paging headers of the list routes that send them (Part A conventions). */
export const PAGING_HEADERS = {
  'X-Total-Posts': { description: 'Records matching the filters', type: 'integer' },
  'X-Actual-Page': { description: 'This page (1-based)', type: 'integer' },
  'X-Paging-limit': { description: 'Page size', type: 'integer' },
  'X-Number-Pages': { description: 'Pages in all', type: 'integer' },
} as const;

/** Any JSON object; for answers whose keys are data (ids, dates) rather than fields. */
export const ZDict = <T extends z.ZodType>(value: T) => z.record(z.string(), value);

/** Media types of file answers. */
export const MEDIA = {
  pdf: 'application/pdf',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv',
  ics: 'text/calendar',
  octet: 'application/octet-stream',
} as const;
