import { allows, GATES } from '@ops/shared';
import { useState } from 'react';
import { useWorkspace } from '../../hooks.ts';
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

const hours = (s: number) => `${Math.floor(s / 3600)}:${String(Math.round((s % 3600) / 60)).padStart(2, '0')}`;

/** Certificate state from its expiry date against today (company calendar): expired, within a month, fine. */
export function certificateState(expiration: string | null, today: string): 'none' | 'expired' | 'soon' | 'valid' {
  if (!expiration) return 'none';
  if (expiration < today) return 'expired';
  const inMonth = new Date(`${today}T00:00:00Z`);
  inMonth.setUTCMonth(inMonth.getUTCMonth() + 1);
  return expiration <= inMonth.toISOString().slice(0, 10) ? 'soon' : 'valid';
}

const CERT_BADGE = {
  none: ['neutral', 'no expiry'],
  expired: ['danger', 'expired'],
  soon: ['warn', 'expires within a month'],
  valid: ['ok', 'valid'],
} as const;

export default function PilotPage({ route }: Pick<ScreenProps, 'route'>) {
  const id = route.id;
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

  if (!view.data) return view.error ? <Outcome error={view.error} /> : <Busy />;
  const { User, UserDetail, UserGroup, Base, Supervisor, UserCertificate, PilotGroup } = view.data.user;
  const today = todayIn(Intl.DateTimeFormat().resolvedOptions().timeZone);
  const isAdmin = allows(GATES.instructors, ws.user.user_group_id);

  const remind = () =>
    act.run(async () => {
      const r = await post<{ message?: string }>('/pilots/reminder.json', { user: User.id });
      return r.message ?? 'Mail sent';
    });

  return (
    <section data-testid="pilot-page">
      <ScreenHead title={`${UserDetail.name} ${UserDetail.surname}`}>
        {UserGroup && <span className="badge badge-info">{UserGroup.name}</span>}
        {!User.active && <span className="badge badge-neutral">inactive</span>}
        {isAdmin && User.email && (
          <button type="button" className="secondary small" onClick={remind} disabled={act.busy}>
            {act.busy ? 'Sending…' : User.email_status === 'confirmed' ? 'Send welcome mail' : 'Resend activation mail'}
          </button>
        )}
        <Outcome error={act.error} done={act.done} />
      </ScreenHead>
      <div className="cards">
        <section className="card" aria-labelledby="pp-profile">
          <h2 id="pp-profile">Profile</h2>
          <dl className="facts">
            {User.email !== undefined && (
              <>
                <dt>Email</dt>
                <dd>
                  {User.email ?? '—'}{' '}
                  {User.email_status && User.email_status !== 'confirmed' && (
                    <span className="badge badge-warn">{User.email_status}</span>
                  )}
                </dd>
              </>
            )}
            <dt>Phone</dt>
            <dd>{UserDetail.phone ?? '—'}</dd>
            <dt>City</dt>
            <dd>{[UserDetail.city, UserDetail.Country?.name].filter(Boolean).join(', ') || '—'}</dd>
            <dt>Base</dt>
            <dd>{Base?.name ?? '—'}</dd>
            <dt>Supervisor</dt>
            <dd>{Supervisor ? `${Supervisor.UserDetail.name} ${Supervisor.UserDetail.surname}` : '—'}</dd>
            <dt>Groups</dt>
            <dd>{PilotGroup.map((g) => g.name).join(', ') || '—'}</dd>
            <dt>Member since</dt>
            <dd>{fmt.date(User.created)}</dd>
            {UserDetail.notes !== undefined && (
              <>
                <dt>Notes</dt>
                <dd>{UserDetail.notes || '—'}</dd>
              </>
            )}
          </dl>
        </section>
        <section className="card" aria-labelledby="pp-totals">
          <h2 id="pp-totals">Totals</h2>
          {!totals.data ? (
            totals.error ? (
              <Outcome error={totals.error} />
            ) : (
              <Busy />
            )
          ) : (
            <dl className="facts">
              <dt>Total time</dt>
              <dd data-testid="total-time">{hours(totals.data.total_time)}</dd>
              <dt>Flight time (without simulator)</dt>
              <dd>{hours(totals.data.flight_time)}</dd>
              <dt>Before joining</dt>
              <dd>{hours(totals.data.user.previous_time)}</dd>
              {['PIC', 'DUAL', 'FI', 'SIC'].map((k) => (
                <div key={k} className="contents">
                  <dt>{k}</dt>
                  <dd>{hours(totals.data?.functions[k]?.time ?? 0)}</dd>
                </div>
              ))}
              {['Night', 'IFR', 'Cross Country'].map((k) => (
                <div key={k} className="contents">
                  <dt>{k}</dt>
                  <dd>{hours(totals.data?.rules[k]?.time ?? 0)}</dd>
                </div>
              ))}
            </dl>
          )}
        </section>
        <section className="card" aria-labelledby="pp-currency">
          <h2 id="pp-currency">Currency</h2>
          {!currency.data ? (
            currency.error ? (
              <Outcome error={currency.error} />
            ) : (
              <Busy />
            )
          ) : (
            <>
              <p>
                {currency.data.current ? (
                  <span className="badge badge-ok">current</span>
                ) : (
                  <span className="badge badge-danger">not current</span>
                )}
              </p>
              <ul className="plain">
                {Object.entries(currency.data.windows).map(([k, w]) => (
                  <li key={k}>
                    {k.replace('_', ' ')} in {w.days} days:{' '}
                    {w.count !== undefined
                      ? `${w.count} of ${w.required}`
                      : `${hours(w.seconds ?? 0)} of ${hours(w.required_seconds ?? 0)}`}{' '}
                    {w.current ? (
                      <span className="badge badge-ok">ok</span>
                    ) : (
                      <span className="badge badge-warn">short</span>
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
          <h2 id="pp-certs">Certificates</h2>
          {UserCertificate.length === 0 && <p className="empty">No certificate on file.</p>}
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Certificate</th>
                <th scope="col">Issued</th>
                <th scope="col">Expires</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {UserCertificate.map((c) => {
                const st = certificateState(c.expiration, today);
                return (
                  <tr key={c.id} data-cert={c.type}>
                    <td>{c.name}</td>
                    <td>{c.issue ?? '—'}</td>
                    <td>{c.expiration ?? '—'}</td>
                    <td>
                      <span className={`badge badge-${CERT_BADGE[st][0]}`}>{CERT_BADGE[st][1]}</span>
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
          <h2 id="pp-history">Account history</h2>
          {changes.data.changes.length === 0 && <p className="empty">No change recorded.</p>}
          <ul className="history">
            {changes.data.changes.map((c) => (
              <li key={c.UserChange.id}>
                <strong>{fmt.dateTime(c.UserChange.created)}</strong> · {c.UserChange.action}
                {c.ChangedBy && ` by ${c.ChangedBy.name} ${c.ChangedBy.surname}`}:{' '}
                {c.UserChange.fields
                  .map((f) => `${f.field} ${String(f.from ?? '—')} → ${String(f.to ?? '—')}`)
                  .join('; ')}
              </li>
            ))}
          </ul>
          <Pager paginate={changes.data.paginate} onPage={setPage} label="History pages" />
        </section>
      )}
    </section>
  );
}
