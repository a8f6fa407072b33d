import { CERTIFICATE_TYPES, isCertificateType } from '@ops/shared/reference/certificate-types';
import { z } from 'zod';
import { zId } from '../../http/zod.ts';
import { zCalendarDate } from '../users/users.schema.ts';

/** Bodies arrive as JSON or form fields, wrapped in `UserCertificate` or `data[UserCertificate]`. */
const unwrap = (raw: unknown) => {
  let b = (raw ?? {}) as Record<string, unknown>;
  if (typeof b.data === 'object' && b.data !== null) b = b.data as Record<string, unknown>;
  const inner = b.UserCertificate;
  return typeof inner === 'object' && inner !== null ? inner : b;
};

/** '' or null clears; absent leaves the stored value (on edit). */
const clearable = <T extends z.ZodType>(inner: T) =>
  z
    .union([z.literal(''), z.null(), inner])
    .optional()
    .transform((v) => (v === '' ? null : v) as z.output<T> | null | undefined);

const zUserId = z.union([zId, z.number().int().positive().transform(String)], { error: 'user_id is required' });

export const ZCertificateEdit = z
  .preprocess(
    unwrap,
    z.object({
      id: zId.optional(),
      user_id: zUserId,
      type: z
        .string({ error: 'type is required' })
        .trim()
        .refine(
          isCertificateType,
          `Unknown certificate type; GET /pilots/certificate_types.json lists the ${CERTIFICATE_TYPES.length} keys`,
        ),
      name: clearable(z.string().trim().max(120, 'At most 120 characters')),
      issue: clearable(zCalendarDate),
      expiration: clearable(zCalendarDate),
      comments: clearable(z.string().trim().max(2000, 'At most 2000 characters')),
    }),
  )
  .refine((c) => !c.issue || !c.expiration || c.expiration >= c.issue, {
    path: ['expiration'],
    message: 'The expiration cannot be before the issue date',
  });
export type TCertificateEdit = z.output<typeof ZCertificateEdit>;
