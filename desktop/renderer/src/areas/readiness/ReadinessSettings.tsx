import { mayManageReadiness } from '@ops/shared/rules/readiness/policy';
import {
  POLICY_ACTIONS,
  type PolicyAction,
  READINESS_CHECKS,
  type ReadinessCheck,
  type ReadinessSettings,
  type WeatherMinimums,
} from '@ops/shared/rules/readiness/settings';
import { type FormEvent, useEffect, useState } from 'react';
import { useWorkspace } from '../../hooks.ts';
import { Field } from '../../ui.tsx';
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
const MINIMUM_LABEL: Record<keyof WeatherMinimums, string> = {
  ceiling_ft: 'ceiling (ft)',
  visibility_m: 'visibility (m)',
  wind_kt: 'wind (kt)',
  crosswind_kt: 'crosswind (kt)',
};
const MINIMUM_KEYS = Object.keys(MINIMUM_LABEL) as (keyof WeatherMinimums)[];

/** "09, 27" or "90 270" to headings in degrees (runway numbers times ten); bad parts are dropped. */
const headingsOf = (text: string): number[] =>
  text
    .split(/[\s,;/]+/)
    .map((t) => Number(t))
    .filter((n) => Number.isInteger(n) && n >= 1 && n <= 360)
    .map((n) => (n <= 36 ? n * 10 : n));

/** Company readiness policy (issue 31): managers choose per check; everyone else reads it. */
export default function ReadinessSettingsScreen() {
  const ws = useWorkspace();
  const [s, setS] = useState<ReadinessSettings | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [groups, setGroups] = useState<{ id: string; name: string }[]>([]);
  const [runwayIcao, setRunwayIcao] = useState('');
  const [runwayText, setRunwayText] = useState('');
  const mayEdit = mayManageReadiness({ role: ws.user.user_group_id });

  useEffect(() => {
    ws.rest<{ settings: ReadinessSettings }>('GET', '/readiness/settings.json')
      .then((r) => setS(r.settings))
      .catch((e: unknown) => setNote(e instanceof Error ? e.message : 'The settings could not be loaded.'));
    if (mayEdit)
      ws.rest<{ pilotGroups: { PilotGroup: { id: string; name: string } }[] }>(
        'GET',
        '/pilot_groups/manager_index.json',
      )
        .then((r) => setGroups(r.pilotGroups.map((g) => g.PilotGroup)))
        .catch(() => setGroups([]));
  }, [ws, mayEdit]);

  if (!s) return <p className="muted">{note ?? 'Loading…'}</p>;
  const num = (v: string) => (v.trim() === '' ? null : Math.round(Number(v)));

  const save = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const r = await ws.rest<{ settings: ReadinessSettings }>('POST', '/readiness/settings.json', s);
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
        <h3>Student minimums per pilot group</h3>
        <p className="muted small">
          A student in a group listed here flies to its minimums; with minimums for the flight type too, the stricter of
          each number applies.
        </p>
        {Object.entries(s.weather.pilot_groups).map(([gid, m]) => {
          const name = groups.find((g) => g.id === gid)?.name ?? 'A group that no longer exists';
          const setGroup = (next: WeatherMinimums | null) => {
            const rest = { ...s.weather.pilot_groups };
            if (next) rest[gid] = next;
            else delete rest[gid];
            setS({ ...s, weather: { ...s.weather, pilot_groups: rest } });
          };
          return (
            <div className="grid readiness-group" key={gid} data-testid="readiness-group">
              <strong>{name}</strong>
              {MINIMUM_KEYS.map((k) => (
                <Field key={k} label={`${name}: ${MINIMUM_LABEL[k]}`}>
                  <input
                    type="number"
                    min={0}
                    value={m[k]}
                    onChange={(e) => setGroup({ ...m, [k]: Number(e.target.value) })}
                  />
                </Field>
              ))}
              {mayEdit && (
                <button type="button" onClick={() => setGroup(null)}>
                  Remove {name}
                </button>
              )}
            </div>
          );
        })}
        {mayEdit && groups.some((g) => !s.weather.pilot_groups[g.id]) && (
          <Field label="Add minimums for a pilot group">
            <select
              value=""
              aria-label="Add minimums for a pilot group"
              onChange={(e) =>
                e.target.value &&
                setS({
                  ...s,
                  weather: {
                    ...s.weather,
                    pilot_groups: { ...s.weather.pilot_groups, [e.target.value]: { ...s.weather.default } },
                  },
                })
              }
            >
              <option value="">Choose a group…</option>
              {groups
                .filter((g) => !s.weather.pilot_groups[g.id])
                .map((g) => (
                  <option key={g.id} value={g.id}>
                    {g.name}
                  </option>
                ))}
            </select>
          </Field>
        )}
        <h3>Runway headings</h3>
        <p className="muted small">
          The crosswind is checked only at airports whose runways are listed here; elsewhere the readiness line says it
          was not checked.
        </p>
        <ul>
          {Object.entries(s.weather.runways).map(([icao, headings]) => (
            <li key={icao}>
              {icao}: {headings.join(', ')}°{' '}
              {mayEdit && (
                <button
                  type="button"
                  onClick={() => {
                    const rest = { ...s.weather.runways };
                    delete rest[icao];
                    setS({ ...s, weather: { ...s.weather, runways: rest } });
                  }}
                >
                  Remove {icao}
                </button>
              )}
            </li>
          ))}
        </ul>
        {mayEdit && (
          <div className="grid">
            <Field label="Airport (ICAO)">
              <input value={runwayIcao} onChange={(e) => setRunwayIcao(e.target.value.toUpperCase().trim())} />
            </Field>
            <Field label="Runway headings (e.g. 09, 27)">
              <input value={runwayText} onChange={(e) => setRunwayText(e.target.value)} />
            </Field>
            <button
              type="button"
              disabled={!/^[A-Z0-9]{3,4}$/.test(runwayIcao) || !headingsOf(runwayText).length}
              onClick={() => {
                setS({
                  ...s,
                  weather: { ...s.weather, runways: { ...s.weather.runways, [runwayIcao]: headingsOf(runwayText) } },
                });
                setRunwayIcao('');
                setRunwayText('');
              }}
            >
              Add runways
            </button>
          </div>
        )}
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
