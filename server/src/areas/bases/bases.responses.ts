import { z } from 'zod';

/**
 * Response schemas of the bases routes: the 200 bodies as the handlers return them (each route's
 * `response`). The handler's return type is checked against these at compile time and every answer
 * of the integration suite against the document they produce (the contract test).
 */

/** One base row. */
const zBase = z.object({
  id: z.string(),
  name: z.string(),
  default: z.boolean(),
  airport_id: z.string().nullable(),
  company_id: z.string(),
});

/** GET /bases/index.json */
export const ZBasesIndex = z.strictObject({
  bases: z.array(
    z.object({
      Base: zBase,
    }),
  ),
});

/** A person assigned to the base. */
const zBaseMember = z.object({
  id: z.string(),
  name: z.string(),
  surname: z.string(),
  active: z.boolean(),
  photo: z.string().nullable(),
  color: z.string().nullable(),
});

/** GET /bases/view{/:id}.json */
export const ZBasesView = z.strictObject({
  Base: zBase,
  Airport: z
    .union([
      z.object({
        id: z.string(),
        name: z.null(),
        city: z.null(),
        country_iso: z.null(),
        country_name: z.null(),
        lat: z.null(),
        lon: z.null(),
        timezone: z.null(),
      }),
      z.object({
        id: z.string(),
        name: z.string(),
        city: z.string(),
        country_iso: z.string().nullable(),
        country_name: z.string(),
        lat: z.number(),
        lon: z.number(),
        timezone: z.string(),
      }),
    ])
    .nullable(),
  Aircraft: z.array(
    z.object({
      id: z.string(),
      registration: z.string(),
      active: z.boolean(),
      multiengine: z.boolean(),
      multipilot: z.boolean(),
      simulator: z.boolean(),
      model: z.string().nullable(),
    }),
  ),
  Pilots: z.array(zBaseMember),
  Mechanics: z.array(zBaseMember),
});

/** POST /bases/add.json */
export const ZBasesAdd = z.strictObject({
  result: z.boolean(),
  id: z.string(),
  message: z.string(),
  Base: zBase,
});

/** POST /bases/delete/:id.json */
export const ZBasesDelete = z.strictObject({
  result: z.boolean(),
  id: z.string(),
  message: z.string(),
  moved_to: z.string().nullable(),
  moved: z.object({
    aircraft: z.number(),
    users: z.number(),
  }),
  removed_schedules: z.number(),
});

/** GET /bases/crew/:id.json */
export const ZBasesCrew = z.array(
  z.object({
    id: z.string(),
    title: z.string(),
    eventColor: z.string(),
  }),
);

/** One base assignment period of a pilot. */
const zBaseSchedule = z.object({
  id: z.string(),
  base: z.string(),
  pilot: z.string(),
  start: z.number().nullable(),
  end: z.number().nullable(),
  type: z.string(),
  always: z.boolean(),
});

/** GET /bases/schedule/:id.json */
export const ZBasesSchedule = z.strictObject({
  schedules: z.array(
    z.object({
      BaseSchedule: zBaseSchedule,
      Pilot: z.object({
        id: z.string(),
        name: z.string(),
        surname: z.string(),
        title: z.string(),
        eventColor: z.string(),
      }),
    }),
  ),
});

/** POST /bases/add_schedule.json */
export const ZBasesAddSchedule = z.strictObject({
  result: z.boolean(),
  id: z.string(),
  BaseSchedule: zBaseSchedule,
});

/** GET /bases/delete_schedule/:id.json */
export const ZBasesDeleteSchedule = z.union([
  z.object({
    result: z.boolean(),
    deleted: z.number(),
    message: z.string(),
    id: z.undefined().optional(),
  }),
  z.object({
    result: z.boolean(),
    deleted: z.number(),
    id: z.string(),
    message: z.string(),
  }),
]);
