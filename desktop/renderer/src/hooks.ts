import type { OpsDoc, SyncState } from '@ops/client-core';
import type { CommandDoc, OutcomeDoc, ReferenceDoc, UserDoc } from '@ops/shared';
import { createContext, useContext, useEffect, useMemo, useState } from 'react';
import type { MangoQuery } from 'rxdb';
import { distinctUntilChanged, map, type Observable } from 'rxjs';
import { type DisplaySettings, displaySettingsOf } from './format.ts';
import { useReportLoading } from './ScreenLoading.tsx';
import { recordLocation, type Workspace } from './workspace.ts';

export const WorkspaceContext = createContext<Workspace | null>(null);

export function useWorkspace(): Workspace {
  const ws = useContext(WorkspaceContext);
  if (!ws) throw new Error('useWorkspace outside a signed-in screen');
  return ws;
}

/** The latest value of an observable (`initial` until it emits). */
export function useObservable<T>(source: Observable<T>, initial: T): T {
  const [value, setValue] = useState<T>(initial);
  useEffect(() => {
    const sub = source.subscribe(setValue);
    return () => sub.unsubscribe();
  }, [source]);
  return value;
}

export interface Docs<T> {
  docs: T[];
  /** False until the local database answered the first time. */
  ready: boolean;
}

/** Whether `collection` is still loading its first sync on this device (waiting or loading, not ready). */
function useFirstSyncLoading(ws: Workspace, collection: string): boolean {
  const state$ = ws.client.syncState$;
  const source = useMemo(
    () =>
      state$.pipe(
        map((s) => firstSyncLoading(s, collection)),
        distinctUntilChanged(),
      ),
    [state$, collection],
  );
  return useObservable(source, firstSyncLoading(state$.value, collection));
}

function firstSyncLoading(s: SyncState, collection: string): boolean {
  const p = s.firstSync[collection];
  return p !== undefined && p.phase !== 'ready';
}

/**
 * Live documents of a local collection, or of one record type of an area
 * collection (`recordLocation`: `aircraft_report` reads `fleet` where
 * `type` is `aircraft_report`, through its type-led index), as plain objects.
 * `query` is compared by value, so callers may build it inline.
 *
 * While the collection loads its first sync nothing is read: the screen shows
 * that it is loading (the sync bar its progress) and reads once the last page
 * is stored. A live query runs again on every stored page and the screen
 * renders again each time; reading once a second instead still cost a pilot's
 * device a third of its first-sync rate and 30 MB of heap (bench:device,
 * docs/performance.md).
 */
export function useDocs<T>(name: string, query: MangoQuery<OpsDoc> = {}): Docs<T> {
  const ws = useWorkspace();
  const key = JSON.stringify(query);
  const where = recordLocation(name);
  const loading = useFirstSyncLoading(ws, where.collection);
  useReportLoading(where.collection, loading);
  const [state, setState] = useState<Docs<T>>({ docs: [], ready: false });
  useEffect(() => {
    const c = ws.client.collections[where.collection];
    if (!c) {
      setState({ docs: [], ready: true });
      return;
    }
    const q = JSON.parse(key) as MangoQuery<OpsDoc>;
    const typed: MangoQuery<OpsDoc> = where.type ? { ...q, selector: { type: where.type, ...(q.selector ?? {}) } } : q;
    const read = where.read ?? ((d: Record<string, unknown>) => d);
    // A read that finds the same documents in the same versions renders nothing again.
    let shown: string | null = null;
    const show = (docs: Array<{ primary: string; revision: string; toJSON(): unknown }>) => {
      const seen = docs.map((d) => `${d.primary}@${d.revision}`).join(',');
      if (seen === shown) return;
      shown = seen;
      setState({ docs: docs.map((d) => read(d.toJSON() as Record<string, unknown>) as unknown as T), ready: true });
    };
    // Still loading its first sync: nothing is read until its last page is stored.
    if (loading) return;
    const sub = c.find(typed).$.subscribe(show);
    return () => sub.unsubscribe();
  }, [ws, where.collection, where.type, where.read, key, loading]);
  return state;
}

/** The whole sync state: for the sync bar, which shows most of it. Elsewhere `useSyncField`. */
export function useSyncState(): SyncState {
  const ws = useWorkspace();
  return useObservable(ws.client.syncState$, ws.client.syncState$.value);
}

/**
 * One field of the sync state, re-rendering only when it changes: during a first sync the state changes with
 * every page stored and every progress step, and the shell or a screen need not render again for each.
 */
export function useSyncField<K extends keyof SyncState>(key: K): SyncState[K] {
  const state$ = useWorkspace().client.syncState$;
  const source = useMemo(
    () =>
      state$.pipe(
        map((s) => s[key]),
        distinctUntilChanged(),
      ),
    [state$, key],
  );
  return useObservable(source, state$.value[key]);
}

export function useMarks(): ReadonlySet<string> {
  const ws = useWorkspace();
  return useObservable(ws.marks$, ws.marks$.value);
}

export function useDeferred() {
  const ws = useWorkspace();
  return useObservable(ws.deferred$, ws.deferred$.value);
}

export function useDismissed(): ReadonlySet<string> {
  const ws = useWorkspace();
  return useObservable(ws.dismissed$, ws.dismissed$.value);
}

/** Every command of this login, newest first. */
export function useCommands(): Docs<CommandDoc> {
  return useDocs<CommandDoc>('command', { sort: [{ id: 'desc' }] });
}

export function useOutcomes(): Docs<OutcomeDoc> {
  return useDocs<OutcomeDoc>('outcome', { sort: [{ created: 'desc' }] });
}

/** The `company` reference document (settings payload) and the formats it sets. */
export function useCompany(): {
  name: string;
  data: Record<string, unknown> | null;
  display: DisplaySettings;
  flags: Record<string, unknown>;
} {
  const { docs } = useDocs<ReferenceDoc>('reference', { selector: { type: 'company' } });
  const doc = docs[0];
  return useMemo(() => {
    const data = doc?.data ?? null;
    const setting =
      data && typeof data.CompanySetting === 'object' && data.CompanySetting !== null
        ? (data.CompanySetting as Record<string, unknown>)
        : {};
    return { name: doc?.name ?? '', data, display: displaySettingsOf(data), flags: setting };
  }, [doc]);
}

/** Permission keys of a role from the `permissions` reference document; missing keys are false. */
export function usePermissions(role: number): Record<string, boolean> {
  const { docs } = useDocs<ReferenceDoc>('reference', { selector: { type: 'permissions' } });
  return useMemo(() => {
    const roles = docs[0]?.data?.roles;
    const mine = roles && typeof roles === 'object' ? (roles as Record<string, unknown>)[String(role)] : null;
    return mine && typeof mine === 'object' ? (mine as Record<string, boolean>) : {};
  }, [docs, role]);
}

/** People of the company by id, for names. */
export function useUsers(): Map<string, UserDoc> {
  const { docs } = useDocs<UserDoc>('user');
  return useMemo(() => new Map(docs.map((u) => [u.id, u])), [docs]);
}

export const fullName = (u: Pick<UserDoc, 'name' | 'surname'> | undefined | null) =>
  u ? `${u.name} ${u.surname}`.trim() : '';

/** Unix seconds, refreshed every `everyMs` so derived statuses move on while the screen stays open. */
export function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(() => Math.floor(Date.now() / 1000));
  useEffect(() => {
    const t = setInterval(() => setNow(Math.floor(Date.now() / 1000)), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}

/** Whether the browser reports a network at all (being online also needs the server to answer). */
export function useNetwork(): boolean {
  const [up, setUp] = useState(() => navigator.onLine);
  useEffect(() => {
    const on = () => setUp(true);
    const off = () => setUp(false);
    window.addEventListener('online', on);
    window.addEventListener('offline', off);
    return () => {
      window.removeEventListener('online', on);
      window.removeEventListener('offline', off);
    };
  }, []);
  return up;
}
