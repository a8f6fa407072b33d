import { useState } from 'react';
import type { MessageId } from '@ops/shared/i18n/index';
import { useT } from '../../i18n.tsx';
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
  { cls: 'text-danger', title: 'company.expired', tone: 'danger' },
  { cls: 'text-warning', title: 'company.withinMonth', tone: 'warn' },
  { cls: 'text-muted', title: 'company.withinThreeMonths', tone: 'info' },
] as const satisfies readonly { cls: string; title: MessageId; tone: string }[];

const TYPE_LABEL: Record<string, MessageId> = {
  UserCertificate: 'company.typeCertificate',
  Aircraft: 'company.typeAircraft',
  Maintenance: 'company.typeMaintenance',
  AircraftUpload: 'company.typeAircraftUpload',
  Document: 'company.typeDocument',
  duty: 'company.typeDuty',
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
  const t = useT();
  const [type, setType] = useState('');
  const alerts = useLoad<Alert[]>(`/companies/alerts.json${type ? `?types=${type}` : ''}`);
  const list = alerts.data ?? [];
  return (
    <section data-testid="alerts">
      <ScreenHead title={t('shell.screenAlerts')}>
        <label className="inline-label">
          {t('company.show')}{' '}
          <select value={type} onChange={(e) => setType(e.target.value)}>
            <option value="">{t('company.everything')}</option>
            {Object.entries(TYPE_LABEL).map(([k, v]) => (
              <option key={k} value={k}>
                {t(v)}
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
                {t(g.title)} <span className={`badge badge-${g.tone}`}>{rows.length}</span>
              </h2>
              {rows.length === 0 && <p className="empty">{t('company.nothingHere')}</p>}
              <ul>
                {rows.map((a) => {
                  const href = hrefOf(a.link);
                  return (
                    <li key={`${a.link}:${a.name}:${a.date}`}>
                      <span className="badge badge-neutral">{TYPE_LABEL[a.type] ? t(TYPE_LABEL[a.type]) : a.type}</span>{' '}
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
