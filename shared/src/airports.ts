import data from '../data/airports.json' with { type: 'json' };

export interface Airport {
  icao: string;
  name: string;
  city: string;
  country_iso: string | null;
  country_name: string;
  lat: number;
  lon: number;
  tz: string;
}

type Row = [string, string, string, string | null, string, number, number, string];

let list: Airport[] | null = null;
let byIcao: Map<string, Airport> | null = null;

/** The shipped airport database (shared/data/airports.json), loaded once. */
export function loadAirports(): Airport[] {
  if (!list) {
    list = (data as Row[]).map(([icao, name, city, country_iso, country_name, lat, lon, tz]) => ({ icao, name, city, country_iso, country_name, lat, lon, tz }));
    byIcao = new Map(list.map((a) => [a.icao, a]));
  }
  return list;
}

export function getAirport(icao: string): Airport | null {
  loadAirports();
  return byIcao!.get(icao.trim().toUpperCase()) ?? null;
}

const fold = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();

/**
 * Part A 4.10: an ICAO prefix match first; with no result, a name or city
 * prefix match (also at the start of any word of the name, so "barajas" finds
 * "Adolfo Suárez Madrid–Barajas"); accents and case are ignored; at most `limit`.
 */
export function searchAirports(q: string, limit = 10): Airport[] {
  const query = q.trim();
  if (!query) return [];
  const all = loadAirports();
  const upper = query.toUpperCase();
  const byCode = all.filter((a) => a.icao.startsWith(upper));
  if (byCode.length) return byCode.slice(0, limit);
  const f = fold(query);
  const words = (s: string) => fold(s).split(/[\s\-–/(),.]+/);
  return all
    .filter((a) => fold(a.name).startsWith(f) || fold(a.city).startsWith(f) || words(a.name).some((w) => w.startsWith(f)))
    .sort((a, b) => Number(!fold(a.city).startsWith(f)) - Number(!fold(b.city).startsWith(f)) || a.icao.localeCompare(b.icao))
    .slice(0, limit);
}
