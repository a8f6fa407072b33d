import type { AircraftReportDoc, MelItemDoc, MelLimitationDoc } from '@ops/shared';
import type { IntervalType, MelCategory } from '@ops/shared/rules/aircraft-reports/mel';
import { type Kysely, type Selectable, sql } from 'kysely';
import { MEL_MANAGER_ROLES } from '@ops/shared/rules/aircraft-reports/policy';
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

/** Escapes LIKE wildcards so a search for `50%` finds that text. */
const likePattern = (s: string) => `%${s.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export interface ReportListFilter {
  aircraft?: string;
  flight?: string;
  type?: string[];
  status?: string[];
  severity?: string;
  category?: string;
  wc?: string;
  job?: string;
  linked?: 'yes' | 'no';
}

/** One page of live reports, newest first, with the aircraft's registration and the reporter's name, and the number matching. */
export async function reportListPage(
  db: Kysely<DB>,
  companyId: string,
  f: ReportListFilter,
  page: number,
  limit: number,
) {
  let q = db.selectFrom('aircraft_reports as r').where('r.company_id', '=', companyId).where('r.deleted', '=', 0);
  if (f.aircraft) q = q.where('r.aircraft_id', '=', f.aircraft);
  if (f.flight) q = q.where('r.flight_id', '=', f.flight);
  if (f.type?.length) q = q.where('r.type', 'in', f.type);
  if (f.status?.length) q = q.where('r.status', 'in', f.status);
  if (f.severity) q = q.where('r.severity', '=', f.severity);
  if (f.category) {
    const category = f.category;
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('mel_items as m')
          .select('m.id')
          .whereRef('m.aircraft_report_id', '=', 'r.id')
          .where('m.company_id', '=', companyId)
          .where('m.category', '=', category),
      ),
    );
  }
  if (f.wc) {
    const p = likePattern(f.wc);
    q = q.where(
      sql<boolean>`(lower(r.title) like ${p} escape '\\' or lower(coalesce(r.description, '')) like ${p} escape '\\')`,
    );
  }
  if (f.job) q = q.where('r.maintenance_job_id', '=', f.job);
  if (f.linked === 'yes') q = q.where('r.maintenance_job_id', 'is not', null);
  if (f.linked === 'no') q = q.where('r.maintenance_job_id', 'is', null);

  const [{ count }] = await q.select((eb) => eb.fn.countAll<number>().as('count')).execute();
  const rows = await q
    .leftJoin('aircraft as a', (j) => j.onRef('a.id', '=', 'r.aircraft_id').on('a.company_id', '=', companyId))
    .leftJoin('users as u', (j) => j.onRef('u.id', '=', 'r.user_id').on('u.company_id', '=', companyId))
    .selectAll('r')
    .select(['a.registration', 'u.name as reporter_name', 'u.surname as reporter_surname'])
    .orderBy('r.created', 'desc')
    .orderBy('r.id', 'desc')
    .limit(limit)
    .offset((page - 1) * limit)
    .execute();
  return { count: Number(count), rows };
}

/** An aircraft's registration (deleted ones too: a report keeps naming its aircraft). */
export function aircraftRegistration(db: Kysely<DB>, companyId: string, aircraftId: string) {
  return db
    .selectFrom('aircraft')
    .select('registration')
    .where('company_id', '=', companyId)
    .where('id', '=', aircraftId)
    .executeTakeFirst();
}

/** A user's name and surname. */
export function userName(db: Kysely<DB>, companyId: string, userId: string) {
  return db
    .selectFrom('users')
    .select(['name', 'surname'])
    .where('company_id', '=', companyId)
    .where('id', '=', userId)
    .executeTakeFirst();
}

/** The live maintenance job a report is linked to, in brief. */
export function linkedJob(db: Kysely<DB>, companyId: string, jobId: string) {
  return db
    .selectFrom('maintenance_jobs')
    .select(['id', 'name', 'status', 'start', 'crs_signed'])
    .where('company_id', '=', companyId)
    .where('id', '=', jobId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
}

/** Active users who might release a MEL item: the roles that can, and the caller (the shared rule decides). */
export function releaserCandidates(db: Kysely<DB>, companyId: string, callerId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'name', 'surname', 'user_group_id'])
    .where('company_id', '=', companyId)
    .where('deleted', '=', 0)
    .where('active', '=', 1)
    .where((eb) => eb.or([eb('user_group_id', 'in', [...MEL_MANAGER_ROLES]), eb('id', '=', callerId)]))
    .orderBy('surname')
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/** A live aircraft's id and registration, or undefined. */
export function liveAircraft(db: Kysely<DB>, companyId: string, aircraftId: string) {
  return db
    .selectFrom('aircraft')
    .select(['id', 'registration'])
    .where('company_id', '=', companyId)
    .where('id', '=', aircraftId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
}

/** An aircraft's live jobs without a signed CRS, by start (unscheduled last). */
export function openJobsOf(db: Kysely<DB>, companyId: string, aircraftId: string) {
  return db
    .selectFrom('maintenance_jobs')
    .select(['id', 'name', 'status', 'start', 'maintenance_plan_id'])
    .where('company_id', '=', companyId)
    .where('aircraft_id', '=', aircraftId)
    .where('deleted', '=', 0)
    .where('crs_signed', '=', 0)
    .orderBy(sql`case when start is null then 1 else 0 end`)
    .orderBy('start')
    .orderBy('id')
    .execute();
}
