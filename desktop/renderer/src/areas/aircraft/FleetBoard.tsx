import type { AircraftDoc, AircraftReportDoc, CommandDoc } from '@ops/shared';
import { formatNumber, type MessageId, type Translate } from '@ops/shared/i18n/index';
import type { CounterUnit, MelDeadline } from '@ops/shared/rules/aircraft-reports/mel';
import { memo, useLayoutEffect, useMemo, useRef } from 'react';
import { wallClock } from '../../format.ts';
import { useCompany, useDocs, useMarks, useNow } from '../../hooks.ts';
import { useLocale, useT } from '../../i18n.tsx';
import type { ScreenProps } from '../../nav.ts';
import { reportRender } from '../../perf.ts';
import { type BoardRow, fleetBoard, openItems } from '../aircraft-reports/techlog.ts';
import { useFormats } from '../office-kit.tsx';
import { Badge, Empty, PendingBadge } from '../../ui.tsx';
import { markKey } from '../../workspace.ts';

type Formats = ReturnType<typeof useFormats>;

/** MEL/CDL statuses (codes in data) as people read them, with their colour. */
const STATUS: Record<string, { id: MessageId; tone: 'info' | 'warn' | 'danger' | 'neutral' }> = {
  OPEN: { id: 'aircraft.statusOpen', tone: 'info' },
  EXPIRING_SOON: { id: 'aircraft.statusExpiringSoon', tone: 'warn' },
  EXPIRED: { id: 'aircraft.statusExpired', tone: 'danger' },
  CLOSED: { id: 'aircraft.statusClosed', tone: 'neutral' },
};

function StatusBadge({ status, t }: { status: string | null; t: Translate }) {
  if (!status) return null;
  const s = STATUS[status];
  return <Badge tone={s?.tone ?? 'neutral'}>{s ? t(s.id) : status.replace('_', ' ')}</Badge>;
}

const LEFT: Record<CounterUnit, MessageId> = {
  flights: 'aircraft.flightsLeft',
  cycles: 'aircraft.cyclesLeft',
  flight_days: 'aircraft.flightDaysLeft',
};
const USED_UP: typeof LEFT = {
  flights: 'aircraft.flightsUsedUp',
  cycles: 'aircraft.cyclesUsedUp',
  flight_days: 'aircraft.flightDaysUsedUp',
};

/**
 * An item's deadline in words, in the app's language: a date in the company zone (a window ending at company
 * midnight reads "until end of" its last day), or what is left of a counter.
 */
export function fleetDeadline(deadline: MelDeadline | null, f: Formats, zone: string, t: Translate): string {
  if (!deadline || deadline.kind === 'none') return t('aircraft.noDeadline');
  if (deadline.kind === 'time') {
    const c = wallClock(deadline.expires, zone);
    return c.hour === 0 && c.minute === 0
      ? t('aircraft.untilEndOf', { date: f.date(deadline.expires - 1) })
      : t('aircraft.until', { when: f.dateTime(deadline.expires) });
  }
  if (!deadline.known) return t('aircraft.limitUnknown');
  return deadline.remaining <= 0
    ? t(USED_UP[deadline.unit], { count: deadline.limit })
    : t(LEFT[deadline.unit], { count: deadline.remaining });
}

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
  const t = useT();
  const { locale } = useLocale();
  const f = useFormats();
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
        <h2 id="fleet-title">{t('shell.screenFleet')}</h2>
        {/* Not "0 aircraft" while the fleet is still loading on this device (the shell says it is loading). */}
        {ready && (
          <p className="muted">
            {t('aircraft.summary', { aircraft: rows.length, items, blocked, zone: display.companyZone })}
          </p>
        )}
      </div>
      {ready && rows.length === 0 && <Empty>{t('aircraft.empty')}</Empty>}
      <div className="fleet-grid" data-testid="fleet-board">
        {rows.map((row) => (
          <AircraftCard
            key={row.aircraft.id}
            row={row}
            f={f}
            zone={display.companyZone}
            t={t}
            locale={locale}
            marks={marks}
            onOpen={onOpen}
          />
        ))}
      </div>
    </section>
  );
}

const AircraftCard = memo(function AircraftCard({
  row,
  f,
  zone,
  t,
  locale,
  marks,
  onOpen,
}: {
  row: BoardRow;
  f: Formats;
  zone: string;
  t: Translate;
  locale: string;
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
          <Badge tone="danger">{t('aircraft.grounded')}</Badge>
        ) : row.blocked ? (
          <Badge tone="danger">{t('aircraft.blocked')}</Badge>
        ) : (
          <Badge tone="ok">{t('aircraft.dispatchable')}</Badge>
        )}
        {(row.pending || pendingDefects) && <PendingBadge what={t('aircraft.pending')} />}
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
              <StatusBadge status={v.status} t={t} />
              <span className="item-deadline">{fleetDeadline(v.deadline, f, zone, t)}</span>
              {v.pending && <PendingBadge what={v.pending} />}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted small">{t('aircraft.noItems')}</p>
      )}
      <footer>
        <span className="muted small">
          {t('aircraft.footer', {
            reports: row.defects.length,
            hours: formatNumber(Number(a.hours ?? 0), locale, 1, 1),
            landings: Number(a.landings ?? 0),
          })}
        </span>
        <button type="button" className="secondary small" onClick={() => onOpen(a.id)}>
          {t('shell.screenTechlog')}
        </button>
      </footer>
    </article>
  );
});
