import type { MessageId } from '@ops/shared/i18n/index';
import { commandRefusal, refusalSentence } from './refusals.ts';
import { type Rejection, describeCommand } from './decisions.ts';
import { formatDateTime } from './format.ts';
import { useCommands, useCompany, useDeferred, useMarks, useSyncField, useWorkspace } from './hooks.ts';
import { useLocale, useT } from './i18n.tsx';
import { Badge, Empty } from './ui.tsx';

const COLLECTION_LABEL: Record<string, MessageId> = {
  aircraft_report: 'shell.screenTechlog',
  flights: 'shell.flights',
  maintenance_job: 'shell.groupMaintenance',
  command: 'shell.commands',
};

/** What waits for the server, and what the server refused (with its reasons). */
export default function Changes({ rejected }: { rejected: Rejection[] }) {
  const ws = useWorkspace();
  const t = useT();
  const { locale } = useLocale();
  const pendingWrites = useSyncField('pendingWrites');
  const pendingCommands = useSyncField('pendingCommands');
  const { docs: commands } = useCommands();
  const deferred = useDeferred();
  const marks = useMarks();
  const { display } = useCompany();
  const pending = commands.filter((c) => c.status === 'pending');
  const decided = commands.filter((c) => c.status !== 'pending').slice(0, 15);
  const flightZone = display.flightZone;
  // Command documents are local writes too until pushed: count them once, as commands.
  const changes = Math.max(0, pendingWrites - pendingCommands);

  return (
    <section aria-labelledby="changes-title">
      <div className="screen-head">
        <h2 id="changes-title">{t('shell.changesTitle')}</h2>
        <span className="muted">
          {t('shell.changesWaiting', { changes, commands: pending.length + deferred.length })}
        </span>
      </div>

      <h3>{t('shell.rejectedByServer')}</h3>
      {rejected.length === 0 ? (
        <Empty>{t('shell.nothingRejected')}</Empty>
      ) : (
        <>
          <ul className="rejections" data-testid="rejections">
            {rejected.map((r) => (
              <li key={r.id} className="rejection" data-kind={r.kind}>
                <div>
                  <strong>{r.what}</strong>{' '}
                  <Badge tone={r.conflict ? 'warn' : 'danger'}>
                    {r.conflict ? t('shell.badgeConflict') : t('shell.badgeRejected')}
                  </Badge>{' '}
                  <span className="muted small">{formatDateTime(r.at, display)}</span>
                </div>
                <p className="reason">{refusalSentence({ message: r.reason, text: r.text }, t, locale)}</p>
                {r.conflicts.length > 0 && (
                  <ul className="conflicts">
                    {r.conflicts.map((c) => (
                      <li key={c.id}>
                        {c.callsign ?? t('shell.flight')} · {formatDateTime(c.offblocks, display, flightZone)} –{' '}
                        {formatDateTime(c.onblocks, display, flightZone)} ({flightZone})
                      </li>
                    ))}
                  </ul>
                )}
                <button type="button" className="link" onClick={() => ws.dismiss([r.id])}>
                  {t('shell.dismiss')}
                </button>
              </li>
            ))}
          </ul>
          <button type="button" className="secondary small" onClick={() => ws.dismiss(rejected.map((r) => r.id))}>
            {t('shell.dismissAll')}
          </button>
        </>
      )}

      <h3>{t('shell.waitingForServer')}</h3>
      {pending.length + deferred.length + marks.size === 0 ? (
        <Empty>{t('shell.allSent')}</Empty>
      ) : (
        <ul className="pending-list" data-testid="pending-list">
          {deferred.map((d) => (
            <li key={d.id}>
              {describeCommand(d, t)} <Badge tone="pending">{t('shell.waitsForRecord')}</Badge>{' '}
              <span className="muted small">{formatDateTime(Math.floor(d.client_time / 1000), display)}</span>
            </li>
          ))}
          {pending.map((c) => (
            <li key={c.id}>
              {describeCommand(c, t)} <Badge tone="pending">{t('shell.badgeCommand')}</Badge>{' '}
              <span className="muted small">{formatDateTime(Math.floor(c.client_time / 1000), display)}</span>
            </li>
          ))}
          {[...marks].map((k) => {
            const [collection] = k.split(':');
            const label = COLLECTION_LABEL[collection];
            return (
              <li key={k}>
                {t('shell.changedRecord', { collection: label ? t(label) : collection })}{' '}
                <Badge tone="pending">{t('shell.badgeChange')}</Badge>
              </li>
            );
          })}
        </ul>
      )}

      <h3>{t('shell.recentDecisions')}</h3>
      {decided.length === 0 ? (
        <Empty>{t('shell.noDecisions')}</Empty>
      ) : (
        <ul className="pending-list">
          {decided.map((c) => (
            <li key={c.id}>
              {describeCommand(c, t)}{' '}
              <Badge tone={c.status === 'accepted' ? 'ok' : 'danger'}>
                {c.status === 'accepted' ? t('shell.badgeAccepted') : t('shell.badgeRejected')}
              </Badge>
              {c.reason ? <span className="small"> {commandRefusal(c, t, locale)}</span> : null}{' '}
              <span className="muted small">{c.decided_at ? formatDateTime(c.decided_at, display) : ''}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
