import type { Plan } from '@ops/shared';
import { isLocale, type MessageId } from '@ops/shared/i18n/index';
import { Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { useLocale, useT } from './i18n.tsx';
import { rejections } from './decisions.ts';
import {
  fullName,
  useCommands,
  useCompany,
  useDismissed,
  useOutcomes,
  useSyncField,
  useUsers,
  WorkspaceContext,
} from './hooks.ts';
import { markNavigation } from './perf.ts';
import { menuFor, type NavGroup, type Route, screensFor } from './nav.ts';
import { startsOnFlights } from '@ops/shared/rules/flights/policy';
import { ScreenBoundary } from './ScreenBoundary.tsx';
import { ScreenLoading } from './ScreenLoading.tsx';
import { type StoredSession, SWITCH_EVENT } from './session.ts';
import { SignInForm } from './SignIn.tsx';
import { SyncBar } from './SyncBar.tsx';
import { useRoleName } from './areas/users/role-names.ts';
import type { Workspace } from './workspace.ts';

function parseHash(hash: string, role: number): Route | null {
  const [screen, id] = hash.replace(/^#\/?/, '').split('/');
  return screensFor(role).some((s) => s.screen === screen)
    ? { screen, ...(id ? { id: decodeURIComponent(id) } : {}) }
    : null;
}

/** Menu words in the app's language; a screen not listed here keeps its registry label. */
const GROUP_LABELS: Record<NavGroup, MessageId> = {
  Operations: 'shell.groupOperations',
  Maintenance: 'shell.groupMaintenance',
  Training: 'shell.groupTraining',
  Safety: 'shell.groupSafety',
  People: 'shell.groupPeople',
  Office: 'shell.groupOffice',
  Account: 'shell.groupAccount',
  Sync: 'shell.groupSync',
};
const SCREEN_LABELS: Record<string, MessageId> = {
  'api-keys': 'shell.screenApiKeys',
  techlog: 'shell.screenTechlog',
  fleet: 'shell.screenFleet',
  bases: 'shell.screenBases',
  'my-billing': 'shell.screenMyBilling',
  'billing-accounts': 'shell.screenBillingAccounts',
  'billing-rates': 'shell.screenBillingRates',
  alerts: 'shell.screenAlerts',
  company: 'shell.screenCompany',
  hours: 'shell.screenHours',
  permissions: 'shell.screenPermissions',
  'my-duty': 'shell.screenMyDuty',
  'crew-duty': 'shell.screenCrewDuty',
  flights: 'shell.screenFlights',
  maintenance: 'shell.screenMaintenance',
  news: 'shell.screenNews',
  groups: 'shell.screenGroups',
  pilots: 'shell.screenPilots',
  pilot: 'shell.screenPilot',
  account: 'shell.screenAccount',
  me: 'shell.screenMe',
  logbook: 'shell.screenLogbook',
  'company-stats': 'shell.screenCompanyStats',
  safety: 'shell.screenSafety',
  schedule: 'shell.screenSchedule',
  'my-training': 'shell.screenMyTraining',
  'training-today': 'shell.screenTrainingToday',
  'training-overview': 'shell.screenTrainingOverview',
  users: 'shell.screenUsers',
  changes: 'shell.screenChanges',
  'company-flights': 'shell.screenCompanyFlights',
  'readiness-settings': 'shell.screenReadiness',
};

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
  const t = useT();
  const { setLocale } = useLocale();
  // The user's own language (profile) wins over the browser's once the server answers; offline, the last one used.
  useEffect(() => {
    let live = true;
    ws.rest<{ User?: { language?: string } }>('GET', '/users/view.json').then(
      (p) => {
        const l = p.User?.language;
        if (live && isLocale(l)) setLocale(l);
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, [ws, setLocale]);
  const labelOf = (s: { screen: string; label: string }) => {
    const id = SCREEN_LABELS[s.screen];
    return id ? t(id) : s.label;
  };
  const role = ws.user.user_group_id;
  const roleName = useRoleName();
  const screens = useMemo(() => screensFor(role), [role]);
  const company = useCompany();
  // The menu leaves out screens the company's plan does not include; a link to one still opens and says why.
  const plan = (company.data?.Company as { plan?: Plan } | undefined)?.plan ?? null;
  const menu = useMemo(() => menuFor(role, plan), [role, plan]);
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

  const users = useUsers();
  const me = users.get(ws.user.id);
  const { docs: outcomes } = useOutcomes();
  const { docs: commands } = useCommands();
  const dismissed = useDismissed();
  const rejected = useMemo(() => rejections(outcomes, commands, dismissed, t), [outcomes, commands, dismissed, t]);
  const needsSignIn = useSyncField('needsSignIn');
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
              {roleName(ws.user.user_group_id, t('shell.roleOther', { id: ws.user.user_group_id }))}
            </small>
          </div>
        </div>
        <button type="button" className="secondary small" onClick={onSignOut}>
          {t('shell.signOut')}
        </button>
      </header>
      <SyncBar rejected={rejected.length} onShowChanges={() => go({ screen: 'changes' })} />
      {needsSignIn && <SignInAgain ws={ws} onSwitch={onSwitch} />}
      <button
        type="button"
        className="menu-toggle"
        aria-expanded={menuOpen}
        aria-controls="screens-menu"
        onClick={() => setMenuOpen((o) => !o)}
        data-testid="menu-toggle"
      >
        <span aria-hidden="true">☰</span> {t('shell.menu')}
        {current ? ` · ${labelOf(current)}` : ''}
      </button>
      <div className="body">
        <nav aria-label={t('shell.screensNav')} id="screens-menu" className={menuOpen ? 'sidenav open' : 'sidenav'}>
          {menu.map(({ group, screens: items }) => (
            <div key={group} className="nav-group">
              <h2 className="nav-group-title">{t(GROUP_LABELS[group])}</h2>
              {items.map((s) => (
                <button
                  key={s.screen}
                  type="button"
                  className={route.screen === s.screen ? 'tab active' : 'tab'}
                  aria-current={route.screen === s.screen ? 'page' : undefined}
                  onClick={() => go({ screen: s.screen })}
                >
                  {labelOf(s)}
                  {s.screen === 'changes' && rejected.length > 0 && <span className="count">{rejected.length}</span>}
                </button>
              ))}
            </div>
          ))}
        </nav>
        <main className="content">
          {current && Current && (
            <ScreenBoundary key={current.screen} label={labelOf(current)} onHome={() => go({ screen: homeOf(role) })}>
              <ScreenLoading>
                <Suspense fallback={<p className="muted">{t('shell.loading')}</p>}>
                  <Current route={route} go={go} rejected={rejected} />
                </Suspense>
              </ScreenLoading>
            </ScreenBoundary>
          )}
        </main>
      </div>
    </div>
  );
}

/** The server refused the token: sign in again without losing anything queued. */
function SignInAgain({ ws, onSwitch }: { ws: Workspace; onSwitch(s: StoredSession): void }) {
  const t = useT();
  return (
    <section className="reauth" role="alert">
      <p>
        <strong>{t('shell.sessionEnded')}</strong> {t('shell.sessionEndedText')}
      </p>
      <SignInForm
        baseUrl={ws.baseUrl}
        email={ws.user.email ?? undefined}
        submitLabel={t('shell.signInAgain')}
        onSignedIn={(s) => {
          if (s.user.id === ws.user.id && s.user.company_id === ws.user.company_id) ws.setToken(s.token, s.expires);
          else onSwitch(s);
        }}
      />
    </section>
  );
}
