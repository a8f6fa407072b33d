/**
 * The server's decisions as the screens show them: rejected pushes (`outcomes`)
 * and rejected commands, with the record they concern and, for a refused
 * confirm, the overlapping flights. Pure.
 */
import type { CommandDoc, OutcomeDoc } from '@ops/shared';
import { type Translate, translator } from '@ops/shared/i18n/index';

/** English for callers (and tests) that pass no language; the screens pass their `t`. */
const EN: Translate = translator('en');

export interface Conflict {
  id: string;
  callsign: string | null;
  date: string;
  /** Unix seconds. */
  offblocks: number | null;
  onblocks: number | null;
}

export interface Target {
  collection: string;
  id: string;
}

export interface Rejection {
  /** The outcome or command id. */
  id: string;
  kind: 'outcome' | 'command';
  /** What was attempted, in words. */
  what: string;
  reason: string;
  /** A command's reason as the server's message id and values (issue 33), shown in the reader's language. */
  text?: unknown;
  /** Unix seconds of the decision. */
  at: number;
  target: Target | null;
  conflicts: Conflict[];
  /** A lost race (`conflict` outcome) rather than a refusal by the rules. */
  conflict: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The overlapping flights a refused confirm lists (`details.conflicts`, Part B 4.6 item 4). */
export function conflictsOf(details: unknown): Conflict[] {
  if (!isObject(details) || !Array.isArray(details.conflicts)) return [];
  return details.conflicts.filter(isObject).map((c) => ({
    id: String(c.id ?? ''),
    callsign: str(c.callsign),
    date: String(c.date ?? ''),
    // The server names them `*_time` but sends unix seconds.
    offblocks: num(c.offblocks_time),
    onblocks: num(c.onblocks_time),
  }));
}

/** The record a command acts on. */
export function commandTarget(cmd: Pick<CommandDoc, 'name' | 'args'>): Target | null {
  const a = cmd.args;
  if (cmd.name === 'flight.confirm' || cmd.name === 'flight.dispatch')
    return str(a.flight_id) ? { collection: 'flights', id: String(a.flight_id) } : null;
  if (cmd.name === 'mel.extend' || cmd.name === 'mel.close')
    return str(a.report_id) ? { collection: 'aircraft_report', id: String(a.report_id) } : null;
  if (cmd.name === 'mel.raise') return str(a.id) ? { collection: 'aircraft_report', id: String(a.id) } : null;
  return null;
}

/** A command in words, e.g. "Raise MEL item: Beacon light". */
export function describeCommand(cmd: Pick<CommandDoc, 'name' | 'args'>, t: Translate = EN): string {
  const a = cmd.args;
  switch (cmd.name) {
    case 'mel.raise': {
      const r = isObject(a.AircraftReport) ? a.AircraftReport : {};
      return t('shell.cmdRaise', { type: str(r.type) ?? 'MEL', title: str(r.title) ?? t('shell.untitled') });
    }
    case 'mel.extend':
      return t('shell.cmdExtend');
    case 'mel.close':
      return t('shell.cmdClose');
    case 'flight.confirm':
      return t('shell.cmdConfirm');
    case 'flight.dispatch':
      return t('shell.cmdDispatch');
    case 'base.set_default':
      return t('shell.cmdSetBase');
    default:
      return cmd.name;
  }
}

/** Rejected changes and commands, newest first, leaving out those the person dismissed. */
export function rejections(
  outcomes: readonly OutcomeDoc[],
  commands: readonly CommandDoc[],
  dismissed: ReadonlySet<string> = new Set(),
  t: Translate = EN,
): Rejection[] {
  const out: Rejection[] = [];
  for (const o of outcomes) {
    if (dismissed.has(o.id)) continue;
    const title = isObject(o.attempted)
      ? (str(o.attempted.title) ?? str(o.attempted.callsign) ?? str(o.attempted.name))
      : null;
    out.push({
      id: o.id,
      kind: 'outcome',
      // The collection is a code; the message names it (an unknown one shows as it is).
      what: title
        ? t('shell.changeToTitled', { what: o.collection_name, title })
        : t('shell.changeTo', { what: o.collection_name }),
      reason: o.reason,
      at: o.created,
      target: { collection: o.collection_name, id: o.document_id },
      conflicts: [],
      conflict: o.status === 'conflict',
    });
  }
  for (const c of commands) {
    if (c.status !== 'rejected' || dismissed.has(c.id)) continue;
    out.push({
      id: c.id,
      kind: 'command',
      what: describeCommand(c, t),
      reason: c.reason ?? t('shell.refusedByServer'),
      text: c.details?.text,
      at: c.decided_at ?? Math.floor(c.client_time / 1000),
      target: commandTarget(c),
      conflicts: conflictsOf(c.details),
      conflict: false,
    });
  }
  return out.sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1));
}

/** Commands by the record they act on, newest first within each record. */
export function commandsByTarget(commands: readonly CommandDoc[]): Map<string, CommandDoc[]> {
  const out = new Map<string, CommandDoc[]>();
  const sorted = [...commands].sort((a, b) => b.client_time - a.client_time || (a.id < b.id ? 1 : -1));
  for (const c of sorted) {
    const t = commandTarget(c);
    if (!t) continue;
    const key = `${t.collection}:${t.id}`;
    const list = out.get(key) ?? [];
    list.push(c);
    out.set(key, list);
  }
  return out;
}

/** Outcomes by the record they concern, newest first. */
export function outcomesByTarget(outcomes: readonly OutcomeDoc[]): Map<string, OutcomeDoc[]> {
  const out = new Map<string, OutcomeDoc[]>();
  for (const o of [...outcomes].sort((a, b) => b.created - a.created)) {
    const key = `${o.collection_name}:${o.document_id}`;
    const list = out.get(key) ?? [];
    list.push(o);
    out.set(key, list);
  }
  return out;
}
