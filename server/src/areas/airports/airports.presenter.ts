import type { ReferenceDoc } from '@ops/shared';
import { type Airport, getAirport } from '@ops/shared/airports';

/** Part A 2.12 search row: `{Airport{id, name, lat, lon}, Country{id, name}, Timezone{id, name}}` (plus the city). */
export function presentAirport(a: Airport) {
  return {
    Airport: { id: a.icao, name: a.name, city: a.city, lat: a.lat, lon: a.lon },
    Country: { id: a.country_iso, name: a.country_name },
    Timezone: { id: a.tz, name: a.tz },
  };
}

/**
 * An airport as an offline `reference` document, keyed `airport:<ICAO>` so the
 * same airport from several sources is one document. A code missing from the
 * database still gets a document, without coordinates.
 */
export function airportReference(icao: string, updated: number): ReferenceDoc {
  const a = getAirport(icao);
  return {
    id: `airport:${icao}`,
    type: 'airport',
    name: a?.name ?? icao,
    data: a
      ? presentAirport(a)
      : { Airport: { id: icao, name: icao, city: null, lat: null, lon: null }, Country: null, Timezone: null },
    updated,
  };
}
