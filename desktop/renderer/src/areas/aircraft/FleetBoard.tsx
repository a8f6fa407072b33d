import type { AircraftDoc, AircraftReportDoc, CommandDoc } from '@ops/shared';
import { memo, useLayoutEffect, useMemo, useRef } from 'react';
import type { DisplaySettings } from '../../format.ts';
import { useCompany, useDocs, useMarks, useNow } from '../../hooks.ts';
import type { ScreenProps } from '../../nav.ts';
import { reportRender } from '../../perf.ts';
import { type BoardRow, fleetBoard, openItems } from '../aircraft-reports/techlog.ts';
import { Badge, deadlineText, Empty, MelStatusBadge, PendingBadge } from '../../ui.tsx';
import { markKey } from '../../workspace.ts';

const OPEN_REPORTS = { selector: { status: { $ne: 'CLOSED' } } };
const PENDING_COMMANDS = { selector: { status: 'pending' } };

/**
 * Every aircraft with its open MEL and CDL items, their status recomputed
 * now, and whether it may be dispatched. Built from local data only.
 */
/** The fleet screen: a row opens that aircraft's technical log. */
export default function FleetBoardScreen({ go }: Pick<ScreenProps, 'go'>) {
  return <FleetBoard onOpen={(id) => go({ screen: 'techlog', id })} />;
}

export function FleetBoard({ onOpen }: { onOpen(aircraftId: string): void }) {
  // Start of this render; the layout effect below runs once it is committed.
  const renderStart = useRef(0);
  renderStart.current = performance.now();
  const aircraft = useDocs<AircraftDoc>('aircraft');
  const reports = useDocs<AircraftReportDoc>('aircraft_report', OPEN_REPORTS);
  const commands = useDocs<CommandDoc>('command', PENDING_COMMANDS);
  const marks = useMarks();
  const { display } = useCompany();
  const now = useNow();
  const ready = aircraft.ready && reports.ready && commands.ready;

  const rows = useMemo(() => {
    const byId = new Map(aircraft.docs.map((a) => [a.id, a]));
    return fleetBoard(aircraft.docs, openItems(reports.docs, byId, commands.docs, now, display.companyZone));
  }, [aircraft.docs, reports.docs, commands.docs, now, display.companyZone]);

  useLayoutEffect(() => {
    if (ready)
      reportRender('fleet', renderStart.current, {
        aircraft: rows.length,
        items: rows.reduce((n, r) => n + r.items.length, 0),
      });
  }, [rows, ready]);

  const blocked = rows.filter((r) => r.blocked).length;
  const items = rows.reduce((n, r) => n + r.items.length, 0);
  return (
    <section aria-labelledby="fleet-title">
      <div className="screen-head">
        <h2 id="fleet-title">Fleet</h2>
        <p className="muted">
          {rows.length} aircraft · {items} open MEL/CDL items · {blocked} blocked · deadlines in {display.companyZone}
        </p>
      </div>
      {ready && rows.length === 0 && <Empty>No aircraft on this device yet. They arrive with the first sync.</Empty>}
      <div className="fleet-grid" data-testid="fleet-board">
        {rows.map((row) => (
          <AircraftCard key={row.aircraft.id} row={row} display={display} marks={marks} onOpen={onOpen} />
        ))}
      </div>
    </section>
  );
}

const AircraftCard = memo(function AircraftCard({
  row,
  display,
  marks,
  onOpen,
}: {
  row: BoardRow;
  display: DisplaySettings;
  marks: ReadonlySet<string>;
  onOpen(id: string): void;
}) {
  const a = row.aircraft;
  const pendingDefects = row.defects.some((d) => marks.has(markKey('aircraft_report', d.report.id)));
  const state = row.grounded ? 'grounded' : row.blocked ? 'blocked' : 'ok';
  return (
    <article
      className={`aircraft-card state-${state}`}
      data-registration={a.registration}
      data-blocked={row.blocked ? 'true' : 'false'}
    >
      <header>
        <h3>{a.registration}</h3>
        <span className="muted">{a.model_name ?? a.model_icao ?? ''}</span>
        {row.grounded ? (
          <Badge tone="danger">Grounded</Badge>
        ) : row.blocked ? (
          <Badge tone="danger">Blocked</Badge>
        ) : (
          <Badge tone="ok">Dispatchable</Badge>
        )}
        {(row.pending || pendingDefects) && <PendingBadge />}
      </header>
      {row.blockReason && <p className="block-reason">{row.blockReason}</p>}
      {row.items.length > 0 ? (
        <ul className="items">
          {row.items.map((v) => (
            <li key={v.report.id} className={v.pending ? 'is-pending' : undefined}>
              <span className="item-kind">
                {v.report.type}
                {v.item?.category ? ` ${v.item.category}` : ''}
              </span>
              <span className="item-title">
                {v.report.ata_chapter ? `${v.report.ata_chapter} · ` : ''}
                {v.report.title}
              </span>
              <MelStatusBadge status={v.status} />
              <span className="item-deadline">{deadlineText(v.deadline, display)}</span>
              {v.pending && <PendingBadge what={v.pending} />}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted small">No open MEL or CDL items</p>
      )}
      <footer>
        <span className="muted small">
          {row.defects.length} open report{row.defects.length === 1 ? '' : 's'} · {Number(a.hours ?? 0).toFixed(1)} h ·{' '}
          {a.landings} landings
        </span>
        <button type="button" className="secondary small" onClick={() => onOpen(a.id)}>
          Technical log
        </button>
      </footer>
    </article>
  );
});
