import { dutyReport, hhmm, levelOf, limitSeconds, type DutyDay } from '@ops/shared/rules/duty/duty';
import { DateTime } from 'luxon';
import { useMemo } from 'react';
import { useWorkspace } from '../../hooks.ts';
import { useLocale, useT } from '../../i18n.tsx';
import { Empty } from '../../ui.tsx';
import { spansOf, useDeviceDuty } from './device-duty.ts';
import './duty.css';

/** Both halves of a day: what happened (rostered DUTY and flown) and what is planned on top (bookings, dispatched flights). */
function DaysTable({
  title,
  testId,
  days,
  planned,
  limit,
}: {
  title: string;
  /** Stable in every language (tests find the table by it). */
  testId: string;
  days: DutyDay[];
  planned: Map<string, number>;
  limit: number | null;
}) {
  const t = useT();
  const { locale } = useLocale();
  return (
    <>
      <h3>{title}</h3>
      <table className="duty-table" data-testid={`duty-${testId}`}>
        <thead>
          <tr>
            <th>{t('duty.day')}</th>
            <th>{t('duty.duty')}</th>
            <th>{t('duty.withPlanned')}</th>
            <th>{t('duty.flightTime')}</th>
            <th>{t('duty.flights')}</th>
            <th>{t('duty.dayLimit')}</th>
          </tr>
        </thead>
        <tbody>
          {days.map((d) => {
            const withPlanned = planned.get(d.date) ?? d.duty_seconds;
            return (
              <tr key={d.date}>
                <td>{DateTime.fromISO(d.date).setLocale(locale).toFormat('ccc d LLL')}</td>
                <td className={`level-${levelOf(d.duty_seconds, limit)}`}>{hhmm(d.duty_seconds)}</td>
                <td className={`level-${levelOf(withPlanned, limit)}`}>{hhmm(withPlanned)}</td>
                <td>{hhmm(d.flight_seconds)}</td>
                <td>{d.flights}</td>
                <td>{limit === null ? '—' : hhmm(limit)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </>
  );
}

/**
 * "My duty" (issue 30): this week and this month, year-to-date flight hours
 * against the company limit, computed on the device with the shared rule
 * from the replicated flights, the person's base schedule and bookings.
 */
export default function MyDuty() {
  const ws = useWorkspace();
  const t = useT();
  const me = ws.user.id;
  const d = useDeviceDuty();
  const view = useMemo(() => {
    const today = DateTime.now().setZone(d.zone);
    const weekFrom = today.startOf('week').toISODate() as string;
    const weekTo = today.endOf('week').toISODate() as string;
    const monthFrom = today.startOf('month').toISODate() as string;
    const monthTo = today.endOf('month').toISODate() as string;
    const entries = d.entries.filter((e) => e.user_id === me);
    const flights = d.flights.filter((f) => f.user_id === me);
    const plannedSpans = spansOf(d, me);
    const input = { entries, flights, zone: d.zone, limits: d.limits };
    const withPlanned = { entries: plannedSpans, flights: [], zone: d.zone, limits: d.limits };
    const to = today.toISODate() as string;
    const week = dutyReport(input, weekFrom, weekTo, { allDays: true });
    const month = dutyReport(input, monthFrom, monthTo, { allDays: true });
    const plannedDays = new Map(
      [
        ...dutyReport(withPlanned, [monthFrom, weekFrom].sort()[0], [monthTo, weekTo].sort()[1], { allDays: true })
          .days,
      ].map((x) => [x.date, x.duty_seconds]),
    );
    const now = dutyReport(input, to, to);
    return {
      week,
      month: month.days.filter((x) => x.duty_seconds > 0 || x.flights > 0 || (plannedDays.get(x.date) ?? 0) > 0),
      plannedDays,
      year: now.year,
      rolling: now.rolling,
      yearNo: today.year,
    };
  }, [d, me]);
  const dayLimit = limitSeconds(d.limits.max_duty_hours);
  const yearLimit = view.year.limit_seconds;
  const yearLevel = levelOf(view.year.flight_seconds, yearLimit);
  return (
    <section className="duty" aria-labelledby="my-duty-title">
      <div className="screen-head">
        <h2 id="my-duty-title">{t('shell.screenMyDuty')}</h2>
      </div>
      <p className="muted">{t('duty.intro')}</p>
      <div className="duty-summary">
        <div className="duty-card" data-testid="duty-year">
          {t('duty.flightHoursYear', { year: String(view.yearNo) })}
          <strong className={`level-${yearLevel}`}>
            {hhmm(view.year.flight_seconds)}
            {yearLimit !== null && <span className="muted"> / {hhmm(yearLimit)}</span>}
          </strong>
          {yearLimit !== null ? (
            <div className="meter" aria-hidden="true">
              <span
                className={`level-${yearLevel}`}
                style={{ width: `${Math.min(100, (view.year.flight_seconds / yearLimit) * 100)}%` }}
              />
            </div>
          ) : (
            <span className="muted">{t('duty.noYearlyLimit')}</span>
          )}
        </div>
        <div className="duty-card">
          {t('duty.duty7')}
          <strong>{hhmm(view.rolling.duty_7d_seconds)}</strong>
          <span className="muted">{t('duty.days28', { time: hhmm(view.rolling.duty_28d_seconds) })}</span>
        </div>
        <div className="duty-card">
          {t('duty.flight28')}
          <strong>{hhmm(view.rolling.flight_28d_seconds)}</strong>
          <span className="muted">{t('duty.months12', { time: hhmm(view.rolling.flight_12m_seconds) })}</span>
        </div>
        <div className="duty-card">
          {t('duty.dailyLimit')}
          <strong>{dayLimit === null ? t('duty.none') : hhmm(dayLimit)}</strong>
        </div>
      </div>
      <DaysTable
        title={t('duty.thisWeek')}
        testId="this-week"
        days={view.week.days}
        planned={view.plannedDays}
        limit={dayLimit}
      />
      {view.month.length ? (
        <DaysTable
          title={t('duty.thisMonth')}
          testId="this-month"
          days={view.month}
          planned={view.plannedDays}
          limit={dayLimit}
        />
      ) : (
        <>
          <h3>{t('duty.thisMonth')}</h3>
          <Empty>{t('duty.noDutyMonth')}</Empty>
        </>
      )}
    </section>
  );
}
