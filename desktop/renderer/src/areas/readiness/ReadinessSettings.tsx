import { mayManageReadiness } from '@ops/shared/rules/readiness/policy';
import {
  POLICY_ACTIONS,
  type PolicyAction,
  READINESS_CHECKS,
  type ReadinessCheck,
  type ReadinessSettings,
} from '@ops/shared/rules/readiness/settings';
import { type FormEvent, useEffect, useState } from 'react';
import { useWorkspace } from '../../hooks.ts';
import { Field } from '../../ui.tsx';
import { keepSettings } from './device-readiness.ts';
import './readiness.css';

const CHECK_LABEL: Record<ReadinessCheck, string> = {
  BALANCE: 'Balance below the minimum',
  CERTIFICATES: 'Required certificates of the flight type',
  CURRENCY: 'Pilot recency with passengers',
  MAINTENANCE: 'Maintenance due',
  MEL: 'Expired MEL/CDL items',
  DUTY: 'Duty and flight-time limits',
  WEATHER: 'Student weather minimums',
};
const ACTION_LABEL: Record<PolicyAction, string> = { ignore: 'Ignore', warn: 'Warn', block: 'Block' };

/** Company readiness policy (issue 31): managers choose per check; everyone else reads it. */
export default function ReadinessSettingsScreen() {
  const ws = useWorkspace();
  const [s, setS] = useState<ReadinessSettings | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const mayEdit = mayManageReadiness({ role: ws.user.user_group_id });

  useEffect(() => {
    ws.rest<{ settings: ReadinessSettings }>('GET', '/readiness/settings.json')
      .then((r) => setS(r.settings))
      .catch((e: unknown) => setNote(e instanceof Error ? e.message : 'The settings could not be loaded.'));
  }, [ws]);

  if (!s) return <p className="muted">{note ?? 'Loading…'}</p>;
  const num = (v: string) => (v.trim() === '' ? null : Math.round(Number(v)));

  const save = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const r = await ws.rest<{ settings: ReadinessSettings }>('POST', '/readiness/settings.json', s);
      keepSettings(r.settings);
      setS(r.settings);
      setNote('Saved.');
    } catch (err) {
      setNote(err instanceof Error ? err.message : 'Not saved.');
    }
  };

  return (
    <form className="card-form readiness-settings" aria-label="Readiness settings" onSubmit={save}>
      <h2>Flight readiness</h2>
      <p className="muted small">
        What each check does when it finds a problem at booking and dispatch: ignore it, warn (the booking goes through
        and the warning is kept in the flight history) or block.
      </p>
      <fieldset disabled={!mayEdit}>
        <div className="grid">
          {READINESS_CHECKS.map((c) => (
            <Field key={c} label={CHECK_LABEL[c]}>
              <select
                value={s.checks[c]}
                aria-label={CHECK_LABEL[c]}
                onChange={(e) => setS({ ...s, checks: { ...s.checks, [c]: e.target.value as PolicyAction } })}
              >
                {POLICY_ACTIONS.map((a) => (
                  <option key={a} value={a}>
                    {ACTION_LABEL[a]}
                  </option>
                ))}
              </select>
            </Field>
          ))}
          <Field label="Minimum balance (cents; empty: none)">
            <input
              inputMode="numeric"
              value={s.balance_minimum ?? ''}
              onChange={(e) => setS({ ...s, balance_minimum: num(e.target.value) })}
            />
          </Field>
          <Field label="Recency: landings">
            <input
              type="number"
              min={0}
              value={s.currency.landings}
              onChange={(e) => setS({ ...s, currency: { ...s.currency, landings: Number(e.target.value) } })}
            />
          </Field>
          <Field label="Recency: night landings">
            <input
              type="number"
              min={0}
              value={s.currency.night_landings}
              onChange={(e) => setS({ ...s, currency: { ...s.currency, night_landings: Number(e.target.value) } })}
            />
          </Field>
          <Field label="Recency: days">
            <input
              type="number"
              min={1}
              value={s.currency.days}
              onChange={(e) => setS({ ...s, currency: { ...s.currency, days: Number(e.target.value) } })}
            />
          </Field>
          {(['ceiling_ft', 'visibility_m', 'wind_kt', 'crosswind_kt'] as const).map((k) => (
            <Field key={k} label={`Student minimum: ${k.replace('_', ' ')}`}>
              <input
                type="number"
                min={0}
                value={s.weather.default[k]}
                onChange={(e) =>
                  setS({
                    ...s,
                    weather: { ...s.weather, default: { ...s.weather.default, [k]: Number(e.target.value) } },
                  })
                }
              />
            </Field>
          ))}
        </div>
      </fieldset>
      {note && <p className="form-warning">{note}</p>}
      {mayEdit && (
        <div className="actions">
          <button type="submit">Save</button>
        </div>
      )}
    </form>
  );
}
