import { isWeatherIcao } from '@ops/shared/rules/reports/index';
import { useEffect, useState } from 'react';
import { useWorkspace } from '../../hooks.ts';
import { useT } from '../../i18n.tsx';

type Line = { icao: string; metar: string; taf: string } | { icao: string; error: string };

/** Current METAR and TAF of the flight's airports, on the flight form when online (GET /reports/metar|taf/{icao}.json). */
export function FlightWeather({ departure, landing }: { departure: string; landing: string }) {
  const t = useT();
  const ws = useWorkspace();
  const [lines, setLines] = useState<Line[]>([]);
  const codes = [...new Set([departure, landing].map((c) => c.trim().toUpperCase()).filter((c) => isWeatherIcao(c)))];
  const key = codes.join(',');
  useEffect(() => {
    if (!key || !navigator.onLine) {
      setLines([]);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      Promise.all(
        key.split(',').map(async (icao): Promise<Line> => {
          try {
            const [m, t] = await Promise.all([
              ws.rest<string[]>('GET', `/reports/metar/${icao}.json`),
              ws.rest<string[]>('GET', `/reports/taf/${icao}.json`),
            ]);
            return { icao, metar: m[0] ?? 'NIL', taf: t[0] ?? 'NIL' };
          } catch (err) {
            return { icao, error: err instanceof Error ? err.message : t('reports.weatherUnavailable') };
          }
        }),
      ).then((r) => live && setLines(r));
    }, 400);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [key, ws, t]);
  if (!lines.length) return null;
  return (
    <section className="flight-weather" aria-label={t('reports.weather')} data-testid="flight-weather">
      {lines.map((l) => (
        <div key={l.icao}>
          <strong>{l.icao}</strong>
          {'error' in l ? (
            <p className="muted small">{l.error}</p>
          ) : (
            <>
              <pre className="small">{l.metar}</pre>
              <pre className="small">{l.taf}</pre>
            </>
          )}
        </div>
      ))}
    </section>
  );
}
