import { DateTime } from 'luxon';
import { z } from 'zod';
import { zId, zIntish, zUnix } from '../../http/zod.ts';
import { unwrapModel } from '../flight-types/flight-types.schema.ts';

const blankToNull = (v: unknown) => (v === '' ? null : v);
const nullable = <S extends z.ZodType>(schema: S) => z.preprocess(blankToNull, schema.nullable()).optional();

/** CONTRACT 5 POST /schedules/edit.json `Schedule{...}`; creates when `id` is absent. */
export const ZScheduleFields = z.object({
  id: zId.optional(),
  aircraft_id: zId,
  pilot_id: zId,
  instructor_id: nullable(zId),
  flight_type_id: zId,
  base_id: nullable(zId),
  start: zUnix,
  end: zUnix,
  remarks: nullable(z.string().trim().max(2000, 'At most 2000 characters')),
});
export type TScheduleFields = z.output<typeof ZScheduleFields>;

export const ZScheduleEdit = z.preprocess(unwrapModel('Schedule'), z.object({ Schedule: ZScheduleFields }));

const zDay = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Expected a date YYYY-MM-DD')
  .refine((v) => DateTime.fromISO(v).isValid, 'Not a calendar date');

/** `from`/`to`: unix seconds or a company-calendar date (a `to` date includes that whole day). */
export const zWhen = z.union([zDay, zIntish.pipe(z.number().int().nonnegative('Expected unix seconds'))]);

export const ZScheduleIndex = z.object({
  from: zWhen,
  to: zWhen,
  aircraft_id: zId.optional(),
  user_id: zId.optional(),
  base_id: zId.optional(),
});
export type TScheduleIndex = z.output<typeof ZScheduleIndex>;

export const ZAvailability = z.object({ date: zDay, base_id: zId.optional() });

export const ZFeedCreate = z.object({ kind: z.enum(['user', 'aircraft']), aircraft_id: zId.optional() });
