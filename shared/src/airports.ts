import data from '../data/airports.json' with { type: 'json' };

/**
 * An airport of the shipped database (shared/data/airports.json, built from
 * OurAirports by scripts/build-airports.ts; see shared/data/README.md).
 */
export interface Airport {
  /** Four-character ICAO code, upper case (the key). */
  icao: string;
  name: string;
  /** Municipality served; '' where the source has none. */
  city: string;
  /** ISO 3166-1 alpha-2; null only if the source has no country. */
  country_iso: string | null;
  country_name: string;
  lat: number;
  lon: number;
  /** IANA time zone (Etc/GMT±N for the few places outside any zone, e.g. Antarctica). */
  tz: string;
}

type Row = [string, string, string, string | null, string, number, number, string];

interface Entry {
  airport: Airport;
  name: string;
  city: string;
  /** Every word of the name and the city, each after a space. */
  words: string;
}

let list: Airport[] | null = null;
let entries: Entry[] | null = null;
let byIcao = new Map<string, Airport>();

/** Letters that NFD does not split into a base letter and an accent. */
const LETTERS: Record<string, string> = { ø: 'o', æ: 'ae', œ: 'oe', ß: 'ss', ł: 'l', đ: 'd', ı: 'i', þ: 'th', ð: 'd' };
/** Lower case without accents, so "tromso" finds Tromsø and "cadiz" Cádiz. */
const fold = (s: string) =>
  s
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[øæœßłđıþð]/g, (c) => LETTERS[c]);
const wordsOf = (s: string) => s.split(/[\s\-–—/(),.'"]+/).filter(Boolean);

/** The shipped airport database, loaded once, ordered by ICAO code. */
export function loadAirports(): Airport[] {
  if (!list) {
    list = (data as Row[]).map(([icao, name, city, country_iso, country_name, lat, lon, tz]) => ({
      icao,
      name,
      city,
      country_iso,
      country_name,
      lat,
      lon,
      tz,
    }));
    byIcao = new Map(list.map((a) => [a.icao, a]));
  }
  return list;
}

/** Folded names and cities for the text search, built on its first use. */
function searchEntries(): Entry[] {
  entries ??= loadAirports().map((airport) => {
    const name = fold(airport.name);
    const city = fold(airport.city);
    return { airport, name, city, words: ` ${wordsOf(name).join(' ')} ${wordsOf(city).join(' ')}` };
  });
  return entries;
}

/** The airport with this ICAO code (any case, surrounding blanks ignored), or null. */
export function getAirport(icao: string): Airport | null {
  loadAirports();
  return byIcao.get(icao.trim().toUpperCase()) ?? null;
}

/**
 * Airports for a search box, at most `limit`:
 * 1. ICAO codes starting with the query (case-insensitive), in code order;
 * 2. with none, airports whose city or name starts with the query, or one of
 *    whose name or city words does ("barajas" finds "Adolfo Suárez
 *    Madrid–Barajas Airport", "farmingdale" the city "East Farmingdale",
 *    "heathrow air" "London Heathrow Airport").
 *    Case and accents are ignored. City prefixes rank first, then name
 *    prefixes, then word prefixes; ties in code order.
 */
export function searchAirports(q: string, limit = 10): Airport[] {
  const query = q.trim();
  if (!query || limit <= 0) return [];
  const all = loadAirports();
  const upper = query.toUpperCase();
  const byCode: Airport[] = [];
  for (const a of all) {
    if (a.icao.startsWith(upper)) {
      byCode.push(a);
      if (byCode.length >= limit) break;
    }
  }
  if (byCode.length) return byCode;

  const f = fold(query);
  const qWords = wordsOf(f);
  const word = qWords.length ? ` ${qWords.join(' ')}` : null;
  const ranked: Array<[number, Airport]> = [];
  for (const e of searchEntries()) {
    const rank = e.city.startsWith(f) ? 0 : e.name.startsWith(f) ? 1 : word && e.words.includes(word) ? 2 : -1;
    if (rank >= 0) ranked.push([rank, e.airport]);
  }
  // Entries are in code order and the sort is stable, so ties stay in code order.
  return ranked
    .sort((x, y) => x[0] - y[0])
    .slice(0, limit)
    .map(([, a]) => a);
}
