import { z } from 'zod';

/**
 * Response schemas of the aircraft routes: the 200 bodies as the handlers return them (each route's
 * `response`). The handler's return type is checked against these at compile time and every answer
 * of the integration suite against the document they produce (the contract test).
 */

/** The aircraft's model with its manufacturer. */
const zAircraftModel = z.object({
  name: z.string().nullable(),
  icao: z.string().nullable(),
  AircraftManufacturer: z.object({
    name: z.string().nullable(),
  }),
});

/** One aircraft as the fleet list shows it (the view adds the documents and their expirations). */
const zAircraftRow = z.object({
  id: z.string(),
  registration: z.string(),
  multiengine: z.boolean(),
  multipilot: z.boolean(),
  simulator: z.boolean(),
  active: z.boolean(),
  hours: z.number(),
  landings: z.number(),
  user_id: z.string().nullable(),
  base_id: z.string().nullable(),
});

/** GET /aircraft/index.json */
export const ZAircraftIndex = z.strictObject({
  aircraft: z.array(
    z.object({
      Aircraft: zAircraftRow,
      AircraftModel: zAircraftModel,
    }),
  ),
});

/** GET /aircraft/view/:id.json */
export const ZAircraftView = z.strictObject({
  Aircraft: zAircraftRow.extend({
    model_id: z.string().nullable(),
    serial_number: z.string().nullable(),
    adsb: z.string().nullable(),
    insurance_expiration: z.string().nullable(),
    airworthiness_expiration: z.string().nullable(),
    registration_expiration: z.string().nullable(),
    weight_balance_expiration: z.string().nullable(),
    radio_expiration: z.string().nullable(),
    avionics_expiration: z.string().nullable(),
  }),
  Base: z
    .object({
      id: z.string(),
      name: z.string(),
      default: z.boolean(),
      airport_id: z.string().nullable(),
      company_id: z.string(),
    })
    .nullable(),
  AircraftModel: zAircraftModel,
});

/** GET /aircraft/models.json */
export const ZAircraftModels = z.strictObject({
  models: z.array(
    z.object({
      AircraftModel: z.object({
        id: z.string(),
        name: z.string(),
        icao: z.string().nullable(),
        manufacturer_id: z.string(),
      }),
      AircraftManufacturer: z.object({
        id: z.string(),
        name: z.string(),
      }),
    }),
  ),
});

/** GET /aircraft/manufacturers.json */
export const ZAircraftManufacturers = z.strictObject({
  manufacturers: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
    }),
  ),
});

/** POST /manager/aircraft/add.json */
export const ZManagerAircraftAdd = z.strictObject({
  result: z.boolean(),
  id: z.string(),
});
