import type { AircraftDoc } from '@ops/shared';
import { FLIGHT_STATUSES } from '@ops/shared/rules/flights/flight-times';
import { type FormEvent, useMemo, useState } from 'react';
import { formatDuration, formatIsoDate } from '../../format.ts';
import { fullName, useCompany, useDocs, useUsers, useWorkspace } from '../../hooks.ts';
import { Busy, messageOf, Outcome, type Paginate, Pager, useLoad } from '../office-kit.tsx';
import {
  type FlightListFilters,
  type FlightListRow,
  filtersProblem,
  flightsCsv,
  flightsLoadPath,
  NO_FILTERS,
} from './flights.ts';
import { useT } from '../../i18n.tsx';

const PAGE_SIZE = 25;
/** Rows per request of an export: large pages, streamed by the server (its maximum is 20,000). */
const EXPORT_PAGE = 5000;
const STATUSES = FLIGHT_STATUSES;

/**
 * The office's company-wide flight list (issue 28): every flight of the company
 * from GET /flights/load, filtered and paged by the server (Part B 4.6 item 1),
 * and a CSV of the current filter (the spec has no flights export endpoint).
 * Online only; shown to the roles the flights policy lets see every flight.
 */
export default function FlightList() {
  const ws = useWorkspace();
  const t = useT();
  const { display } = useCompany();
  const { docs: aircraft } = useDocs<AircraftDoc>('aircraft');
  const users = useUsers();
  const [draft, setDraft] = useState<FlightListFilters>(NO_FILTERS);
  const [filters, setFilters] = useState<FlightListFilters>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const [problem, setProblem] = useState<string | null>(null);
  const [exporting, setExporting] = useState<string | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);
  const list = useLoad<{ flights: FlightListRow[]; paginate: Paginate }>(flightsLoadPath(filters, page, PAGE_SIZE));
  const pilots = useMemo(
    () => [...users.values()].filter((u) => u.pilot).sort((a, b) => fullName(a).localeCompare(fullName(b))),
    [users],
  );
  const duration = (s: number) => formatDuration(s, display);

  const apply = (e: FormEvent) => {
    e.preventDefault();
    const p = filtersProblem(draft, t);
    setProblem(p);
    if (p) return;
    setFilters(draft);
    setPage(1);
  };
  const clear = () => {
    setDraft(NO_FILTERS);
    setFilters(NO_FILTERS);
    setProblem(null);
    setPage(1);
  };

  /** Every page of the current filter, as CSV. */
  const exportCsv = async () => {
    setExportError(null);
    const rows: FlightListRow[] = [];
    try {
      for (let p = 1; ; p++) {
        setExporting(t('flights.reading', { count: rows.length }));
        const r = await ws.rest<{ flights: FlightListRow[]; paginate: Paginate }>(
          'GET',
          flightsLoadPath(filters, p, EXPORT_PAGE),
        );
        rows.push(...r.flights);
        if (!r.paginate.nextPage) break;
      }
      const blob = new Blob([flightsCsv(rows, duration, t)], { type: 'text/csv;charset=utf-8' });
      const a = document.createElement('a');
      a.href = URL.createObjectURL(blob);
      a.download = `flights-${filters.from || 'all'}-${filters.to || 'all'}.csv`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
    } catch (err) {
      setExportError(t('flights.exportFailed', { message: messageOf(err) }));
    } finally {
      setExporting(null);
    }
  };

  const set = (k: keyof FlightListFilters) => (e: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [k]: e.target.value }));
  const rows = list.data?.flights ?? [];
  return (
    <section aria-labelledby="flight-list-title">
      <div className="screen-head">
        <h2 id="flight-list-title">{t('flights.companyTitle')}</h2>
        <button
          type="button"
          className="secondary"
          onClick={exportCsv}
          disabled={exporting !== null || !list.data}
          title={!list.data ? t('flights.notLoaded') : undefined}
        >
          {exporting ?? t('flights.exportCsv')}
        </button>
        <span className="muted small">{t('flights.timesIn', { zone: display.flightZone })}</span>
      </div>
      <form className="filters inline-form" onSubmit={apply} aria-label={t('flights.filterAria')} noValidate>
        <label className="field">
          <span>{t('flights.from')}</span>
          <input type="date" name="from" value={draft.from} onChange={set('from')} />
        </label>
        <label className="field">
          <span>{t('flights.to')}</span>
          <input type="date" name="to" value={draft.to} onChange={set('to')} />
        </label>
        <label className="field">
          <span>{t('flights.aircraft')}</span>
          <select name="aircraft" value={draft.aircraft} onChange={set('aircraft')}>
            <option value="">{t('flights.any')}</option>
            {[...aircraft]
              .sort((a, b) => a.registration.localeCompare(b.registration))
              .map((a) => (
                <option key={a.id} value={a.id}>
                  {a.registration}
                </option>
              ))}
          </select>
        </label>
        <label className="field">
          <span>{t('flights.pilot')}</span>
          <select name="pilot" value={draft.pilot} onChange={set('pilot')}>
            <option value="">{t('flights.anyone')}</option>
            {pilots.map((u) => (
              <option key={u.id} value={u.id}>
                {fullName(u)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t('flights.statusLabel')}</span>
          <select name="status" value={draft.status} onChange={set('status')}>
            <option value="">{t('flights.anyButCanceled')}</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {t('flights.status', { status: s })}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">{t('flights.apply')}</button>
        <button type="button" className="secondary" onClick={clear}>
          {t('flights.clear')}
        </button>
      </form>
      {problem && <p className="form-error">{problem}</p>}
      <Outcome error={exportError} />
      {!list.data ? (
        list.error ? (
          <Outcome error={list.error} />
        ) : (
          <Busy />
        )
      ) : (
        <>
          {list.error && <Outcome error={list.error} />}
          {rows.length === 0 ? (
            <p className="muted">{t('flights.noMatch')}</p>
          ) : (
            <div style={{ overflowX: 'auto' }}>
              <table className="data-table" data-testid="company-flights" aria-busy={list.loading}>
                <caption className="sr-only">{t('flights.caption')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('flights.date')}</th>
                    <th scope="col">{t('flights.callsign')}</th>
                    <th scope="col">{t('flights.aircraft')}</th>
                    <th scope="col">{t('flights.route')}</th>
                    <th scope="col">{t('flights.blocks')}</th>
                    <th scope="col">{t('flights.block')}</th>
                    <th scope="col">{t('flights.pic')}</th>
                    <th scope="col">{t('flights.sic')}</th>
                    <th scope="col">{t('flights.statusLabel')}</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((r) => (
                    <tr key={r.Flight.id} data-flight-id={r.Flight.id}>
                      <td>{formatIsoDate(r.Flight.date, display)}</td>
                      <td>{r.Flight.callsign ?? '—'}</td>
                      <td>{r.Aircraft?.registration ?? '—'}</td>
                      <td>
                        {r.Flight.departure_airport ?? '····'} → {r.Flight.landing_airport ?? '····'}
                      </td>
                      <td>
                        {r.Flight.offblocks_time ? `${r.Flight.offblocks_time}–${r.Flight.onblocks_time ?? ''}` : '—'}
                      </td>
                      <td>{duration(r.Flight.block_time)}</td>
                      <td>{r.Pic ? fullName(r.Pic.UserDetail) : '—'}</td>
                      <td>{r.Sic ? fullName(r.Sic.UserDetail) : '—'}</td>
                      <td>{t('flights.status', { status: r.Flight.status })}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <Pager paginate={list.data.paginate} onPage={setPage} label={t('flights.pages')} />
        </>
      )}
    </section>
  );
}
