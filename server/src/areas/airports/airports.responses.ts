import { z } from 'zod';

/**
 * Response schemas of the airports routes: the 200 bodies as the handlers return them (each route's
 * `response`). The handler's return type is checked against these at compile time and every answer
 * of the integration suite against the document they produce (the contract test).
 */

/** One airport row. */
const zAirport = z.object({
  id: z.string(),
  name: z.string(),
  city: z.string(),
  lat: z.number(),
  lon: z.number(),
});

/** GET /airports/search.json */
export const ZAirportsSearch = z.strictObject({
  airports: z.array(
    z.object({
      Airport: zAirport,
      Country: z.object({
        id: z.string().nullable(),
        name: z.string(),
      }),
      Timezone: z.object({
        id: z.string(),
        name: z.string(),
      }),
    }),
  ),
});

/** GET /airports/view/:airport{/:date}.json */
export const ZAirportsView = z.strictObject({
  airport: z.object({
    Timezone: z.object({
      id: z.string(),
      name: z.string(),
      offset: z.string(),
      offset_hours: z.number(),
      description: z.string(),
    }),
    Sun: z.object({
      date: z.string(),
      sunrise: z.number().nullable(),
      sunset: z.number().nullable(),
      sunrise_time: z.string().nullable(),
      sunset_time: z.string().nullable(),
      daylight: z.number().nullable(),
      polar: z.enum(['day', 'night']).nullable(),
      definition: z.string(),
    }),
    Airport: zAirport,
    Country: z.object({
      id: z.string().nullable(),
      name: z.string(),
    }),
  }),
});

/** GET /airports/night_time/:departure/:arrival/:dTime/:aTime.json */
export const ZAirportsNightTime = z.strictObject({
  seconds: z.number(),
});
