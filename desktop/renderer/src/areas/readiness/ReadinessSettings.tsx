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
import type { MessageId } from '@ops/shared/i18n/index';
import { useWorkspace } from '../../hooks.ts';
import { useT } from '../../i18n.tsx';
import { Field } from '../../ui.tsx';
import './readiness.css';

const CHECK_LABEL: Record<ReadinessCheck, MessageId> = {
  BALANCE: 'readiness.checkBalance',
  CERTIFICATES: 'readiness.checkCertificates',
  CURRENCY: 'readiness.checkCurrency',
  MAINTENANCE: 'readiness.checkMaintenance',
  MEL: 'readiness.checkMel',
  DUTY: 'readiness.checkDuty',
  WEATHER: 'readiness.checkWeather',
};
const ACTION_LABEL: Record<PolicyAction, MessageId> = {
  ignore: 'readiness.actionIgnore',
  warn: 'readiness.actionWarn',
  block: 'readiness.actionBlock',
};
const MINIMUM_LABEL: Record<'ceiling_ft' | 'visibility_m' | 'wind_kt' | 'crosswind_kt', MessageId> = {
  ceiling_ft: 'readiness.minCeiling',
  visibility_m: 'readiness.minVisibility',
  wind_kt: 'readiness.minWind',
  crosswind_kt: 'readiness.minCrosswind',
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
  const t = useT();
  const [s, setS] = useState<ReadinessSettings | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [groups, setGroups] = useState<{ id: string; name: string }[]>([]);
  const [runwayIcao, setRunwayIcao] = useState('');
  const [runwayText, setRunwayText] = useState('');
  const mayEdit = mayManageReadiness({ role: ws.user.user_group_id });

  useEffect(() => {
    ws.rest<{ settings: ReadinessSettings }>('GET', '/readiness/settings.json')
      .then((r) => setS(r.settings))
      .catch((e: unknown) => setNote(e instanceof Error ? e.message : t('readiness.notLoaded')));
    if (mayEdit)
      ws.rest<{ pilotGroups: { PilotGroup: { id: string; name: string } }[] }>(
        'GET',
        '/pilot_groups/manager_index.json',
      )
        .then((r) => setGroups(r.pilotGroups.map((g) => g.PilotGroup)))
        .catch(() => setGroups([]));
  }, [ws, t, mayEdit]);

  if (!s) return <p className="muted">{note ?? t('readiness.loading')}</p>;
  const num = (v: string) => (v.trim() === '' ? null : Math.round(Number(v)));

  const save = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const r = await ws.rest<{ settings: ReadinessSettings }>('POST', '/readiness/settings.json', s);
      setS(r.settings);
      setNote(t('readiness.saved'));
    } catch (err) {
      setNote(err instanceof Error ? err.message : t('readiness.notSaved'));
    }
  };

  return (
    <form className="card-form readiness-settings" aria-label={t('readiness.settings')} onSubmit={save}>
      <h2>{t('readiness.title')}</h2>
      <p className="muted small">{t('readiness.intro')}</p>
      <fieldset disabled={!mayEdit}>
        <div className="grid">
          {READINESS_CHECKS.map((c) => (
            <Field key={c} label={t(CHECK_LABEL[c])}>
              <select
                value={s.checks[c]}
                aria-label={t(CHECK_LABEL[c])}
                onChange={(e) => setS({ ...s, checks: { ...s.checks, [c]: e.target.value as PolicyAction } })}
              >
                {POLICY_ACTIONS.map((a) => (
                  <option key={a} value={a}>
                    {t(ACTION_LABEL[a])}
                  </option>
                ))}
              </select>
            </Field>
          ))}
          <Field label={t('readiness.minimumBalance')}>
            <input
              inputMode="numeric"
              value={s.balance_minimum ?? ''}
              onChange={(e) => setS({ ...s, balance_minimum: num(e.target.value) })}
            />
          </Field>
          <Field label={t('readiness.recencyLandings')}>
            <input
              type="number"
              min={0}
              value={s.currency.landings}
              onChange={(e) => setS({ ...s, currency: { ...s.currency, landings: Number(e.target.value) } })}
            />
          </Field>
          <Field label={t('readiness.recencyNight')}>
            <input
              type="number"
              min={0}
              value={s.currency.night_landings}
              onChange={(e) => setS({ ...s, currency: { ...s.currency, night_landings: Number(e.target.value) } })}
            />
          </Field>
          <Field label={t('readiness.recencyDays')}>
            <input
              type="number"
              min={1}
              value={s.currency.days}
              onChange={(e) => setS({ ...s, currency: { ...s.currency, days: Number(e.target.value) } })}
            />
          </Field>
          {(['ceiling_ft', 'visibility_m', 'wind_kt', 'crosswind_kt'] as const).map((k) => (
            <Field key={k} label={t(MINIMUM_LABEL[k])}>
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
        <h3>{t('readiness.groupMinimums')}</h3>
        <p className="muted small">{t('readiness.groupMinimumsHint')}</p>
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
                <Field key={k} label={`${name}: ${t(MINIMUM_LABEL[k])}`}>
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
                  {t('readiness.removeGroup', { name })}
                </button>
              )}
            </div>
          );
        })}
        {mayEdit && groups.some((g) => !s.weather.pilot_groups[g.id]) && (
          <Field label={t('readiness.addGroup')}>
            <select
              value=""
              aria-label={t('readiness.addGroup')}
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
              <option value="">{t('readiness.chooseGroup')}</option>
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
        <h3>{t('readiness.runwayHeadings')}</h3>
        <p className="muted small">{t('readiness.runwayHint')}</p>
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
                  {t('readiness.removeRunways', { icao })}
                </button>
              )}
            </li>
          ))}
        </ul>
        {mayEdit && (
          <div className="grid">
            <Field label={t('readiness.runwayAirport')}>
              <input value={runwayIcao} onChange={(e) => setRunwayIcao(e.target.value.toUpperCase().trim())} />
            </Field>
            <Field label={t('readiness.runwayHeadingsInput')}>
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
              {t('readiness.addRunwaysButton')}
            </button>
          </div>
        )}
      </fieldset>
      {note && <p className="form-warning">{note}</p>}
      {mayEdit && (
        <div className="actions">
          <button type="submit">{t('readiness.save')}</button>
        </div>
      )}
    </form>
  );
}
