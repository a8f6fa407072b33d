import { english, said } from '../../http/messages.ts';
import { GATES } from '@ops/shared';
import { clampMonths, isEmptyPathValue, isWeatherIcao } from '@ops/shared/rules/reports/index';
import type { Response } from 'express';
import { z } from 'zod';
import { defineRoute } from '../../http/define-route.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { weatherReports } from '../../weather/weather.service.ts';
import {
  flightHoursByMonth,
  pilotsAirports,
  resolveScope,
  statsFlightTypes,
  statsRules,
  totalFlights,
  totalHours,
  totalLandings,
} from './reports.service.ts';
import {
  ZReportsPilotsAirports,
  ZReportsStatsRules,
  ZReportsTotalFlights,
  ZReportsStatsFlightTypes,
  ZReportsFlightHoursByMonth,
  ZReportsTotalHours,
  ZReportsTotalLandings,
  ZReportsKind,
} from './reports.responses.ts';

/** Part A 8 response caches (private); reports without a lifetime in the spec are not reused without revalidation. */
const HOUR = 3600;
const CACHE_HEADERS = {
  'Cache-Control': { description: '`private, max-age=<seconds>` (Part A 8), or `private, no-cache`' },
} as const;
function cache(res: Response, seconds: number | null) {
  res.setHeader('Cache-Control', seconds === null ? 'private, no-cache' : `private, max-age=${seconds}`);
}

const zId = z.string().trim().max(64, 'At most 64 characters');
const userParam = z.object({ userId: zId.optional() });

/** A unix path value: digits; an empty value (`-`, `null`, empty) is absent. */
function unixParam(v: string | undefined, field: string): number | null {
  if (v === undefined || isEmptyPathValue(v)) return v?.trim() === '0' ? 0 : null;
  if (!/^\d{1,12}$/.test(v.trim()))
    throw new HttpError(400, {
      result: false,
      ...said('reports.errUnixSeconds', { field }),
      errors: { [field]: ['Expected unix seconds'] },
    });
  return Number(v.trim());
}

export const reportsRoutes = [
  defineRoute({
    method: 'GET',
    path: '/reports/pilots_airports{/:userId}.json',
    area: 'reports',
    summary: 'Routes flown (LANDED) with coordinates and counts, most flown first; the caller above role 170',
    access: { who: GATES.member },
    params: userParam,
    response: ZReportsPilotsAirports,
    headers: CACHE_HEADERS,
    handler: async ({ ctx, actor, params, res }) => {
      const body = await pilotsAirports(ctx, actor.companyId, await resolveScope(ctx, actor, params.userId));
      cache(res, null);
      return body;
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/reports/stats_rules{/:userId}.json',
    area: 'reports',
    summary: 'Block time and flights per flight rule (LANDED)',
    access: { who: GATES.member },
    params: userParam,
    response: ZReportsStatsRules,
    headers: CACHE_HEADERS,
    handler: async ({ ctx, actor, params, res }) => {
      const body = await statsRules(ctx, actor.companyId, await resolveScope(ctx, actor, params.userId));
      cache(res, null);
      return body;
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/reports/total_flights/:userId.json',
    area: 'reports',
    summary: 'Total block time and flight count of a user (LANDED)',
    access: { who: GATES.member },
    params: z.object({ userId: zId }),
    response: ZReportsTotalFlights,
    headers: CACHE_HEADERS,
    handler: async ({ ctx, actor, params, res }) => {
      const body = await totalFlights(ctx, actor.companyId, await resolveScope(ctx, actor, params.userId));
      cache(res, null);
      return body;
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/reports/stats_flight_types{/:userId}{/:aircraftId}.json',
    area: 'reports',
    summary:
      'Block time per flight type, the user as PIC or SIC, or an aircraft with a null user (LANDED); private cache 1 hour',
    access: { who: GATES.member },
    params: z.object({ userId: zId.optional(), aircraftId: zId.optional() }),
    response: ZReportsStatsFlightTypes,
    headers: CACHE_HEADERS,
    handler: async ({ ctx, actor, params, res }) => {
      // The aircraft segment is an extension (the company statistics view sums it per aircraft), scoped like flight_hours_by_month.
      const body = await statsFlightTypes(
        ctx,
        actor.companyId,
        await resolveScope(ctx, actor, params.userId, params.aircraftId),
      );
      cache(res, HOUR);
      return body;
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/reports/flight_hours_by_month/:months{/:userId}{/:aircraftId}.json',
    area: 'reports',
    summary:
      'Block time, flights and landings per month in the flight zone, newest first, zero-filled; private cache 12 hours',
    access: { who: GATES.member },
    params: z.object({
      months: z
        .string()
        .trim()
        .regex(/^-?\d{1,6}$/, 'Expected a whole number of months'),
      userId: zId.optional(),
      aircraftId: zId.optional(),
    }),
    response: ZReportsFlightHoursByMonth,
    headers: CACHE_HEADERS,
    handler: async ({ ctx, actor, params, res }) => {
      const scope = await resolveScope(ctx, actor, params.userId, params.aircraftId);
      const body = await flightHoursByMonth(ctx, actor, scope, clampMonths(Number(params.months)));
      cache(res, 12 * HOUR);
      return body;
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/reports/total_hours{/:userId}.json',
    area: 'reports',
    summary: 'Total block time (LANDED), the caller by default',
    access: { who: GATES.member },
    params: userParam,
    response: ZReportsTotalHours,
    headers: CACHE_HEADERS,
    handler: async ({ ctx, actor, params, res }) => {
      const body = await totalHours(ctx, actor.companyId, await resolveScope(ctx, actor, params.userId));
      cache(res, null);
      return body;
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/reports/total_landings{/:userId}{/:aircraftId}{/:since}{/:to}.json',
    area: 'reports',
    summary:
      'Landings (LANDED) of a user and/or aircraft, off-blocks after `since`, on-blocks before `to`; private cache 1 hour',
    access: { who: GATES.member },
    params: z.object({
      userId: zId.optional(),
      aircraftId: zId.optional(),
      since: z.string().trim().max(20).optional(),
      to: z.string().trim().max(20).optional(),
    }),
    response: ZReportsTotalLandings,
    headers: CACHE_HEADERS,
    handler: async ({ ctx, actor, params, res }) => {
      const since = unixParam(params.since, 'since') ?? 0;
      const to = unixParam(params.to, 'to');
      const scope = await resolveScope(ctx, actor, params.userId, params.aircraftId);
      const body = await totalLandings(ctx, actor.companyId, scope, since, to === 0 ? null : to);
      cache(res, HOUR);
      return body;
    },
  }),
  ...(['metar', 'taf'] as const).map((kind) =>
    defineRoute({
      method: 'GET',
      path: `/reports/${kind}{/:airport}{/:date}.json`,
      area: 'reports',
      summary:
        kind === 'metar'
          ? 'METAR of an airport: current, or the observation closest to a past `date` within ±45 minutes; ["NIL"] when none; private cache 5 minutes'
          : 'TAF of an airport: current, or the one issued closest to a past `date` within ±6 hours (last 30 days); ["NIL"] when none; private cache 5 minutes',
      access: { who: GATES.member },
      params: z.object({ airport: z.string().trim().max(10).optional(), date: z.string().trim().max(20).optional() }),
      response: ZReportsKind,
      headers: CACHE_HEADERS,
      handler: async ({ ctx, params, res }) => {
        const icao = params.airport?.toUpperCase();
        if (!isWeatherIcao(icao)) throw notFound(english('reports.errInvalidAirport'));
        const date = unixParam(params.date, 'date');
        const body = await weatherReports(ctx, kind, icao, date);
        cache(res, 300);
        return body;
      },
    }),
  ),
];
