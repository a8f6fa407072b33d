/** Pieces the billing screens share: a money cell, the entries table and the confirm dialog. */
import type { AircraftDoc } from '@ops/shared';
import { type ReactNode, useEffect, useId, useMemo, useRef } from 'react';
import { useDocs } from '../../hooks.ts';
import type { Translate } from '@ops/shared/i18n/index';
import { useFormats } from '../office-kit.tsx';
import { useBillingText } from './billing-data.ts';
import { type Entry, kindLabel } from './money.ts';
import { entryText } from '@ops/shared/rules/billing/descriptions';
import { renderText } from '@ops/shared/rules/readiness/text';
import './billing.css';

/** An amount in the company currency; negative (owed) in red. */
export function Money({ amount, currency, strong }: { amount: number; currency: string; strong?: boolean }) {
  const text = useBillingText().money(amount, currency);
  const cls = `money${amount < 0 ? ' money-neg' : ''}`;
  return strong ? <strong className={cls}>{text}</strong> : <span className={cls}>{text}</span>;
}

/** Registrations by aircraft id, from the replicated fleet. */
export function useAircraftNames(): Map<string, string> {
  const { docs } = useDocs<AircraftDoc>('aircraft');
  return useMemo(() => new Map(docs.map((a) => [a.id, a.registration])), [docs]);
}

/** An entry's description, or what it is when it has none. */
export function describeEntry(e: Entry, aircraft: ReadonlyMap<string, string>, t: Translate, locale = 'en'): string {
  // A description the server wrote reads in the reader's language (issue 33); free text and old rows as stored.
  const written = entryText(e);
  if (written) return renderText(t, written, locale);
  if (e.description) return e.description;
  const reg = e.aircraft_id ? aircraft.get(e.aircraft_id) : undefined;
  if (e.kind === 'flight') return reg ? t('billing.flightOn', { registration: reg }) : t('billing.flight');
  if (e.kind === 'package' && reg) return t('billing.packageFor', { registration: reg });
  return kindLabel(e.kind, t);
}

/** The entries of an account, newest first: date, kind, description, hours, net, tax, amount, and an optional action per row. */
export function EntriesTable({
  entries,
  currency,
  caption,
  action,
  compact,
}: {
  entries: readonly Entry[];
  currency: string;
  caption: string;
  action?: (e: Entry) => ReactNode;
  compact?: boolean;
}) {
  const f = useFormats();
  const { t, hours, locale } = useBillingText();
  const aircraft = useAircraftNames();
  if (entries.length === 0) return <p className="empty">{t('billing.noEntries')}</p>;
  // The office panel is narrow: no net column (amount less tax), hours only when an entry has some.
  const showNet = !compact;
  const showHours = !compact || entries.some((e) => e.hours);
  return (
    <div className="table-scroll">
      <table className="data-table billing-entries" data-testid="entries">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('billing.colDate')}</th>
            <th scope="col">{t('billing.colKind')}</th>
            <th scope="col">{t('billing.colDescription')}</th>
            {showHours && (
              <th scope="col" className="num">
                {t('billing.colHours')}
              </th>
            )}
            {showNet && (
              <th scope="col" className="num">
                {t('billing.colNet')}
              </th>
            )}
            <th scope="col" className="num">
              {t('billing.colTax')}
            </th>
            <th scope="col" className="num">
              {t('billing.colAmount')}
            </th>
            {action && <th scope="col">{t('billing.colActions')}</th>}
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <tr key={e.id} data-entry={e.id} data-kind={e.kind}>
              <td>{compact ? f.date(e.created) : f.dateTime(e.created)}</td>
              <td>
                <span className={`kind kind-${e.kind}`}>{kindLabel(e.kind, t)}</span>
              </td>
              <td>{describeEntry(e, aircraft, t, locale)}</td>
              {showHours && <td className="num">{e.hours ? hours(e.hours) : ''}</td>}
              {showNet && (
                <td className="num">
                  <Money amount={(Math.round(e.amount * 100) - Math.round(e.tax * 100)) / 100} currency={currency} />
                </td>
              )}
              <td className="num">{e.tax ? <Money amount={e.tax} currency={currency} /> : ''}</td>
              <td className="num">
                <Money amount={e.amount} currency={currency} strong />
              </td>
              {action && <td>{action(e)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A modal confirm that says what will happen (`effect`) before it happens,
 * with room for more fields (a reversal's reason). Escape or Cancel closes it.
 */
export function ConfirmDialog({
  title,
  effect,
  confirmLabel,
  danger,
  busy,
  error,
  onConfirm,
  onCancel,
  children,
}: {
  title: string;
  effect: string;
  confirmLabel: string;
  danger?: boolean;
  busy?: boolean;
  error?: string | null;
  onConfirm(): void;
  onCancel(): void;
  children?: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  const { t } = useBillingText();
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      className="confirm-dialog"
      aria-labelledby={`${id}-t`}
      aria-describedby={`${id}-e`}
      onCancel={onCancel}
      data-testid="confirm-dialog"
    >
      <form
        method="dialog"
        onSubmit={(ev) => {
          ev.preventDefault();
          onConfirm();
        }}
      >
        <h2 id={`${id}-t`}>{title}</h2>
        <p id={`${id}-e`} className="effect" data-testid="confirm-effect">
          {effect}
        </p>
        {children}
        {error && (
          <p role="alert" className="form-error">
            {error}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" className="secondary" onClick={onCancel} disabled={busy}>
            {t('billing.cancel')}
          </button>
          <button type="submit" className={danger ? 'danger' : undefined} disabled={busy}>
            {busy ? t('billing.saving') : confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
