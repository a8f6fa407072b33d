import { emptyMonthBuckets, fillMonthBuckets, firstBucketDate, type MonthBucket } from './months.ts';
import type { ReportScope } from './scope.ts';

/**
 * The report figures of Part A 4.11 computed from flight rows in memory: the
 * offline logbook runs these over the replicated `flights` collection and gets
 * the numbers the server's SQL gives (test/integration/reports/local.test.ts
 * proves both agree on the same rows). The server keeps its SQL (it never loads
 * flights into memory); these mirror it clause by clause.
 */

/** The columns the reports read (a FlightDoc or a `flights` row has them all). */
export interface ReportFlight {
  status: string;
  pic_id: string | null;
  sic_id: string | null;
  aircraft_id: string | null;
  flight_type_id: string | null;
  block_time: number;
  landings: number;
  /** `YYYY-MM-DD`, flight zone. */
  date: string;
  starts: number;
  onblocks: number | null;
  rules: string | null;
  departure_airport: string | null;
  landing_airport: string | null;
}

const n = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));

/**
 * The scope's LANDED flights: a pilot's as PIC, or as SIC when not also PIC
 * (counted once), narrowed by aircraft; or an aircraft's.
 */
export function scopeFlights<F extends ReportFlight>(flights: readonly F[], scope: ReportScope): F[] {
  return flights.filter((f) => {
    if (f.status !== 'LANDED') return false;
    if (scope.aircraftId && f.aircraft_id !== scope.aircraftId) return false;
    if (!scope.userId) return true;
    return f.pic_id === scope.userId || f.sic_id === scope.userId;
  });
}

export interface LocalTotals {
  seconds: number;
  flights: number;
  landings: number;
}

/** `total_hours`, `total_flights`, `total_landings` (off-blocks after `since`, on-blocks before `to`). */
export function localTotals(
  flights: readonly ReportFlight[],
  scope: ReportScope,
  filter: { since?: number; to?: number | null } = {},
): LocalTotals {
  let seconds = 0;
  let landings = 0;
  let count = 0;
  for (const f of scopeFlights(flights, scope)) {
    if (filter.since !== undefined && !(f.starts > filter.since)) continue;
    if (filter.to !== undefined && filter.to !== null && !(f.onblocks !== null && f.onblocks < filter.to)) continue;
    seconds += n(f.block_time);
    landings += n(f.landings);
    count++;
  }
  return { seconds, flights: count, landings };
}

/** `total_hours` body. */
export function localTotalHours(flights: readonly ReportFlight[], scope: ReportScope) {
  const t = localTotals(flights, scope);
  return { seconds: t.seconds, hours: Math.round((t.seconds / 3600) * 100) / 100 };
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** `stats_rules` body: per rule (no rule is `NONE`), most time first. */
export function localStatsRules(flights: readonly ReportFlight[], scope: ReportScope) {
  const by = new Map<string, { rule: string; seconds: number; flights: number }>();
  for (const f of scopeFlights(flights, scope)) {
    const rule = f.rules ?? 'NONE';
    const r = by.get(rule) ?? { rule, seconds: 0, flights: 0 };
    r.seconds += n(f.block_time);
    r.flights++;
    by.set(rule, r);
  }
  const rules = [...by.values()].sort((a, b) => b.seconds - a.seconds || byText(a.rule, b.rule));
  return { rules, total: rules.reduce((s, r) => s + r.seconds, 0), flights: rules.reduce((s, r) => s + r.flights, 0) };
}

/** Stored colours may lack the hash or be junk; none is grey. */
export function normaliseColor(c: string | null | undefined): string {
  if (!c) return '#9e9e9e';
  const v = c.trim();
  if (!/^#?([0-9a-fA-F]{6}|[0-9a-fA-F]{3})$/.test(v)) return '#9e9e9e';
  return (v.startsWith('#') ? v : `#${v}`).toLowerCase();
}

export interface FlightTypeInfo {
  name: string;
  color: string | null;
}

/** `stats_flight_types` body: time per flight type, most first; untyped as `id: null`, a type not known as `Deleted type`. */
export function localStatsFlightTypes(
  flights: readonly ReportFlight[],
  scope: ReportScope,
  types: ReadonlyMap<string, FlightTypeInfo>,
) {
  const by = new Map<string | null, number>();
  for (const f of scopeFlights(flights, scope))
    by.set(f.flight_type_id, (by.get(f.flight_type_id) ?? 0) + n(f.block_time));
  const rows = [...by.entries()].map(([id, total]) => {
    const t = id ? types.get(id) : undefined;
    return { id, name: id ? (t?.name ?? 'Deleted type') : 'No flight type', color: normaliseColor(t?.color), total };
  });
  rows.sort((a, b) => b.total - a.total || byText(a.name, b.name));
  return { types: rows, total: rows.reduce((s, t) => s + t.total, 0) };
}

/** `flight_hours_by_month` body: zero-filled buckets, newest first, by the flight-zone `date`. */
export function localHoursByMonth(
  flights: readonly ReportFlight[],
  scope: ReportScope,
  now: number,
  zone: string,
  months: number,
): MonthBucket[] {
  const buckets = emptyMonthBuckets(now, zone, months);
  const firstDate = firstBucketDate(buckets);
  const by = new Map<string, { month: string; seconds: number; flights: number; landings: number }>();
  for (const f of scopeFlights(flights, scope)) {
    if (!f.date || f.date < firstDate) continue;
    const month = f.date.slice(0, 7);
    const r = by.get(month) ?? { month, seconds: 0, flights: 0, landings: 0 };
    r.seconds += n(f.block_time);
    r.flights++;
    r.landings += n(f.landings);
    by.set(month, r);
  }
  return fillMonthBuckets(buckets, [...by.values()]);
}

export interface RouteCoordinates {
  icao: string;
  lat: number;
  lon: number;
}

/** `pilots_airports` body: routes with counts, most flown first; a route whose airport has no coordinates is dropped. */
export function localRoutes(
  flights: readonly ReportFlight[],
  scope: ReportScope,
  airport: (code: string) => RouteCoordinates | null | undefined,
) {
  const by = new Map<string, { from: string; to: string; flights: number }>();
  for (const f of scopeFlights(flights, scope)) {
    if (f.departure_airport === null || f.landing_airport === null) continue;
    const key = `${f.departure_airport}\u0000${f.landing_airport}`;
    const r = by.get(key) ?? { from: f.departure_airport, to: f.landing_airport, flights: 0 };
    r.flights++;
    by.set(key, r);
  }
  const grouped = [...by.values()].sort(
    (a, b) => b.flights - a.flights || byText(a.from, b.from) || byText(a.to, b.to),
  );
  const routes = [];
  for (const r of grouped) {
    const a = airport(r.from.toUpperCase());
    const b = airport(r.to.toUpperCase());
    if (!a || !b) continue;
    routes.push({
      from: a.icao,
      to: b.icao,
      from_lat: a.lat,
      from_lon: a.lon,
      to_lat: b.lat,
      to_lon: b.lon,
      flights: r.flights,
    });
  }
  return { routes };
}
