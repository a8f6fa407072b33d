import {
  assessRisk,
  icaoRiskMatrix,
  isRiskMatrix,
  type RiskMatrix,
  FLIGHT_PHASES,
  SAFETY_SEVERITIES,
  SAFETY_STATUSES,
  type TrailEntry,
} from '@ops/shared/rules/safety-reports/safety';
import {
  mayEditSafetyReport,
  mayManageSafetyReports,
  maySeeSafetyReport,
} from '@ops/shared/rules/safety-reports/policy';
import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { Actor } from '../../http/actor.ts';
import { invalid } from '../../http/errors.ts';
import { paginate } from '../../http/paging.ts';
import { type UploadModel, uploadsOf } from '../uploads/attachments.service.ts';
import { loadVisible } from './safety-reports.service.ts';
import { enumerations, parseIds, present } from './safety-reports.presenter.ts';
import type { ListFilters } from './safety-reports.schema.ts';
import type { StatKind } from './safety-stats.repository.ts';
import type { SafetyReportsTable } from './safety-reports.tables.ts';

type Row = SafetyReportsTable;

export type { StatKind };

/**
 * Company-scoped SQL of safety reports: the visibility filters (the SQL form of
 * the policy), the attachment registration, the list, the view and the statistics.
 */

/**
 * The SQL form of `maySeeSafetyReport` (shared/src/rules/safety-reports): the list,
 * statistics and exports filter with it; single rows and sync use the rule
 * itself. The suite checks both agree role by role.
 */
export function visibleSql(
  eb: ExpressionBuilder<DB, 'safety_reports'>,
  actor: Actor,
  opts: { drafts: boolean },
): Expression<SqlBool> {
  return eb.or([seenByRoleSql(eb, actor), linkedSql(eb, actor, opts)]);
}

/** Reports the caller sees by role alone: every submitted one for roles <= 150, the published ones above. */
export function seenByRoleSql(eb: ExpressionBuilder<DB, 'safety_reports'>, actor: Actor): Expression<SqlBool> {
  return eb('safety_reports.status', 'in', statusesSeenByRole(actor));
}

/**
 * Reports the caller sees through a link: their own (drafts only when asked
 * for), the ones they review and the ones of flights they crewed. Each term has
 * an index, so both databases read the few linked reports by index (PostgreSQL
 * BitmapOr, SQLite multi-index OR).
 */
export function linkedSql(
  eb: ExpressionBuilder<DB, 'safety_reports'>,
  actor: Actor,
  opts: { drafts: boolean },
): Expression<SqlBool> {
  const me = actor.userId;
  const submitted = eb('safety_reports.status', '!=', 'draft');
  return eb.or([
    opts.drafts
      ? eb('safety_reports.author_id', '=', me)
      : eb.and([eb('safety_reports.author_id', '=', me), submitted]),
    ...(['reviewer_id', 'crew_pic_id', 'crew_sic_id', 'crew_supervisor_id'] as const).map((c) =>
      eb.and([eb(`safety_reports.${c}`, '=', me), submitted]),
    ),
  ]);
}

/** Submitted statuses, the ones the statistics count. */
export const SUBMITTED_STATUSES: string[] = SAFETY_STATUSES.map((s) => s.key).filter((k) => k !== 'draft');

/**
 * Submitted statuses the viewer sees whoever filed, reviews or crewed the
 * report, by the rule itself: `maySeeSafetyReport` of a report with no one attached.
 * Every link only adds visibility, so each report of these statuses is visible;
 * the statistics read them from the aggregate and the others with `visibleSql`.
 */
export function statusesSeenByRole(actor: Actor): string[] {
  const nobody = { author_id: null, reviewer_id: null, crew_pic_id: null, crew_sic_id: null, crew_supervisor_id: null };
  return SUBMITTED_STATUSES.filter((status) => maySeeSafetyReport(actor, { status, ...nobody }));
}

/** The other statuses (drafts included), seen only through a link: listed as `in (...)`, which indexes answer. */
export function statusesSeenByLink(actor: Actor): string[] {
  const seen = statusesSeenByRole(actor);
  return SAFETY_STATUSES.map((s) => s.key).filter((k) => !seen.includes(k));
}

/**
 * Files attached to safety reports (issue 15 item 5; docs/areas/uploads.md):
 * uploads attach to a live report of the company, and whoever may see the
 * report (`maySeeSafetyReport`, the rule REST and sync share; drafts only their
 * author) sees its files.
 */
export const SAFETY_REPORT_MODEL = 'SafetyReport';

export const safetyReportUploadModel: UploadModel = {
  async exists(db, companyId, id) {
    const row = await db
      .selectFrom('safety_reports')
      .select('id')
      .where('id', '=', id)
      .where('company_id', '=', companyId)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    return !!row;
  },
  async visibleTo(db: Kysely<DB>, actor: Actor, foreignKeys: readonly string[]) {
    if (foreignKeys.length === 0) return new Set<string>();
    const rows = await db
      .selectFrom('safety_reports')
      .select(['id', 'status', 'author_id', 'reviewer_id', 'crew_pic_id', 'crew_sic_id', 'crew_supervisor_id'])
      .where('company_id', '=', actor.companyId)
      .where('id', 'in', [...new Set(foreignKeys)])
      .execute();
    return new Set(rows.filter((r) => maySeeSafetyReport(actor, r)).map((r) => r.id));
  },
};

/** The filtered, visible, live top-level reports (list and spreadsheet). */
export function filteredQuery(db: Kysely<DB>, actor: Actor, f: ListFilters) {
  return filtered(db, actor, f).where((eb) => visibleSql(eb, actor, { drafts: true }));
}

/** The live top-level reports of the company matching the named filters, visibility not applied. */
function filtered(db: Kysely<DB>, actor: Actor, f: ListFilters) {
  let q = db
    .selectFrom('safety_reports')
    .where('safety_reports.company_id', '=', actor.companyId)
    .where('safety_reports.deleted', '=', 0)
    .where('safety_reports.parent_id', 'is', null);
  if (f.status) q = q.where('safety_reports.status', '=', f.status);
  if (f.severity) q = q.where('safety_reports.severity', '=', f.severity);
  if (f.report_category) q = q.where('safety_reports.safety_report_category_id', '=', f.report_category);
  if (f.department) q = q.where('safety_reports.safety_report_department_id', '=', f.department);
  if (f.from) q = q.where('safety_reports.datetime', '>=', `${f.from} 00:00:00`);
  if (f.to) q = q.where('safety_reports.datetime', '<=', `${f.to} 23:59:59`);
  if (f.flight_id) q = q.where('safety_reports.flight_id', '=', f.flight_id);
  return q;
}

/**
 * The count of listed reports seen by role (statuses in `seen`). Without a day
 * range or flight, and with at most one of severity, category and department,
 * it is a sum over the statistics aggregate (the same live, submitted,
 * top-level reports); otherwise the reports are counted.
 */
async function seenCount(db: Kysely<DB>, actor: Actor, f: ListFilters, seen: string[]): Promise<number> {
  const statuses = f.status ? seen.filter((x) => x === f.status) : seen;
  if (!statuses.length) return 0;
  const keyed = [
    ['severity', f.severity],
    ['category', f.report_category],
    ['department', f.department],
  ].filter((x): x is [StatKind, string] => x[1] !== undefined);
  if (f.from || f.to || f.flight_id || keyed.length > 1) {
    const r = await filtered(db, actor, f)
      .where((eb) => seenByRoleSql(eb, actor))
      .select((eb) => eb.fn.countAll<number>().as('c'))
      .executeTakeFirstOrThrow();
    return Number(r.c);
  }
  const [dimension, key] = keyed[0] ?? ['severity', undefined];
  let q = db
    .selectFrom('safety_report_stats')
    .select(sql<number>`coalesce(sum("count"), 0)`.as('c'))
    .where('company_id', '=', actor.companyId)
    .where('dimension', '=', dimension)
    .where('status', 'in', statuses);
  if (key !== undefined) q = q.where('key', '=', key);
  return Number((await q.executeTakeFirstOrThrow()).c);
}

/** GET index (Part B 4.4 item 1). */
export async function listSafetyReports(db: Kysely<DB>, actor: Actor, f: ListFilters) {
  const seenAtAll = f.status ? statusesSeenByRole(actor).includes(f.status) : statusesSeenByRole(actor).length > 0;
  // A status filter outside the statuses seen by role leaves the linked reports alone: read them by their indexes.
  const base = seenAtAll
    ? filteredQuery(db, actor, f)
    : filtered(db, actor, f).where((eb) => linkedSql(eb, actor, { drafts: true }));
  // The count in two disjoint parts of the visibility rule, each an index range: the reports seen by
  // role (a status range) and the linked ones of other statuses (author, reviewer, crew indexes).
  const seen = statusesSeenByRole(actor);
  const [bySeen, byLink, rows] = await Promise.all([
    seenCount(db, actor, f, seen),
    filtered(db, actor, f)
      .where((eb) => linkedSql(eb, actor, { drafts: true }))
      .where('safety_reports.status', 'in', statusesSeenByLink(actor))
      .select((eb) => eb.fn.countAll<number>().as('c'))
      .executeTakeFirstOrThrow(),
    base
      .leftJoin('safety_report_categories as c', 'c.id', 'safety_reports.safety_report_category_id')
      .leftJoin('safety_report_departments as d', 'd.id', 'safety_reports.safety_report_department_id')
      .leftJoin('users as u', 'u.id', 'safety_reports.user_id')
      .selectAll('safety_reports')
      .select([
        'c.name as category_name',
        'd.name as department_name',
        'u.name as reporter_name',
        'u.surname as reporter_surname',
      ])
      .orderBy('safety_reports.datetime', 'desc')
      .orderBy('safety_reports.id', 'desc')
      .limit(f.limit)
      .offset((f.page - 1) * f.limit)
      .execute(),
  ]);
  const total = bySeen + Number(byLink.c);
  return {
    result: true,
    // The joined names go to their own blocks only, not into SafetyReport (the contract test caught them there).
    reports: rows.map(({ category_name, department_name, reporter_name, reporter_surname, ...r }) => ({
      SafetyReport: present(r as Row),
      SafetyReportCategory: r.safety_report_category_id
        ? { id: r.safety_report_category_id, name: category_name }
        : null,
      SafetyReportDepartment: r.safety_report_department_id
        ? { id: r.safety_report_department_id, name: department_name }
        : null,
      User: r.user_id ? { id: r.user_id, name: reporter_name, surname: reporter_surname } : null,
    })),
    paginate: paginate(f.page, f.limit, total, rows.length),
  };
}

export async function riskMatrixOf(db: Kysely<DB>, companyId: string): Promise<RiskMatrix> {
  const row = await db
    .selectFrom('safety_risk_matrices')
    .select('cells')
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  if (row) {
    try {
      const m = { cells: JSON.parse(row.cells) };
      if (isRiskMatrix(m)) return m;
    } catch {
      /* fall back to ICAO */
    }
  }
  return icaoRiskMatrix();
}

/** GET view (Part B 4.4 item 2): flight, aircraft, reporter, children, risk, `allowEdit`; the trail for roles < 111. */
export async function viewSafetyReport(db: Kysely<DB>, actor: Actor, id: string) {
  const r = await loadVisible({ trx: db as never }, actor, id);
  const c = actor.companyId;
  const aircraftIds = parseIds(r.aircraft_ids);
  const [flight, aircraft, reporter, reviewer, category, department, children, matrix, parent, trail, uploads] =
    await Promise.all([
      r.flight_id
        ? db
            .selectFrom('flights as f')
            .leftJoin('aircraft as a', 'a.id', 'f.aircraft_id')
            .select([
              'f.id',
              'f.date',
              'f.status',
              'f.aircraft_id',
              'f.pic_id',
              'f.sic_id',
              'f.supervisor_id',
              'f.departure_airport',
              'f.landing_airport',
              'a.registration',
            ])
            .where('f.company_id', '=', c)
            .where('f.id', '=', r.flight_id)
            .executeTakeFirst()
        : undefined,
      aircraftIds.length
        ? db
            .selectFrom('aircraft')
            .select(['id', 'registration'])
            .where('company_id', '=', c)
            .where('id', 'in', aircraftIds)
            .execute()
        : [],
      r.user_id
        ? db
            .selectFrom('users')
            .select(['id', 'name', 'surname'])
            .where('company_id', '=', c)
            .where('id', '=', r.user_id)
            .executeTakeFirst()
        : undefined,
      r.reviewer_id
        ? db
            .selectFrom('users')
            .select(['id', 'name', 'surname'])
            .where('company_id', '=', c)
            .where('id', '=', r.reviewer_id)
            .executeTakeFirst()
        : undefined,
      r.safety_report_category_id
        ? db
            .selectFrom('safety_report_categories')
            .select(['id', 'name'])
            .where('company_id', '=', c)
            .where('id', '=', r.safety_report_category_id)
            .executeTakeFirst()
        : undefined,
      r.safety_report_department_id
        ? db
            .selectFrom('safety_report_departments')
            .select(['id', 'name'])
            .where('company_id', '=', c)
            .where('id', '=', r.safety_report_department_id)
            .executeTakeFirst()
        : undefined,
      db
        .selectFrom('safety_reports')
        .selectAll()
        .where('company_id', '=', c)
        .where('parent_id', '=', r.id)
        .where('deleted', '=', 0)
        .where((eb) => visibleSql(eb, actor, { drafts: true }))
        .orderBy('child_no')
        .orderBy('created')
        .execute(),
      riskMatrixOf(db, c),
      r.parent_id
        ? db
            .selectFrom('safety_reports')
            .select(['id', 'idn', 'name'])
            .where('company_id', '=', c)
            .where('id', '=', r.parent_id)
            .executeTakeFirst()
        : undefined,
      mayManageSafetyReports(actor)
        ? db
            .selectFrom('safety_report_changes')
            .selectAll()
            .where('company_id', '=', c)
            .where('safety_report_id', '=', r.id)
            .orderBy('created', 'desc')
            .orderBy('id', 'desc')
            .execute()
        : undefined,
      uploadsOf(db, c, SAFETY_REPORT_MODEL, [r.id]),
    ]);
  const report = {
    SafetyReport: present(r),
    Flight: flight ?? null,
    Aircraft: aircraft,
    User: reporter ?? null,
    Reviewer: reviewer ?? null,
    SafetyReportCategory: category ?? null,
    SafetyReportDepartment: department ?? null,
    Parent: parent ?? null,
    Children: children.map((ch) => present(ch as Row)),
    Upload: uploads.get(r.id) ?? [],
    Risk: {
      before: assessRisk(r.risk_probability, r.risk_severity, matrix),
      after: assessRisk(r.mitigated_risk_probability, r.mitigated_risk_severity, matrix),
    },
    // Omitted (undefined is not serialised) for roles >= 111.
    SafetyReportChange: trail?.map((t) => ({
      id: t.id,
      action: t.action,
      user: t.user_id ? { id: t.user_id, name: t.user_name } : null,
      comments: t.comments,
      fields: JSON.parse(t.fields) as TrailEntry[],
      created: Number(t.created),
    })),
  };
  return { result: true, report, allowEdit: mayEditSafetyReport(actor, r) };
}

/** GET form_options.json: departments with their categories nested, the enumerations and the company's risk matrix. */
export async function formOptions(db: Kysely<DB>, actor: Actor) {
  const c = actor.companyId;
  const [deps, cats, matrix] = await Promise.all([
    db
      .selectFrom('safety_report_departments')
      .select(['id', 'name'])
      .where('company_id', '=', c)
      .where('deleted', '=', 0)
      .orderBy('name')
      .execute(),
    db
      .selectFrom('safety_report_categories')
      .select(['id', 'name', 'safety_report_department_id'])
      .where('company_id', '=', c)
      .where('deleted', '=', 0)
      .orderBy('name')
      .execute(),
    riskMatrixOf(db, c),
  ]);
  return {
    result: true,
    departments: deps.map((d) => ({
      SafetyReportDepartment: d,
      SafetyReportCategory: cats
        .filter((x) => x.safety_report_department_id === d.id)
        .map((x) => ({ id: x.id, name: x.name })),
    })),
    riskMatrix: matrix,
    ...(({ result: _r, ...e }) => e)(enumerations()),
  };
}

/**
 * Statistics (Part B 4.4 item 8): visible, live, non-draft, top-level reports of
 * the company, optionally of one year. The reports of statuses the caller sees
 * regardless of links (all for roles <= 150, published above) come from the
 * aggregate; the rest (own, reviewed, crewed) from the reports with `visibleSql`.
 */
function statsBase(db: Kysely<DB>, actor: Actor, year?: number) {
  // The few linked reports first, by their indexes (PostgreSQL BitmapOr, SQLite multi-index OR), then
  // grouped: planned as one query, SQLite walks a dimension index over every report of the company and
  // PostgreSQL joins them back to the table. A materialized CTE keeps the order on both.
  return db
    .with(
      (w) => w('linked').materialized(),
      (q) => {
        let linked = q
          .selectFrom('safety_reports')
          .select([
            'safety_reports.datetime',
            'safety_reports.severity',
            'safety_reports.flight_phase',
            'safety_reports.safety_report_category_id',
            'safety_reports.safety_report_department_id',
            'safety_reports.flight_type_id',
          ])
          .where('safety_reports.company_id', '=', actor.companyId)
          .where('safety_reports.deleted', '=', 0)
          .where('safety_reports.parent_id', 'is', null)
          .where((eb) => linkedSql(eb, actor, { drafts: false }))
          .where('safety_reports.status', 'in', statusesSeenByLink(actor));
        if (year !== undefined)
          linked = linked
            .where('safety_reports.datetime', '>=', `${year}-01-01 00:00:00`)
            .where('safety_reports.datetime', '<', `${year + 1}-01-01 00:00:00`);
        return linked;
      },
    )
    .selectFrom('linked as safety_reports');
}

/** The aggregate rows of one dimension for the statuses seen regardless of links, from `fromMonth` (and to `toMonth`). */
function aggregateBase(
  db: Kysely<DB>,
  actor: Actor,
  kind: StatKind,
  seen: string[],
  fromMonth?: string,
  toMonth?: string,
) {
  let q = db
    .selectFrom('safety_report_stats as st')
    .where('st.company_id', '=', actor.companyId)
    .where('st.dimension', '=', kind)
    .where('st.status', 'in', seen);
  if (fromMonth) q = q.where('st.month', '>=', fromMonth);
  if (toMonth) q = q.where('st.month', '<=', toMonth);
  return q;
}

type StatRow = { key: string | null; label: string | null; count: number };

/** Counts by key from the aggregate (the report columns' nulls are stored as ''). */
async function aggregateCounts(
  db: Kysely<DB>,
  actor: Actor,
  kind: StatKind,
  seen: string[],
  year?: number,
): Promise<StatRow[]> {
  if (!seen.length) return [];
  const base =
    year === undefined
      ? aggregateBase(db, actor, kind, seen)
      : aggregateBase(db, actor, kind, seen, `${year}-01`, `${year}-12`);
  const total = sql<number>`sum(st."count")`;
  if (kind === 'category' || kind === 'department') {
    const r = await (kind === 'category'
      ? base.innerJoin('safety_report_categories as l', 'l.id', 'st.key')
      : base.innerJoin('safety_report_departments as l', 'l.id', 'st.key')
    )
      .select(['l.id as key', 'l.name as label', total.as('count')])
      .groupBy(['l.id', 'l.name'])
      .execute();
    return r.map((x) => ({ key: x.key, label: x.label, count: Number(x.count) }));
  }
  if (kind === 'flight_type') {
    const r = await base
      .leftJoin('flight_types as ft', 'ft.id', 'st.key')
      .select(['st.key', 'ft.name as label', total.as('count')])
      .groupBy(['st.key', 'ft.name'])
      .execute();
    return r.map((x) => ({ key: x.key || null, label: x.label, count: Number(x.count) }));
  }
  const r = await base
    .select(['st.key', total.as('count')])
    .groupBy('st.key')
    .execute();
  return r.map((x) => ({ key: x.key || null, label: null, count: Number(x.count) }));
}

export async function statistic(db: Kysely<DB>, actor: Actor, kind: StatKind, year?: number) {
  const seen = statusesSeenByRole(actor);
  const linked = seen.length < SUBMITTED_STATUSES.length;
  const [fromAggregate, fromReports] = await Promise.all([
    aggregateCounts(db, actor, kind, seen, year),
    linked ? liveCounts(statsBase(db, actor, year), kind) : [],
  ]);
  const byKey = new Map<string | null, StatRow>();
  for (const x of [...fromAggregate, ...fromReports]) {
    const had = byKey.get(x.key);
    if (had) had.count += x.count;
    else byKey.set(x.key, { ...x });
  }
  const labels: Record<string, string> | null =
    kind === 'severity'
      ? Object.fromEntries(SAFETY_SEVERITIES.map((s) => [s.key, s.label]))
      : kind === 'flight_phase'
        ? (FLIGHT_PHASES as Record<string, string>)
        : null;
  const rows = [...byKey.values()]
    .filter((x) => x.count > 0)
    .map((x) => {
      if (labels) return { ...x, label: x.key ? (labels[x.key] ?? x.key) : null };
      if (kind === 'flight_type' && !x.key) return { ...x, label: 'No flight type' };
      return x;
    });
  rows.sort((a, b) => b.count - a.count || String(a.label).localeCompare(String(b.label)));
  return { result: true, year: year ?? null, data: rows, total: rows.reduce((s, x) => s + x.count, 0) };
}

/** Counts by key over the reports of `base` (grouped in SQL). */
async function liveCounts(base: ReturnType<typeof statsBase>, kind: StatKind): Promise<StatRow[]> {
  if (kind === 'severity' || kind === 'flight_phase') {
    const col = kind === 'severity' ? 'safety_reports.severity' : 'safety_reports.flight_phase';
    const r = await base
      .select([`${col} as key`, (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy(col)
      .execute();
    return r.map((x) => ({ key: x.key, label: null, count: Number(x.count) }));
  }
  if (kind === 'category') {
    const r = await base
      .innerJoin('safety_report_categories as c', 'c.id', 'safety_reports.safety_report_category_id')
      .select(['c.id as key', 'c.name as label', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy(['c.id', 'c.name'])
      .execute();
    return r.map((x) => ({ key: x.key, label: x.label, count: Number(x.count) }));
  }
  if (kind === 'department') {
    const r = await base
      .innerJoin('safety_report_departments as d', 'd.id', 'safety_reports.safety_report_department_id')
      .select(['d.id as key', 'd.name as label', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy(['d.id', 'd.name'])
      .execute();
    return r.map((x) => ({ key: x.key, label: x.label, count: Number(x.count) }));
  }
  const r = await base
    .leftJoin('flight_types as ft', 'ft.id', 'safety_reports.flight_type_id')
    .select(['safety_reports.flight_type_id as key', 'ft.name as label', (eb) => eb.fn.countAll<number>().as('count')])
    .groupBy(['safety_reports.flight_type_id', 'ft.name'])
    .execute();
  return r.map((x) => ({ key: x.key, label: x.label, count: Number(x.count) }));
}

/** `YYYY-MM` of the stored datetime; literal SQL (no parameters) so select and group by match on PostgreSQL. */
const MONTH = sql<string>`substr(safety_reports.datetime, 1, 7)`;

/** Counts per month (oldest first) by severity over the last `months` months, this one included. */
export async function reportsByMonth(db: Kysely<DB>, actor: Actor, months: number, now = new Date()) {
  if (!Number.isInteger(months) || months < 1 || months > 120) throw invalid({ months: ['Expected 1 to 120 months'] });
  const keys: string[] = [];
  for (let i = months - 1; i >= 0; i--) {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1));
    keys.push(d.toISOString().slice(0, 7));
  }
  const seen = statusesSeenByRole(actor);
  const linked = seen.length < SUBMITTED_STATUSES.length;
  const [fromAggregate, fromReports] = await Promise.all([
    seen.length
      ? aggregateBase(db, actor, 'severity', seen, keys[0])
          .select(['st.month', 'st.key as severity', sql<number>`sum(st."count")`.as('count')])
          .groupBy(['st.month', 'st.key'])
          .execute()
      : [],
    linked
      ? statsBase(db, actor)
          .where('safety_reports.datetime', '>=', `${keys[0]}-01 00:00:00`)
          .select((eb) => [MONTH.as('month'), 'safety_reports.severity', eb.fn.countAll<number>().as('count')])
          .groupBy([MONTH, 'safety_reports.severity'])
          .execute()
      : [],
  ]);
  const data = keys.map((month) => {
    const out: Record<string, number | string> = { month };
    for (const s of SAFETY_SEVERITIES) out[s.key] = 0;
    return out;
  });
  const byMonth = new Map(data.map((d) => [d.month as string, d]));
  for (const x of [...fromAggregate, ...fromReports]) {
    const d = byMonth.get(x.month);
    if (d && x.severity) d[x.severity] = Number(d[x.severity] ?? 0) + Number(x.count);
  }
  return { result: true, months, data };
}
