/**
 * Ledger entry descriptions the server writes (issue 33). The stored text stays
 * English (the API's `description`, integrations read it); these builders are
 * the one place it is worded, and `entryText` reads a stored one back as a
 * message id and values so the account screen shows it in its reader's
 * language. Free texts typed by the office, and anything else, give null:
 * they are shown as stored.
 */
import type { RuleText } from '../readiness/text.ts';

/** The part of a flight's charge a line is (its description's first words). */
export type ChargeLineWords = 'Aircraft' | 'Instructor' | 'Prepaid hours used';
const LINE_KEYS: Record<ChargeLineWords, string> = {
  Aircraft: 'aircraft',
  Instructor: 'instructor',
  'Prepaid hours used': 'package',
};

/** "Aircraft: EC-DEF 2026-11-14": a flight's charge line. */
export const chargeLineDescription = (line: ChargeLineWords, registration: string, date: string): string =>
  `${line}: ${registration} ${date}`;
/** "Flight 2026-11-14 changed": the reversal of a changed flight's earlier charges. */
export const flightChangedDescription = (date: string): string => `Flight ${date} changed`;
/** "Reversal of payment": a reversal made without a description. */
export const reversalDescription = (kind: string): string => `Reversal of ${kind}`;
/** A payment made online (Stripe checkout). */
export const ONLINE_PAYMENT = 'Online payment';

const CHARGE_LINE = /^(Aircraft|Instructor|Prepaid hours used): (\S+) (\d{4}-\d\d-\d\d)$/;
const CHANGED = /^Flight (\d{4}-\d\d-\d\d) changed$/;
const REVERSAL = /^Reversal of (flight|instructor|package|payment|adjustment|reversal)$/;

/** A stored description the server wrote, as a message; null for free text (shown as stored). */
export function entryText(e: { kind: string; flight_id: string | null; description: string | null }): RuleText | null {
  const d = e.description;
  if (!d) return null;
  const line = e.flight_id ? CHARGE_LINE.exec(d) : null;
  if (line)
    return {
      id: 'billing.descChargeLine',
      values: { line: LINE_KEYS[line[1] as ChargeLineWords], registration: line[2], date: line[3] },
    };
  const changed = e.kind === 'reversal' && e.flight_id ? CHANGED.exec(d) : null;
  if (changed) return { id: 'billing.descFlightChanged', values: { date: changed[1] } };
  const reversal = e.kind === 'reversal' ? REVERSAL.exec(d) : null;
  if (reversal) return { id: 'billing.descReversalOf', values: { kind: reversal[1] } };
  if (e.kind === 'payment' && d === ONLINE_PAYMENT) return { id: 'billing.descOnlinePayment' };
  return null;
}
