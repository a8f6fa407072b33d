import type { FlightDoc } from '@ops/shared';
import { flightsInWindow } from '@ops/shared/rules/pilots/currency';
import { type CompanyFormats, formatDate, type MessageId, type Translate } from '@ops/shared/i18n/index';
import { useMemo } from 'react';
import './reports.css';
import { useCompany, useDocs, useNow } from '../../hooks.ts';
import { useLocale, useT } from '../../i18n.tsx';

interface CountWindow {
  days: number;
  count?: number;
  required: number;
  current: boolean;
}
interface HoursWindow {
  days: number;
  seconds?: number;
  required_seconds?: number;
  current: boolean;
}
export interface CurrencyAnswer {
  current: boolean;
  windows: { landings: CountWindow; night_landings: CountWindow; hours: HoursWindow };
}

type Rule = 'landings' | 'night_landings' | 'hours';

const hhmm = (seconds: number) =>
  `${Math.floor(seconds / 3600)}:${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')}`;

// A rule's summary line and its part of the "not current" sentence, per language (no lowercasing of names).
const RULE_LINE: Record<Rule, MessageId> = {
  landings: 'reports.ruleLandings',
  night_landings: 'reports.ruleNightLandings',
  hours: 'reports.ruleHours',
};
const RULE_FAILURE: Record<Rule, MessageId> = {
  landings: 'reports.failLandings',
  night_landings: 'reports.failNightLandings',
  hours: 'reports.failHours',
};

/** One rule's figures: what the pilot has and what it asks. */
function ruleFigures(rule: Rule, w: CountWindow | HoursWindow): { have: string; need: string; days: number } {
  if (rule === 'hours') {
    const h = w as HoursWindow;
    return { have: hhmm(h.seconds ?? 0), need: hhmm(h.required_seconds ?? 0), days: w.days };
  }
  const c = w as CountWindow;
  return { have: String(c.count ?? 0), need: String(c.required), days: w.days };
}

/** The verdict in words ("Not current: night landings (0 of 1 needed in 90 days)."). */
export function verdictText(answer: CurrencyAnswer, t: Translate): string {
  const rules: Rule[] = ['landings', 'night_landings', 'hours'];
  const failing = rules.filter((r) => !answer.windows[r].current);
  if (answer.current) return t('reports.verdictCurrent');
  return t('reports.verdictNot', {
    failures: failing.map((r) => t(RULE_FAILURE[r], { ...ruleFigures(r, answer.windows[r]) })).join('; '),
  });
}

/**
 * The currency card: which rule fails, in words ("Not current: night landings,
 * 0 of 1 in 90 days"), each rule with the flights that count towards it. The
 * verdict is the server's; the flights come from this device's replicated
 * flights with the same rolling windows (shared rule `flightsInWindow`).
 */
export function CurrencyCard({ answer, userId }: { answer: CurrencyAnswer; userId: string }) {
  const t = useT();
  const { locale } = useLocale();
  const { display } = useCompany();
  // Flight dates in the flight zone, the company's order and the reader's separators.
  const flightDates: CompanyFormats = {
    dateFormat: display.dateFormat,
    timeFormat: display.timeFormat,
    durationFormat: display.durationFormat,
    zone: display.flightZone,
  };
  const now = useNow(60_000);
  const { docs } = useDocs<FlightDoc>('flights', { selector: { status: 'LANDED' } });
  const mine = useMemo(
    () =>
      docs
        .filter((f) => f.pic_id === userId || f.sic_id === userId)
        .map((f) => ({ ...f, onblocks: Number(f.onblocks ?? f.landing ?? f.starts) }))
        .sort((a, b) => b.onblocks - a.onblocks),
    [docs, userId],
  );
  const rules: Rule[] = ['landings', 'night_landings', 'hours'];
  return (
    <>
      <p className={answer.current ? 'ok' : 'warn'} data-testid="currency-verdict">
        {verdictText(answer, t)}
      </p>
      <ul className="currency-rules">
        {rules.map((r) => {
          const w = answer.windows[r];
          const l = ruleFigures(r, w);
          if (r === 'hours' && !(w as HoursWindow).required_seconds) return null;
          const counted = flightsInWindow(mine, now, w.days).filter((f) =>
            r === 'landings'
              ? f.landings > 0
              : r === 'night_landings'
                ? (f.night_landings ?? 0) > 0
                : (f.block_time ?? 0) > 0,
          );
          return (
            <li key={r} data-rule={r} data-met={w.current ? 'true' : 'false'}>
              <details>
                <summary>
                  {t(RULE_LINE[r], { ...l })}{' '}
                  <strong className={w.current ? 'ok' : 'warn'}>
                    {w.current ? t('reports.met') : t('reports.notMet')}
                  </strong>
                </summary>
                {counted.length === 0 ? (
                  <p className="muted small">{t('reports.noFlightCounts', { days: w.days })}</p>
                ) : (
                  <table className="currency-flights">
                    <thead>
                      <tr>
                        <th scope="col">{t('reports.date')}</th>
                        <th scope="col">{t('reports.flight')}</th>
                        <th scope="col">{t('reports.route')}</th>
                        <th scope="col">
                          {r === 'hours'
                            ? t('reports.block')
                            : r === 'landings'
                              ? t('reports.landings')
                              : t('reports.nightLdg')}
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {counted.map((f) => (
                        <tr key={f.id}>
                          <td>{formatDate(f.onblocks, locale, flightDates)}</td>
                          <td>{f.callsign ?? '—'}</td>
                          <td>
                            {f.departure_airport ?? '?'}–{f.landing_airport ?? '?'}
                          </td>
                          <td>
                            {r === 'hours' ? hhmm(f.block_time ?? 0) : r === 'landings' ? f.landings : f.night_landings}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                )}
              </details>
            </li>
          );
        })}
      </ul>
    </>
  );
}
