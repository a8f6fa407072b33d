import { ZReadinessSettings } from '@ops/shared/rules/readiness/settings';
import { z } from 'zod';
import { zBoolish, zId, zIntish, zUnix } from '../../http/zod.ts';

/** POST /schedules/readiness.json: the booking form's fields (a booking not made yet, or `id` when moving one). */
export const ZReadinessPlan = z.object({
  id: zId.optional(),
  aircraft_id: zId,
  pilot_id: zId,
  instructor_id: zId.nullable().optional(),
  flight_type_id: zId,
  base_id: zId.nullable().optional(),
  start: zUnix,
  end: zUnix,
  departure_airport: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9]{3,4}$/, 'Expected an ICAO code')
    .nullable()
    .optional(),
  pax: zIntish.pipe(z.number().int().min(0).max(999)).optional(),
  night: zBoolish.optional(),
});
export type TReadinessPlan = z.output<typeof ZReadinessPlan>;

export const ZFlightParams = z.object({ id: zId });

/** POST /readiness/settings.json: the whole document, validated (a bad value is a 400 and nothing is saved). */
export const ZSettingsBody = ZReadinessSettings;
