import { hhmm } from '@ops/shared/rules/duty/duty';
import { DateTime } from 'luxon';
import { useState } from 'react';
import { useCompany } from '../../hooks.ts';
import { Badge } from '../../ui.tsx';
import { Busy, useLoad } from '../office-kit.tsx';
import './duty.css';

type Level = 'over' | 'near' | 'ok';
interface Board {
  from: string;
  to: string;
  limits: { duty_seconds: number | null; year_flight_seconds: number | null };
  people: {
    user_id: string;
    name: string;
    role: number;
    days: { date: string; duty_seconds: number; flight_seconds: number; flights: number; level: Level }[];
    week_duty_seconds: number;
    year_flight_seconds: number;
    year_level: Level;
    level: Level;
  }[];
}

const LEVEL_WORDS: Record<Level, string> = { over: 'Over a limit', near: 'Near a limit', ok: 'Within limits' };
const rank: Record<Level, number> = { over: 0, near: 1, ok: 2 };

/**
 * "Crew duty" (issue 30), for the office: everyone's week from the server
 * (flown, rostered and planned duty; GET /duty/board.json), who is near or
 * past a limit first, coloured, with the numbers.
 */
export default function CrewDuty() {
  const { display } = useCompany();
  const [from, setFrom] = useState(
    () => DateTime.now().setZone(display.companyZone).startOf('week').toISODate() as string,
  );
  const board = useLoad<Board>(`/duty/board.json?from=${from}`);
  const shift = (days: number) => setFrom(DateTime.fromISO(from).plus({ days }).toISODate() as string);
  const data = board.data;
  const people = data
    ? [...data.people]
        .filter((p) => p.week_duty_seconds > 0 || p.year_flight_seconds > 0 || p.level !== 'ok')
        .sort(
          (a, b) =>
            rank[a.level] - rank[b.level] || b.week_duty_seconds - a.week_duty_seconds || a.name.localeCompare(b.name),
        )
    : [];
  const quiet = data ? data.people.length - people.length : 0;
  return (
    <section className="duty" aria-labelledby="crew-duty-title">
      <div className="screen-head">
        <h2 id="crew-duty-title">Crew duty</h2>
      </div>
      <div className="board-controls">
        <button type="button" className="secondary" onClick={() => shift(-7)}>
          ← Previous week
        </button>
        <strong>
          {data
            ? `${DateTime.fromISO(data.from).toFormat('d LLL')} – ${DateTime.fromISO(data.to).toFormat('d LLL yyyy')}`
            : from}
        </strong>
        <button type="button" className="secondary" onClick={() => shift(7)}>
          Next week →
        </button>
      </div>
      {data && (
        <p className="muted" data-testid="duty-limits">
          Daily duty limit: {data.limits.duty_seconds === null ? 'none' : `${hhmm(data.limits.duty_seconds)} h`} ·
          Yearly flight limit:{' '}
          {data.limits.year_flight_seconds === null ? 'none' : `${hhmm(data.limits.year_flight_seconds)} h`} · Duty
          includes bookings and dispatched flights (planned).
        </p>
      )}
      <div className="legend">
        <span className="level-over">past a limit</span>
        <span className="level-near">at 90 % or more</span>
        <span className="level-ok">within</span>
      </div>
      {board.loading && !data && <Busy />}
      {board.error && <p className="form-error">{board.error}</p>}
      {data && (
        <table className="duty-table" data-testid="duty-board">
          <thead>
            <tr>
              <th>Crew</th>
              {Array.from({ length: 7 }, (_, i) => DateTime.fromISO(data.from).plus({ days: i })).map((d) => (
                <th key={d.toISODate()}>{d.toFormat('ccc d')}</th>
              ))}
              <th>Week</th>
              <th>Year flight</th>
              <th>Status</th>
            </tr>
          </thead>
          <tbody>
            {people.map((p) => (
              <tr key={p.user_id} data-level={p.level}>
                <td>{p.name}</td>
                {p.days.map((d) => (
                  <td
                    key={d.date}
                    className={`level-${d.level}`}
                    title={`${d.flights} flight(s), ${hhmm(d.flight_seconds)} flight time`}
                  >
                    {d.duty_seconds ? hhmm(d.duty_seconds) : '·'}
                  </td>
                ))}
                <td>{hhmm(p.week_duty_seconds)}</td>
                <td className={`level-${p.year_level}`}>
                  {hhmm(p.year_flight_seconds)}
                  {data.limits.year_flight_seconds !== null && (
                    <span className="muted"> / {hhmm(data.limits.year_flight_seconds)}</span>
                  )}
                </td>
                <td>
                  <Badge tone={p.level === 'over' ? 'danger' : p.level === 'near' ? 'warn' : 'ok'}>
                    {LEVEL_WORDS[p.level]}
                  </Badge>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {data && quiet > 0 && <p className="muted">{quiet} more crew without duty this week.</p>}
    </section>
  );
}
