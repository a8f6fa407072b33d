/** Row types of migration 0090 (merged into DB). */
export interface WeatherCacheTable {
  /** `metar:LEMD` (current) or `metar:LEMD:1718000000` (historical, the requested instant). */
  key: string;
  /** JSON array of raw report strings (`["NIL"]` when nothing matched). */
  body: string;
  fetched: number;
  expires: number;
}

declare module '../../db/schema.ts' {
  interface DB {
    weather_cache: WeatherCacheTable;
  }
}
