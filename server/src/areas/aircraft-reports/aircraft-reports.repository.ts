import type { AircraftReportDoc, MelItemDoc, MelLimitationDoc } from '@ops/shared';
import type { IntervalType, MelCategory } from '@ops/shared/rules/aircraft-reports/mel';
import type { Kysely, Selectable } from 'kysely';
import type { AircraftReportsTable, MelItemsTable } from '../../db/domain-tables.ts';
import type { DB } from '../../db/schema.ts';
import { deriveAll } from './mel-state.repository.ts';

/**
 * Reads of the technical log. Every query takes the company id first. A page
 * of reports becomes documents with a fixed number of queries whatever its
 * size: items of the page (1), their limitations (1), and, only when a
 * counter-based item is open, the LANDED flights of those aircraft (1).
 */
export type ReportRow = Selectable<AircraftReportsTable>;
type MelRow = Selectable<MelItemsTable>;

export const reportsRepository = {
  find: (db: Kysely<DB>, companyId: string, id: string) =>
    db
      .selectFrom('aircraft_reports')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .where('deleted', '=', 0)
      .executeTakeFirst(),
  findAny: (db: Kysely<DB>, companyId: string, id: string) =>
    db
      .selectFrom('aircraft_reports')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .executeTakeFirst(),
  melItem: (db: Kysely<DB>, companyId: string, reportId: string) =>
    db
      .selectFrom('mel_items')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('aircraft_report_id', '=', reportId)
      .executeTakeFirst(),
};

const n = (v: number | null) => (v === null ? null : Number(v));

function melDoc(m: MelRow, limitations: MelLimitationDoc[], status: MelItemDoc['status'], now: number): MelItemDoc {
  return {
    id: m.id,
    aircraft_report_id: m.aircraft_report_id,
    mel_reference: m.mel_reference,
    category: (m.category as MelCategory | null) ?? null,
    interval_type: (m.interval_type as IntervalType | null) ?? null,
    interval_value: n(m.interval_value),
    starts: n(m.starts),
    expires: n(m.expires),
    baseline_flights: n(m.baseline_flights),
    baseline_cycles: n(m.baseline_cycles),
    placard_fitted: !!m.placard_fitted,
    procedures: m.procedures,
    released_by: m.released_by,
    released: n(m.released),
    extended: !!m.extended,
    extended_by: m.extended_by,
    extended_until: n(m.extended_until),
    extension_reason: m.extension_reason,
    MelItemLimitation: limitations,
    status,
    derived_at: now,
  };
}

export function reportFields(r: ReportRow): Omit<AircraftReportDoc, 'MelItem'> {
  return {
    id: r.id,
    aircraft_id: r.aircraft_id,
    flight_id: r.flight_id,
    user_id: r.user_id,
    type: r.type,
    title: r.title,
    description: r.description,
    ata_chapter: r.ata_chapter,
    system: r.system,
    severity: r.severity,
    aircraft_status: r.aircraft_status,
    dispatch_condition: r.dispatch_condition,
    status: r.status,
    hours: n(r.hours),
    cycles: n(r.cycles),
    deferred_until: n(r.deferred_until),
    deferred_reference: r.deferred_reference,
    created: Number(r.created),
    modified: Number(r.modified),
    closed: n(r.closed),
    closed_by: r.closed_by,
    maintenance_job_id: r.maintenance_job_id,
  };
}

/** Documents for report rows (any order kept), each with its MelItem, limitations and derived status at `now`. */
export async function reportDocs(
  db: Kysely<DB>,
  companyId: string,
  rows: readonly ReportRow[],
  now: number,
  timeZone?: string,
): Promise<AircraftReportDoc[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const items = await db
    .selectFrom('mel_items')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('aircraft_report_id', 'in', ids)
    .execute();
  const limitations = items.length
    ? await db
        .selectFrom('mel_item_limitations')
        .selectAll()
        .where('company_id', '=', companyId)
        .where(
          'mel_item_id',
          'in',
          items.map((m) => m.id),
        )
        .orderBy('mel_item_id')
        .orderBy('id')
        .execute()
    : [];
  const byReport = new Map(items.map((m) => [m.aircraft_report_id, m]));
  const rowById = new Map(rows.map((r) => [r.id, r]));
  const limitsByItem = new Map<string, MelLimitationDoc[]>();
  for (const l of limitations) {
    const list = limitsByItem.get(l.mel_item_id) ?? [];
    list.push({ id: l.id, code: l.code, value: l.value, note: l.note, created: Number(l.created) });
    limitsByItem.set(l.mel_item_id, list);
  }
  const derived = await deriveAll(
    db,
    companyId,
    items.map((m) => {
      const r = rowById.get(m.aircraft_report_id) as ReportRow;
      return {
        ...m,
        key: m.aircraft_report_id,
        aircraft_id: r.aircraft_id,
        raisedAt: Number(r.created),
        report_status: r.status,
      };
    }),
    now,
    timeZone,
  );
  return rows.map((r) => {
    const m = byReport.get(r.id);
    return {
      ...reportFields(r),
      MelItem: m ? melDoc(m, limitsByItem.get(m.id) ?? [], derived.get(r.id)?.status ?? 'OPEN', now) : null,
    };
  });
}
