import type { FlightDoc } from '@ops/shared';
import { flightsInWindow } from '@ops/shared/rules/pilots/currency';
import { useMemo } from 'react';
import { formatDate } from '../../format.ts';
import './reports.css';
import { useCompany, useDocs, useNow } from '../../hooks.ts';

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

/** One rule in words: what it asks, what the pilot has, and whether it is met. */
function ruleLine(rule: Rule, w: CountWindow | HoursWindow): { name: string; have: string; need: string } {
  if (rule === 'hours') {
    const h = w as HoursWindow;
    return { name: 'Flight hours', have: hhmm(h.seconds ?? 0), need: hhmm(h.required_seconds ?? 0) };
  }
  const c = w as CountWindow;
  return {
    name: rule === 'landings' ? 'Landings' : 'Night landings',
    have: String(c.count ?? 0),
    need: String(c.required),
  };
}

/**
 * The currency card: which rule fails, in words ("Not current: night landings,
 * 0 of 1 in 90 days"), each rule with the flights that count towards it. The
 * verdict is the server's; the flights come from this device's replicated
 * flights with the same rolling windows (shared rule `flightsInWindow`).
 */
export function CurrencyCard({ answer, userId }: { answer: CurrencyAnswer; userId: string }) {
  const { display } = useCompany();
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
  const failing = rules.filter((r) => !answer.windows[r].current);
  return (
    <>
      <p className={answer.current ? 'ok' : 'warn'} data-testid="currency-verdict">
        {answer.current
          ? 'Current: every rule is met.'
          : `Not current: ${failing
              .map((r) => {
                const l = ruleLine(r, answer.windows[r]);
                return `${l.name.toLowerCase()} (${l.have} of ${l.need} needed in ${answer.windows[r].days} days)`;
              })
              .join('; ')}.`}
      </p>
      <ul className="currency-rules">
        {rules.map((r) => {
          const w = answer.windows[r];
          const l = ruleLine(r, w);
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
                  {l.name}: {l.have} of {l.need} in {w.days} days{' '}
                  <strong className={w.current ? 'ok' : 'warn'}>{w.current ? 'met' : 'not met'}</strong>
                </summary>
                {counted.length === 0 ? (
                  <p className="muted small">No flight in the last {w.days} days counts towards this rule.</p>
                ) : (
                  <table className="currency-flights">
                    <thead>
                      <tr>
                        <th scope="col">Date</th>
                        <th scope="col">Flight</th>
                        <th scope="col">Route</th>
                        <th scope="col">{r === 'hours' ? 'Block' : r === 'landings' ? 'Landings' : 'Night ldg'}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {counted.map((f) => (
                        <tr key={f.id}>
                          <td>{formatDate(f.onblocks, display, display.flightZone)}</td>
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
