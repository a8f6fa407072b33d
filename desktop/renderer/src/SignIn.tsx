import { type FormEvent, useState } from 'react';
import { useT } from './i18n.tsx';
import { markStartup } from './perf.ts';
import type { StoredSession } from './session.ts';

type Step = { kind: 'password' } | { kind: 'code'; challenge: string; mode: 'EMAIL' | 'TOTP' };

/**
 * Email and password, then the two-factor code when the account asks for one.
 * client-core (RxDB) is not part of this screen's script, so it opens with
 * the smallest one; the app loads it once the form shows (App.tsx).
 */
export function SignInForm({
  baseUrl,
  email: fixedEmail,
  onSignedIn,
  submitLabel,
}: {
  baseUrl: string;
  email?: string;
  onSignedIn(s: StoredSession): void | Promise<void>;
  submitLabel?: string;
}) {
  const t = useT();
  const [email, setEmail] = useState(fixedEmail ?? '');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [step, setStep] = useState<Step>({ kind: 'password' });
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setMessage(null);
    try {
      const { signIn, verifySignIn, OfflineError } = await import('@ops/client-core');
      try {
        const res =
          step.kind === 'password'
            ? await signIn(baseUrl, email.trim(), password)
            : await verifySignIn(baseUrl, step.challenge, code.trim());
        if (res.result) {
          markStartup('signed-in');
          await onSignedIn({ baseUrl, token: res.token, expires: res.expires, user: res.user });
          return;
        }
        if (res.two_factor && res.challenge) {
          setStep({ kind: 'code', challenge: res.challenge, mode: res.two_factor });
          setCode('');
          return;
        }
        setMessage(res.message ?? t('shell.signInFailed'));
      } catch (err) {
        setMessage(
          err instanceof OfflineError
            ? t('shell.signInOffline')
            : t('shell.signInFailedWhy', { message: (err as Error).message }),
        );
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} className="signin-form" aria-label={t('shell.signIn')}>
      {step.kind === 'password' ? (
        <>
          <label>
            {t('shell.email')}
            <input
              type="email"
              name="email"
              autoComplete="username"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              readOnly={!!fixedEmail}
              required
            />
          </label>
          <label>
            {t('shell.password')}
            <input
              type="password"
              name="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              required
            />
          </label>
        </>
      ) : (
        <label>
          {step.mode === 'EMAIL' ? t('shell.codeEmailed') : t('shell.codeAuthenticator')}
          <input
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            required
          />
        </label>
      )}
      <button type="submit" disabled={busy}>
        {busy
          ? t('shell.signingIn')
          : step.kind === 'code'
            ? t('shell.verifyCode')
            : (submitLabel ?? t('shell.signIn'))}
      </button>
      {step.kind === 'code' && (
        <button type="button" className="link" onClick={() => setStep({ kind: 'password' })}>
          {t('shell.startOver')}
        </button>
      )}
      {message && (
        <p role="alert" className="form-error">
          {message}
        </p>
      )}
    </form>
  );
}

export function SignInScreen({
  baseUrl,
  notice,
  onSignedIn,
}: {
  baseUrl: string;
  notice?: string;
  onSignedIn(s: StoredSession): Promise<void>;
}) {
  const t = useT();
  return (
    <main className="signin">
      <h1>Ops Platform</h1>
      <p className="muted">{t('shell.tagline')}</p>
      {notice && <p className="notice">{notice}</p>}
      <SignInForm baseUrl={baseUrl} onSignedIn={onSignedIn} />
    </main>
  );
}
