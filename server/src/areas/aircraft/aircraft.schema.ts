import { z } from 'zod';
import { emptyToNull, emptyToUndefined, zBoolish, zDate, zDecimal, zOptText } from '../../http/zod.ts';

/** Manager create and edit bodies of aircraft (designed; docs/areas/fleet.md). */
const optId = z.preprocess(emptyToNull, z.string().trim().min(1).max(64).nullable().optional());

const ZAircraftFields = z.object({
  registration: z
    .string({ error: 'Required' })
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9-]{2,10}$/, '2 to 10 letters, digits or dashes'),
  model_id: optId,
  model_name: zOptText(120),
  manufacturer_name: zOptText(120),
  model_icao: zOptText(4),
  multiengine: z.preprocess(emptyToUndefined, zBoolish.optional()),
  multipilot: z.preprocess(emptyToUndefined, zBoolish.optional()),
  simulator: z.preprocess(emptyToUndefined, zBoolish.optional()),
  active: z.preprocess(emptyToUndefined, zBoolish.optional()),
  hours: z.preprocess(emptyToUndefined, zDecimal.pipe(z.number().min(0, 'Must be 0 or more')).optional()),
  landings: z.preprocess(emptyToUndefined, zDecimal.pipe(z.number().int('Whole number').min(0)).optional()),
  flights: z.preprocess(emptyToUndefined, zDecimal.pipe(z.number().int('Whole number').min(0)).optional()),
  base_id: optId,
  user_id: optId,
  serial_number: zOptText(60),
  adsb: zOptText(16),
  insurance_expiration: zDate,
  airworthiness_expiration: zDate,
  registration_expiration: zDate,
  weight_balance_expiration: zDate,
  radio_expiration: zDate,
  avionics_expiration: zDate,
});

export const ZCreate = ZAircraftFields;
// Counters belong to the flights area once an aircraft exists; an edit may not rewrite them.
export const ZEdit = ZAircraftFields.omit({ hours: true, landings: true, flights: true }).partial();
