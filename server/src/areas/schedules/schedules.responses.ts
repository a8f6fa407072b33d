import { BOOKING_CODES } from '@ops/shared/rules/schedules/booking';
import { z } from 'zod';
import { zReadinessLines, zRuleText } from '../readiness/readiness.responses.ts';
import type { listBookings } from './reads.service.ts';

/**
 * Response schemas of the schedules routes: the 200 bodies as the handlers return them (each route's
 * `response`). The handler's return type is checked against these at compile time and every answer
 * of the integration suite against the document they produce (the contract test).
 */

/** A booking write the rules refused, with the bookings in the way. */
const zBookingRefused = z.object({
  result: z.literal(false),
  code: z.enum(BOOKING_CODES),
  /** English, as API clients have always read it. */
  message: z.string(),
  /** `message` as a message id and values, so an app shows it in its reader's language (issue 33). */
  text: zRuleText.nullable(),
  conflicts: z
    .array(
      z.object({
        id: z.string(),
        aircraft_id: z.string(),
        pilot_id: z.string(),
        instructor_id: z.string().nullable(),
        start: z.number(),
        end: z.number(),
      }),
    )
    .optional(),
  readiness: zReadinessLines.optional(),
});

/** A booking write that went through (warning: saved, but worth a look). */
const zBookingSaved = z.object({
  result: z.literal(true),
  id: z.string(),
  flight_id: z.string().nullable(),
  warning: z.string().optional(),
  readiness: zReadinessLines.optional(),
});

/** POST /schedules/edit.json */
export const ZSchedulesEdit = z.union([zBookingSaved, zBookingRefused]);

/** POST /schedules/delete/:id.json */
export const ZSchedulesDelete = z.union([
  zBookingSaved,
  zBookingRefused,
  z.object({
    result: z.literal(true),
  }),
]);

/** GET /schedules/availability.json */
export const ZSchedulesAvailability = z.strictObject({
  date: z.string(),
  base_id: z.string().nullable(),
  hours: z.object({
    closed: z.boolean(),
    windows: z.array(
      z.object({
        start: z.number(),
        end: z.number(),
      }),
    ),
  }),
  aircraft: z.array(
    z.object({
      id: z.string(),
      registration: z.string(),
      free: z.array(
        z.object({
          start: z.number(),
          end: z.number(),
        }),
      ),
      /** Set when the aircraft is blocked (expired MEL/CDL item) before the day ends: no free time from `from`. */
      blocked: z.object({ from: z.number(), reason: z.string() }).nullable(),
    }),
  ),
  instructors: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      surname: z.string(),
      free: z.array(
        z.object({
          start: z.number(),
          end: z.number(),
        }),
      ),
    }),
  ),
});

/** GET /schedules/feeds.json */
export const ZSchedulesFeeds = z.strictObject({
  feeds: z.array(
    z.object({
      id: z.string(),
      kind: z.string(),
      subject_id: z.string(),
      created: z.number(),
      revoked: z.boolean(),
    }),
  ),
});

/** POST /schedules/feeds/create.json */
export const ZSchedulesFeedsCreate = z.strictObject({
  result: z.boolean(),
  id: z.string(),
  token: z.string(),
  path: z.string(),
  url: z.string(),
});

/** POST /schedules/feeds/revoke/:id.json */
export const ZSchedulesFeedsRevoke = z.strictObject({
  result: z.boolean(),
});

/** A person on a booking (names null once the user is gone). */
const zBookingPerson = z.union([
  z.object({
    id: z.string(),
    name: z.string(),
    surname: z.string(),
  }),
  z.object({
    id: z.string(),
    name: z.null(),
    surname: z.null(),
  }),
]);

/** GET /schedules/index.json: written as cached text (boardText), so listBookings is checked here instead. */
export const ZSchedulesIndex = z.strictObject({
  schedules: z.array(
    z.object({
      Schedule: z.object({
        id: z.string(),
        aircraft_id: z.string(),
        pilot_id: z.string(),
        instructor_id: z.string().nullable(),
        flight_type_id: z.string(),
        base_id: z.string().nullable(),
        start: z.number(),
        end: z.number(),
        status: z.string(),
        flight_id: z.string().nullable(),
        remarks: z.string().nullable(),
        user_id: z.string().nullable(),
        departure_airport: z.string().nullable(),
        landing_airport: z.string().nullable(),
      }),
      Aircraft: z.union([
        z.object({
          id: z.string(),
          registration: z.string(),
        }),
        z.object({
          id: z.string(),
          registration: z.null(),
        }),
      ]),
      Pilot: zBookingPerson,
      Instructor: zBookingPerson.nullable(),
      FlightType: z.union([
        z.object({
          id: z.string(),
          name: z.string(),
          color: z.string().nullable(),
        }),
        z.object({
          id: z.string(),
          name: z.null(),
          color: z.null(),
        }),
      ]),
    }),
  ),
});
export const boardChecked = (b: Awaited<ReturnType<typeof listBookings>>): z.input<typeof ZSchedulesIndex> => b;
