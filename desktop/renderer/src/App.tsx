import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useT } from './i18n.tsx';
import { SignInScreen } from './SignIn.tsx';
import { clearSession, loadSession, resolveApiBase, type StoredSession, saveSession } from './session.ts';
import { markStartup } from './perf.ts';
import type { Workspace } from './workspace.ts';

// The signed-in app (RxDB, screens) loads after the sign-in screen is up.
const Shell = lazy(() => import('./Shell.tsx'));

type Phase =
  | { kind: 'boot' }
  | { kind: 'signin'; baseUrl: string; notice?: string }
  | { kind: 'opening'; baseUrl: string }
  | { kind: 'open'; ws: Workspace }
  | { kind: 'failed'; message: string };

/**
 * Resumes the last session when there is one (its local database opens without
 * a network), otherwise asks to sign in.
 */
export function App() {
  const t = useT();
  // Callbacks read the language through a ref: a language switch must not reopen the session.
  const tRef = useRef(t);
  tRef.current = t;
  const [phase, setPhase] = useState<Phase>({ kind: 'boot' });

  const open = useCallback(async (session: StoredSession) => {
    setPhase({ kind: 'opening', baseUrl: session.baseUrl });
    try {
      const { Workspace } = await import('./workspace.ts');
      markStartup('workspace-code');
      const ws = await Workspace.open(session);
      setPhase({ kind: 'open', ws });
    } catch (err) {
      setPhase({
        kind: 'signin',
        baseUrl: session.baseUrl,
        notice: tRef.current('shell.localDataFailed', { message: (err as Error).message }),
      });
    }
  }, []);

  useEffect(() => {
    let cancelled = false;
    resolveApiBase().then(
      (baseUrl) => {
        if (cancelled) return;
        const session = loadSession(baseUrl);
        if (session) void open(session);
        else setPhase({ kind: 'signin', baseUrl });
      },
      (err: Error) => setPhase({ kind: 'failed', message: err.message }),
    );
    return () => {
      cancelled = true;
    };
  }, [open]);

  // While the sign-in form shows (it opened with the smallest script), the signed-in app's code loads:
  // the submit then waits for the server only, not for RxDB, the storage and the shell to download.
  useEffect(() => {
    if (phase.kind !== 'signin') return;
    const timer = setTimeout(() => {
      void import('./workspace.ts').then((m) => m.preloadWorkspace()).catch(() => {});
      void import('./Shell.tsx').catch(() => {});
    }, 0);
    return () => clearTimeout(timer);
  }, [phase.kind]);

  const signedIn = useCallback(
    async (session: StoredSession) => {
      saveSession(session);
      await open(session);
    },
    [open],
  );

  /** Another person (or the same one again) signed in from the session-expired prompt. */
  const switchTo = useCallback(
    async (ws: Workspace, session: StoredSession) => {
      await ws.close().catch(() => {});
      await signedIn(session);
    },
    [signedIn],
  );

  const signOut = useCallback(async (ws: Workspace) => {
    // Best effort: offline, the session simply expires on the server.
    await ws.rest('POST', '/logout.json').catch(() => {});
    await ws.close().catch(() => {});
    clearSession();
    setPhase({
      kind: 'signin',
      baseUrl: ws.baseUrl,
      notice: tRef.current('shell.signedOut'),
    });
  }, []);

  switch (phase.kind) {
    case 'boot':
    case 'opening':
      return <Splash text={t('shell.opening')} />;
    case 'failed':
      return <Splash text={t('shell.cannotStart', { message: phase.message })} />;
    case 'signin':
      return <SignInScreen baseUrl={phase.baseUrl} notice={phase.notice} onSignedIn={signedIn} />;
    case 'open':
      return (
        <Suspense fallback={<Splash text={t('shell.loading')} />}>
          <Shell ws={phase.ws} onSignOut={() => signOut(phase.ws)} onSwitch={(s) => switchTo(phase.ws, s)} />
        </Suspense>
      );
  }
}

function Splash({ text }: { text: string }) {
  return (
    <main className="splash">
      <p>{text}</p>
    </main>
  );
}
