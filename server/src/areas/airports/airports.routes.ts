import { GATES } from '@ops/shared';
import { getAirport, searchAirports } from '@ops/shared/airports';
import { MAX_FLIGHT_SECONDS, nightSeconds, sunTimes } from '@ops/shared/rules/airports/night-time';
import { DateTime } from 'luxon';
import { z } from 'zod';
import { defineRoute } from '../../http/define-route.ts';
import { badRequest, HttpError } from '../../http/errors.ts';
import { said } from '../../http/messages.ts';
import { presentTimezone } from '../company/company.presenter.ts';
import { presentAirport } from './airports.presenter.ts';
import { ZAirportsSearch, ZAirportsView, ZAirportsNightTime } from './airports.responses.ts';

/** Part A 8: airport search answers at most 10 results. */
export const SEARCH_LIMIT = 10;

const zIcao = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]{3,4}$/, 'Expected an ICAO code');

function findAirport(icao: string) {
  const a = getAirport(icao);
  if (!a) throw new HttpError(404, { result: false, ...said('errors.unknownAirportCode', { icao }) });
  return a;
}

/**
 * A path time: unix seconds, or an ISO 8601 date-time (`2024-06-10T19:10:00Z`,
 * `2024-06-10 19:10`); without an offset it is read as UTC.
 */
function parseInstant(v: string, field: string): number {
  if (/^\d+$/.test(v)) return Number(v);
  const d = DateTime.fromISO(v.replace(' ', 'T'), { zone: 'utc' });
  if (!d.isValid)
    throw badRequest(`${field} must be unix seconds or a date-time`, {
      errors: { [field]: ['Expected unix seconds or an ISO 8601 date-time'] },
    });
  return Math.floor(d.toSeconds());
}

/** The airport's local calendar date for `date`: a YYYY-MM-DD as given, an instant (unix or date-time) in the airport zone. */
function localDate(date: string | undefined, zone: string): string {
  if (date === undefined) return DateTime.now().setZone(zone).toISODate() ?? '';
  if (/^\d{4}-\d{2}-\d{2}$/.test(date)) {
    if (!DateTime.fromISO(date).isValid)
      throw badRequest('date is not a calendar date', { errors: { date: ['Not a calendar date'] } });
    return date;
  }
  return DateTime.fromSeconds(parseInstant(date, 'date'), { zone }).toISODate() ?? '';
}

const hhmm = (unix: number | null, zone: string) =>
  unix === null ? null : DateTime.fromSeconds(unix, { zone }).toFormat('HH:mm');

export const airportsRoutes = [
  defineRoute({
    method: 'GET',
    path: '/airports/search.json',
    area: 'airports',
    summary: 'Airports by ICAO prefix, else by name or city prefix (at most 10); public',
    access: { public: true },
    query: z.object({ q: z.string().trim().max(100, 'At most 100 characters').optional() }),
    response: ZAirportsSearch,
    handler: ({ query }) => ({ airports: searchAirports(query.q ?? '', SEARCH_LIMIT).map(presentAirport) }),
  }),
  defineRoute({
    method: 'GET',
    path: '/airports/view/:airport{/:date}.json',
    area: 'airports',
    summary:
      'One airport with country, time zone and official sunrise and sunset of a day (default today, airport zone); public',
    access: { public: true },
    params: z.object({ airport: zIcao, date: z.string().trim().max(40).optional() }),
    response: ZAirportsView,
    handler: ({ params }) => {
      const a = findAirport(params.airport);
      const date = localDate(params.date, a.tz);
      const sun = sunTimes(a.lat, a.lon, date, a.tz);
      const tz = presentTimezone(a.tz);
      const noon = DateTime.fromISO(`${date}T12:00`, { zone: a.tz });
      return {
        airport: {
          ...presentAirport(a),
          Timezone: {
            id: a.tz,
            name: a.tz,
            offset: noon.toFormat('ZZ'),
            offset_hours: noon.offset / 60,
            description: tz.description,
          },
          Sun: {
            date,
            sunrise: sun.sunrise,
            sunset: sun.sunset,
            sunrise_time: hhmm(sun.sunrise, a.tz),
            sunset_time: hhmm(sun.sunset, a.tz),
            daylight:
              sun.polar === 'day'
                ? 86400
                : sun.polar === 'night'
                  ? 0
                  : sun.sunrise !== null && sun.sunset !== null
                    ? sun.sunset - sun.sunrise
                    : null,
            polar: sun.polar,
            definition: 'official',
          },
        },
      };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/airports/night_time/:departure/:arrival/:dTime/:aTime.json',
    area: 'airports',
    summary: 'Seconds of night (official sunset to sunrise) along the great circle between two airports',
    access: { who: GATES.member },
    params: z.object({
      departure: zIcao,
      arrival: zIcao,
      dTime: z.string().trim().max(40),
      aTime: z.string().trim().max(40),
    }),
    response: ZAirportsNightTime,
    handler: ({ params }) => {
      const dep = findAirport(params.departure);
      const arr = findAirport(params.arrival);
      const departure = parseInstant(params.dTime, 'dTime');
      const arrival = parseInstant(params.aTime, 'aTime');
      if (arrival < departure)
        throw badRequest('The arrival time is before the departure time', { errors: { aTime: ['Before dTime'] } });
      if (arrival - departure > MAX_FLIGHT_SECONDS)
        throw badRequest('A flight cannot last more than 7 days', {
          errors: { aTime: ['More than 7 days after dTime'] },
        });
      return { seconds: nightSeconds({ dep, arr, departure, arrival }) };
    },
  }),
];
