import { allows, GATES } from '@ops/shared';
import { useState } from 'react';
import { type CompanyFormats, formatDate, type MessageId } from '@ops/shared/i18n/index';
import { useCompany, useWorkspace } from '../../hooks.ts';
import { useLocale, useT } from '../../i18n.tsx';
import type { ScreenProps } from '../../nav.ts';
import {
  Busy,
  Outcome,
  type Paginate,
  Pager,
  ScreenHead,
  todayIn,
  useAction,
  useApi,
  useLoad,
  useFormats,
} from '../office-kit.tsx';

interface Certificate {
  id: string;
  type: string;
  name: string;
  issue: string | null;
  expiration: string | null;
  comments: string | null;
}
interface PilotView {
  user: {
    User: {
      id: string;
      active: boolean;
      pilot: boolean;
      email?: string | null;
      email_status?: string;
      created: number;
      two_factor?: string;
    };
    UserDetail: {
      name: string;
      surname: string;
      phone?: string | null;
      city?: string | null;
      notes?: string | null;
      flight_hours?: number;
      Country?: { name: string } | null;
      Timezone?: { name: string } | null;
    };
    /** Only for viewers who see the private part (staff, the pilot themself). */
    UserGroup?: { id: number; name: string };
    Base: { id: string; name: string } | null;
    Supervisor: { id: string; UserDetail: { name: string; surname: string } } | null;
    UserCertificate?: Certificate[];
    PilotGroup: Array<{ id: string; name: string; color: string }>;
    UserLogin?: Array<{ id: string; modified?: number; created?: number }>;
  };
}
interface Totals {
  total_time: number;
  flight_time: number;
  user: { previous_time: number; other_companies: number };
  functions: Record<string, { time: number }>;
  rules: Record<string, { time: number }>;
}
interface Currency {
  current: boolean;
  windows: Record<
    string,
    { days: number; count?: number; required?: number; seconds?: number; required_seconds?: number; current: boolean }
  >;
}
interface Changes {
  changes: Array<{
    UserChange: {
      id: string;
      action: string;
      fields: Array<{ field: string; from: unknown; to: unknown }>;
      created: number;
    };
    ChangedBy: { name: string; surname: string } | null;
  }>;
  paginate: Paginate;
}

// Calendar dates carry no zone; only the company's order of a date's parts applies.
const DAY: CompanyFormats = { dateFormat: 'YYYY-MM-DD', timeFormat: '24', durationFormat: 'time', zone: 'UTC' };

const hours = (s: number) => `${Math.floor(s / 3600)}:${String(Math.round((s % 3600) / 60)).padStart(2, '0')}`;

/** Certificate state from its expiry date against today (company calendar): expired, within a month, fine. */
export function certificateState(expiration: string | null, today: string): 'none' | 'expired' | 'soon' | 'valid' {
  if (!expiration) return 'none';
  if (expiration < today) return 'expired';
  const inMonth = new Date(`${today}T00:00:00Z`);
  inMonth.setUTCMonth(inMonth.getUTCMonth() + 1);
  return expiration <= inMonth.toISOString().slice(0, 10) ? 'soon' : 'valid';
}

const CERT_BADGE: Record<'none' | 'expired' | 'soon' | 'valid', readonly [string, MessageId]> = {
  none: ['neutral', 'pilots.certNone'],
  expired: ['danger', 'pilots.certExpired'],
  soon: ['warn', 'pilots.certSoon'],
  valid: ['ok', 'pilots.certValid'],
};

// The currency windows the API answers, by key; another key reads with its own name.
const WINDOW_LINES: Record<string, MessageId> = {
  landings: 'pilots.winLandings',
  night_landings: 'pilots.winNightLandings',
  hours: 'pilots.winHours',
};
// The rule totals the API keys by English name (data), shown in the reader's words.
const RULE_TOTALS: [string, MessageId][] = [
  ['Night', 'pilots.night'],
  ['IFR', 'pilots.ifr'],
  ['Cross Country', 'pilots.crossCountry'],
];

export default function PilotPage({ route }: Pick<ScreenProps, 'route'>) {
  const id = route.id;
  const t = useT();
  const { locale } = useLocale();
  const { display } = useCompany();
  const fmt = useFormats();
  const ws = useWorkspace();
  const { post } = useApi();
  const target = id ?? ws.user.id;
  const view = useLoad<PilotView>(`/pilots/view/${target}.json`);
  const totals = useLoad<Totals>(`/pilots/totals/${target}.json`);
  const currency = useLoad<Currency>(`/pilots/get_currency/${target}.json`);
  const [page, setPage] = useState(1);
  const changes = useLoad<Changes>(
    allows(GATES.instructors, ws.user.user_group_id) || target === ws.user.id
      ? `/pilots/changes/${target}.json?page=${page}&limit=20`
      : null,
  );
  const act = useAction();

  if (!view.data) return view.error ? <Outcome error={view.error} /> : <Busy what={t('shell.loading')} />;
  const { User, UserDetail, UserGroup, Base, Supervisor, UserCertificate, PilotGroup } = view.data.user;
  const today = todayIn(Intl.DateTimeFormat().resolvedOptions().timeZone);
  const isAdmin = allows(GATES.instructors, ws.user.user_group_id);
  // Certificate dates are calendar dates: the company's order, the reader's separators.
  const dayFormats: CompanyFormats = { ...DAY, dateFormat: display.dateFormat };
  const day = (iso: string | null) =>
    iso && /^\d{4}-\d{2}-\d{2}/.test(iso)
      ? formatDate(Date.parse(`${iso.slice(0, 10)}T12:00:00Z`) / 1000, locale, dayFormats)
      : '—';

  const remind = () =>
    act.run(async () => {
      const r = await post<{ message?: string }>('/pilots/reminder.json', { user: User.id });
      return r.message ?? t('pilots.mailSent');
    });

  return (
    <section data-testid="pilot-page">
      <ScreenHead title={`${UserDetail.name} ${UserDetail.surname}`}>
        {UserGroup && <span className="badge badge-info">{UserGroup.name}</span>}
        {!User.active && <span className="badge badge-neutral">{t('pilots.stateInactive')}</span>}
        {isAdmin && User.email && (
          <button type="button" className="secondary small" onClick={remind} disabled={act.busy}>
            {act.busy
              ? t('pilots.sending')
              : User.email_status === 'confirmed'
                ? t('pilots.sendWelcome')
                : t('pilots.resendActivation')}
          </button>
        )}
        <Outcome error={act.error} done={act.done} />
      </ScreenHead>
      <div className="cards">
        <section className="card" aria-labelledby="pp-profile">
          <h2 id="pp-profile">{t('pilots.profile')}</h2>
          <dl className="facts">
            {User.email !== undefined && (
              <>
                <dt>{t('pilots.email')}</dt>
                <dd>
                  {User.email ?? '—'}{' '}
                  {User.email_status && User.email_status !== 'confirmed' && (
                    <span className="badge badge-warn">{User.email_status}</span>
                  )}
                </dd>
              </>
            )}
            <dt>{t('pilots.phone')}</dt>
            <dd>{UserDetail.phone ?? '—'}</dd>
            <dt>{t('pilots.city')}</dt>
            <dd>{[UserDetail.city, UserDetail.Country?.name].filter(Boolean).join(', ') || '—'}</dd>
            <dt>{t('pilots.base')}</dt>
            <dd>{Base?.name ?? '—'}</dd>
            <dt>{t('pilots.supervisor')}</dt>
            <dd>{Supervisor ? `${Supervisor.UserDetail.name} ${Supervisor.UserDetail.surname}` : '—'}</dd>
            <dt>{t('pilots.groups')}</dt>
            <dd>{PilotGroup.map((g) => g.name).join(', ') || '—'}</dd>
            <dt>{t('pilots.memberSince')}</dt>
            <dd>{fmt.date(User.created)}</dd>
            {UserDetail.notes !== undefined && (
              <>
                <dt>{t('pilots.notes')}</dt>
                <dd>{UserDetail.notes || '—'}</dd>
              </>
            )}
          </dl>
        </section>
        <section className="card" aria-labelledby="pp-totals">
          <h2 id="pp-totals">{t('pilots.totals')}</h2>
          {!totals.data ? (
            totals.error ? (
              <Outcome error={totals.error} />
            ) : (
              <Busy what={t('shell.loading')} />
            )
          ) : (
            <dl className="facts">
              <dt>{t('pilots.totalTime')}</dt>
              <dd data-testid="total-time">{hours(totals.data.total_time)}</dd>
              <dt>{t('pilots.flightTime')}</dt>
              <dd>{hours(totals.data.flight_time)}</dd>
              <dt>{t('pilots.beforeJoining')}</dt>
              <dd>{hours(totals.data.user.previous_time)}</dd>
              {['PIC', 'DUAL', 'FI', 'SIC'].map((k) => (
                <div key={k} className="contents">
                  <dt>{k}</dt>
                  <dd>{hours(totals.data?.functions[k]?.time ?? 0)}</dd>
                </div>
              ))}
              {RULE_TOTALS.map(([k, name]) => (
                <div key={k} className="contents">
                  <dt>{t(name)}</dt>
                  <dd>{hours(totals.data?.rules[k]?.time ?? 0)}</dd>
                </div>
              ))}
            </dl>
          )}
        </section>
        <section className="card" aria-labelledby="pp-currency">
          <h2 id="pp-currency">{t('pilots.currency')}</h2>
          {!currency.data ? (
            currency.error ? (
              <Outcome error={currency.error} />
            ) : (
              <Busy what={t('shell.loading')} />
            )
          ) : (
            <>
              <p>
                {currency.data.current ? (
                  <span className="badge badge-ok">{t('pilots.current')}</span>
                ) : (
                  <span className="badge badge-danger">{t('pilots.notCurrent')}</span>
                )}
              </p>
              <ul className="plain">
                {Object.entries(currency.data.windows).map(([k, w]) => (
                  <li key={k}>
                    {t(WINDOW_LINES[k] ?? 'pilots.winOther', {
                      rule: k.replace('_', ' '),
                      days: w.days,
                      have: w.count !== undefined ? w.count : hours(w.seconds ?? 0),
                      need: w.count !== undefined ? (w.required ?? 0) : hours(w.required_seconds ?? 0),
                    })}{' '}
                    {w.current ? (
                      <span className="badge badge-ok">{t('pilots.ok')}</span>
                    ) : (
                      <span className="badge badge-warn">{t('pilots.short')}</span>
                    )}
                  </li>
                ))}
              </ul>
            </>
          )}
        </section>
      </div>
      {UserCertificate && (
        <section aria-labelledby="pp-certs">
          <h2 id="pp-certs">{t('pilots.certificates')}</h2>
          {UserCertificate.length === 0 && <p className="empty">{t('pilots.noCertificate')}</p>}
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">{t('pilots.certificate')}</th>
                <th scope="col">{t('pilots.issued')}</th>
                <th scope="col">{t('pilots.expires')}</th>
                <th scope="col">{t('pilots.state')}</th>
              </tr>
            </thead>
            <tbody>
              {UserCertificate.map((c) => {
                const st = certificateState(c.expiration, today);
                return (
                  <tr key={c.id} data-cert={c.type}>
                    <td>{c.name}</td>
                    <td>{day(c.issue)}</td>
                    <td>{day(c.expiration)}</td>
                    <td>
                      <span className={`badge badge-${CERT_BADGE[st][0]}`}>{t(CERT_BADGE[st][1])}</span>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </section>
      )}
      {changes.data && (
        <section aria-labelledby="pp-history">
          <h2 id="pp-history">{t('pilots.history')}</h2>
          {changes.data.changes.length === 0 && <p className="empty">{t('pilots.noChange')}</p>}
          <ul className="history">
            {changes.data.changes.map((c) => (
              <li key={c.UserChange.id}>
                <strong>{fmt.dateTime(c.UserChange.created)}</strong> ·{' '}
                {c.ChangedBy
                  ? t('pilots.changedBy', {
                      action: t('pilots.historyAction', { action: c.UserChange.action }),
                      name: `${c.ChangedBy.name} ${c.ChangedBy.surname}`,
                    })
                  : t('pilots.historyAction', { action: c.UserChange.action })}
                :{' '}
                {c.UserChange.fields
                  // Field names read in the app's language; ICU select keys cannot hold the dot of `preferences.x`.
                  .map(
                    (f) =>
                      `${t('pilots.historyField', { field: f.field.replace('.', '_') })} ${String(f.from ?? '—')} → ${String(f.to ?? '—')}`,
                  )
                  .join('; ')}
              </li>
            ))}
          </ul>
          <Pager paginate={changes.data.paginate} onPage={setPage} label={t('pilots.historyPages')} />
        </section>
      )}
    </section>
  );
}
