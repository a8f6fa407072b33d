import { hhmm } from '@ops/shared/rules/duty/duty';
import { DateTime } from 'luxon';
import { useState } from 'react';
import { useCompany } from '../../hooks.ts';
import { Badge } from '../../ui.tsx';
import type { MessageId } from '@ops/shared/i18n/index';
import { useLocale, useT } from '../../i18n.tsx';
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

const LEVEL_WORDS: Record<Level, MessageId> = { over: 'duty.levelOver', near: 'duty.levelNear', ok: 'duty.levelOk' };
const rank: Record<Level, number> = { over: 0, near: 1, ok: 2 };

/**
 * "Crew duty" (issue 30), for the office: everyone's week from the server
 * (flown, rostered and planned duty; GET /duty/board.json), who is near or
 * past a limit first, coloured, with the numbers.
 */
export default function CrewDuty() {
  const { display } = useCompany();
  const t = useT();
  const { locale } = useLocale();
  const day = (iso: string) => DateTime.fromISO(iso).setLocale(locale);
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
        <h2 id="crew-duty-title">{t('shell.screenCrewDuty')}</h2>
      </div>
      <div className="board-controls">
        <button type="button" className="secondary" onClick={() => shift(-7)}>
          {t('duty.previousWeek')}
        </button>
        <strong>{data ? `${day(data.from).toFormat('d LLL')} – ${day(data.to).toFormat('d LLL yyyy')}` : from}</strong>
        <button type="button" className="secondary" onClick={() => shift(7)}>
          {t('duty.nextWeek')}
        </button>
      </div>
      {data && (
        <p className="muted" data-testid="duty-limits">
          {t('duty.limits', {
            day:
              data.limits.duty_seconds === null
                ? t('duty.noLimit')
                : t('duty.hoursValue', { hours: hhmm(data.limits.duty_seconds) }),
            year:
              data.limits.year_flight_seconds === null
                ? t('duty.noLimit')
                : t('duty.hoursValue', { hours: hhmm(data.limits.year_flight_seconds) }),
          })}
        </p>
      )}
      <div className="legend">
        <span className="level-over">{t('duty.legendOver')}</span>
        <span className="level-near">{t('duty.legendNear')}</span>
        <span className="level-ok">{t('duty.legendOk')}</span>
      </div>
      {board.loading && !data && <Busy />}
      {board.error && <p className="form-error">{board.error}</p>}
      {data && (
        <table className="duty-table" data-testid="duty-board">
          <thead>
            <tr>
              <th>{t('duty.crew')}</th>
              {Array.from({ length: 7 }, (_, i) => day(data.from).plus({ days: i })).map((d) => (
                <th key={d.toISODate()}>{d.toFormat('ccc d')}</th>
              ))}
              <th>{t('duty.week')}</th>
              <th>{t('duty.yearFlight')}</th>
              <th>{t('duty.status')}</th>
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
                    title={t('duty.dayTitle', { count: d.flights, time: hhmm(d.flight_seconds) })}
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
                    {t(LEVEL_WORDS[p.level])}
                  </Badge>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {data && quiet > 0 && <p className="muted">{t('duty.quiet', { count: quiet })}</p>}
    </section>
  );
}
