import { type FormEvent, useState } from 'react';
import type { StoredSession } from './session.ts';

type Step = { kind: 'password' } | { kind: 'code'; challenge: string; mode: 'EMAIL' | 'TOTP' };

/**
 * Email and password, then the two-factor code when the account asks for one.
 * client-core (RxDB) is loaded only when the person submits, so this screen
 * opens with the smallest script.
 */
export function SignInForm({
  baseUrl,
  email: fixedEmail,
  onSignedIn,
  submitLabel = 'Sign in',
}: {
  baseUrl: string;
  email?: string;
  onSignedIn(s: StoredSession): void | Promise<void>;
  submitLabel?: string;
}) {
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
          await onSignedIn({ baseUrl, token: res.token, expires: res.expires, user: res.user });
          return;
        }
        if (res.two_factor && res.challenge) {
          setStep({ kind: 'code', challenge: res.challenge, mode: res.two_factor });
          setCode('');
          return;
        }
        setMessage(res.message ?? 'Sign-in failed');
      } catch (err) {
        setMessage(
          err instanceof OfflineError
            ? 'The server cannot be reached. Signing in needs a connection the first time.'
            : `Sign-in failed: ${(err as Error).message}`,
        );
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} className="signin-form" aria-label="Sign in">
      {step.kind === 'password' ? (
        <>
          <label>
            Email
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
            Password
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
          {step.mode === 'EMAIL' ? 'We emailed you a sign-in code' : 'Code from your authenticator app'}
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
        {busy ? 'Signing in…' : step.kind === 'code' ? 'Verify code' : submitLabel}
      </button>
      {step.kind === 'code' && (
        <button type="button" className="link" onClick={() => setStep({ kind: 'password' })}>
          Start over
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
  return (
    <main className="signin">
      <h1>Ops Platform</h1>
      <p className="muted">Fleet, technical log and flights, online or offline.</p>
      {notice && <p className="notice">{notice}</p>}
      <SignInForm baseUrl={baseUrl} onSignedIn={onSignedIn} />
    </main>
  );
}
