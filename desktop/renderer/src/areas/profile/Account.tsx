import { emailChangeForm, ZPasswordForm, ZProfileForm, ZTotpCode } from '@ops/shared/forms/office';
import { type FormEvent, useEffect, useState } from 'react';
import { useWorkspace } from '../../hooks.ts';
import { useLocale, useT } from '../../i18n.tsx';
import { isLocale, LOCALE_NAMES, LOCALES, type Locale, translator } from '@ops/shared/i18n/index';
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
    language?: string;
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
  const t = useT();
  const profile = useLoad<Profile>('/users/view.json');
  if (!profile.data) return profile.error ? <Outcome error={profile.error} /> : <Busy />;
  return (
    <section data-testid="account">
      <ScreenHead title={t('profile.title')}>
        <span className="badge badge-info">{profile.data.UserGroup.name}</span>
      </ScreenHead>
      <div className="cards">
        <LanguageCard />
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

/** The language picker: applies at once (no reload) and saves the user's `language`. */
function LanguageCard() {
  const t = useT();
  const { post } = useApi();
  const { locale, setLocale } = useLocale();
  const act = useAction();
  const choose = (l: Locale) => {
    setLocale(l);
    void act.run(async () => {
      await post('/users/edit.json', { User: { language: l } });
      // In the chosen language: this closure's `t` is still the previous one.
      return translator(l)('profile.languageSaved');
    });
  };
  return (
    <section className="card" aria-labelledby="language-title" data-testid="language">
      <h2 id="language-title">{t('profile.language')}</h2>
      <FormField label={t('profile.language')} hint={t('profile.languageHint')}>
        {(p) => (
          <select
            {...p}
            value={locale}
            data-testid="language-picker"
            onChange={(v) => isLocale(v.target.value) && choose(v.target.value)}
          >
            {LOCALES.map((l) => (
              <option key={l} value={l} lang={l}>
                {LOCALE_NAMES[l]}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <Outcome error={act.error} done={act.done} />
    </section>
  );
}

function ProfileCard({ profile, onSaved }: { profile: Profile; onSaved(): void }) {
  const t = useT();
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
      return t('profile.profileSaved');
    });
  };
  return (
    <form className="card" onSubmit={submit} aria-label={t('profile.profile')} noValidate>
      <h2>{t('profile.profile')}</h2>
      <FormField label={t('profile.name')} error={e('UserDetail.name')}>
        {(p) => <input {...p} value={form.UserDetail.name} onChange={(v) => setD({ name: v.target.value })} />}
      </FormField>
      <FormField label={t('profile.surname')} error={e('UserDetail.surname')}>
        {(p) => <input {...p} value={form.UserDetail.surname} onChange={(v) => setD({ surname: v.target.value })} />}
      </FormField>
      <div className="pair">
        <FormField label={t('profile.phonecode')} error={e('UserDetail.phonecode')}>
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
        <FormField label={t('profile.phone')} error={e('UserDetail.phone')}>
          {(p) => <input {...p} value={form.UserDetail.phone} onChange={(v) => setD({ phone: v.target.value })} />}
        </FormField>
      </div>
      <FormField label={t('profile.city')} error={e('UserDetail.city')}>
        {(p) => <input {...p} value={form.UserDetail.city} onChange={(v) => setD({ city: v.target.value })} />}
      </FormField>
      <FormField label={t('profile.timezone')} error={e('UserDetail.timezone_id')}>
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
        label={t('profile.alerts')}
        checked={form.User.alerts}
        onChange={(v) => setForm({ ...form, User: { ...form.User, alerts: v } })}
      />
      <Check
        label={t('profile.messageAlerts')}
        checked={form.User.message_alerts}
        onChange={(v) => setForm({ ...form, User: { ...form.User, message_alerts: v } })}
      />
      <Check
        label={t('profile.newsletter')}
        checked={form.User.newsletter}
        onChange={(v) => setForm({ ...form, User: { ...form.User, newsletter: v } })}
      />
      <div className="actions-row">
        <button type="submit" disabled={act.busy}>
          {act.busy ? t('profile.saving') : t('profile.saveProfile')}
        </button>
        <Outcome error={act.error} done={act.done} />
      </div>
    </form>
  );
}

function EmailCard({ profile, onSaved }: { profile: Profile; onSaved(): void }) {
  const t = useT();
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
      return t('profile.confirmationSent', { email: form.new_email });
    });
  };
  return (
    <form className="card" onSubmit={submit} aria-label={t('profile.email')} noValidate>
      <h2>{t('profile.email')}</h2>
      <p>
        {profile.User.email ?? t('profile.none')}{' '}
        {profile.User.email_status !== 'confirmed' && (
          <span className="badge badge-warn">{profile.User.email_status}</span>
        )}
      </p>
      <FormField label={t('profile.newAddress')} error={e('new_email')}>
        {(p) => (
          <input
            {...p}
            type="email"
            value={form.new_email}
            onChange={(v) => setForm({ ...form, new_email: v.target.value })}
          />
        )}
      </FormField>
      <FormField label={t('profile.newAddressAgain')} error={e('new_email_repeat')}>
        {(p) => (
          <input
            {...p}
            type="email"
            value={form.new_email_repeat}
            onChange={(v) => setForm({ ...form, new_email_repeat: v.target.value })}
          />
        )}
      </FormField>
      <FormField label={t('profile.currentPassword')} error={e('password')}>
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
          {act.busy ? t('profile.sending') : t('profile.changeAddress')}
        </button>
        <Outcome error={act.error} done={act.done} />
      </div>
    </form>
  );
}

function PasswordCard() {
  const t = useT();
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
      return t('profile.passwordChanged');
    });
  };
  return (
    <form className="card" onSubmit={submit} aria-label={t('profile.password')} noValidate>
      <h2>{t('profile.password')}</h2>
      <FormField label={t('profile.currentPassword')} error={e('password')}>
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
      <FormField label={t('profile.newPassword')} error={e('newpassword')} hint={t('profile.newPasswordHint')}>
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
      <FormField label={t('profile.newPasswordAgain')} error={e('newpasswordrepeat')}>
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
          {act.busy ? t('profile.saving') : t('profile.changePassword')}
        </button>
        <Outcome error={act.error} done={act.done} />
      </div>
    </form>
  );
}

function TwoFactorCard({ profile, onSaved }: { profile: Profile; onSaved(): void }) {
  const t = useT();
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
      return two_factor === 'OFF' ? t('profile.twoFactorOff') : t('profile.twoFactorEmail');
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
      return t('profile.totpOn');
    });
  };

  return (
    <section className="card" aria-labelledby="tf-title" data-testid="two-factor">
      <h2 id="tf-title">{t('profile.twoFactor')}</h2>
      <p>
        {t('profile.now', { mode: '' })}
        <strong data-testid="two-factor-mode">
          {mode === 'OFF' ? t('profile.modeOff') : mode === 'EMAIL' ? t('profile.modeEmail') : t('profile.modeTotp')}
        </strong>
      </p>
      {auditor && <p className="muted small">{t('profile.auditorEmail')}</p>}
      {!auditor && (
        <div className="actions-row">
          {mode !== 'EMAIL' && (
            <button type="button" className="secondary small" disabled={act.busy} onClick={() => setMode('EMAIL')}>
              {t('profile.useEmail')}
            </button>
          )}
          {mode !== 'TOTP' && !setup && (
            <button type="button" className="secondary small" disabled={act.busy} onClick={startTotp}>
              {t('profile.setupTotp')}
            </button>
          )}
          {mode !== 'OFF' && (
            <button type="button" className="secondary small" disabled={act.busy} onClick={() => setMode('OFF')}>
              {t('profile.turnOff')}
            </button>
          )}
        </div>
      )}
      {setup && (
        <form onSubmit={enable} aria-label={t('profile.modeTotp')} noValidate className="totp">
          <img src={setup.qr} alt={t('profile.totpQr')} width={200} height={200} data-testid="totp-qr" />
          <p className="small">
            {t('profile.totpByHand')} <code data-testid="totp-secret">{setup.secret}</code>
          </p>
          <FormField label={t('profile.codeFromApp')} error={errorOf(act.errors, 'code')}>
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
            {t('profile.switchOn')}
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
  const t = useT();
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
      <h2 id="orgs-title">{t('profile.companies')}</h2>
      <ul className="plain">
        {list.map((o) => (
          <li key={o.id}>
            {o.name}{' '}
            {o.current ? (
              <span className="badge badge-ok">{t('profile.current')}</span>
            ) : (
              <button type="button" className="secondary small" disabled={act.busy} onClick={() => go(o)}>
                {t('profile.switch')}
                <span className="sr-only">{t('profile.switchTo', { name: o.name })}</span>
              </button>
            )}
          </li>
        ))}
      </ul>
      {challenge && (
        <form onSubmit={verify} aria-label={t('profile.switchCode')} noValidate>
          <FormField label={challenge.mode === 'EMAIL' ? t('profile.codeEmailed') : t('profile.codeAuthenticator')}>
            {(p) => <input {...p} inputMode="numeric" value={code} onChange={(v) => setCode(v.target.value)} />}
          </FormField>
          <button type="submit" disabled={act.busy}>
            {t('profile.verifySwitch')}
          </button>
        </form>
      )}
      {act.busy && <Busy what={t('profile.switching')} />}
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
  const t = useT();
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
      return t('profile.sessionClosed');
    });
  if (!data.data) return data.error ? <Outcome error={data.error} /> : <Busy />;
  return (
    <div className="cards">
      <section className="card wide-card" aria-labelledby="sessions-title" data-testid="sessions">
        <h2 id="sessions-title">{t('profile.sessions')}</h2>
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">{t('profile.device')}</th>
              <th scope="col">{t('profile.address')}</th>
              <th scope="col">{t('profile.lastSeen')}</th>
              <th scope="col">
                <span className="sr-only">{t('profile.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.data.sessions.map((s) => (
              <tr key={s.id}>
                <td className="small">{s.user_agent ?? t('profile.unknown')}</td>
                <td>{s.ip ?? '—'}</td>
                <td>{fmt.dateTime(s.last_seen)}</td>
                <td>
                  {s.current ? (
                    <span className="badge badge-info">{t('profile.thisDevice')}</span>
                  ) : (
                    <button type="button" className="link small danger" disabled={act.busy} onClick={() => close(s.id)}>
                      {t('profile.closeSession')}
                      <span className="sr-only">{t('profile.closeFrom', { ip: s.ip ?? t('profile.unknown') })}</span>
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
        <h2 id="history-title">{t('profile.history')}</h2>
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
