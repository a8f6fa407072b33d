import { useState } from 'react';
import { Busy, Outcome, ScreenHead, useLoad, useFormats } from '../office-kit.tsx';

interface Alert {
  type: string;
  icon: string;
  class: string;
  link: string;
  name: string;
  date: number;
  details: string;
}

const GROUPS = [
  { cls: 'text-danger', title: 'Expired', tone: 'danger' },
  { cls: 'text-warning', title: 'Within a month', tone: 'warn' },
  { cls: 'text-muted', title: 'Within three months', tone: 'info' },
] as const;

const TYPE_LABEL: Record<string, string> = {
  UserCertificate: 'Certificate',
  Aircraft: 'Aircraft document',
  Maintenance: 'Maintenance',
  AircraftUpload: 'Aircraft file',
  Document: 'Document',
};

/** The app's screen for an alert's link (`/pilots/view/{id}` and the aircraft screens); null when the app has none. */
export function hrefOf(link: string): string | null {
  const pilot = /^\/pilots\/view\/([^/]+)$/.exec(link);
  if (pilot) return `#pilot/${pilot[1]}`;
  if (link.startsWith('/maintenance/')) return '#maintenance';
  if (link.startsWith('/aircraft')) return '#fleet';
  return null;
}

export default function Alerts() {
  const fmt = useFormats();
  const [type, setType] = useState('');
  const alerts = useLoad<Alert[]>(`/companies/alerts.json${type ? `?types=${type}` : ''}`);
  const list = alerts.data ?? [];
  return (
    <section data-testid="alerts">
      <ScreenHead title="Alerts">
        <label className="inline-label">
          Show{' '}
          <select value={type} onChange={(e) => setType(e.target.value)}>
            <option value="">Everything</option>
            {Object.entries(TYPE_LABEL).map(([k, v]) => (
              <option key={k} value={k}>
                {v}
              </option>
            ))}
          </select>
        </label>
      </ScreenHead>
      {alerts.loading && !alerts.data && <Busy />}
      <Outcome error={alerts.error} />
      <div className="alert-columns">
        {GROUPS.map((g) => {
          const rows = list.filter((a) => a.class === g.cls);
          return (
            <section
              key={g.cls}
              className={`alert-group alert-${g.tone}`}
              aria-labelledby={`alerts-${g.tone}`}
              data-group={g.tone}
            >
              <h2 id={`alerts-${g.tone}`}>
                {g.title} <span className={`badge badge-${g.tone}`}>{rows.length}</span>
              </h2>
              {rows.length === 0 && <p className="empty">Nothing here.</p>}
              <ul>
                {rows.map((a) => {
                  const href = hrefOf(a.link);
                  return (
                    <li key={`${a.link}:${a.name}:${a.date}`}>
                      <span className="badge badge-neutral">{TYPE_LABEL[a.type] ?? a.type}</span>{' '}
                      {href ? <a href={href}>{a.name}</a> : a.name}
                      <div className="muted small">
                        {a.details} · {fmt.date(a.date)}
                      </div>
                    </li>
                  );
                })}
              </ul>
            </section>
          );
        })}
      </div>
    </section>
  );
}
