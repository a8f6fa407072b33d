import { ROLE_NAMES, type Role } from '@ops/shared';
import { Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { rejections } from './decisions.ts';
import {
  fullName,
  useCommands,
  useCompany,
  useDismissed,
  useOutcomes,
  useSyncState,
  useUsers,
  WorkspaceContext,
} from './hooks.ts';
import { markNavigation } from './perf.ts';
import { menuFor, type Route, screensFor } from './nav.ts';
import { startsOnFlights } from '@ops/shared/rules/flights/policy';
import { ScreenBoundary } from './ScreenBoundary.tsx';
import { type StoredSession, SWITCH_EVENT } from './session.ts';
import { SignInForm } from './SignIn.tsx';
import { SyncBar } from './SyncBar.tsx';
import type { Workspace } from './workspace.ts';

function parseHash(hash: string, role: number): Route | null {
  const [screen, id] = hash.replace(/^#\/?/, '').split('/');
  return screensFor(role).some((s) => s.screen === screen)
    ? { screen, ...(id ? { id: decodeURIComponent(id) } : {}) }
    : null;
}

/** Mechanics and managers start on the fleet, pilots and students on their flights. */
const homeOf = (role: number): string => (startsOnFlights(role) ? 'flights' : 'fleet');

export default function Shell({
  ws,
  onSignOut,
  onSwitch,
}: {
  ws: Workspace;
  onSignOut(): void;
  onSwitch(s: StoredSession): void;
}) {
  return (
    <WorkspaceContext.Provider value={ws}>
      <ShellBody onSignOut={onSignOut} onSwitch={onSwitch} ws={ws} />
    </WorkspaceContext.Provider>
  );
}

function ShellBody({
  ws,
  onSignOut,
  onSwitch,
}: {
  ws: Workspace;
  onSignOut(): void;
  onSwitch(s: StoredSession): void;
}) {
  const role = ws.user.user_group_id;
  const screens = useMemo(() => screensFor(role), [role]);
  const menu = useMemo(() => menuFor(role), [role]);
  const [route, setRoute] = useState<Route>(() => parseHash(location.hash, role) ?? { screen: homeOf(role) });
  useEffect(() => {
    const onHash = () => {
      const r = parseHash(location.hash, role);
      if (r) setRoute(r);
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, [role]);
  // The account screen's company switch hands over the new session.
  useEffect(() => {
    const onSwitchEvent = (e: Event) => onSwitch((e as CustomEvent<StoredSession>).detail);
    window.addEventListener(SWITCH_EVENT, onSwitchEvent);
    return () => window.removeEventListener(SWITCH_EVENT, onSwitchEvent);
  }, [onSwitch]);
  // On a phone the menu folds behind a button so the screen comes first; choosing a screen folds it again.
  const [menuOpen, setMenuOpen] = useState(false);
  const go = useCallback((r: Route) => {
    markNavigation(r.screen);
    setMenuOpen(false);
    const hash = `#${r.screen}${r.id ? `/${encodeURIComponent(r.id)}` : ''}`;
    if (location.hash !== hash) history.replaceState(null, '', hash);
    setRoute(r);
  }, []);

  const company = useCompany();
  const users = useUsers();
  const me = users.get(ws.user.id);
  const { docs: outcomes } = useOutcomes();
  const { docs: commands } = useCommands();
  const dismissed = useDismissed();
  const rejected = useMemo(() => rejections(outcomes, commands, dismissed), [outcomes, commands, dismissed]);
  const sync = useSyncState();
  const current = screens.find((s) => s.screen === route.screen);
  const Current = current?.component;

  return (
    <div className="app">
      <header className="topbar">
        <div className="brand">
          <img src="./icon.svg" alt="" width="28" height="28" />
          <div>
            <strong>{company.name || 'Ops Platform'}</strong>
            <small>
              {fullName(me) || ws.user.email} ·{' '}
              {ROLE_NAMES[ws.user.user_group_id as Role] ?? `Role ${ws.user.user_group_id}`}
            </small>
          </div>
        </div>
        <button type="button" className="secondary small" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <SyncBar rejected={rejected.length} onShowChanges={() => go({ screen: 'changes' })} />
      {sync.needsSignIn && <SignInAgain ws={ws} onSwitch={onSwitch} />}
      <button
        type="button"
        className="menu-toggle"
        aria-expanded={menuOpen}
        aria-controls="screens-menu"
        onClick={() => setMenuOpen((o) => !o)}
        data-testid="menu-toggle"
      >
        <span aria-hidden="true">☰</span> Menu{current ? ` · ${current.label}` : ''}
      </button>
      <div className="body">
        <nav aria-label="Screens" id="screens-menu" className={menuOpen ? 'sidenav open' : 'sidenav'}>
          {menu.map(({ group, screens: items }) => (
            <div key={group} className="nav-group">
              <h2 className="nav-group-title">{group}</h2>
              {items.map((s) => (
                <button
                  key={s.screen}
                  type="button"
                  className={route.screen === s.screen ? 'tab active' : 'tab'}
                  aria-current={route.screen === s.screen ? 'page' : undefined}
                  onClick={() => go({ screen: s.screen })}
                >
                  {s.label}
                  {s.screen === 'changes' && rejected.length > 0 && <span className="count">{rejected.length}</span>}
                </button>
              ))}
            </div>
          ))}
        </nav>
        <main className="content">
          {current && Current && (
            <ScreenBoundary key={current.screen} label={current.label} onHome={() => go({ screen: homeOf(role) })}>
              <Suspense fallback={<p className="muted">Loading…</p>}>
                <Current route={route} go={go} rejected={rejected} />
              </Suspense>
            </ScreenBoundary>
          )}
        </main>
      </div>
    </div>
  );
}

/** The server refused the token: sign in again without losing anything queued. */
function SignInAgain({ ws, onSwitch }: { ws: Workspace; onSwitch(s: StoredSession): void }) {
  return (
    <section className="reauth" role="alert">
      <p>
        <strong>Your session has ended.</strong> Sign in again to keep syncing; your changes stay on this device
        meanwhile.
      </p>
      <SignInForm
        baseUrl={ws.baseUrl}
        email={ws.user.email ?? undefined}
        submitLabel="Sign in again"
        onSignedIn={(s) => {
          if (s.user.id === ws.user.id && s.user.company_id === ws.user.company_id) ws.setToken(s.token, s.expires);
          else onSwitch(s);
        }}
      />
    </section>
  );
}
