import {
  emptyMonthBuckets,
  fillMonthBuckets,
  firstBucketDate,
  normaliseColor,
  type ReportScope,
  reportScope,
} from '@ops/shared/rules/reports/index';
import { getAirport } from '@ops/shared/airports';
import { type RawBuilder, sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../http/actor.ts';
import { notFound } from '../../http/errors.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import './reports.tables.ts';

/**
 * Reports of Part A 4.11 (docs/areas/reports.md). Every figure is one
 * aggregate query over the scope's LANDED flights: a pilot's flights are the
 * union of the PIC range and the SIC range (a flight where the pilot sits in
 * both seats counted once), each read from the covering indexes of 0090; an
 * aircraft's flights from the aircraft range. Nothing is loaded row by row.
 */

const LANDED = 'LANDED';

/** Columns the aggregates read (all in the 0090 covering indexes). */
type Col = 'block_time' | 'landings' | 'date' | 'flight_type_id' | 'rules' | 'departure_airport' | 'landing_airport';

interface Filters {
  /** starts >= (inclusive), an instant. */
  startsFrom?: number;
  /** `date` >= (flight zone day). */
  dateFrom?: string;
  /** off-blocks > since (`starts` is the off-blocks instant of a LANDED flight). */
  since?: number;
  /** onblocks < to. */
  to?: number;
}

function where(f: Filters): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = [];
  if (f.startsFrom !== undefined) parts.push(sql`AND starts >= ${f.startsFrom}`);
  if (f.dateFrom !== undefined) parts.push(sql`AND date >= ${f.dateFrom}`);
  if (f.since !== undefined) parts.push(sql`AND starts > ${f.since}`);
  if (f.to !== undefined) parts.push(sql`AND onblocks < ${f.to}`);
  return sql.join(parts, sql` `);
}

/** The scope's LANDED flights as a derived table of `cols`. */
function scopedFlights(
  companyId: string,
  scope: ReportScope,
  cols: readonly Col[],
  f: Filters = {},
): RawBuilder<unknown> {
  const list = sql.join(cols.map((c) => sql.ref(c)));
  const aircraft = scope.aircraftId ? sql`AND aircraft_id = ${scope.aircraftId}` : sql``;
  if (!scope.userId) {
    return sql`(SELECT ${list} FROM flights WHERE company_id = ${companyId} AND aircraft_id = ${scope.aircraftId} AND status = ${LANDED} ${where(f)})`;
  }
  const u = scope.userId;
  return sql`(SELECT ${list} FROM flights WHERE company_id = ${companyId} AND pic_id = ${u} AND status = ${LANDED} ${aircraft} ${where(f)}
    UNION ALL
    SELECT ${list} FROM flights WHERE company_id = ${companyId} AND sic_id = ${u} AND status = ${LANDED} AND (pic_id IS NULL OR pic_id <> ${u}) ${aircraft} ${where(f)})`;
}

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));

/** Resolves the scope; a user or aircraft outside the caller's company is 404. */
export async function resolveScope(
  ctx: AppContext,
  actor: Actor,
  userId?: string | null,
  aircraftId?: string | null,
): Promise<ReportScope> {
  const scope = reportScope({ id: actor.userId, role: actor.role }, userId, aircraftId);
  if (scope.userId && scope.userId !== actor.userId) {
    const u = await ctx.db
      .selectFrom('users')
      .select('id')
      .where('company_id', '=', actor.companyId)
      .where('id', '=', scope.userId)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (!u) throw notFound('User not found');
  }
  if (scope.aircraftId) {
    const a = await ctx.db
      .selectFrom('aircraft')
      .select('id')
      .where('company_id', '=', actor.companyId)
      .where('id', '=', scope.aircraftId)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (!a) throw notFound('Aircraft not found');
  }
  return scope;
}

export interface Route {
  from: string;
  to: string;
  from_lat: number;
  from_lon: number;
  to_lat: number;
  to_lon: number;
  flights: number;
}

/** Routes flown with counts, ordered by flights descending; routes lacking coordinates dropped. */
export async function pilotsAirports(
  ctx: AppContext,
  companyId: string,
  scope: ReportScope,
): Promise<{ routes: Route[] }> {
  const src = scopedFlights(companyId, scope, ['departure_airport', 'landing_airport']);
  const { rows } = await sql<{ from: string; to: string; flights: unknown }>`
    SELECT departure_airport AS "from", landing_airport AS "to", COUNT(*) AS flights FROM ${src} AS f
    WHERE departure_airport IS NOT NULL AND landing_airport IS NOT NULL
    GROUP BY departure_airport, landing_airport
    ORDER BY COUNT(*) DESC, departure_airport, landing_airport`.execute(ctx.db);
  const routes: Route[] = [];
  for (const r of rows) {
    const a = getAirport(r.from.toUpperCase());
    const b = getAirport(r.to.toUpperCase());
    if (!a || !b) continue;
    routes.push({
      from: a.icao,
      to: b.icao,
      from_lat: a.lat,
      from_lon: a.lon,
      to_lat: b.lat,
      to_lon: b.lon,
      flights: num(r.flights),
    });
  }
  return { routes };
}

/** Block time and flight count per flight rule; flights without a rule count under `NONE`. */
export async function statsRules(ctx: AppContext, companyId: string, scope: ReportScope) {
  const src = scopedFlights(companyId, scope, ['rules', 'block_time']);
  const { rows } = await sql<{ rule: string; seconds: unknown; flights: unknown }>`
    SELECT COALESCE(rules, 'NONE') AS rule, SUM(block_time) AS seconds, COUNT(*) AS flights FROM ${src} AS f
    GROUP BY COALESCE(rules, 'NONE') ORDER BY SUM(block_time) DESC, COALESCE(rules, 'NONE')`.execute(ctx.db);
  const rules = rows.map((r) => ({ rule: r.rule, seconds: num(r.seconds), flights: num(r.flights) }));
  return { rules, total: rules.reduce((s, r) => s + r.seconds, 0), flights: rules.reduce((s, r) => s + r.flights, 0) };
}

async function totals(ctx: AppContext, companyId: string, scope: ReportScope, f: Filters = {}) {
  const src = scopedFlights(companyId, scope, ['block_time', 'landings'], f);
  const { rows } = await sql<{ seconds: unknown; flights: unknown; landings: unknown }>`
    SELECT SUM(block_time) AS seconds, COUNT(*) AS flights, SUM(landings) AS landings FROM ${src} AS f`.execute(ctx.db);
  const r = rows[0];
  return { seconds: num(r?.seconds), flights: num(r?.flights), landings: num(r?.landings) };
}

export async function totalFlights(ctx: AppContext, companyId: string, scope: ReportScope) {
  const t = await totals(ctx, companyId, scope);
  return { flights: t.flights, seconds: t.seconds };
}

export async function totalHours(ctx: AppContext, companyId: string, scope: ReportScope) {
  const t = await totals(ctx, companyId, scope);
  return { seconds: t.seconds, hours: Math.round((t.seconds / 3600) * 100) / 100 };
}

export async function totalLandings(
  ctx: AppContext,
  companyId: string,
  scope: ReportScope,
  since: number,
  to: number | null,
) {
  const t = await totals(ctx, companyId, scope, { since, ...(to !== null ? { to } : {}) });
  return { landings: t.landings };
}

/** Block time per flight type (`types` ordered by time descending); untyped flights as `id: null`. */
export async function statsFlightTypes(ctx: AppContext, companyId: string, scope: ReportScope) {
  const src = scopedFlights(companyId, scope, ['flight_type_id', 'block_time']);
  const { rows } = await sql<{ id: string | null; name: string | null; color: string | null; total: unknown }>`
    SELECT g.flight_type_id AS id, t.name AS name, t.color AS color, g.total AS total
    FROM (SELECT flight_type_id, SUM(block_time) AS total FROM ${src} AS f GROUP BY flight_type_id) AS g
    LEFT JOIN flight_types AS t ON t.id = g.flight_type_id AND t.company_id = ${companyId}
    ORDER BY g.total DESC, t.name`.execute(ctx.db);
  const types = rows.map((r) => ({
    id: r.id,
    name: r.id ? (r.name ?? 'Deleted type') : 'No flight type',
    color: normaliseColor(r.color),
    total: num(r.total),
  }));
  return { types, total: types.reduce((s, t) => s + t.total, 0) };
}

/** The company's flight zone (flight_timezone, else timezone). */
export const flightZone = (actor: Actor) => actor.company.flightTimezone || actor.company.timezone || 'UTC';

/** Zero-filled monthly buckets, newest first, in the flight zone (the stored `date` is the flight-zone off-blocks day). */
export async function flightHoursByMonth(ctx: AppContext, actor: Actor, scope: ReportScope, months: number) {
  const buckets = emptyMonthBuckets(nowSeconds(), flightZone(actor), months);
  const firstDate = firstBucketDate(buckets);
  const first = buckets[buckets.length - 1]?.timestamp ?? 0;
  // `starts` narrows the index range (a day of margin for a flight zone changed since); `date` decides.
  const src = scopedFlights(actor.companyId, scope, ['date', 'block_time', 'landings'], {
    startsFrom: first - 86400,
    dateFrom: firstDate,
  });
  const { rows } = await sql<{ month: string; seconds: unknown; flights: unknown; landings: unknown }>`
    SELECT substr(date, 1, 7) AS month, SUM(block_time) AS seconds, COUNT(*) AS flights, SUM(landings) AS landings FROM ${src} AS f
    GROUP BY substr(date, 1, 7)`.execute(ctx.db);
  return fillMonthBuckets(
    buckets,
    rows.map((r) => ({ month: r.month, seconds: num(r.seconds), flights: num(r.flights), landings: num(r.landings) })),
  );
}
