import { formatDateTime, formatTime, isoDateIn } from './format.ts';
import { useCompany, useDeferred, useNetwork, useNow, useSyncState, useWorkspace } from './hooks.ts';
import { usePendingFileCount } from './areas/uploads/files.ts';
import { offlineLine } from './refusals.ts';

/**
 * Always visible: online or offline (the server answering, not just a
 * network), changes, commands and files (photos) waiting for the server, the
 * last sync and the last error. Mounted while signed in, so it keeps the file
 * queue uploading.
 */
export function SyncBar({ rejected, onShowChanges }: { rejected: number; onShowChanges(): void }) {
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
      ? 'never'
      : isoDateIn(last, display.companyZone) === isoDateIn(now, display.companyZone)
        ? formatTime(last, display)
        : formatDateTime(last, display);
  return (
    <section
      className={`syncbar ${online ? 'is-online' : 'is-offline'}`}
      aria-label="Sync status"
      data-testid="sync-status"
    >
      <span className="sync-state" data-online={online ? 'true' : 'false'}>
        <span className="dot" aria-hidden="true" />
        {online ? 'Online' : offlineLine(changes + commands + files)}
      </span>
      <button
        type="button"
        className={`sync-pending ${changes + commands > 0 ? 'has-pending' : ''}`}
        onClick={onShowChanges}
        data-testid="sync-pending"
      >
        {changes} change{changes === 1 ? '' : 's'} · {commands} command{commands === 1 ? '' : 's'} pending
      </button>
      <span
        className={`sync-files ${files > 0 ? 'has-pending' : ''}`}
        data-testid="sync-files"
        title="Photos and files saved on this device, uploaded when the server can be reached"
      >
        {files} file{files === 1 ? '' : 's'} pending
      </span>
      {rejected > 0 && (
        <button type="button" className="sync-rejected" onClick={onShowChanges} data-testid="sync-rejected">
          {rejected} rejected
        </button>
      )}
      <span className="sync-last" title={display.companyZone}>
        Last sync {lastText}
      </span>
      {/* Offline, the transport's own error ("stream: Failed to fetch") says nothing new: the quiet line above says it. */}
      {online && s.lastError && (
        <span className="sync-error" title={s.lastError}>
          {s.lastError}
        </span>
      )}
      <button type="button" className="secondary small" onClick={() => ws.client.resync()} disabled={!network}>
        Sync now
      </button>
    </section>
  );
}
