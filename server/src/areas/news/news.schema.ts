import { isRole } from '@ops/shared';
import { z } from 'zod';
import { zBoolish, zId } from '../../http/zod.ts';

/** `notification`: `0`, `false` → 0; empty → dropped (left alone); anything else → 1 (Part A 4.3 item 3). */
const zNotification = z.unknown().transform((v): 0 | 1 | undefined => {
  if (v === undefined || v === null || v === '') return undefined;
  if (v === 0 || v === '0' || v === false || v === 'false') return 0;
  return 1;
});

const zDateTime = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2})?)?$/, 'Expected YYYY-MM-DD or YYYY-MM-DD HH:MM[:SS]');
const zTime = z
  .string()
  .trim()
  .regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, 'Expected HH:MM or HH:MM:SS');

/** '' clears an optional text; absent leaves it alone. */
const optText = (max: number) =>
  z
    .union([z.string().trim().max(max, `At most ${max} characters`), z.null()])
    .optional()
    .transform((v) => (v === '' ? null : v));

/** Roles from a form multi-select (`[]`, one value, or nothing) or a JSON list. */
const zRoleList = z
  .union([z.array(z.union([z.number(), z.string()])), z.number(), z.string(), z.null()])
  .optional()
  .transform((v) => (v === undefined || v === null || v === '' ? [] : Array.isArray(v) ? v : [v]))
  .pipe(
    z.array(
      z
        .union([z.number(), z.string().trim().regex(/^\d+$/, 'Expected a role number')])
        .transform(Number)
        .refine(isRole, 'Unknown role'),
    ),
  );

/**
 * POST /manager/news/news/edit.json: `News` (no `id` creates) and
 * `NewsRecipient.user_group_id[]`; form names `data[News][...]` accepted.
 */
export const ZNewsEdit = z.preprocess(
  (raw) => {
    const b = (raw ?? {}) as Record<string, unknown>;
    return typeof b.data === 'object' && b.data !== null ? b.data : b;
  },
  z.object({
    News: z.object(
      {
        id: z
          .union([zId, z.literal('')])
          .optional()
          .transform((v) => v || undefined),
        name: z.string().trim().min(1, 'Title is required').max(200, 'At most 200 characters').optional(),
        category: optText(60),
        content: optText(100_000),
        base_id: z
          .union([zId, z.literal(''), z.null()])
          .optional()
          .transform((v) => (v === '' ? null : v)),
        sign: zBoolish.optional(),
        notification: zNotification.optional(),
        public: zBoolish.optional(),
        created: zDateTime.optional(),
        time: z
          .union([zTime, z.literal('')])
          .optional()
          .transform((v) => v || undefined),
      },
      { error: 'News is required' },
    ),
    NewsRecipient: z.object({ user_group_id: zRoleList }).optional(),
  }),
);
export type TNewsEdit = z.output<typeof ZNewsEdit>;
