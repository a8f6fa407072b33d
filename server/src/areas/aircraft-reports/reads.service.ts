import { aircraftReportsCollection, type Viewer } from '@ops/shared';
import {
  MEL_CATEGORIES,
  REPORT_STATUSES,
  REPORT_TYPES,
  remapLegacyReportType,
  SEVERITIES,
} from '@ops/shared/rules/aircraft-reports/mel';
import { canBeReleaser } from '@ops/shared/rules/aircraft-reports/policy';
import type { Kysely } from 'kysely';
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
import {
  aircraftRegistration,
  linkedJob,
  liveAircraft,
  openJobsOf,
  releaserCandidates,
  reportDocs,
  reportListPage,
  reportsRepository,
  userName,
} from './aircraft-reports.repository.ts';
import { deriveAll } from './mel-state.repository.ts';
import { presentLinkedJob, presentReport } from './aircraft-reports.presenter.ts';

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

export async function listReports(db: Kysely<DB>, actor: Actor, raw: unknown) {
  const f = parseOr400(ZIndex, unwrapData(raw));
  const limit = Math.min(f.limit ?? REPORT_PAGE_DEFAULT, REPORT_PAGE_MAX);
  const page = f.page ?? 1;
  const { count, rows } = await reportListPage(db, actor.companyId, f, page, limit);
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
    paginate: paginate(page, limit, count, rows.length),
  };
}

export async function viewReport(db: Kysely<DB>, actor: Actor, id: string) {
  const row = await reportsRepository.find(db, actor.companyId, id);
  if (!row) throw notFound('Aircraft report not found');
  const [doc] = await reportDocs(db, actor.companyId, [row], nowSeconds(), actor.company.timezone);
  const aircraft = await aircraftRegistration(db, actor.companyId, row.aircraft_id);
  const reporter = row.user_id ? await userName(db, actor.companyId, row.user_id) : undefined;
  const job = row.maintenance_job_id ? await linkedJob(db, actor.companyId, row.maintenance_job_id) : undefined;
  return {
    result: true,
    ...presentReport(aircraftReportsCollection.visible(doc, viewerOf(actor)), {
      registration: aircraft?.registration ?? null,
      reporter: reporter ?? null,
    }),
    MaintenanceJob: presentLinkedJob(job),
    // Photos and documents of the defect (uploads with model `AircraftReport`).
    Upload: (await uploadsOf(db, actor.companyId, 'AircraftReport', [row.id])).get(row.id) ?? [],
  };
}

export async function releasers(db: Kysely<DB>, actor: Actor) {
  const rows = await releaserCandidates(db, actor.companyId, actor.userId);
  // The shared rule decides; the SQL only narrows the candidates.
  return { result: true, releasers: rows.filter((u) => canBeReleaser(u.user_group_id, u.id === actor.userId)) };
}

export async function aircraftStatus(db: Kysely<DB>, actor: Actor, aircraftId: string) {
  const aircraft = await liveAircraft(db, actor.companyId, aircraftId);
  if (!aircraft) throw notFound('Aircraft not found');
  const now = nowSeconds();
  const state = await aircraftBlockState(db, actor.companyId, aircraft.id, now);
  const jobs = await openJobsOf(db, actor.companyId, aircraft.id);
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
