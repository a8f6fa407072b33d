import { type CollectionProgress, FIRST_SYNC_ORDER, type SyncProblem, type SyncProblemKind } from '@ops/client-core';
import { formatDateTime, formatTime, isoDateIn } from './format.ts';
import { useCompany, useDeferred, useNetwork, useNow, useSyncState, useWorkspace } from './hooks.ts';
import { usePendingFileCount } from './areas/uploads/files.ts';
import { offlineLine } from './refusals.ts';
import type { MessageId, Translate } from '@ops/shared/i18n/index';
import { COLLECTION_LABELS } from './ScreenLoading.tsx';
import { useT } from './i18n.tsx';

/**
 * Always visible: online or offline (the server answering, not just a
 * network), changes, commands and files (photos) waiting for the server, the
 * last sync and the last error. Mounted while signed in, so it keeps the file
 * queue uploading.
 */
export function SyncBar({ rejected, onShowChanges }: { rejected: number; onShowChanges(): void }) {
  const t = useT();
  const ws = useWorkspace();
  const s = useSyncState();
  const network = useNetwork();
  const deferred = useDeferred();
  const { display } = useCompany();
  const now = useNow(15_000);
  const online = s.online && network;
  const files = usePendingFileCount();
  const commands = s.pendingCommands + deferred.length;
  // Command documents are local writes too until pushed: count them once, as commands.
  const changes = Math.max(0, s.pendingWrites - s.pendingCommands);
  const lastMs = Math.max(s.lastSyncAt ?? 0, ws.lastSyncAt ?? 0);
  const last = lastMs ? Math.floor(lastMs / 1000) : null;
  const lastText =
    last === null
      ? t('shell.never')
      : isoDateIn(last, display.companyZone) === isoDateIn(now, display.companyZone)
        ? formatTime(last, display)
        : formatDateTime(last, display);
  return (
    <section
      className={`syncbar ${online ? 'is-online' : 'is-offline'}`}
      aria-label={t('shell.syncStatus')}
      data-testid="sync-status"
    >
      <span className="sync-state" data-online={online ? 'true' : 'false'}>
        <span className="dot" aria-hidden="true" />
        {online ? t('shell.online') : offlineLine(changes + commands + files, t)}
      </span>
      <button
        type="button"
        className={`sync-pending ${changes + commands > 0 ? 'has-pending' : ''}`}
        onClick={onShowChanges}
        data-testid="sync-pending"
      >
        {t('shell.pending', { changes, commands })}
      </button>
      <span
        className={`sync-files ${files > 0 ? 'has-pending' : ''}`}
        data-testid="sync-files"
        title={t('shell.filesTitle')}
      >
        {t('shell.filesPending', { files })}
      </span>
      {rejected > 0 && (
        <button type="button" className="sync-rejected" onClick={onShowChanges} data-testid="sync-rejected">
          {t('shell.rejected', { count: rejected })}
        </button>
      )}
      <span className="sync-last" title={display.companyZone}>
        {t('shell.lastSync', { when: lastText })}
      </span>
      {/* Offline, the failure says nothing new: the quiet line above says it. The technical message is the tooltip. */}
      {online && s.problem && (
        <span className="sync-error" title={s.lastError ?? undefined} data-kind={s.problem.kind}>
          {problemLine(s.problem, t)}
        </span>
      )}
      <button type="button" className="secondary small" onClick={() => ws.client.resync()} disabled={!network}>
        {t('shell.syncNow')}
      </button>
      <FirstSync />
    </section>
  );
}

const PROBLEM_TEXT: Record<SyncProblemKind, MessageId> = {
  offline: 'shell.syncProblemOffline',
  signIn: 'shell.syncProblemSignIn',
  busy: 'shell.syncProblemBusy',
  server: 'shell.syncProblemServer',
  refused: 'shell.syncProblemRefused',
  version: 'shell.syncProblemVersion',
  device: 'shell.syncProblemDevice',
};

/** Where sync failed, in the screens' words: a collection's label, the live updates, the first sync, the clean-up. */
const SOURCE_LABELS: Record<string, MessageId> = {
  ...COLLECTION_LABELS,
  stream: 'shell.syncLive',
  bootstrap: 'shell.firstSync',
  prune: 'shell.syncPrune',
};

/** A sync failure as a sentence: where, what happened and what follows (never the transport's own message). */
export function problemLine(p: SyncProblem, t: Translate): string {
  const label = SOURCE_LABELS[p.source];
  return t(PROBLEM_TEXT[p.kind], { what: label ? t(label) : p.source });
}

/**
 * The share of a loading collection, from the server's count of what the load
 * brings; 99 % at most until it is stored (a collection fed by several sources
 * may count a document twice). Null without a count (an older server).
 */
export function loadedShare(p: CollectionProgress): number | null {
  if (p.total === undefined) return null;
  if (p.total <= 0) return p.phase === 'ready' ? 100 : 0;
  if (p.phase === 'ready') return 100;
  return Math.min(99, Math.floor((p.documents * 100) / p.total));
}

function line(p: CollectionProgress, t: Translate): string {
  if (p.phase === 'waiting') return t('shell.syncWaiting');
  const share = loadedShare(p);
  if (p.phase === 'loading') return share === null ? t('shell.syncLoaded', { count: p.documents }) : `${share} %`;
  return p.documents ? t('shell.syncReadyCount', { count: p.documents }) : t('shell.syncReady');
}

/**
 * The first sync of this device, collection by collection: what is ready,
 * what is loading (its share, "Flights 45 %", when the server counted the
 * load; documents stored so far otherwise) and what waits its turn. The
 * person's own data loads first, so their screens work while the office-wide
 * records are still coming. Shown only until every collection is ready.
 */
export function FirstSync() {
  const { firstSync, online, lastError } = useSyncState();
  const network = useNetwork();
  const t = useT();
  const entries = Object.entries(firstSync);
  if (!entries.length) return null;
  // Hidden rather than gone once everything is ready: the times stay readable (bench:device).
  const done = entries.every(([, p]) => p.phase === 'ready');
  const rank = (n: string) =>
    (FIRST_SYNC_ORDER.indexOf(n) + FIRST_SYNC_ORDER.length + 1) % (FIRST_SYNC_ORDER.length + 1);
  entries.sort(([a], [b]) => rank(a) - rank(b));
  const ready = entries.filter(([, p]) => p.phase === 'ready').length;
  // Offline mid-way (no network, or a request failed and none answered since; `online` alone is false until the
  // first answer): the load waits for the connection (client-core retries), and the ready screens work meanwhile.
  const paused = !done && (!network || (!online && lastError !== null));
  return (
    <section
      className="first-sync"
      aria-label={t('shell.firstSync')}
      data-testid="first-sync"
      aria-live="polite"
      hidden={done}
      data-done={done ? 'true' : 'false'}
      data-paused={paused ? 'true' : 'false'}
    >
      <strong>{t(paused ? 'shell.settingUpPaused' : 'shell.settingUp', { ready, total: entries.length })}</strong>
      <ul>
        {entries.map(([name, p]) => (
          <li
            key={name}
            data-collection={name}
            data-phase={p.phase}
            data-documents={p.documents}
            data-total={p.total}
            data-started={p.startedAt}
            data-finished={p.finishedAt}
          >
            <span className="first-sync-name">{COLLECTION_LABELS[name] ? t(COLLECTION_LABELS[name]) : name}</span>{' '}
            {line(p, t)}
            {p.phase === 'loading' && loadedShare(p) !== null && (
              <progress max={100} value={loadedShare(p) ?? 0} aria-hidden="true" />
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
