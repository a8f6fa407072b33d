import { z } from 'zod';

/** Response schemas of the duty routes (OpenAPI and the contract test). */

const zLevel = z.enum(['over', 'near', 'ok']);

/** GET /duty/:userId.json (CONTRACT 7). */
export const ZDutyView = z.strictObject({
  days: z.array(
    z.strictObject({
      date: z.string(),
      duty_seconds: z.number(),
      flight_seconds: z.number(),
      flights: z.number(),
      limit_seconds: z.number().nullable(),
      exceeded: z.boolean(),
    }),
  ),
  year: z.strictObject({ flight_seconds: z.number(), limit_seconds: z.number().nullable() }),
  rolling: z.strictObject({
    duty_7d_seconds: z.number(),
    duty_28d_seconds: z.number(),
    flight_28d_seconds: z.number(),
    flight_12m_seconds: z.number(),
  }),
});

/** GET /duty/board.json: the office's week of every crew member. */
export const ZDutyBoard = z.strictObject({
  from: z.string(),
  to: z.string(),
  limits: z.strictObject({ duty_seconds: z.number().nullable(), year_flight_seconds: z.number().nullable() }),
  people: z.array(
    z.strictObject({
      user_id: z.string(),
      name: z.string(),
      role: z.number(),
      days: z.array(
        z.strictObject({
          date: z.string(),
          duty_seconds: z.number(),
          flight_seconds: z.number(),
          flights: z.number(),
          level: zLevel,
        }),
      ),
      week_duty_seconds: z.number(),
      year_flight_seconds: z.number(),
      year_level: zLevel,
      level: zLevel,
    }),
  ),
});

/** Warnings of a confirm that took crew past a limit (CONTRACT 7), added to the flights confirm answer. */
export const zDutyWarnings = z.array(
  z.strictObject({ code: z.enum(['DUTY_LIMIT', 'FLIGHT_HOURS_LIMIT']), user_id: z.string(), message: z.string() }),
);
