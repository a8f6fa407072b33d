import {
  aircraftBlock,
  type MelCategory,
  type MelDeadline,
  type MelStatus,
} from '@ops/shared/rules/aircraft-reports/mel';
import { type AircraftBlocker, aircraftBlockers } from '@ops/shared/rules/aircraft-reports/blockers';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { companyTimeZone, deriveAll } from './mel-state.repository.ts';

/** One open MEL or CDL item of an aircraft with its status at `now`. */
export interface OpenMelItem {
  report_id: string;
  mel_item_id: string;
  type: 'MEL' | 'CDL';
  title: string;
  ata_chapter: string | null;
  category: MelCategory | null;
  mel_reference: string | null;
  interval_type: string | null;
  interval_value: number | null;
  starts: number | null;
  expires: number | null;
  extended: boolean;
  extended_until: number | null;
  status: MelStatus;
  deadline: MelDeadline;
}

export interface AircraftBlockState {
  blocked: boolean;
  blockReason: string | null;
  items: OpenMelItem[];
}

/** Open (not closed, not deleted) MEL and CDL items of an aircraft, oldest first. */
export function openMelItemsQuery(db: Kysely<DB>, companyId: string) {
  return db
    .selectFrom('aircraft_reports as r')
    .innerJoin('mel_items as m', 'm.aircraft_report_id', 'r.id')
    .select([
      'r.id as report_id',
      'r.aircraft_id',
      'r.type',
      'r.title',
      'r.ata_chapter',
      'r.status as report_status',
      'r.created as raised_at',
      'm.id as mel_item_id',
      'm.mel_reference',
      'm.category',
      'm.interval_type',
      'm.interval_value',
      'm.starts',
      'm.expires',
      'm.baseline_flights',
      'm.baseline_cycles',
      'm.extended',
      'm.extended_until',
    ])
    .where('r.company_id', '=', companyId)
    .where('m.company_id', '=', companyId)
    .where('r.deleted', '=', 0)
    .where('r.type', 'in', ['MEL', 'CDL'])
    .where('r.status', '!=', 'CLOSED')
    .orderBy('r.created')
    .orderBy('r.id');
}

/**
 * Whether an aircraft may be dispatched at `now` (unix seconds): blocked as soon
 * as one open MEL or CDL item is EXPIRED (Part B 4.2 item 8, 3.1 dispatch); the
 * reason names the first expired item with its ATA chapter and category.
 * Flight dispatch calls this inside its transaction (`db` may be a Transaction).
 * An aircraft of another company simply has no items here.
 */
export async function aircraftBlockState(
  db: Kysely<DB>,
  companyId: string,
  aircraftId: string,
  now: number,
): Promise<AircraftBlockState> {
  const rows = await openMelItemsQuery(db, companyId).where('r.aircraft_id', '=', aircraftId).execute();
  return blockStateOf(db, companyId, rows, now);
}

export type OpenMelRow = Awaited<ReturnType<ReturnType<typeof openMelItemsQuery>['execute']>>[number];

/**
 * The block state from the open items already read (`openMelItemsQuery` of
 * one aircraft, oldest first): their derived status at `now`, which reads
 * the LANDED flights only for items counted in flights, cycles or days, and
 * the company zone unless given.
 */
export async function blockStateOf(
  db: Kysely<DB>,
  companyId: string,
  rows: readonly OpenMelRow[],
  now: number,
  zone?: string,
): Promise<AircraftBlockState> {
  if (!rows.length) return { blocked: false, blockReason: null, items: [] };
  const derived = await deriveAll(
    db,
    companyId,
    rows.map((r) => ({ ...r, key: r.report_id, raisedAt: Number(r.raised_at) })),
    now,
    zone ?? (await companyTimeZone(db, companyId)),
  );
  const items: OpenMelItem[] = rows.map((r) => {
    const d = derived.get(r.report_id);
    if (!d) throw new Error('derived status missing');
    return {
      report_id: r.report_id,
      mel_item_id: r.mel_item_id,
      type: r.type as 'MEL' | 'CDL',
      title: r.title,
      ata_chapter: r.ata_chapter,
      category: (r.category as MelCategory | null) ?? null,
      mel_reference: r.mel_reference,
      interval_type: r.interval_type,
      interval_value: r.interval_value === null ? null : Number(r.interval_value),
      starts: r.starts === null ? null : Number(r.starts),
      expires: r.expires === null ? null : Number(r.expires),
      extended: !!r.extended,
      extended_until: r.extended_until === null ? null : Number(r.extended_until),
      status: d.status,
      deadline: d.deadline,
    };
  });
  return { ...aircraftBlock(items), items };
}

/**
 * Everything that keeps an aircraft on the ground at `now`, decided by the
 * shared rule (`aircraftBlockers`): open reports that ground it (Part B 2.2)
 * and expired MEL/CDL items (Part B 4.2 item 8). Flight dispatch and booking
 * ask this inside their transaction.
 */
export async function dispatchBlockers(
  db: Kysely<DB>,
  companyId: string,
  aircraftId: string,
  now: number,
  /** The aircraft's MEL state at `now` when the caller already read it (readiness). */
  known?: AircraftBlockState,
): Promise<AircraftBlocker[]> {
  const grounding = await groundingReportsQuery(db, companyId, aircraftId).execute();
  const mel = known ?? (await aircraftBlockState(db, companyId, aircraftId, now));
  return blockersOf(grounding, mel, now);
}

/** Open reports of an aircraft that ground it by themselves (aircraft status or dispatch condition), oldest first. */
export function groundingReportsQuery(db: Kysely<DB>, companyId: string, aircraftId: string) {
  return db
    .selectFrom('aircraft_reports')
    .select(['id', 'type', 'title', 'ata_chapter', 'severity', 'status', 'aircraft_status', 'dispatch_condition'])
    .where('company_id', '=', companyId)
    .where('aircraft_id', '=', aircraftId)
    .where('deleted', '=', 0)
    .where('status', '!=', 'CLOSED')
    .where((eb) => eb.or([eb('aircraft_status', '=', 'GROUNDED'), eb('dispatch_condition', '=', 'GROUNDED')]))
    .orderBy('created')
    .orderBy('id');
}
export type GroundingReportRow = Awaited<ReturnType<ReturnType<typeof groundingReportsQuery>['execute']>>[number];

/** The shared rule over the grounding reports and the MEL state already read. */
export function blockersOf(
  grounding: readonly GroundingReportRow[],
  mel: AircraftBlockState,
  now: number,
): AircraftBlocker[] {
  const grounded = new Set(grounding.map((r) => r.id));
  return aircraftBlockers(
    [
      ...grounding,
      ...mel.items
        .filter((i) => !grounded.has(i.report_id))
        .map((i) => ({
          id: i.report_id,
          type: i.type,
          title: i.title,
          ata_chapter: i.ata_chapter,
          status: 'OPEN',
          mel: { category: i.category, status: i.status },
        })),
    ],
    now,
  );
}

/** Only the open reports grounding the aircraft (bookings judge MEL items over the booked span themselves). */
export async function groundingBlockers(
  db: Kysely<DB>,
  companyId: string,
  aircraftId: string,
  at: number,
  known?: AircraftBlockState,
): Promise<AircraftBlocker[]> {
  return (await dispatchBlockers(db, companyId, aircraftId, at, known)).filter((b) => b.kind === 'GROUNDED');
}
