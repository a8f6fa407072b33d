import type { CommandDoc, OutcomeDoc } from '@ops/shared';
import type { ReactNode } from 'react';
import { conflictsOf } from './decisions.ts';
import { commandRefusal, humanRefusal } from './refusals.ts';
import { useLocale, useT } from './i18n.tsx';
import type { MelDeadline } from '@ops/shared/rules/aircraft-reports/mel';
import { type DisplaySettings, formatDateTime, formatDeadline } from './format.ts';

/** A coloured label; `tone` picks the colour. */
export function Badge({
  tone = 'neutral',
  children,
  title,
}: {
  tone?: 'neutral' | 'ok' | 'warn' | 'danger' | 'pending' | 'info';
  children: ReactNode;
  title?: string;
}) {
  return (
    <span className={`badge badge-${tone}`} title={title}>
      {children}
    </span>
  );
}

/** "Waiting for the server" marker on an item changed on this device. */
export function PendingBadge({ what }: { what?: string }) {
  const t = useT();
  return (
    <Badge tone="pending" title={t('shell.kitPendingTitle')}>
      <span className="pending-dot" aria-hidden="true" />
      {what ?? t('shell.kitPending')}
    </Badge>
  );
}

const STATUS_TONE: Record<string, 'ok' | 'warn' | 'danger' | 'neutral' | 'info'> = {
  OPEN: 'info',
  EXPIRING_SOON: 'warn',
  EXPIRED: 'danger',
  CLOSED: 'neutral',
};

export function MelStatusBadge({ status }: { status: string | null }) {
  if (!status) return null;
  return <Badge tone={STATUS_TONE[status] ?? 'neutral'}>{status.replace('_', ' ')}</Badge>;
}

/** The server's latest decision on a record: a command's or a rejected push. */
export function DecisionNote({
  command,
  outcome,
  display,
}: {
  command?: CommandDoc;
  outcome?: OutcomeDoc;
  display: DisplaySettings;
}) {
  const t = useT();
  const { locale } = useLocale();
  if (outcome && (!command || outcome.created >= (command.decided_at ?? 0))) {
    return (
      <div className="decision decision-rejected" role="alert">
        <strong>{outcome.status === 'conflict' ? t('shell.notApplied') : t('shell.refusedByServer')}:</strong>{' '}
        {humanRefusal(outcome.reason, null, t)}
      </div>
    );
  }
  if (!command) return null;
  if (command.status === 'pending') return null;
  if (command.status === 'accepted') {
    return (
      <div className="decision decision-accepted">
        {command.decided_at
          ? t('shell.acceptedByServerAt', { when: formatDateTime(command.decided_at, display) })
          : t('shell.acceptedByServer')}
      </div>
    );
  }
  const conflicts = conflictsOf(command.details);
  return (
    <div className="decision decision-rejected" role="alert">
      <strong>{t('shell.refusedByServer')}:</strong> {commandRefusal(command, t, locale)}
      {conflicts.length > 0 && (
        <ul className="conflicts">
          {conflicts.map((c) => (
            <li key={c.id}>
              {c.callsign ?? t('shell.flight')} · {formatDateTime(c.offblocks, display, display.flightZone)} –{' '}
              {formatDateTime(c.onblocks, display, display.flightZone)} ({display.flightZone})
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function Field({
  label,
  error,
  children,
  wide,
}: {
  label: string;
  error?: string;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control comes in as children
    <label className={wide ? 'field field-wide' : 'field'}>
      <span>{label}</span>
      {children}
      {error && <small className="field-error">{error}</small>}
    </label>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

const UNIT: Record<string, [string, string]> = {
  flights: ['flight', 'flights'],
  cycles: ['cycle', 'cycles'],
  flight_days: ['flight day', 'flight days'],
};

/** An item's deadline in words: a date in the company zone, or what is left of a counter. */
export function deadlineText(deadline: MelDeadline | null, display: DisplaySettings): string {
  if (!deadline || deadline.kind === 'none') return 'no deadline';
  if (deadline.kind === 'time') return `until ${formatDeadline(deadline.expires, display)}`;
  if (!deadline.known) return 'limit unknown (counts as used up)';
  const [one, many] = UNIT[deadline.unit] ?? [deadline.unit, deadline.unit];
  return deadline.remaining <= 0
    ? `${deadline.limit} ${deadline.limit === 1 ? one : many} used up`
    : `${deadline.remaining} ${deadline.remaining === 1 ? one : many} left`;
}
