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
    const p = filtersProblem(draft);
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
        setExporting(`Reading flights… ${rows.length}`);
        const r = await ws.rest<{ flights: FlightListRow[]; paginate: Paginate }>(
          'GET',
          flightsLoadPath(filters, p, EXPORT_PAGE),
        );
        rows.push(...r.flights);
        if (!r.paginate.nextPage) break;
      }
      const blob = new Blob([flightsCsv(rows, duration)], { type: 'text/csv;charset=utf-8' });
      const a = document.createElement('a');
      a.href = URL.createObjectURL(blob);
      a.download = `flights-${filters.from || 'all'}-${filters.to || 'all'}.csv`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
    } catch (err) {
      setExportError(`The export failed: ${messageOf(err)}`);
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
        <h2 id="flight-list-title">Company flights</h2>
        <button
          type="button"
          className="secondary"
          onClick={exportCsv}
          disabled={exporting !== null || !list.data}
          title={!list.data ? 'The list has not loaded yet' : undefined}
        >
          {exporting ?? 'Export CSV'}
        </button>
        <span className="muted small">Times in {display.flightZone}</span>
      </div>
      <form className="filters inline-form" onSubmit={apply} aria-label="Filter flights" noValidate>
        <label className="field">
          <span>From</span>
          <input type="date" name="from" value={draft.from} onChange={set('from')} />
        </label>
        <label className="field">
          <span>To</span>
          <input type="date" name="to" value={draft.to} onChange={set('to')} />
        </label>
        <label className="field">
          <span>Aircraft</span>
          <select name="aircraft" value={draft.aircraft} onChange={set('aircraft')}>
            <option value="">Any</option>
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
          <span>Pilot</span>
          <select name="pilot" value={draft.pilot} onChange={set('pilot')}>
            <option value="">Anyone</option>
            {pilots.map((u) => (
              <option key={u.id} value={u.id}>
                {fullName(u)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Status</span>
          <select name="status" value={draft.status} onChange={set('status')}>
            <option value="">Any but canceled</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Apply</button>
        <button type="button" className="secondary" onClick={clear}>
          Clear
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
            <p className="muted">No flights match these filters.</p>
          ) : (
            <div style={{ overflowX: 'auto' }}>
              <table className="data-table" data-testid="company-flights" aria-busy={list.loading}>
                <caption className="sr-only">Flights of the company</caption>
                <thead>
                  <tr>
                    <th scope="col">Date</th>
                    <th scope="col">Callsign</th>
                    <th scope="col">Aircraft</th>
                    <th scope="col">Route</th>
                    <th scope="col">Blocks</th>
                    <th scope="col">Block</th>
                    <th scope="col">PIC</th>
                    <th scope="col">SIC</th>
                    <th scope="col">Status</th>
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
                      <td>{r.Flight.status}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <Pager paginate={list.data.paginate} onPage={setPage} label="Pages of flights" />
        </>
      )}
    </section>
  );
}
