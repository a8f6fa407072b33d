import type { Translate } from '@ops/shared/i18n/index';
import type { FlightDoc, ReferenceDoc } from '@ops/shared';
import {
  type FlightTypeInfo,
  localHoursByMonth,
  localRoutes,
  localStatsFlightTypes,
  localStatsRules,
  localTotals,
  type ReportFlight,
  type ReportScope,
  type RouteCoordinates,
} from '@ops/shared/rules/reports/index';
import { useMemo } from 'react';
import { useCompany, useDocs, useMarks, useNow } from '../../hooks.ts';
import { markKey } from '../../workspace.ts';

/** Flight types by id (name, colour) from the `reference` collection. */
export function useFlightTypes(): Map<string, FlightTypeInfo> {
  const { docs } = useDocs<ReferenceDoc>('reference', { selector: { type: 'flight_type' } });
  return useMemo(
    () =>
      new Map(
        docs.map((d) => {
          const t = (d.data?.FlightType ?? {}) as { color?: unknown };
          return [d.id, { name: d.name, color: typeof t.color === 'string' ? t.color : null }];
        }),
      ),
    [docs],
  );
}

/** Airport coordinates from the `airport` reference documents (every airport the company's flights used). */
export function useAirportCoordinates(): (code: string) => RouteCoordinates | null {
  const { docs } = useDocs<ReferenceDoc>('reference', { selector: { type: 'airport' } });
  return useMemo(() => {
    const by = new Map<string, RouteCoordinates>();
    for (const d of docs) {
      const a = d.data?.Airport as { id?: unknown; lat?: unknown; lon?: unknown } | undefined;
      if (a && typeof a.id === 'string' && typeof a.lat === 'number' && typeof a.lon === 'number')
        by.set(a.id, { icao: a.id, lat: a.lat, lon: a.lon });
    }
    return (code: string) => by.get(code) ?? null;
  }, [docs]);
}

/** Replicated flights as report rows (a pushed document may still lack server-derived fields). */
export function useReportFlights(): { flights: ReportFlight[]; docs: FlightDoc[]; ready: boolean } {
  const { docs, ready } = useDocs<FlightDoc>('flights');
  const flights = useMemo(
    () =>
      docs.map((f) => ({
        status: f.status,
        pic_id: f.pic_id,
        sic_id: f.sic_id,
        aircraft_id: f.aircraft_id,
        flight_type_id: f.flight_type_id,
        block_time: f.block_time ?? 0,
        landings: f.landings ?? 0,
        date: f.date,
        starts: f.starts,
        onblocks: f.onblocks,
        rules: f.rules,
        departure_airport: f.departure_airport,
        landing_airport: f.landing_airport,
      })),
    [docs],
  );
  return { flights, docs, ready };
}

/**
 * The logbook's report figures for `scope`, computed on the device from the
 * replicated flights with the shared rules (the numbers the report endpoints
 * give for the same rows), online or offline. `pending` counts the scope's
 * flights edited here and not yet acknowledged by the server.
 */
export function useLocalReports(scope: ReportScope, months: number) {
  const { flights, docs, ready } = useReportFlights();
  const types = useFlightTypes();
  const airport = useAirportCoordinates();
  const { display } = useCompany();
  const marks = useMarks();
  const now = useNow(60_000);
  const { userId, aircraftId } = scope;
  return useMemo(() => {
    const s: ReportScope = userId ? { userId, aircraftId } : { userId: null, aircraftId: aircraftId ?? '' };
    const totals = localTotals(flights, s);
    const pending = docs.filter(
      (d) => marks.has(markKey('flights', d.id)) && (!userId || d.pic_id === userId || d.sic_id === userId),
    ).length;
    return {
      ready,
      pending,
      totals,
      hours: { seconds: totals.seconds, hours: Math.round((totals.seconds / 3600) * 100) / 100 },
      rules: localStatsRules(flights, s),
      types: localStatsFlightTypes(flights, s, types),
      months: localHoursByMonth(flights, s, now, display.flightZone, months),
      routes: localRoutes(flights, s, airport),
    };
  }, [flights, docs, ready, types, airport, display.flightZone, marks, now, userId, aircraftId, months]);
}

/** The shared rule's names for flights without a (live) flight type, in the reader's words. */
export const typeName = (name: string, id: string | null, t: Translate) =>
  id === null ? t('reports.noFlightType') : name === 'Deleted type' ? t('reports.deletedType') : name;
