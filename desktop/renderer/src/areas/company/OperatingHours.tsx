import {
  type HoursRow,
  MINUTES_PER_DAY,
  validateHoursRows,
  WEEKDAY_NAMES,
} from '@ops/shared/rules/company/operating-hours';
import { useEffect, useMemo, useState } from 'react';
import { useLocale, useT } from '../../i18n.tsx';
import { Busy, Outcome, ScreenHead, todayIn, useAction, useApi, useLoad } from '../office-kit.tsx';

/** The weekday's name in the reader's language (weekday 0 is Monday; 2024-01-01 was one). */
function weekdayName(wd: number, locale: string): string {
  const name = new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' }).format(Date.UTC(2024, 0, 1 + wd));
  return name.charAt(0).toUpperCase() + name.slice(1);
}

interface Row extends HoursRow {
  id?: string;
}
interface HoursAnswer {
  OperatingHours: { timezone: string; overrides_from: string; overrides_to: string; rows: Row[] };
}
interface BasesAnswer {
  bases: Array<{ Base: { id: string; name: string } }>;
}

/** A window as typed: HH:MM text, so off-grid or mistyped times reach the shared rule and are refused there. */
interface Draft {
  key: number;
  weekday: number | null;
  override_date: string | null;
  closed: boolean;
  start: string;
  end: string;
}

const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
/** Minutes from HH:MM (24:00 is the end of the day); NaN when it is not a time. */
function minutes(text: string): number {
  const m = /^(\d{1,2}):(\d{2})$/.exec(text.trim());
  if (!m || Number(m[2]) > 59) return Number.NaN;
  return Number(m[1]) * 60 + Number(m[2]);
}

let nextKey = 1;
const draftOf = (r: Row): Draft => ({
  key: nextKey++,
  weekday: r.weekday,
  override_date: r.override_date,
  closed: r.closed,
  start: hhmm(r.start_minute),
  end: hhmm(r.end_minute),
});

/** Weekly rows by weekday, then overrides by date: the order the rows are numbered in messages. */
function ordered(drafts: Draft[]): Draft[] {
  return [...drafts].sort((a, b) => {
    if (a.weekday !== null && b.weekday !== null) return a.weekday - b.weekday || minutes(a.start) - minutes(b.start);
    if (a.weekday !== null) return -1;
    if (b.weekday !== null) return 1;
    return (a.override_date ?? '').localeCompare(b.override_date ?? '') || a.key - b.key;
  });
}

const rowOf = (d: Draft, baseId: string | null): HoursRow => ({
  base_id: baseId,
  weekday: d.weekday,
  override_date: d.override_date,
  closed: d.closed,
  start_minute: d.closed ? 0 : minutes(d.start),
  end_minute: d.closed ? 0 : minutes(d.end),
});

export default function OperatingHours() {
  const t = useT();
  const { locale } = useLocale();
  const { post } = useApi();
  const hours = useLoad<HoursAnswer>('/manager/companies/operating_hours.json');
  const bases = useLoad<BasesAnswer>('/bases/index.json');
  const [scope, setScope] = useState<string>('');
  const [drafts, setDrafts] = useState<Draft[]>([]);
  const [messages, setMessages] = useState<string[]>([]);
  const act = useAction();
  const baseId = scope || null;

  useEffect(() => {
    const rows = hours.data?.OperatingHours.rows ?? [];
    setDrafts(ordered(rows.filter((r) => (r.base_id ?? null) === baseId).map(draftOf)));
    setMessages([]);
  }, [hours.data, baseId]);

  const list = useMemo(() => ordered(drafts), [drafts]);
  const number = new Map(list.map((d, i) => [d.key, i + 1]));
  const zone = hours.data?.OperatingHours.timezone ?? 'UTC';

  if (!hours.data) return hours.error ? <Outcome error={hours.error} /> : <Busy />;

  const update = (key: number, patch: Partial<Draft>) =>
    setDrafts((ds) => ds.map((d) => (d.key === key ? { ...d, ...patch } : d)));
  const remove = (key: number) => setDrafts((ds) => ds.filter((d) => d.key !== key));
  const add = (d: Omit<Draft, 'key'>) => setDrafts((ds) => [...ds, { ...d, key: nextKey++ }]);

  const save = async () => {
    const rows = list.map((d) => rowOf(d, baseId));
    const problems = validateHoursRows(rows, t);
    setMessages(problems);
    if (problems.length) return;
    await act.run(async () => {
      await post('/manager/companies/save_operating_hours.json', {
        base_id: baseId ?? '',
        rows: rows.map((r) => ({
          weekday: r.weekday,
          override_date: r.override_date,
          closed: r.closed ? 1 : 0,
          start_minute: r.start_minute,
          end_minute: r.end_minute,
        })),
      });
      hours.reload();
      return rows.length === 0 && baseId ? t('company.savedFollows') : t('company.hoursSaved');
    });
  };

  const baseName = baseId ? (bases.data?.bases.find((b) => b.Base.id === baseId)?.Base.name ?? '') : null;
  const overrides = list.filter((d) => d.weekday === null);

  return (
    <section data-testid="operating-hours">
      <ScreenHead title={t('shell.screenHours')}>
        <label className="inline-label">
          {t('company.scope')}{' '}
          <select value={scope} onChange={(e) => setScope(e.target.value)} aria-label={t('company.scope')}>
            <option value="">{t('company.companyDefault')}</option>
            {bases.data?.bases.map((b) => (
              <option key={b.Base.id} value={b.Base.id}>
                {t('company.baseOption', { name: b.Base.name })}
              </option>
            ))}
          </select>
        </label>
        <span className="muted small">{t('company.timesIn', { zone })}</span>
      </ScreenHead>
      {baseId && list.every((d) => d.weekday === null) && <p className="notice">{t('company.noOwnWeek')}</p>}
      <table
        className="data-table week-grid"
        aria-label={baseName === null ? t('company.weekOfCompany') : t('company.weekOf', { name: baseName })}
      >
        <thead>
          <tr>
            <th scope="col">{t('company.day')}</th>
            <th scope="col">{t('company.windows')}</th>
            <th scope="col">
              <span className="sr-only">{t('company.timeline')}</span>
              <span aria-hidden="true" className="timeline-scale">
                <span>00</span>
                <span>06</span>
                <span>12</span>
                <span>18</span>
                <span>24</span>
              </span>
            </th>
          </tr>
        </thead>
        <tbody>
          {WEEKDAY_NAMES.map((key, wd) => {
            const name = weekdayName(wd, locale);
            const day = list.filter((d) => d.weekday === wd);
            return (
              <tr key={key} data-weekday={wd}>
                <th scope="row">{name}</th>
                <td>
                  {day.length === 0 && (
                    <span className="muted small">{baseId ? t('company.closedOwnWeek') : t('company.noWindow')}</span>
                  )}
                  {day.map((d) => (
                    <WindowEditor
                      key={d.key}
                      d={d}
                      n={number.get(d.key) ?? 0}
                      label={name}
                      onChange={(p) => update(d.key, p)}
                      onRemove={() => remove(d.key)}
                    />
                  ))}
                  <button
                    type="button"
                    className="link small"
                    onClick={() =>
                      add({ weekday: wd, override_date: null, closed: false, start: '09:00', end: '17:00' })
                    }
                  >
                    {t('company.addWindow')}
                    <span className="sr-only">{t('company.addWindowOn', { day: name })}</span>
                  </button>
                </td>
                <td>
                  <Timeline drafts={day} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>

      <h2>{t('company.datedOverrides')}</h2>
      <p className="muted small">
        {t('company.overridesHint', {
          from: hours.data.OperatingHours.overrides_from,
          to: hours.data.OperatingHours.overrides_to,
        })}
      </p>
      {overrides.length === 0 && <p className="empty">{t('company.noOverride')}</p>}
      <ul className="overrides">
        {overrides.map((d) => (
          <li key={d.key}>
            <label>
              <span className="sr-only">{t('company.dateOfRow', { n: number.get(d.key) })}</span>
              <input
                type="date"
                value={d.override_date ?? ''}
                onChange={(e) => update(d.key, { override_date: e.target.value })}
              />
            </label>
            <WindowEditor
              d={d}
              n={number.get(d.key) ?? 0}
              label={d.override_date ?? t('company.override')}
              onChange={(p) => update(d.key, p)}
              onRemove={() => remove(d.key)}
            />
          </li>
        ))}
      </ul>
      <div className="actions-row">
        <button
          type="button"
          className="secondary small"
          onClick={() =>
            add({ weekday: null, override_date: todayIn(zone), closed: true, start: '09:00', end: '17:00' })
          }
        >
          {t('company.addOverride')}
        </button>
      </div>
      {act.rows.length > 0 && (
        <div role="alert" className="form-error" data-testid="hours-server-rows">
          <strong>{t('company.serverRefused')}</strong>
          <ul>
            {act.rows.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        </div>
      )}
      {messages.length > 0 && (
        <div role="alert" className="form-error" data-testid="hours-messages">
          <strong>{t('company.notSaved')}</strong>
          <ul>
            {messages.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        </div>
      )}
      <div className="actions-row">
        <button type="button" onClick={save} disabled={act.busy}>
          {act.busy
            ? t('company.saving')
            : baseName === null
              ? t('company.saveCompanyHours')
              : t('company.saveBaseHours', { name: baseName })}
        </button>
        <Outcome error={messages.length || act.rows.length ? null : act.error} done={act.done} />
      </div>
    </section>
  );
}

function WindowEditor({
  d,
  n,
  label,
  onChange,
  onRemove,
}: {
  d: Draft;
  n: number;
  label: string;
  onChange(p: Partial<Draft>): void;
  onRemove(): void;
}) {
  const t = useT();
  return (
    <span className="window" data-row={n}>
      <span className="row-no" title={t('company.rowNumber')}>
        #{n}
      </span>
      <label className="check">
        <input type="checkbox" checked={d.closed} onChange={(e) => onChange({ closed: e.target.checked })} />
        {t('company.closed')}
      </label>
      {!d.closed && (
        <>
          <input
            className="time"
            aria-label={t('company.rowFrom', { label, n })}
            value={d.start}
            onChange={(e) => onChange({ start: e.target.value })}
            placeholder="HH:MM"
          />
          –
          <input
            className="time"
            aria-label={t('company.rowUntil', { label, n })}
            value={d.end}
            onChange={(e) => onChange({ end: e.target.value })}
            placeholder="HH:MM"
          />
        </>
      )}
      <button type="button" className="link small" onClick={onRemove} aria-label={t('company.removeRow', { n, label })}>
        {t('company.remove')}
      </button>
    </span>
  );
}

function Timeline({ drafts }: { drafts: Draft[] }) {
  return (
    <div className="timeline" aria-hidden="true">
      {drafts.map((d) => {
        if (d.closed) return <span key={d.key} className="tl-closed" />;
        const a = minutes(d.start);
        const b = minutes(d.end);
        if (!Number.isFinite(a) || !Number.isFinite(b) || b <= a) return null;
        return (
          <span
            key={d.key}
            className="tl-open"
            style={{ left: `${(a / MINUTES_PER_DAY) * 100}%`, width: `${((b - a) / MINUTES_PER_DAY) * 100}%` }}
          />
        );
      })}
    </div>
  );
}
