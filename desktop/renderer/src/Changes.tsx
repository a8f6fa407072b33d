import { codeOf, humanRefusal } from './refusals.ts';
import { type Rejection, describeCommand } from './decisions.ts';
import { formatDateTime } from './format.ts';
import { useCommands, useCompany, useDeferred, useMarks, useSyncState, useWorkspace } from './hooks.ts';
import { Badge, Empty } from './ui.tsx';

const COLLECTION_LABEL: Record<string, string> = {
  aircraft_report: 'Technical log',
  flights: 'Flights',
  maintenance_job: 'Maintenance',
  command: 'Commands',
};

/** What waits for the server, and what the server refused (with its reasons). */
export default function Changes({ rejected }: { rejected: Rejection[] }) {
  const ws = useWorkspace();
  const sync = useSyncState();
  const { docs: commands } = useCommands();
  const deferred = useDeferred();
  const marks = useMarks();
  const { display } = useCompany();
  const pending = commands.filter((c) => c.status === 'pending');
  const decided = commands.filter((c) => c.status !== 'pending').slice(0, 15);
  const flightZone = display.flightZone;
  // Command documents are local writes too until pushed: count them once, as commands.
  const changes = Math.max(0, sync.pendingWrites - sync.pendingCommands);

  return (
    <section aria-labelledby="changes-title">
      <div className="screen-head">
        <h2 id="changes-title">Sync and rejections</h2>
        <span className="muted">
          {changes} change{changes === 1 ? '' : 's'} and {pending.length + deferred.length} command
          {pending.length + deferred.length === 1 ? '' : 's'} waiting for the server
        </span>
      </div>

      <h3>Rejected by the server</h3>
      {rejected.length === 0 ? (
        <Empty>Nothing rejected.</Empty>
      ) : (
        <>
          <ul className="rejections" data-testid="rejections">
            {rejected.map((r) => (
              <li key={r.id} className="rejection" data-kind={r.kind}>
                <div>
                  <strong>{r.what}</strong>{' '}
                  <Badge tone={r.conflict ? 'warn' : 'danger'}>{r.conflict ? 'conflict' : 'rejected'}</Badge>{' '}
                  <span className="muted small">{formatDateTime(r.at, display)}</span>
                </div>
                <p className="reason">{humanRefusal(r.reason)}</p>
                {r.conflicts.length > 0 && (
                  <ul className="conflicts">
                    {r.conflicts.map((c) => (
                      <li key={c.id}>
                        {c.callsign ?? 'Flight'} · {formatDateTime(c.offblocks, display, flightZone)} –{' '}
                        {formatDateTime(c.onblocks, display, flightZone)} ({flightZone})
                      </li>
                    ))}
                  </ul>
                )}
                <button type="button" className="link" onClick={() => ws.dismiss([r.id])}>
                  Dismiss
                </button>
              </li>
            ))}
          </ul>
          <button type="button" className="secondary small" onClick={() => ws.dismiss(rejected.map((r) => r.id))}>
            Dismiss all
          </button>
        </>
      )}

      <h3>Waiting for the server</h3>
      {pending.length + deferred.length + marks.size === 0 ? (
        <Empty>Everything on this device has reached the server.</Empty>
      ) : (
        <ul className="pending-list" data-testid="pending-list">
          {deferred.map((d) => (
            <li key={d.id}>
              {describeCommand(d)} <Badge tone="pending">waits for its record to be sent</Badge>{' '}
              <span className="muted small">{formatDateTime(Math.floor(d.client_time / 1000), display)}</span>
            </li>
          ))}
          {pending.map((c) => (
            <li key={c.id}>
              {describeCommand(c)} <Badge tone="pending">command</Badge>{' '}
              <span className="muted small">{formatDateTime(Math.floor(c.client_time / 1000), display)}</span>
            </li>
          ))}
          {[...marks].map((k) => {
            const [collection] = k.split(':');
            return (
              <li key={k}>
                {COLLECTION_LABEL[collection] ?? collection}: changed record <Badge tone="pending">change</Badge>
              </li>
            );
          })}
        </ul>
      )}

      <h3>Recent decisions</h3>
      {decided.length === 0 ? (
        <Empty>No decided commands yet.</Empty>
      ) : (
        <ul className="pending-list">
          {decided.map((c) => (
            <li key={c.id}>
              {describeCommand(c)} <Badge tone={c.status === 'accepted' ? 'ok' : 'danger'}>{c.status}</Badge>
              {c.reason ? <span className="small"> {humanRefusal(c.reason, codeOf(c))}</span> : null}{' '}
              <span className="muted small">{c.decided_at ? formatDateTime(c.decided_at, display) : ''}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
