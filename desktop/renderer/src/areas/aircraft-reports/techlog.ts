/**
 * The technical log as the device sees it: server documents plus the device's
 * own pending decisions (commands not yet decided), with MEL and CDL status
 * recomputed locally by the shared rules, so time running out while offline
 * still shows (and blocks) as it will on the server. Pure: no database.
 */
import type { AircraftDoc, AircraftReportDoc, CommandDoc, MelItemDoc, MelLimitationDoc } from '@ops/shared';
import { melItemStateOf } from '@ops/shared';
import { type AircraftBlocker, aircraftBlockers, groundsAircraft } from '@ops/shared/rules/aircraft-reports/blockers';
import type { Translate } from '@ops/shared/i18n/index';
import {
  computeMelWindow,
  defaultInterval,
  type IntervalType,
  type MelCategory,
  type MelDeadline,
  type MelStatus,
  melDeadline,
  melStatus,
} from '@ops/shared/rules/aircraft-reports/mel';

/** What a pending command will do to an item, shown as a badge until the server decides. */
export type PendingAction = 'raise' | 'extend' | 'close';

export interface ItemView {
  report: AircraftReportDoc;
  /** The MEL or CDL item, null for a plain report (defect, info). */
  item: MelItemDoc | null;
  /** Recomputed now with the shared rules (the server's `status` is as of `derived_at`). */
  status: MelStatus | null;
  deadline: MelDeadline | null;
  pending: PendingAction | null;
  /** The pending command, when one is waiting. */
  commandId: string | null;
}

export interface BoardRow {
  aircraft: AircraftDoc;
  /** Open MEL and CDL items, most urgent first. */
  items: ItemView[];
  /** Open reports that are not MEL or CDL items. */
  defects: ItemView[];
  grounded: boolean;
  blocked: boolean;
  blockReason: string | null;
  /** Something about this aircraft waits for the server. */
  pending: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const strOr = (v: unknown, d: string | null = null): string | null => (typeof v === 'string' && v !== '' ? v : d);
const numOr = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
export const isMelType = (t: string): t is 'MEL' | 'CDL' => t === 'MEL' || t === 'CDL';

const CATEGORIES: readonly string[] = ['A', 'B', 'C', 'D'];
const INTERVALS: readonly string[] = ['NEXT_FLIGHT', 'CALENDAR_DAYS', 'FLIGHTS', 'FLIGHT_DAYS', 'CYCLES'];

/**
 * The report a pending `mel.raise` will create, with its window computed as
 * the server will (company midnight after raising, standard intervals), so the
 * device shows the item and its deadline at once. Null when the arguments are
 * unusable (the server will reject them, and the rejection is shown).
 */
export function provisionalReport(
  cmd: CommandDoc,
  aircraft: AircraftDoc | undefined,
  timeZone: string,
): AircraftReportDoc | null {
  const args = cmd.args;
  const r = isObject(args.AircraftReport) ? args.AircraftReport : null;
  const m = isObject(args.MelItem) ? args.MelItem : {};
  const id = strOr(args.id);
  if (!r || !id) return null;
  const type = strOr(r.type, 'MEL') as string;
  const aircraftId = strOr(r.aircraft_id);
  if (!aircraftId || !isMelType(type)) return null;
  const raisedAt = Math.floor(cmd.client_time / 1000);
  const category = CATEGORIES.includes(String(m.category)) ? (m.category as MelCategory) : null;
  const givenType = INTERVALS.includes(String(m.interval_type)) ? (m.interval_type as IntervalType) : null;
  const iv = defaultInterval(category, { interval_type: givenType, interval_value: numOr(m.interval_value) });
  const interval = iv.ok ? iv.interval : null;
  let window = {
    starts: raisedAt,
    expires: null as number | null,
    baseline_flights: null as number | null,
    baseline_cycles: null as number | null,
  };
  try {
    window = computeMelWindow({
      raisedAt,
      timeZone,
      category,
      interval_type: interval?.interval_type ?? null,
      interval_value: interval?.interval_value ?? null,
      aircraftFlights: aircraft?.flights ?? 0,
      aircraftCycles: aircraft?.landings ?? 0,
    });
  } catch {
    // An invalid zone or interval: show the item without a window; the server decides.
  }
  const limitations: MelLimitationDoc[] = (Array.isArray(args.MelItemLimitation) ? args.MelItemLimitation : [])
    .filter(isObject)
    .map((l, i) => ({
      id: `${id}:${i}`,
      code: String(l.code ?? ''),
      value: strOr(l.value),
      note: strOr(l.note),
      created: raisedAt,
    }));
  const item: MelItemDoc = {
    id: `${id}:item`,
    aircraft_report_id: id,
    mel_reference: strOr(m.mel_reference),
    category,
    interval_type: interval?.interval_type ?? null,
    interval_value: interval?.interval_value ?? null,
    starts: window.starts,
    expires: window.expires,
    baseline_flights: window.baseline_flights,
    baseline_cycles: window.baseline_cycles,
    placard_fitted: m.placard_fitted === true,
    procedures: strOr(m.procedures),
    released_by: strOr(m.released_by),
    released: raisedAt,
    extended: false,
    extended_by: null,
    extended_until: null,
    extension_reason: null,
    MelItemLimitation: limitations,
    status: 'OPEN',
    derived_at: raisedAt,
  };
  return {
    id,
    aircraft_id: aircraftId,
    flight_id: null,
    user_id: cmd.user_id,
    type,
    title: strOr(r.title, '(untitled)') as string,
    description: strOr(r.description),
    ata_chapter: strOr(r.ata_chapter),
    system: strOr(r.system),
    severity: strOr(r.severity, 'LOW') as string,
    aircraft_status: strOr(r.aircraft_status, 'FLYABLE') as string,
    dispatch_condition: type,
    status: 'OPEN',
    hours: null,
    cycles: null,
    deferred_until: null,
    deferred_reference: null,
    created: raisedAt,
    modified: raisedAt,
    closed: null,
    closed_by: null,
    maintenance_job_id: null,
    MelItem: item,
  };
}

/** An item with the effect of a pending extension or closure applied, as the device expects the server to decide. */
function applyPending(
  report: AircraftReportDoc,
  cmd: CommandDoc | undefined,
): { report: AircraftReportDoc; pending: PendingAction | null } {
  if (!cmd || !report.MelItem) return { report, pending: null };
  if (cmd.name === 'mel.close') return { report: { ...report, status: 'CLOSED' }, pending: 'close' };
  if (cmd.name === 'mel.extend') {
    const until = numOr(cmd.args.extended_until);
    if (until === null) return { report, pending: 'extend' };
    return {
      report: { ...report, MelItem: { ...report.MelItem, extended: true, extended_until: until } },
      pending: 'extend',
    };
  }
  return { report, pending: null };
}

const URGENCY: Record<MelStatus, number> = { EXPIRED: 0, EXPIRING_SOON: 1, OPEN: 2, CLOSED: 3 };

/**
 * Status and deadline of one report now. FLIGHT_DAYS needs the aircraft's
 * flights since the item started, which a device does not hold for every
 * role: the server's derived status is kept for those.
 */
export function itemView(
  report: AircraftReportDoc,
  aircraft: AircraftDoc | undefined,
  now: number,
  pending: PendingAction | null = null,
  commandId: string | null = null,
): ItemView {
  const state = melItemStateOf(report);
  if (!state || !report.MelItem) return { report, item: null, status: null, deadline: null, pending, commandId };
  const counters = { flights: aircraft?.flights ?? 0, cycles: aircraft?.landings ?? 0, flightDays: 0 };
  const deadline = melDeadline(state, counters);
  const status =
    state.interval_type === 'FLIGHT_DAYS' && state.report_status !== 'CLOSED'
      ? report.MelItem.status
      : melStatus(state, now, counters);
  return { report, item: report.MelItem, status, deadline, pending, commandId };
}

/** Pending commands by the report they act on (the newest one wins). */
export function pendingByReport(commands: readonly CommandDoc[]): Map<string, CommandDoc> {
  const out = new Map<string, CommandDoc>();
  for (const c of commands) {
    if (c.status !== 'pending' || (c.name !== 'mel.extend' && c.name !== 'mel.close')) continue;
    const id = strOr(c.args.report_id);
    if (id) out.set(id, c);
  }
  return out;
}

/**
 * Every open report of the fleet, server documents and pending raises, as views
 * (closed ones left out unless a pending command is closing them).
 */
export function openItems(
  reports: readonly AircraftReportDoc[],
  aircraft: ReadonlyMap<string, AircraftDoc>,
  commands: readonly CommandDoc[],
  now: number,
  timeZone: string,
): ItemView[] {
  const byReport = pendingByReport(commands);
  const known = new Set<string>();
  const out: ItemView[] = [];
  for (const r of reports) {
    known.add(r.id);
    const cmd = byReport.get(r.id);
    if (r.status === 'CLOSED' && !cmd) continue;
    const { report, pending } = applyPending(r, cmd);
    out.push(itemView(report, aircraft.get(r.aircraft_id), now, pending, cmd?.id ?? null));
  }
  for (const c of commands) {
    if (c.status !== 'pending' || c.name !== 'mel.raise') continue;
    const id = strOr(c.args.id);
    if (id && known.has(id)) continue; // the server's document arrived already
    const a = isObject(c.args.AircraftReport) ? strOr(c.args.AircraftReport.aircraft_id) : null;
    const report = provisionalReport(c, a ? aircraft.get(a) : undefined, timeZone);
    if (report) out.push(itemView(report, aircraft.get(report.aircraft_id), now, 'raise', c.id));
  }
  return out;
}

const byUrgency = (a: ItemView, b: ItemView) => {
  const u = URGENCY[a.status ?? 'OPEN'] - URGENCY[b.status ?? 'OPEN'];
  if (u) return u;
  const da = a.deadline?.kind === 'time' ? a.deadline.expires : Number.POSITIVE_INFINITY;
  const db = b.deadline?.kind === 'time' ? b.deadline.expires : Number.POSITIVE_INFINITY;
  return da - db || (a.report.id < b.report.id ? -1 : 1);
};

/** One row per active aircraft, ordered by registration, with its open items and whether it may be dispatched. */
export function fleetBoard(
  aircraft: readonly AircraftDoc[],
  views: readonly ItemView[],
  /** The reader's language for `blockReason`; English (the server's words) without it. */
  t?: Translate,
): BoardRow[] {
  const rows = new Map<string, BoardRow>();
  const sorted = [...aircraft].filter((a) => a.active).sort((a, b) => a.registration.localeCompare(b.registration));
  for (const a of sorted)
    rows.set(a.id, {
      aircraft: a,
      items: [],
      defects: [],
      grounded: false,
      blocked: false,
      blockReason: null,
      pending: false,
    });
  for (const v of views) {
    const row = rows.get(v.report.aircraft_id);
    if (!row) continue;
    if (v.pending) row.pending = true;
    if (v.report.status !== 'CLOSED' && groundsAircraft(v.report)) row.grounded = true;
    if (v.item) row.items.push(v);
    else row.defects.push(v);
  }
  for (const row of rows.values()) {
    row.items.sort(byUrgency);
    // The server's rule (issue 28): an open grounding report blocks as an expired item does.
    const blockers = rowBlockers(row, undefined, t);
    row.blocked = blockers.length > 0;
    row.blockReason = blockers[0]?.sentence ?? null;
  }
  return [...rows.values()];
}

/** What keeps a board row's aircraft on the ground now, by the shared rule (`aircraftBlockers`). */
export function rowBlockers(
  row: Pick<BoardRow, 'items' | 'defects'>,
  without?: string,
  /** The reader's language for the sentences; English (the server's words) without it. */
  t?: Translate,
): AircraftBlocker[] {
  const views = [...row.items, ...row.defects].filter((v) => v.report.id !== without);
  return aircraftBlockers(
    views.map((v) => ({
      ...v.report,
      created: null,
      mel: v.item ? { category: v.item.category ?? null, status: v.status ?? 'OPEN' } : null,
    })),
    Number.POSITIVE_INFINITY,
    t,
  );
}

/**
 * What closing one report will change for its aircraft, in words shown
 * before the closer confirms ("EC-JET becomes dispatchable.").
 */
export function closeEffect(row: BoardRow, reportId: string, t?: Translate): { unblocks: boolean; sentence: string } {
  const reg = row.aircraft.registration;
  const before = rowBlockers(row);
  const after = rowBlockers(row, reportId, t);
  if (t) {
    if (!before.length)
      return { unblocks: false, sentence: t('aircraft-reports.alreadyDispatchable', { registration: reg }) };
    if (!after.length)
      return { unblocks: true, sentence: t('aircraft-reports.becomesDispatchable', { registration: reg }) };
    return {
      unblocks: false,
      sentence: t('aircraft-reports.staysBlockedBy', {
        registration: reg,
        reason: after[0]?.sentence ?? '',
        more: after.length - 1,
      }),
    };
  }
  if (!before.length)
    return { unblocks: false, sentence: `${reg} is dispatchable already; closing changes nothing for dispatch.` };
  if (!after.length) return { unblocks: true, sentence: `${reg} becomes dispatchable.` };
  return {
    unblocks: false,
    sentence: `${reg} stays blocked: ${after[0]?.sentence ?? ''}${after.length > 1 ? ` (and ${after.length - 1} more)` : ''}`,
  };
}
