/**
 * What keeps an aircraft on the ground: the one rule the server's dispatch and
 * booking decisions, the device's offline dispatch, the fleet header and the
 * readiness rule all ask (issue 28 item 1). Pure: callers gather the open
 * reports (server: SQL; device: local collections).
 *
 * Part B 2.2: a report with `aircraft_status` GROUNDED or `dispatch_condition`
 * GROUNDED means the aircraft may not dispatch while the report is open.
 * Part B 4.2 item 8: an EXPIRED MEL or CDL item blocks too.
 */
import type { Translate } from '../../i18n/index.ts';
import type { RuleText } from '../readiness/text.ts';
import type { MelCategory, MelStatus } from './mel.ts';

export interface BlockerCandidate {
  id: string;
  type: string;
  title: string;
  ata_chapter: string | null;
  severity?: string | null;
  /** Report status: OPEN, DEFERRED or CLOSED. */
  status: string;
  aircraft_status?: string | null;
  dispatch_condition?: string | null;
  /** When the report was raised (unix); a report raised after `at` does not block then. */
  created?: number | null;
  /** When it was closed (unix); a report closed at or before `at` no longer blocks. */
  closed?: number | null;
  /** The MEL or CDL item: its category and its status at `at`, derived by the caller (counters need flights). */
  mel?: { category: MelCategory | null; status: MelStatus | null } | null;
}

export type BlockerKind = 'GROUNDED' | 'MEL_EXPIRED';

export interface AircraftBlocker {
  report_id: string;
  kind: BlockerKind;
  /** Why, as a person reads it ("Open defect “Nose gear shimmy” (ATA 32, CRITICAL) grounds the aircraft."). */
  sentence: string;
  /** The English `sentence` as a message id and values, for a reader of another language (issue 33). */
  text?: RuleText;
}

/** A report that grounds its aircraft while it is open (Part B 2.2). */
export const groundsAircraft = (r: Pick<BlockerCandidate, 'aircraft_status' | 'dispatch_condition'>): boolean =>
  r.aircraft_status === 'GROUNDED' || r.dispatch_condition === 'GROUNDED';

const TYPE_WORDS: Record<string, string> = {
  DEFECT: 'defect',
  INFO: 'information report',
  MEL: 'MEL item',
  CDL: 'CDL item',
  MAINTENANCE_ACTION: 'maintenance action',
  SERVICING: 'servicing entry',
};

function groundingSentence(r: BlockerCandidate): string {
  const details = [
    r.ata_chapter ? `ATA ${r.ata_chapter}` : null,
    r.severity && r.severity !== 'LOW' ? r.severity : null,
  ]
    .filter(Boolean)
    .join(', ');
  return `Open ${TYPE_WORDS[r.type] ?? 'report'} “${r.title}”${details ? ` (${details})` : ''} grounds the aircraft.`;
}

/** The grounding sentence in a reader's language (the English one above stays as the server says it). */
function groundingSentenceIn(r: BlockerCandidate, t: Translate): string {
  const details = [
    r.ata_chapter ? `ATA ${r.ata_chapter}` : null,
    r.severity && r.severity !== 'LOW' ? t('aircraft-reports.severityName', { severity: r.severity }) : null,
  ]
    .filter(Boolean)
    .join(', ');
  return details
    ? t('aircraft-reports.groundingDetails', { type: r.type, title: r.title, details })
    : t('aircraft-reports.grounding', { type: r.type, title: r.title });
}

function expiredSentenceIn(r: BlockerCandidate, t: Translate): string {
  return t('aircraft-reports.expired', {
    kind: r.type === 'CDL' ? 'CDL' : 'MEL',
    ata: r.ata_chapter || 'none',
    category: r.mel?.category || 'none',
    title: r.title,
  });
}

/** The words the MEL rule has always used (Part B 4.6 item 5: names the ATA chapter and category). */
function expiredSentence(r: BlockerCandidate): string {
  const ata = r.ata_chapter ? ` ${r.ata_chapter}` : '';
  const category = r.mel?.category ? ` (category ${r.mel.category})` : '';
  return `${r.type === 'CDL' ? 'CDL' : 'MEL'} item${ata}${category} expired: ${r.title}`;
}

/** Whether a report is open at `at` (closed after `at`, or not yet raised, changes the answer). */
function openAt(r: BlockerCandidate, at: number): boolean {
  if (r.created != null && r.created > at) return false;
  if (r.status !== 'CLOSED') return true;
  return r.closed != null && r.closed > at;
}

/**
 * The reports that block dispatch of one aircraft at `at`, grounding reports
 * first (in the order given), then expired MEL/CDL items; empty when the
 * aircraft may be dispatched. Each carries the sentence a refusal shows.
 */
export function aircraftBlockers(
  reports: readonly BlockerCandidate[],
  at: number,
  /** The reader's language for the sentences (screens); without it, the server's English. */
  t?: Translate,
): AircraftBlocker[] {
  const open = reports.filter((r) => openAt(r, at));
  const grounded: AircraftBlocker[] = open.filter(groundsAircraft).map((r) => ({
    report_id: r.id,
    kind: 'GROUNDED',
    sentence: t ? groundingSentenceIn(r, t) : groundingSentence(r),
    text: groundingText(r),
  }));
  const expired: AircraftBlocker[] = open
    .filter((r) => !groundsAircraft(r) && r.mel && r.mel.status === 'EXPIRED')
    .map((r) => ({
      report_id: r.id,
      kind: 'MEL_EXPIRED',
      sentence: t ? expiredSentenceIn(r, t) : expiredSentence(r),
      text: expiredText(r),
    }));
  return [...grounded, ...expired];
}

/** The refusal of a dispatch or a booking, naming the first blocker ("EC-JET cannot be dispatched: …"). */
export function blockedRefusal(
  subject: string,
  action: 'dispatched' | 'booked',
  blockers: readonly AircraftBlocker[],
  /** The reader's language (pass blockers built with the same `t`); without it, the server's English. */
  t?: Translate,
): string | null {
  const first = blockers[0];
  if (!first) return null;
  const n = blockers.length - 1;
  if (t) {
    const why = /[.!?]$/.test(first.sentence) ? first.sentence : `${first.sentence}.`;
    return t('aircraft-reports.blockedRefusal', { action, subject, why, more: n });
  }
  const more = n > 0 ? ` ${n} other open report${n > 1 ? 's also block' : ' also blocks'} it.` : '';
  const why = /[.!?]$/.test(first.sentence) ? first.sentence : `${first.sentence}.`;
  return `${subject} cannot be ${action}: ${why}${more}`;
}

/**
 * `blockedRefusal` (English) as a message id and values (issue 33): what the
 * server's refusal carries so a device shows it in its reader's language.
 */
export function blockedRefusalText(
  subject: string,
  action: 'dispatched' | 'booked',
  blockers: readonly AircraftBlocker[],
): RuleText | null {
  const first = blockers[0];
  if (!first) return null;
  const sentence: RuleText = first.text ?? { id: 'refusals.asIs', values: { text: first.sentence } };
  // The English adds a full stop when the sentence has none (the expired-item sentence ends on the title).
  const why: RuleText = /[.!?]$/.test(first.sentence)
    ? sentence
    : { id: 'refusals.withStop', lists: { text: [sentence] } };
  return {
    id: 'aircraft-reports.blockedRefusal',
    values: { action, subject, more: blockers.length - 1 },
    lists: { why: [why] },
  };
}

function groundingText(r: BlockerCandidate): RuleText {
  const details: RuleText[] = [];
  // "ATA 32" reads the same in every language.
  if (r.ata_chapter) details.push({ id: 'refusals.asIs', values: { text: `ATA ${r.ata_chapter}` } });
  if (r.severity && r.severity !== 'LOW')
    details.push({ id: 'aircraft-reports.severityName', values: { severity: r.severity } });
  const values = { type: r.type, title: r.title };
  return details.length
    ? { id: 'aircraft-reports.groundingDetails', values, lists: { details }, joins: { details: ', ' } }
    : { id: 'aircraft-reports.grounding', values };
}

const expiredText = (r: BlockerCandidate): RuleText => ({
  id: 'aircraft-reports.expired',
  values: {
    kind: r.type === 'CDL' ? 'CDL' : 'MEL',
    ata: r.ata_chapter || 'none',
    category: r.mel?.category || 'none',
    title: r.title,
  },
});

/** The refusal code of a dispatch: MEL_EXPIRED keeps its meaning; grounding has its own. */
export const blockerCode = (b: AircraftBlocker): 'AIRCRAFT_GROUNDED' | 'MEL_EXPIRED' =>
  b.kind === 'GROUNDED' ? 'AIRCRAFT_GROUNDED' : 'MEL_EXPIRED';

type GroundingState = Pick<BlockerCandidate, 'status' | 'aircraft_status' | 'dispatch_condition'>;

/**
 * Whether a change releases an aircraft a report grounded: the report was open
 * and grounding, and afterwards it is closed or no longer grounds. Such a
 * change is a release to service: it needs the rectification (issue 28 item 6).
 */
export function releasesAircraft(before: GroundingState, after: GroundingState): boolean {
  if (before.status === 'CLOSED' || !groundsAircraft(before)) return false;
  return after.status === 'CLOSED' || !groundsAircraft(after);
}

/** The description with the rectification recorded under it (Part B 2.2 has no field of its own). */
export function withRectification(description: string | null, rectification: string): string {
  const text = `Rectification: ${rectification.trim()}`;
  return description?.trim() ? `${description.trimEnd()}\n\n${text}` : text;
}
