import {
  AIR_SPACES,
  assessRisk,
  DAMAGES,
  FLIGHT_PHASES,
  icaoRiskMatrix,
  isRiskMatrix,
  PERSONAL_DAMAGES,
  RISK_PROBABILITIES,
  RISK_SEVERITIES,
  type RiskMatrix,
  SAFETY_MANAGER_MAX_ROLE,
  SAFETY_SEVERITIES,
  SAFETY_STATUSES,
  safetyEditable,
  SAFETY_TYPES,
  type TrailEntry,
} from '@ops/shared/rules/safety-reports/safety';
import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import type { DB } from '../../db/schema.ts';
import type { Actor } from '../../http/actor.ts';
import { invalid, paginate } from '../aircraft/fleet-common.ts';
import { loadVisible } from './safety-reports.service.ts';
import { viewerOf, visibleSql } from './safety-reports.access.ts';
import type { SafetyReportsTable } from './safety-reports.tables.ts';

type Row = SafetyReportsTable;
const parseIds = (json: string): string[] => {
  try {
    const v = JSON.parse(json);
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
};

export const LIST_KEYS = ['limit', 'page', 'status', 'report_category', 'severity', 'department', 'from', 'to', 'excel'] as const;
const zDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Expected YYYY-MM-DD');
export const ZListFilters = z.object({
  limit: z.coerce.number({ error: 'Expected an integer' }).int('Expected an integer').min(1, 'At least 1').max(100, 'At most 100').default(25),
  page: z.coerce.number({ error: 'Expected an integer' }).int('Expected an integer').min(1, 'At least 1').default(1),
  status: z.enum(SAFETY_STATUSES.map((s) => s.key) as [string, ...string[]]).optional(),
  severity: z.enum(SAFETY_SEVERITIES.map((s) => s.key) as [string, ...string[]]).optional(),
  report_category: z.string().max(64).optional(),
  department: z.string().max(64).optional(),
  from: zDay.optional(),
  to: zDay.optional(),
  excel: z.enum(['true', '1', 'false', '0']).optional(),
  flight_id: z.string().max(64).optional(),
});
export type ListFilters = z.output<typeof ZListFilters>;

/** The filtered, visible, live top-level reports (list and spreadsheet). */
export function filteredQuery(db: Kysely<DB>, actor: Actor, f: ListFilters) {
  let q = db
    .selectFrom('safety_reports')
    .where('safety_reports.company_id', '=', actor.companyId)
    .where('safety_reports.deleted', '=', 0)
    .where('safety_reports.parent_id', 'is', null)
    .where((eb) => visibleSql(eb, actor, { drafts: true }));
  if (f.status) q = q.where('safety_reports.status', '=', f.status);
  if (f.severity) q = q.where('safety_reports.severity', '=', f.severity);
  if (f.report_category) q = q.where('safety_reports.safety_report_category_id', '=', f.report_category);
  if (f.department) q = q.where('safety_reports.safety_report_department_id', '=', f.department);
  if (f.from) q = q.where('safety_reports.datetime', '>=', `${f.from} 00:00:00`);
  if (f.to) q = q.where('safety_reports.datetime', '<=', `${f.to} 23:59:59`);
  if (f.flight_id) q = q.where('safety_reports.flight_id', '=', f.flight_id);
  return q;
}

/** Presented report fields: reads as the spec (datetime, ids), the author hidden, sets as lists. */
export function present(r: Row) {
  const { author_id: _a, crew_pic_id: _p, crew_sic_id: _s, crew_supervisor_id: _v, aircraft_ids, involved_user_ids, idn_year: _y, idn_seq: _q, child_no: _n, change_no: _c, ...rest } = r;
  return { ...rest, deleted: Boolean(r.deleted), involved_users: parseIds(involved_user_ids), aircraft_ids: parseIds(aircraft_ids) };
}

/** GET index (Part B 4.4 item 1). */
export async function listSafetyReports(db: Kysely<DB>, actor: Actor, f: ListFilters) {
  const base = filteredQuery(db, actor, f);
  const [count, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('c')).executeTakeFirstOrThrow(),
    base
      .leftJoin('safety_report_categories as c', 'c.id', 'safety_reports.safety_report_category_id')
      .leftJoin('safety_report_departments as d', 'd.id', 'safety_reports.safety_report_department_id')
      .leftJoin('users as u', 'u.id', 'safety_reports.user_id')
      .selectAll('safety_reports')
      .select(['c.name as category_name', 'd.name as department_name', 'u.name as reporter_name', 'u.surname as reporter_surname'])
      .orderBy('safety_reports.datetime', 'desc')
      .orderBy('safety_reports.id', 'desc')
      .limit(f.limit)
      .offset((f.page - 1) * f.limit)
      .execute(),
  ]);
  const total = Number(count.c);
  return {
    result: true,
    // The joined names go to their own blocks only, not into SafetyReport (the contract test caught them there).
    reports: rows.map(({ category_name, department_name, reporter_name, reporter_surname, ...r }) => ({
      SafetyReport: present(r as Row),
      SafetyReportCategory: r.safety_report_category_id ? { id: r.safety_report_category_id, name: category_name } : null,
      SafetyReportDepartment: r.safety_report_department_id ? { id: r.safety_report_department_id, name: department_name } : null,
      User: r.user_id ? { id: r.user_id, name: reporter_name, surname: reporter_surname } : null,
    })),
    paginate: paginate(f.page, f.limit, total, rows.length),
  };
}

export async function riskMatrixOf(db: Kysely<DB>, companyId: string): Promise<RiskMatrix> {
  const row = await db.selectFrom('safety_risk_matrices').select('cells').where('company_id', '=', companyId).executeTakeFirst();
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
  const [flight, aircraft, reporter, reviewer, category, department, children, matrix, parent, trail] = await Promise.all([
    r.flight_id
      ? db
          .selectFrom('flights as f')
          .leftJoin('aircraft as a', 'a.id', 'f.aircraft_id')
          .select(['f.id', 'f.date', 'f.status', 'f.aircraft_id', 'f.pic_id', 'f.sic_id', 'f.supervisor_id', 'f.departure_airport', 'f.landing_airport', 'a.registration'])
          .where('f.company_id', '=', c)
          .where('f.id', '=', r.flight_id)
          .executeTakeFirst()
      : undefined,
    aircraftIds.length ? db.selectFrom('aircraft').select(['id', 'registration']).where('company_id', '=', c).where('id', 'in', aircraftIds).execute() : [],
    r.user_id ? db.selectFrom('users').select(['id', 'name', 'surname']).where('company_id', '=', c).where('id', '=', r.user_id).executeTakeFirst() : undefined,
    r.reviewer_id ? db.selectFrom('users').select(['id', 'name', 'surname']).where('company_id', '=', c).where('id', '=', r.reviewer_id).executeTakeFirst() : undefined,
    r.safety_report_category_id ? db.selectFrom('safety_report_categories').select(['id', 'name']).where('company_id', '=', c).where('id', '=', r.safety_report_category_id).executeTakeFirst() : undefined,
    r.safety_report_department_id ? db.selectFrom('safety_report_departments').select(['id', 'name']).where('company_id', '=', c).where('id', '=', r.safety_report_department_id).executeTakeFirst() : undefined,
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
    r.parent_id ? db.selectFrom('safety_reports').select(['id', 'idn', 'name']).where('company_id', '=', c).where('id', '=', r.parent_id).executeTakeFirst() : undefined,
    actor.role <= SAFETY_MANAGER_MAX_ROLE
      ? db.selectFrom('safety_report_changes').selectAll().where('company_id', '=', c).where('safety_report_id', '=', r.id).orderBy('created', 'desc').orderBy('id', 'desc').execute()
      : undefined,
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
  return { result: true, report, allowEdit: safetyEditable(r, viewerOf(actor)) };
}

/** GET stats.json: the reference enumerations. */
export function enumerations() {
  return {
    result: true,
    status: SAFETY_STATUSES,
    severity: SAFETY_SEVERITIES,
    type: SAFETY_TYPES,
    flight_phase: Object.entries(FLIGHT_PHASES).map(([key, label]) => ({ key, label })),
    damages: Object.entries(DAMAGES).map(([key, label]) => ({ key, label })),
    personal_damages: Object.entries(PERSONAL_DAMAGES).map(([key, label]) => ({ key, label })),
    air_space: Object.entries(AIR_SPACES).map(([key, label]) => ({ key, label })),
    risk_probability: Object.entries(RISK_PROBABILITIES).map(([key, v]) => ({ key, ...v })),
    risk_severity: Object.entries(RISK_SEVERITIES).map(([key, v]) => ({ key, ...v })),
  };
}

/** GET form_options.json: departments with their categories nested, the enumerations and the company's risk matrix. */
export async function formOptions(db: Kysely<DB>, actor: Actor) {
  const c = actor.companyId;
  const [deps, cats, matrix] = await Promise.all([
    db.selectFrom('safety_report_departments').select(['id', 'name']).where('company_id', '=', c).where('deleted', '=', 0).orderBy('name').execute(),
    db.selectFrom('safety_report_categories').select(['id', 'name', 'safety_report_department_id']).where('company_id', '=', c).where('deleted', '=', 0).orderBy('name').execute(),
    riskMatrixOf(db, c),
  ]);
  return {
    result: true,
    departments: deps.map((d) => ({
      SafetyReportDepartment: d,
      SafetyReportCategory: cats.filter((x) => x.safety_report_department_id === d.id).map((x) => ({ id: x.id, name: x.name })),
    })),
    riskMatrix: matrix,
    ...(({ result: _r, ...e }) => e)(enumerations()),
  };
}

/** Statistics (Part B 4.4 item 8): visible, live, non-draft, top-level reports of the company, optionally of one year. */
function statsBase(db: Kysely<DB>, actor: Actor, year?: number) {
  let q = db
    .selectFrom('safety_reports')
    .where('safety_reports.company_id', '=', actor.companyId)
    .where('safety_reports.deleted', '=', 0)
    .where('safety_reports.parent_id', 'is', null)
    .where((eb) => visibleSql(eb, actor, { drafts: false }));
  if (year !== undefined) q = q.where('safety_reports.datetime', '>=', `${year}-01-01 00:00:00`).where('safety_reports.datetime', '<', `${year + 1}-01-01 00:00:00`);
  return q;
}

export const ZYearNamed = z.object({ year: z.coerce.number({ error: 'Expected a year' }).int('Expected a year').min(1900, 'Expected a year').max(2999, 'Expected a year').optional() });

export type StatKind = 'flight_type' | 'category' | 'severity' | 'flight_phase' | 'department';

export async function statistic(db: Kysely<DB>, actor: Actor, kind: StatKind, year?: number) {
  const base = statsBase(db, actor, year);
  let rows: { key: string | null; label: string | null; count: number }[];
  if (kind === 'severity' || kind === 'flight_phase') {
    const col = kind === 'severity' ? 'safety_reports.severity' : 'safety_reports.flight_phase';
    const r = await base.select([`${col} as key`, (eb) => eb.fn.countAll<number>().as('count')]).groupBy(col).execute();
    const labels: Record<string, string> =
      kind === 'severity' ? Object.fromEntries(SAFETY_SEVERITIES.map((s) => [s.key, s.label])) : (FLIGHT_PHASES as Record<string, string>);
    rows = r.map((x) => ({ key: x.key, label: x.key ? (labels[x.key] ?? x.key) : null, count: Number(x.count) }));
  } else if (kind === 'category') {
    const r = await base
      .innerJoin('safety_report_categories as c', 'c.id', 'safety_reports.safety_report_category_id')
      .select(['c.id as key', 'c.name as label', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy(['c.id', 'c.name'])
      .execute();
    rows = r.map((x) => ({ key: x.key, label: x.label, count: Number(x.count) }));
  } else if (kind === 'department') {
    const r = await base
      .innerJoin('safety_report_departments as d', 'd.id', 'safety_reports.safety_report_department_id')
      .select(['d.id as key', 'd.name as label', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy(['d.id', 'd.name'])
      .execute();
    rows = r.map((x) => ({ key: x.key, label: x.label, count: Number(x.count) }));
  } else {
    const r = await base
      .leftJoin('flight_types as ft', 'ft.id', 'safety_reports.flight_type_id')
      .select(['safety_reports.flight_type_id as key', 'ft.name as label', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy(['safety_reports.flight_type_id', 'ft.name'])
      .execute();
    rows = r.map((x) => ({ key: x.key, label: x.key ? x.label : 'No flight type', count: Number(x.count) }));
  }
  rows.sort((a, b) => b.count - a.count || String(a.label).localeCompare(String(b.label)));
  return { result: true, year: year ?? null, data: rows, total: rows.reduce((s, x) => s + x.count, 0) };
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
  const r = await statsBase(db, actor)
    .where('safety_reports.datetime', '>=', `${keys[0]}-01 00:00:00`)
    .select((eb) => [MONTH.as('month'), 'safety_reports.severity', eb.fn.countAll<number>().as('count')])
    .groupBy([MONTH, 'safety_reports.severity'])
    .execute();
  const data = keys.map((month) => {
    const out: Record<string, number | string> = { month };
    for (const s of SAFETY_SEVERITIES) out[s.key] = 0;
    return out;
  });
  const byMonth = new Map(data.map((d) => [d.month as string, d]));
  for (const x of r) {
    const d = byMonth.get(x.month);
    if (d) d[x.severity] = Number(x.count);
  }
  return { result: true, months, data };
}
