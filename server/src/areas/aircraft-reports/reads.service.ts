import { aircraftReportsCollection, type Viewer } from '@ops/shared';
import {
  MEL_CATEGORIES,
  REPORT_STATUSES,
  REPORT_TYPES,
  remapLegacyReportType,
  SEVERITIES,
} from '@ops/shared/rules/aircraft-reports/mel';
import { canBeReleaser } from '@ops/shared/rules/aircraft-reports/policy';
import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import type { DB } from '../../db/schema.ts';
import type { Actor } from '../../http/actor.ts';
import { notFound } from '../../http/errors.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { unwrapData } from '../../http/body.ts';
import { parseOr400 } from '../../http/errors.ts';
import { paginate } from '../../http/paging.ts';
import { emptyToUndefined, zPage } from '../../http/zod.ts';
import { uploadsOf } from '../uploads/attachments.service.ts';
import { aircraftBlockState, openMelItemsQuery } from './aircraft-block.service.ts';
import { reportDocs, reportsRepository } from './aircraft-reports.repository.ts';
import { deriveAll } from './mel-state.repository.ts';
import { presentReport } from './aircraft-reports.presenter.ts';

/** Read side of the technical log: list, view, aircraft status, summary, releasers. */

const viewerOf = (a: Actor): Viewer => ({ userId: a.userId, companyId: a.companyId, role: a.role });

const list = (allowed: readonly string[], label: string) =>
  z.preprocess((v) => {
    const x = emptyToUndefined(v);
    if (x === undefined) return undefined;
    // A non-text item (`[[]]`) stays as it is, so the enum refuses it instead of reading it as empty.
    const parts = (Array.isArray(x) ? x : String(x).split(','))
      .map((p) => (typeof p === 'string' ? p.trim().toUpperCase() : p))
      .filter((p) => p !== '');
    return parts.map((p) => (label === 'type' && typeof p === 'string' ? remapLegacyReportType(p) : p));
  }, z
    .array(z.enum(allowed as [string, ...string[]], { error: `Each ${label} one of ${allowed.join(', ')}` }))
    .optional());

export const ZIndex = z.object({
  aircraft: z.preprocess(emptyToUndefined, z.union([z.string(), z.number()]).transform(String).optional()),
  flight: z.preprocess(emptyToUndefined, z.string().max(64).optional()),
  type: list(REPORT_TYPES, 'type'),
  status: list(REPORT_STATUSES, 'status'),
  severity: z.preprocess(
    (v) => (typeof v === 'string' ? emptyToUndefined(v.trim().toUpperCase()) : v),
    z.enum(SEVERITIES).optional(),
  ),
  category: z.preprocess(
    (v) => (typeof v === 'string' ? emptyToUndefined(v.trim().toUpperCase()) : v),
    z.enum(MEL_CATEGORIES).optional(),
  ),
  wc: z.preprocess(emptyToUndefined, z.string().trim().max(200).optional()),
  job: z.preprocess(emptyToUndefined, z.string().max(64).optional()),
  linked: z.preprocess(
    (v) => (typeof v === 'string' ? emptyToUndefined(v.trim().toLowerCase()) : v),
    z.enum(['yes', 'no']).optional(),
  ),
  limit: z.preprocess(
    emptyToUndefined,
    z
      .union([z.number(), z.string().regex(/^\d+$/, 'Expected a number')])
      .transform(Number)
      .pipe(z.number().int().min(1, 'At least 1'))
      .optional(),
  ),
  page: zPage,
});

export const REPORT_PAGE_DEFAULT = 50;
export const REPORT_PAGE_MAX = 500;

/** Escapes LIKE wildcards so a search for `50%` finds that text. */
const likePattern = (s: string) => `%${s.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function listReports(db: Kysely<DB>, actor: Actor, raw: unknown) {
  const f = parseOr400(ZIndex, unwrapData(raw));
  const limit = Math.min(f.limit ?? REPORT_PAGE_DEFAULT, REPORT_PAGE_MAX);
  const page = f.page ?? 1;
  let q = db.selectFrom('aircraft_reports as r').where('r.company_id', '=', actor.companyId).where('r.deleted', '=', 0);
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
          .where('m.company_id', '=', actor.companyId)
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
    .leftJoin('aircraft as a', (j) => j.onRef('a.id', '=', 'r.aircraft_id').on('a.company_id', '=', actor.companyId))
    .leftJoin('users as u', (j) => j.onRef('u.id', '=', 'r.user_id').on('u.company_id', '=', actor.companyId))
    .selectAll('r')
    .select(['a.registration', 'u.name as reporter_name', 'u.surname as reporter_surname'])
    .orderBy('r.created', 'desc')
    .orderBy('r.id', 'desc')
    .limit(limit)
    .offset((page - 1) * limit)
    .execute();
  const docs = await reportDocs(db, actor.companyId, rows, nowSeconds(), actor.company.timezone);
  const viewer = viewerOf(actor);
  return {
    result: true,
    reports: docs.map((d, i) => {
      const row = rows[i];
      return presentReport(aircraftReportsCollection.visible(d, viewer), {
        registration: row.registration,
        reporter: row.reporter_name !== null ? { name: row.reporter_name, surname: row.reporter_surname ?? '' } : null,
      });
    }),
    paginate: paginate(page, limit, Number(count), rows.length),
  };
}

export async function viewReport(db: Kysely<DB>, actor: Actor, id: string) {
  const row = await reportsRepository.find(db, actor.companyId, id);
  if (!row) throw notFound('Aircraft report not found');
  const [doc] = await reportDocs(db, actor.companyId, [row], nowSeconds(), actor.company.timezone);
  const aircraft = await db
    .selectFrom('aircraft')
    .select('registration')
    .where('company_id', '=', actor.companyId)
    .where('id', '=', row.aircraft_id)
    .executeTakeFirst();
  const reporter = row.user_id
    ? await db
        .selectFrom('users')
        .select(['name', 'surname'])
        .where('company_id', '=', actor.companyId)
        .where('id', '=', row.user_id)
        .executeTakeFirst()
    : undefined;
  const job = row.maintenance_job_id
    ? await db
        .selectFrom('maintenance_jobs')
        .select(['id', 'name', 'status', 'start', 'crs_signed'])
        .where('company_id', '=', actor.companyId)
        .where('id', '=', row.maintenance_job_id)
        .where('deleted', '=', 0)
        .executeTakeFirst()
    : undefined;
  return {
    result: true,
    ...presentReport(aircraftReportsCollection.visible(doc, viewerOf(actor)), {
      registration: aircraft?.registration ?? null,
      reporter: reporter ?? null,
    }),
    MaintenanceJob: job
      ? { id: job.id, name: job.name, status: job.status, start: job.start, crs_signed: !!job.crs_signed }
      : null,
    // Photos and documents of the defect (uploads with model `AircraftReport`).
    Upload: (await uploadsOf(db, actor.companyId, 'AircraftReport', [row.id])).get(row.id) ?? [],
  };
}

export async function releasers(db: Kysely<DB>, actor: Actor) {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'name', 'surname', 'user_group_id'])
    .where('company_id', '=', actor.companyId)
    .where('deleted', '=', 0)
    .where('active', '=', 1)
    .where((eb) => eb.or([eb('user_group_id', 'in', [1, 100, 105, 110, 300]), eb('id', '=', actor.userId)]))
    .orderBy('surname')
    .orderBy('name')
    .orderBy('id')
    .execute();
  // The shared rule decides; the SQL only narrows the candidates.
  return { result: true, releasers: rows.filter((u) => canBeReleaser(u.user_group_id, u.id === actor.userId)) };
}

export async function aircraftStatus(db: Kysely<DB>, actor: Actor, aircraftId: string) {
  const aircraft = await db
    .selectFrom('aircraft')
    .select(['id', 'registration'])
    .where('company_id', '=', actor.companyId)
    .where('id', '=', aircraftId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!aircraft) throw notFound('Aircraft not found');
  const now = nowSeconds();
  const state = await aircraftBlockState(db, actor.companyId, aircraft.id, now);
  const jobs = await db
    .selectFrom('maintenance_jobs')
    .select(['id', 'name', 'status', 'start', 'maintenance_plan_id'])
    .where('company_id', '=', actor.companyId)
    .where('aircraft_id', '=', aircraft.id)
    .where('deleted', '=', 0)
    .where('crs_signed', '=', 0)
    .orderBy(sql`case when start is null then 1 else 0 end`)
    .orderBy('start')
    .orderBy('id')
    .execute();
  return {
    result: true,
    aircraft_id: aircraft.id,
    registration: aircraft.registration,
    blocked: state.blocked,
    blockReason: state.blockReason,
    checked_at: now,
    items: state.items,
    jobs,
  };
}

type Counts = { open: number; expiring_soon: number; expired: number };

/** Company-wide counts of open MEL and CDL items: all open, and of them expiring soon and expired. */
export async function melSummary(db: Kysely<DB>, actor: Actor) {
  const rows = await openMelItemsQuery(db, actor.companyId)
    .innerJoin('aircraft as a', (j) => j.onRef('a.id', '=', 'r.aircraft_id').on('a.company_id', '=', actor.companyId))
    .select(['a.registration'])
    .execute();
  const now = nowSeconds();
  const derived = await deriveAll(
    db,
    actor.companyId,
    rows.map((r) => ({ ...r, key: r.report_id, raisedAt: Number(r.raised_at) })),
    now,
    actor.company.timezone,
  );
  const zero = (): Counts => ({ open: 0, expiring_soon: 0, expired: 0 });
  const total = zero();
  const byType: Record<'MEL' | 'CDL', Counts> = { MEL: zero(), CDL: zero() };
  const byAircraft = new Map<string, Counts & { aircraft_id: string; registration: string }>();
  for (const r of rows) {
    const status = derived.get(r.report_id)?.status ?? 'OPEN';
    const plane = byAircraft.get(r.aircraft_id) ?? {
      aircraft_id: r.aircraft_id,
      registration: r.registration,
      ...zero(),
    };
    byAircraft.set(r.aircraft_id, plane);
    for (const c of [total, byType[r.type as 'MEL' | 'CDL'], plane]) {
      if (!c) continue;
      c.open += 1;
      if (status === 'EXPIRING_SOON') c.expiring_soon += 1;
      if (status === 'EXPIRED') c.expired += 1;
    }
  }
  return {
    result: true,
    checked_at: now,
    ...total,
    MEL: byType.MEL,
    CDL: byType.CDL,
    aircraft: [...byAircraft.values()]
      .map((a) => ({ ...a, blocked: a.expired > 0 }))
      .sort((x, y) => x.registration.localeCompare(y.registration)),
  };
}
