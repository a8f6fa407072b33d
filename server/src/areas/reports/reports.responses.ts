import { z } from 'zod';

/**
 * Response schemas of the reports routes: the 200 bodies as the handlers return them (each route's
 * `response`). The handler's return type is checked against these at compile time and every answer
 * of the integration suite against the document they produce (the contract test).
 */

/** GET /reports/pilots_airports{/:userId}.json */
export const ZReportsPilotsAirports = z.strictObject({
  routes: z.array(
    z.object({
      from: z.string(),
      to: z.string(),
      from_lat: z.number(),
      from_lon: z.number(),
      to_lat: z.number(),
      to_lon: z.number(),
      flights: z.number(),
    }),
  ),
});

/** GET /reports/stats_rules{/:userId}.json */
export const ZReportsStatsRules = z.strictObject({
  rules: z.array(
    z.object({
      rule: z.string(),
      seconds: z.number(),
      flights: z.number(),
    }),
  ),
  total: z.number(),
  flights: z.number(),
});

/** GET /reports/total_flights/:userId.json */
export const ZReportsTotalFlights = z.strictObject({
  flights: z.number(),
  seconds: z.number(),
});

/** GET /reports/stats_flight_types{/:userId}.json */
export const ZReportsStatsFlightTypes = z.strictObject({
  types: z.array(
    z.object({
      id: z.string().nullable(),
      name: z.string(),
      color: z.string(),
      total: z.number(),
    }),
  ),
  total: z.number(),
});

/** GET /reports/flight_hours_by_month/:months{/:userId}{/:aircraftId}.json */
export const ZReportsFlightHoursByMonth = z.array(
  z.object({
    timestamp: z.number(),
    label: z.string(),
    seconds: z.number(),
    flights: z.number(),
    landings: z.number(),
  }),
);

/** GET /reports/total_hours{/:userId}.json */
export const ZReportsTotalHours = z.strictObject({
  seconds: z.number(),
  hours: z.number(),
});

/** GET /reports/total_landings{/:userId}{/:aircraftId}{/:since}{/:to}.json */
export const ZReportsTotalLandings = z.strictObject({
  landings: z.number(),
});

/** GET /reports/${kind}{/:airport}{/:date}.json */
export const ZReportsKind = z.array(z.string());
