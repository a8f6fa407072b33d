import { DateTime } from 'luxon';
import { z } from 'zod';
import { english } from '../../http/messages.ts';
import { zBoolish, zId, zIntish } from '../../http/zod.ts';
import { unwrapModel } from '../flight-types/flight-types.schema.ts';
import { FLIGHT_LIMITS } from '@ops/shared/rules/flights/validation';

/** Form posts send '' for an empty field: read it as null (cleared). */
const blankToNull = (v: unknown) => (v === '' ? null : v);
const nullable = <S extends z.ZodType>(schema: S) => z.preprocess(blankToNull, schema.nullable()).optional();

export const zDate = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Expected a date YYYY-MM-DD')
  .refine((v) => DateTime.fromISO(v).isValid, 'Not a calendar date');

/** Wall clock `HH:MM` (seconds accepted and dropped) in the flight time zone. */
export const zClock = z
  .string()
  .trim()
  .regex(/^([01]?\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, 'Expected a time HH:MM')
  .transform((v) => {
    const [h, m] = v.split(':');
    return `${h.padStart(2, '0')}:${m}`;
  });

const zIcao = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]{3,4}$/, 'Expected an ICAO code');

const zSeconds = zIntish.pipe(
  z
    .number()
    .int()
    .min(0, 'Must not be negative')
    .max(7 * 86400, 'Too long'),
);
const zCount = (max: number) =>
  zIntish.pipe(z.number().int().min(0, 'Must not be negative').max(max, `At most ${max}`));
const zAmount = z
  .union([
    z.number(),
    z
      .string()
      .trim()
      .regex(/^-?\d+(\.\d+)?$/, 'Expected a number')
      .transform(Number),
  ])
  .pipe(z.number().min(0, 'Must not be negative'));
/** Too long is a 400 naming the field, never a silent cut (issue 28 item 5); the text is the catalogue's (issue 33). */
const zText = (
  max: number,
  id:
    | 'flights.vCallsignLong'
    | 'flights.vRouteLong'
    | 'flights.vRemarksLong'
    | 'flights.vTextLong' = 'flights.vTextLong',
) =>
  z
    .string()
    .trim()
    .check((c) => {
      if (c.value.length > max)
        c.issues.push({
          code: 'custom',
          input: c.value,
          // Strings, so ICU does not group the digits: "1000", as the 400 always said.
          message: english(id, { max: String(max), length: String(c.value.length) }),
        });
    });

/** CONTRACT 4 POST /flights/edit.json, `Flight{...}`. Absent fields keep their value on edit. */
export const ZFlightFields = z.object({
  id: zId.optional(),
  date: zDate.optional(),
  status: z.enum(['DRAFT', 'SCHEDULED'], 'Only DRAFT or SCHEDULED can be set here').optional(),
  callsign: nullable(zText(FLIGHT_LIMITS.callsign, 'flights.vCallsignLong')),
  aircraft_id: nullable(zId),
  flight_type_id: nullable(zId),
  pic_id: nullable(zId),
  sic_id: nullable(zId),
  supervisor_id: nullable(zId),
  departure_airport: nullable(zIcao),
  landing_airport: nullable(zIcao),
  offblocks_time: nullable(zClock),
  takeoff_time: nullable(zClock),
  landing_time: nullable(zClock),
  onblocks_time: nullable(zClock),
  night_flight_time: nullable(zSeconds),
  ifr_flight_time: nullable(zSeconds),
  rules: nullable(
    z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{1,6}$/, 'Expected flight rules such as VFR or IFR'),
  ),
  crosscountry: zBoolish.optional(),
  landings: zCount(999).optional(),
  night_landings: zCount(999).optional(),
  engine_starts: zCount(999).optional(),
  pax: zCount(999).optional(),
  oil: nullable(zAmount),
  fuel: nullable(zAmount),
  cargo: nullable(zAmount),
  route: nullable(zText(FLIGHT_LIMITS.route, 'flights.vRouteLong')),
  remarks: nullable(zText(FLIGHT_LIMITS.remarks, 'flights.vRemarksLong')),
  pf: nullable(zText(20)),
});
export type TFlightFields = z.output<typeof ZFlightFields>;

export const ZFlightEdit = z.preprocess(unwrapModel('Flight'), z.object({ Flight: ZFlightFields }));

export const ZCancel = z.object({
  id: zId,
  reason: z.string().trim().min(1, 'Required').max(500, 'At most 500 characters'),
  text: z.string().trim().max(2000, 'At most 2000 characters').optional(),
  notify: zBoolish.optional(),
});

export const ZConfirm = z.object({ pass: z.string().max(200).optional() });

export const ZFrat = z.object({
  answers: z.record(z.string(), z.string()),
  mitigation: z.string().trim().max(2000, 'At most 2000 characters').optional(),
});
