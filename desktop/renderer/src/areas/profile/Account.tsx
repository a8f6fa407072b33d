import { emailChangeForm, ZPasswordForm, ZProfileForm, ZTotpCode } from '@ops/shared/forms/office';
import { type FormEvent, useEffect, useState } from 'react';
import { useWorkspace } from '../../hooks.ts';
import { isAuditorRole as isAuditor } from '@ops/shared/rules/users/policy';
import { type StoredSession, SWITCH_EVENT } from '../../session.ts';
import {
  Busy,
  Check,
  check,
  errorOf,
  FormField,
  Outcome,
  ScreenHead,
  useAction,
  useApi,
  useLoad,
  useFormats,
} from '../office-kit.tsx';

interface Profile {
  User: {
    id: string;
    email: string | null;
    email_status: string;
    two_factor: 'OFF' | 'EMAIL' | 'TOTP';
    user_group_id: number;
    alerts: boolean;
    message_alerts: boolean;
    newsletter: boolean;
  };
  UserDetail: {
    name: string;
    surname: string;
    phonecode: string | null;
    phone: string | null;
    city: string | null;
    timezone_id: string | null;
  };
  UserGroup: { name: string };
}

export default function Account() {
  const profile = useLoad<Profile>('/users/view.json');
  if (!profile.data) return profile.error ? <Outcome error={profile.error} /> : <Busy />;
  return (
    <section data-testid="account">
      <ScreenHead title="My account">
        <span className="badge badge-info">{profile.data.UserGroup.name}</span>
      </ScreenHead>
      <div className="cards">
        <ProfileCard profile={profile.data} onSaved={profile.reload} />
        <EmailCard profile={profile.data} onSaved={profile.reload} />
        <PasswordCard />
        <TwoFactorCard profile={profile.data} onSaved={profile.reload} />
        <CompaniesCard />
      </div>
      <SessionsCard />
    </section>
  );
}

function ProfileCard({ profile, onSaved }: { profile: Profile; onSaved(): void }) {
  const { post } = useApi();
  const d = profile.UserDetail;
  const [form, setForm] = useState({
    UserDetail: {
      name: d.name,
      surname: d.surname,
      phonecode: d.phonecode ?? '',
      phone: d.phone ?? '',
      city: d.city ?? '',
      timezone_id: d.timezone_id ?? '',
    },
    User: {
      alerts: profile.User.alerts,
      message_alerts: profile.User.message_alerts,
      newsletter: profile.User.newsletter,
    },
  });
  const act = useAction();
  const e = (k: string) => errorOf(act.errors, k);
  const setD = (p: Partial<typeof form.UserDetail>) => setForm({ ...form, UserDetail: { ...form.UserDetail, ...p } });
  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    const r = check(ZProfileForm, form);
    if (!r.ok) return act.invalid(r.errors);
    await act.run(async () => {
      await post('/users/edit.json', form);
      onSaved();
      return 'Profile saved';
    });
  };
  return (
    <form className="card" onSubmit={submit} aria-label="Profile" noValidate>
      <h2>Profile</h2>
      <FormField label="Name" error={e('UserDetail.name')}>
        {(p) => <input {...p} value={form.UserDetail.name} onChange={(v) => setD({ name: v.target.value })} />}
      </FormField>
      <FormField label="Surname" error={e('UserDetail.surname')}>
        {(p) => <input {...p} value={form.UserDetail.surname} onChange={(v) => setD({ surname: v.target.value })} />}
      </FormField>
      <div className="pair">
        <FormField label="Dialling code" error={e('UserDetail.phonecode')}>
          {(p) => (
            <input
              {...p}
              value={form.UserDetail.phonecode}
              onChange={(v) => setD({ phonecode: v.target.value })}
              placeholder="+34"
              size={5}
            />
          )}
        </FormField>
        <FormField label="Phone" error={e('UserDetail.phone')}>
          {(p) => <input {...p} value={form.UserDetail.phone} onChange={(v) => setD({ phone: v.target.value })} />}
        </FormField>
      </div>
      <FormField label="City" error={e('UserDetail.city')}>
        {(p) => <input {...p} value={form.UserDetail.city} onChange={(v) => setD({ city: v.target.value })} />}
      </FormField>
      <FormField label="Time zone" error={e('UserDetail.timezone_id')}>
        {(p) => (
          <input
            {...p}
            value={form.UserDetail.timezone_id}
            onChange={(v) => setD({ timezone_id: v.target.value })}
            placeholder="Europe/Madrid"
          />
        )}
      </FormField>
      <Check
        label="Alerts by mail"
        checked={form.User.alerts}
        onChange={(v) => setForm({ ...form, User: { ...form.User, alerts: v } })}
      />
      <Check
        label="Message alerts"
        checked={form.User.message_alerts}
        onChange={(v) => setForm({ ...form, User: { ...form.User, message_alerts: v } })}
      />
      <Check
        label="Newsletter"
        checked={form.User.newsletter}
        onChange={(v) => setForm({ ...form, User: { ...form.User, newsletter: v } })}
      />
      <div className="actions-row">
        <button type="submit" disabled={act.busy}>
          {act.busy ? 'Saving…' : 'Save profile'}
        </button>
        <Outcome error={act.error} done={act.done} />
      </div>
    </form>
  );
}

function EmailCard({ profile, onSaved }: { profile: Profile; onSaved(): void }) {
  const { post } = useApi();
  const [form, setForm] = useState({ new_email: '', new_email_repeat: '', password: '' });
  const act = useAction();
  const e = (k: string) => errorOf(act.errors, k);
  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    const r = check(emailChangeForm(profile.User.email), form);
    if (!r.ok) return act.invalid(r.errors);
    await act.run(async () => {
      await post('/users/email.json', form);
      setForm({ new_email: '', new_email_repeat: '', password: '' });
      onSaved();
      return `We sent a confirmation link to ${form.new_email}`;
    });
  };
  return (
    <form className="card" onSubmit={submit} aria-label="Email address" noValidate>
      <h2>Email address</h2>
      <p>
        {profile.User.email ?? 'none'}{' '}
        {profile.User.email_status !== 'confirmed' && (
          <span className="badge badge-warn">{profile.User.email_status}</span>
        )}
      </p>
      <FormField label="New address" error={e('new_email')}>
        {(p) => (
          <input
            {...p}
            type="email"
            value={form.new_email}
            onChange={(v) => setForm({ ...form, new_email: v.target.value })}
          />
        )}
      </FormField>
      <FormField label="New address again" error={e('new_email_repeat')}>
        {(p) => (
          <input
            {...p}
            type="email"
            value={form.new_email_repeat}
            onChange={(v) => setForm({ ...form, new_email_repeat: v.target.value })}
          />
        )}
      </FormField>
      <FormField label="Current password" error={e('password')}>
        {(p) => (
          <input
            {...p}
            type="password"
            autoComplete="current-password"
            value={form.password}
            onChange={(v) => setForm({ ...form, password: v.target.value })}
          />
        )}
      </FormField>
      <div className="actions-row">
        <button type="submit" disabled={act.busy}>
          {act.busy ? 'Sending…' : 'Change address'}
        </button>
        <Outcome error={act.error} done={act.done} />
      </div>
    </form>
  );
}

function PasswordCard() {
  const { post } = useApi();
  const [form, setForm] = useState({ password: '', newpassword: '', newpasswordrepeat: '' });
  const act = useAction();
  const e = (k: string) => errorOf(act.errors, k);
  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    const r = check(ZPasswordForm, form);
    if (!r.ok) return act.invalid(r.errors);
    await act.run(async () => {
      await post('/users/password.json', form);
      setForm({ password: '', newpassword: '', newpasswordrepeat: '' });
      return 'Password changed';
    });
  };
  return (
    <form className="card" onSubmit={submit} aria-label="Password" noValidate>
      <h2>Password</h2>
      <FormField label="Current password" error={e('password')}>
        {(p) => (
          <input
            {...p}
            type="password"
            autoComplete="current-password"
            value={form.password}
            onChange={(v) => setForm({ ...form, password: v.target.value })}
          />
        )}
      </FormField>
      <FormField label="New password" error={e('newpassword')} hint="At least 8 characters">
        {(p) => (
          <input
            {...p}
            type="password"
            autoComplete="new-password"
            value={form.newpassword}
            onChange={(v) => setForm({ ...form, newpassword: v.target.value })}
          />
        )}
      </FormField>
      <FormField label="New password again" error={e('newpasswordrepeat')}>
        {(p) => (
          <input
            {...p}
            type="password"
            autoComplete="new-password"
            value={form.newpasswordrepeat}
            onChange={(v) => setForm({ ...form, newpasswordrepeat: v.target.value })}
          />
        )}
      </FormField>
      <div className="actions-row">
        <button type="submit" disabled={act.busy}>
          {act.busy ? 'Saving…' : 'Change password'}
        </button>
        <Outcome error={act.error} done={act.done} />
      </div>
    </form>
  );
}

function TwoFactorCard({ profile, onSaved }: { profile: Profile; onSaved(): void }) {
  const { post } = useApi();
  const [setup, setSetup] = useState<{ secret: string; otpauth_url: string; qr: string } | null>(null);
  const [code, setCode] = useState('');
  const act = useAction();
  const mode = profile.User.two_factor;
  const auditor = isAuditor(profile.User.user_group_id);

  const setMode = (two_factor: 'OFF' | 'EMAIL') =>
    act.run(async () => {
      await post('/users/edit.json', { User: { two_factor } });
      onSaved();
      return two_factor === 'OFF' ? 'Two-factor sign-in is off' : 'Sign-in now asks for a code sent by email';
    });

  const startTotp = () =>
    act.run(async () => {
      const r = await post<{ secret: string; otpauth_url: string }>('/users/two_factor/totp/setup.json');
      // The QR library loads only here, when someone sets up an authenticator app.
      const QR = await import('qrcode');
      setSetup({ ...r, qr: await QR.toDataURL(r.otpauth_url, { margin: 1, width: 200 }) });
      setCode('');
    });

  const enable = async (ev: FormEvent) => {
    ev.preventDefault();
    const r = check(ZTotpCode, { code });
    if (!r.ok) return act.invalid(r.errors);
    await act.run(async () => {
      await post('/users/two_factor/totp/enable.json', { code });
      setSetup(null);
      onSaved();
      return 'Authenticator app switched on';
    });
  };

  return (
    <section className="card" aria-labelledby="tf-title" data-testid="two-factor">
      <h2 id="tf-title">Two-factor sign-in</h2>
      <p>
        Now:{' '}
        <strong data-testid="two-factor-mode">
          {mode === 'OFF' ? 'off' : mode === 'EMAIL' ? 'code by email' : 'authenticator app'}
        </strong>
      </p>
      {auditor && <p className="muted small">External auditors always sign in with a code by email.</p>}
      {!auditor && (
        <div className="actions-row">
          {mode !== 'EMAIL' && (
            <button type="button" className="secondary small" disabled={act.busy} onClick={() => setMode('EMAIL')}>
              Use email codes
            </button>
          )}
          {mode !== 'TOTP' && !setup && (
            <button type="button" className="secondary small" disabled={act.busy} onClick={startTotp}>
              Set up an authenticator app
            </button>
          )}
          {mode !== 'OFF' && (
            <button type="button" className="secondary small" disabled={act.busy} onClick={() => setMode('OFF')}>
              Turn off
            </button>
          )}
        </div>
      )}
      {setup && (
        <form onSubmit={enable} aria-label="Authenticator app" noValidate className="totp">
          <img
            src={setup.qr}
            alt="QR code to scan with the authenticator app"
            width={200}
            height={200}
            data-testid="totp-qr"
          />
          <p className="small">
            Or enter the key by hand: <code data-testid="totp-secret">{setup.secret}</code>
          </p>
          <FormField label="Code from the app" error={errorOf(act.errors, 'code')}>
            {(p) => (
              <input
                {...p}
                inputMode="numeric"
                autoComplete="one-time-code"
                value={code}
                onChange={(v) => setCode(v.target.value)}
              />
            )}
          </FormField>
          <button type="submit" disabled={act.busy}>
            Switch on
          </button>
        </form>
      )}
      <Outcome error={act.error} done={act.done} />
    </section>
  );
}

interface Organisation {
  id: string;
  name: string;
  user_group_id: number;
  current: boolean;
}
type SwitchAnswer =
  | { result: true; token: string; expires: number; user: StoredSession['user'] }
  | { result: false; two_factor: 'EMAIL' | 'TOTP'; challenge: string; message?: string };

function CompaniesCard() {
  const ws = useWorkspace();
  const { get, post } = useApi();
  const orgs = useLoad<Record<string, Organisation>>('/users/organizations.json');
  const [challenge, setChallenge] = useState<{ id: string; mode: string } | null>(null);
  const [code, setCode] = useState('');
  const act = useAction();
  const list = Object.values(orgs.data ?? {});
  if (list.length < 2) return null;

  const finish = (a: Extract<SwitchAnswer, { result: true }>) => {
    const session: StoredSession = { baseUrl: ws.baseUrl, token: a.token, expires: a.expires, user: a.user };
    window.dispatchEvent(new CustomEvent<StoredSession>(SWITCH_EVENT, { detail: session }));
  };
  const go = (o: Organisation) =>
    act.run(async () => {
      const a = await get<SwitchAnswer>(`/users/switch/${o.id}.json`).catch((err: unknown) => {
        // A challenge answers result:false (not an error): workspace.rest throws it with the body.
        const body = (err as { body?: unknown }).body as SwitchAnswer | undefined;
        if (body && 'challenge' in body) return body;
        throw err;
      });
      if (a.result) return finish(a);
      setChallenge({ id: a.challenge, mode: a.two_factor });
    });
  const verify = (ev: FormEvent) => {
    ev.preventDefault();
    if (!challenge) return;
    void act.run(async () => {
      const a = await post<SwitchAnswer>('/login/verify.json', { challenge: challenge.id, code });
      if (a.result) finish(a);
    });
  };

  return (
    <section className="card" aria-labelledby="orgs-title" data-testid="companies">
      <h2 id="orgs-title">Companies</h2>
      <ul className="plain">
        {list.map((o) => (
          <li key={o.id}>
            {o.name}{' '}
            {o.current ? (
              <span className="badge badge-ok">current</span>
            ) : (
              <button type="button" className="secondary small" disabled={act.busy} onClick={() => go(o)}>
                Switch<span className="sr-only"> to {o.name}</span>
              </button>
            )}
          </li>
        ))}
      </ul>
      {challenge && (
        <form onSubmit={verify} aria-label="Switch code" noValidate>
          <FormField label={challenge.mode === 'EMAIL' ? 'Code we emailed you' : 'Code from your authenticator app'}>
            {(p) => <input {...p} inputMode="numeric" value={code} onChange={(v) => setCode(v.target.value)} />}
          </FormField>
          <button type="submit" disabled={act.busy}>
            Verify and switch
          </button>
        </form>
      )}
      {act.busy && <Busy what="Switching…" />}
      <Outcome error={act.error} />
    </section>
  );
}

interface Logins {
  logins: Array<{ id: string; created: number; ip: string | null; user_agent: string | null; method: string }>;
  sessions: Array<{
    id: string;
    created: number;
    last_seen: number;
    expires: number;
    ip: string | null;
    user_agent: string | null;
    current: boolean;
  }>;
}

function SessionsCard() {
  const fmt = useFormats();
  const { post } = useApi();
  const data = useLoad<Logins>('/users/logins.json');
  const act = useAction();
  const [, force] = useState(0);
  useEffect(() => {
    const t = setInterval(() => force((n) => n + 1), 60_000);
    return () => clearInterval(t);
  }, []);
  const close = (id: string) =>
    act.run(async () => {
      await post(`/users/closesession/${id}.json`);
      data.reload();
      return 'Session closed';
    });
  if (!data.data) return data.error ? <Outcome error={data.error} /> : <Busy />;
  return (
    <div className="cards">
      <section className="card wide-card" aria-labelledby="sessions-title" data-testid="sessions">
        <h2 id="sessions-title">Open sessions</h2>
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">Device</th>
              <th scope="col">Address</th>
              <th scope="col">Last seen</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.data.sessions.map((s) => (
              <tr key={s.id}>
                <td className="small">{s.user_agent ?? 'unknown'}</td>
                <td>{s.ip ?? '—'}</td>
                <td>{fmt.dateTime(s.last_seen)}</td>
                <td>
                  {s.current ? (
                    <span className="badge badge-info">this device</span>
                  ) : (
                    <button type="button" className="link small danger" disabled={act.busy} onClick={() => close(s.id)}>
                      Close session<span className="sr-only"> from {s.ip ?? 'unknown address'}</span>
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <Outcome error={act.error} done={act.done} />
      </section>
      <section className="card wide-card" aria-labelledby="history-title">
        <h2 id="history-title">Sign-in history</h2>
        <ul className="history">
          {data.data.logins.map((l) => (
            <li key={l.id}>
              {fmt.dateTime(l.created)} · {l.method} · {l.ip ?? '—'} <span className="muted small">{l.user_agent}</span>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
