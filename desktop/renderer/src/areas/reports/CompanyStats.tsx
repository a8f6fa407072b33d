import type { AircraftDoc } from '@ops/shared';
import type { MonthBucket } from '@ops/shared/rules/reports/index';
import { useEffect, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useDocs } from '../../hooks.ts';
import { useT } from '../../i18n.tsx';
import { typeName } from './local-reports.ts';
import { Busy, messageOf, Outcome, ScreenHead, useApi } from '../office-kit.tsx';

/** Months shown: this one and the 11 before it. */
const MONTHS_BACK = 11;

interface TypeRow {
  id: string | null;
  name: string;
  color: string;
  total: number;
}
interface AircraftStats {
  aircraft: AircraftDoc;
  months: MonthBucket[];
  types: TypeRow[];
}

const hhmm = (seconds: number) =>
  `${Math.floor(seconds / 3600)}:${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')}`;
const hours = (seconds: number) => Math.round((seconds / 3600) * 10) / 10;

/**
 * Company statistics for office staff: flights and hours per month, per
 * aircraft and per flight type, from the report endpoints scoped by aircraft
 * (flight_hours_by_month and stats_flight_types with a null user), summed over
 * the fleet. Flights without an aircraft are not in these figures.
 */
export default function CompanyStats() {
  const t = useT();
  const { get } = useApi();
  const { docs: fleet, ready } = useDocs<AircraftDoc>('aircraft');
  const [stats, setStats] = useState<AircraftStats[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const ids = useMemo(() => [...fleet].sort((a, b) => a.registration.localeCompare(b.registration)), [fleet]);
  const key = ids.map((a) => a.id).join(',');

  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the fleet's ids (docs re-emit on every change)
  useEffect(() => {
    if (!ready) return;
    let live = true;
    setError(null);
    Promise.all(
      ids.map(async (aircraft) => {
        const id = encodeURIComponent(aircraft.id);
        const [months, types] = await Promise.all([
          get<MonthBucket[]>(`/reports/flight_hours_by_month/${MONTHS_BACK}/null/${id}.json`),
          get<{ types: TypeRow[] }>(`/reports/stats_flight_types/null/${id}.json`),
        ]);
        return { aircraft, months, types: types.types };
      }),
    ).then(
      (rows) => live && setStats(rows),
      (err) => live && setError(messageOf(err)),
    );
    return () => {
      live = false;
    };
  }, [key, ready, get]);

  const company = useMemo(() => (stats ? sumMonths(stats) : []), [stats]);
  const perAircraft = useMemo(
    () =>
      (stats ?? []).map((s) => ({
        label: s.aircraft.registration,
        seconds: s.months.reduce((t, m) => t + m.seconds, 0),
        flights: s.months.reduce((t, m) => t + m.flights, 0),
      })),
    [stats],
  );
  const perType = useMemo(() => sumTypes(stats ?? []), [stats]);
  // Oldest first for the charts; memoised so the charts redraw only when figures change.
  const charts = useMemo(() => {
    const old = [...company].reverse();
    return {
      months: {
        labels: old.map((m) => m.label),
        values: old.map((m) => hours(m.seconds)),
        flights: old.map((m) => m.flights),
      },
      aircraft: { labels: perAircraft.map((a) => a.label), values: perAircraft.map((a) => hours(a.seconds)) },
      types: { labels: perType.map((x) => typeName(x.name, x.id, t)), values: perType.map((x) => hours(x.total)) },
    };
  }, [company, perAircraft, perType, t]);

  return (
    <section data-testid="company-stats">
      <ScreenHead title={t('reports.statsTitle')} />
      <p className="hint">{t('reports.statsHint')}</p>
      {!stats && !error && <Busy what={t('shell.loading')} />}
      <Outcome error={error} />
      {stats && (
        <>
          <article aria-labelledby="cs-months">
            <h3 id="cs-months">{t('reports.perMonth')}</h3>
            <BarChart
              testId="company-stats-months-chart"
              labels={charts.months.labels}
              values={charts.months.values}
              second={charts.months.flights}
            />
            <table data-testid="company-stats-months" className="sr-table">
              <caption>{t('reports.monthsCaption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('reports.month')}</th>
                  <th scope="col">{t('reports.blockTime')}</th>
                  <th scope="col">{t('reports.flights')}</th>
                  <th scope="col">{t('reports.landings')}</th>
                </tr>
              </thead>
              <tbody>
                {company.map((m) => (
                  <tr key={m.label}>
                    <th scope="row">{m.label}</th>
                    <td>{hhmm(m.seconds)}</td>
                    <td>{m.flights}</td>
                    <td>{m.landings}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </article>
          <article aria-labelledby="cs-aircraft">
            <h3 id="cs-aircraft">{t('reports.perAircraft')}</h3>
            <BarChart
              testId="company-stats-aircraft-chart"
              labels={charts.aircraft.labels}
              values={charts.aircraft.values}
            />
            <table data-testid="company-stats-aircraft" className="sr-table">
              <caption>{t('reports.aircraftCaption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('reports.aircraft')}</th>
                  <th scope="col">{t('reports.blockTime')}</th>
                  <th scope="col">{t('reports.flights')}</th>
                </tr>
              </thead>
              <tbody>
                {perAircraft.map((a) => (
                  <tr key={a.label}>
                    <th scope="row">{a.label}</th>
                    <td>{hhmm(a.seconds)}</td>
                    <td>{a.flights}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </article>
          <article aria-labelledby="cs-types">
            <h3 id="cs-types">{t('reports.perType')}</h3>
            <BarChart testId="company-stats-types-chart" labels={charts.types.labels} values={charts.types.values} />
            <table data-testid="company-stats-types" className="sr-table">
              <caption>{t('reports.typesCaption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('reports.flightType')}</th>
                  <th scope="col">{t('reports.blockTime')}</th>
                </tr>
              </thead>
              <tbody>
                {perType.map((x) => (
                  <tr key={x.id ?? 'none'}>
                    <th scope="row">
                      <span className="swatch" style={{ background: x.color }} aria-hidden="true" />{' '}
                      {typeName(x.name, x.id, t)}
                    </th>
                    <td>{hhmm(x.total)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </article>
        </>
      )}
    </section>
  );
}

/** The fleet's months added up (every aircraft answers the same buckets). */
export function sumMonths(stats: readonly AircraftStats[]): MonthBucket[] {
  const first = stats[0]?.months ?? [];
  return first.map((b, i) => ({
    ...b,
    seconds: stats.reduce((t, s) => t + (s.months[i]?.seconds ?? 0), 0),
    flights: stats.reduce((t, s) => t + (s.months[i]?.flights ?? 0), 0),
    landings: stats.reduce((t, s) => t + (s.months[i]?.landings ?? 0), 0),
  }));
}

/** Flight type totals added up over the fleet, most time first. */
export function sumTypes(stats: readonly AircraftStats[]): TypeRow[] {
  const by = new Map<string, TypeRow>();
  for (const s of stats)
    for (const t of s.types) {
      const k = t.id ?? '';
      const row = by.get(k) ?? { ...t, total: 0 };
      row.total += t.total;
      by.set(k, row);
    }
  return [...by.values()].sort((a, b) => b.total - a.total || a.name.localeCompare(b.name));
}

/** Bars over categories (uPlot, the logbook's chart library); an optional second series (flights) as a line on its own scale. The table beside it is the screen-reader equivalent. */
function BarChart({
  labels,
  values,
  second,
  testId,
}: {
  labels: string[];
  values: number[];
  second?: number[];
  testId: string;
}) {
  const t = useT();
  const hoursLabel = t('reports.hours');
  const flightsLabel = t('reports.flights');
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el || labels.length === 0) return;
    const xs = labels.map((_, i) => i);
    const width = Math.max(320, el.clientWidth || 640);
    const slant = labels.reduce((n, l) => n + l.length, 0) * 7.5 > width * 0.8;
    const series: uPlot.Series[] = [
      {},
      {
        label: hoursLabel,
        stroke: '#1f6feb',
        fill: 'rgba(31,111,235,0.35)',
        paths: uPlot.paths.bars?.({ size: [0.6, 60] }),
        points: { show: false },
      },
    ];
    const data: uPlot.AlignedData = second ? [xs, values, second] : [xs, values];
    if (second) series.push({ label: flightsLabel, stroke: '#d97706', width: 2, scale: 'flights' });
    const plot = new uPlot(
      {
        width,
        height: slant ? 260 : 220,
        legend: { show: !!second },
        scales: { x: { time: false, range: [-0.5, labels.length - 0.5] } },
        series,
        axes: [
          // One tick per category; many or long names are slanted so neighbouring labels never overlap.
          {
            splits: () => xs,
            values: (_u, ticks) => ticks.map((t) => labels[t] ?? ''),
            ...(slant ? { rotate: -40, size: 80 } : {}),
          },
          { label: hoursLabel },
          ...(second ? [{ side: 1, scale: 'flights', label: flightsLabel, grid: { show: false } }] : []),
        ],
      },
      data,
      el,
    );
    return () => plot.destroy();
  }, [labels, values, second, hoursLabel, flightsLabel]);
  return <div ref={box} className="logbook-chart" data-testid={testId} aria-hidden="true" />;
}
