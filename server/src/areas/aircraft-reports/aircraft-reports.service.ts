import { uuidv7 } from '@ops/shared';
import {
  type ClosureState,
  checkExtension,
  closureStamp,
  computeMelWindow,
  defaultInterval,
  type MelCategory,
  type ReportStatus,
} from '@ops/shared/rules/aircraft-reports/mel';
import { canBeReleaser } from '@ops/shared/rules/aircraft-reports/policy';

import { releasesAircraft, withRectification } from '@ops/shared/rules/aircraft-reports/blockers';
import {
  mayActOnMel,
  mayChangeAircraftReport,
  mayCloseAircraftReport,
  mayWriteAircraftReports,
} from '@ops/shared/rules/aircraft-reports/policy';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import {
  type FieldErrors,
  type HttpError,
  badRequest,
  forbidden,
  notFound,
  zodFieldErrors,
} from '../../http/errors.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { addError, invalid, mergeErrors } from '../../http/errors.ts';
import { type ReportRow, reportsRepository } from './aircraft-reports.repository.ts';
import {
  type ReportInput,
  splitReportBody,
  type TLimitation,
  type TMelCreate,
  type TMelEdit,
  ZLimitation,
  ZMelCreate,
  ZMelEdit,
  ZReportCreate,
  ZReportEdit,
} from './aircraft-reports.schema.ts';
import { itemState } from './mel-state.repository.ts';
import { dispatchBlockers } from './aircraft-block.service.ts';
import { notifyReportCreated } from './aircraft-reports.notify.ts';
import { emitMelWebhook } from './aircraft-reports.webhooks.ts';

/**
 * The one write path of the technical log, used by REST and by sync (pushed
 * documents and the `mel.*` commands). Rules: Part B 2.2, 2.3, 3.2, 4.2;
 * decisions in docs/areas/fleet.md. Every MEL/CDL computation goes through the
 * shared rules; each write stamps the report's change number, so its item and
 * limitations replicate with it.
 */

const isMelType = (t: string) => t === 'MEL' || t === 'CDL';

/**
 * The shared closure rule types user ids as numbers; ids here are UUID text
 * (docs/decisions.md) and the rule only carries them through, never computes with them.
 */
function stamp(
  prev: { status: string; closed: number | null; closed_by: string | null },
  posted: ReportStatus | undefined,
  now: number,
  userId: string,
) {
  const out = closureStamp(prev as unknown as ClosureState, posted, now, userId as unknown as number);
  return { status: out.status, closed: out.closed, closed_by: out.closed_by as unknown as string | null };
}

async function aircraftOf(db: Kysely<DB>, companyId: string, id: string) {
  return db
    .selectFrom('aircraft')
    .select(['id', 'user_id', 'hours', 'landings', 'flights', 'registration'])
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
}

/** `released_by` must be an active user of the company who may release (Part B 4.2 item 6); `requester` is the reporter. */
async function checkReleaser(
  db: Kysely<DB>,
  companyId: string,
  userId: string,
  requester: string | null,
): Promise<string | null> {
  const u = await db
    .selectFrom('users')
    .select(['id', 'user_group_id', 'active'])
    .where('company_id', '=', companyId)
    .where('id', '=', userId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!u?.active) return 'Unknown user';
  return canBeReleaser(u.user_group_id, u.id === requester) ? null : 'This user cannot release MEL or CDL items';
}

function parseLimitations(rows: unknown[], errors: FieldErrors): TLimitation[] {
  const out: TLimitation[] = [];
  rows.forEach((row, i) => {
    const r = ZLimitation.safeParse(row ?? {});
    if (r.success) out.push(r.data);
    else mergeErrors(errors, `MelItemLimitation.${i}.`, zodFieldErrors(r.error));
  });
  return out;
}

async function insertLimitations(
  uow: UnitOfWork,
  companyId: string,
  melItemId: string,
  rows: TLimitation[],
  now: number,
) {
  if (!rows.length) return;
  // UUIDv7 ids one millisecond apart sort in posted order; lists order limitations by id.
  const ms = Date.now();
  await uow.trx
    .insertInto('mel_item_limitations')
    .values(
      rows.map((l, i) => ({
        id: uuidv7(ms + i),
        company_id: companyId,
        mel_item_id: melItemId,
        code: l.code,
        value: l.value ?? null,
        note: l.note ?? null,
        created: now,
      })),
    )
    .execute();
}

/** A raise may be queued offline for a while; older or future device times fall back to the server's. */
const MAX_OFFLINE_AGE = 7 * 86400;
const MAX_CLOCK_SKEW = 300;

/** When an offline report was raised: the device's time (unix ms or seconds) when plausible, else now. */
export function raisedAtOf(clientTime: number, now: number): number {
  const seconds = clientTime > 1e11 ? Math.floor(clientTime / 1000) : Math.floor(clientTime);
  if (!Number.isFinite(seconds) || seconds > now + MAX_CLOCK_SKEW || seconds < now - MAX_OFFLINE_AGE) return now;
  return Math.min(seconds, now);
}

export interface CreateOptions {
  /** Client-generated id (offline raise); a new UUID otherwise. */
  id?: string;
  /** When the defect was found (offline raise: the device's time); now otherwise. */
  raisedAt?: number;
  /** `mel.raise` accepts MEL and CDL reports only. */
  melOnly?: boolean;
}

export interface CreatedReport {
  id: string;
  mel_item_id: string | null;
  starts: number | null;
  expires: number | null;
}

export async function createReport(
  uow: UnitOfWork,
  actor: Actor,
  raw: unknown,
  opts: CreateOptions = {},
): Promise<CreatedReport> {
  const trx = uow.trx;
  const input: ReportInput = splitReportBody(raw);
  if (!mayWriteAircraftReports(actor)) throw forbidden('External auditors have read-only access');
  const errors: FieldErrors = {};
  const parsed = ZReportCreate.safeParse(input.report);
  if (!parsed.success) mergeErrors(errors, '', zodFieldErrors(parsed.error));
  const r = parsed.success ? parsed.data : null;

  const aircraftId =
    typeof input.report.aircraft_id === 'string' || typeof input.report.aircraft_id === 'number'
      ? String(input.report.aircraft_id)
      : null;
  const aircraft = aircraftId ? await aircraftOf(trx, actor.companyId, aircraftId) : undefined;
  if (aircraftId && !aircraft) throw notFound('Aircraft not found');
  const type = r?.type ?? null;
  if (opts.melOnly && type && !isMelType(type)) addError(errors, 'type', 'mel.raise raises MEL or CDL items only');
  if (type && isMelType(type) && aircraft && !mayActOnMel(actor, 'raise', aircraft)) {
    throw forbidden('Only managers, mechanics or the aircraft’s assigned pilot can raise MEL or CDL items');
  }

  if (r?.flight_id && aircraft) {
    const f = await trx
      .selectFrom('flights')
      .select(['id', 'aircraft_id'])
      .where('company_id', '=', actor.companyId)
      .where('id', '=', r.flight_id)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (!f) addError(errors, 'flight_id', 'Unknown flight');
    else if (f.aircraft_id && f.aircraft_id !== aircraft.id)
      addError(errors, 'flight_id', 'The flight was made with another aircraft');
  }

  // The MEL or CDL block is validated with the report: one answer lists every problem.
  let mel: TMelCreate | null = null;
  let limitations: TLimitation[] = [];
  let interval: { interval_type: string; interval_value: number | null } | null = null;
  if (type && isMelType(type)) {
    const m = ZMelCreate.safeParse(input.mel ?? {});
    if (!m.success) mergeErrors(errors, 'MelItem.', zodFieldErrors(m.error));
    else {
      mel = m.data;
      const category = mel.category ?? null;
      if (type === 'MEL' && category === null)
        addError(errors, 'MelItem.category', 'Required for a MEL item (A, B, C or D)');
      const iv = defaultInterval(category, {
        interval_type: mel.interval_type ?? null,
        interval_value: mel.interval_value ?? null,
      });
      if (!iv.ok)
        addError(errors, /value/i.test(iv.reason) ? 'MelItem.interval_value' : 'MelItem.interval_type', iv.reason);
      else interval = iv.interval;
      if (!mel.released_by) addError(errors, 'MelItem.released_by', 'Required');
      else {
        const why = await checkReleaser(trx, actor.companyId, mel.released_by, actor.userId);
        if (why) addError(errors, 'MelItem.released_by', why);
      }
    }
    limitations = parseLimitations(input.limitations ?? [], errors);
  }
  if (Object.keys(errors).length || !r || !aircraft) throw invalid(errors);

  const now = nowSeconds();
  const raisedAt = opts.raisedAt ?? now;
  const id = opts.id ?? uuidv7();
  if (opts.id && (await reportsRepository.findAny(trx, actor.companyId, opts.id)))
    throw badRequest('A report with this id already exists');
  const closure = stamp({ status: 'OPEN', closed: null, closed_by: null }, r.status ?? 'OPEN', now, actor.userId);
  await trx
    .insertInto('aircraft_reports')
    .values({
      id,
      company_id: actor.companyId,
      change_no: await uow.changeNo(actor.companyId, 'aircraft_reports'),
      deleted: 0,
      created: raisedAt,
      modified: now,
      aircraft_id: aircraft.id,
      flight_id: r.flight_id ?? null,
      user_id: actor.userId,
      type: r.type,
      title: r.title,
      description: r.description ?? null,
      ata_chapter: r.ata_chapter ?? null,
      system: r.system ?? null,
      severity: r.severity ?? 'LOW',
      aircraft_status: r.aircraft_status ?? 'FLYABLE',
      dispatch_condition: isMelType(r.type) ? r.type : (r.dispatch_condition ?? 'NONE'),
      status: closure.status,
      // The aircraft's books at the time of the report, unless the reporter gave them.
      hours: r.hours ?? aircraft.hours,
      cycles: r.cycles ?? aircraft.landings,
      deferred_until: r.deferred_until ?? null,
      deferred_reference: r.deferred_reference ?? null,
      closed: closure.closed,
      closed_by: closure.closed_by,
      maintenance_job_id: null,
    })
    .execute();

  let created: CreatedReport = { id, mel_item_id: null, starts: null, expires: null };
  if (mel) {
    const category = (mel.category ?? null) as MelCategory | null;
    const window = computeMelWindow({
      raisedAt,
      timeZone: actor.company.timezone,
      category,
      interval_type: (interval?.interval_type ?? null) as Parameters<typeof computeMelWindow>[0]['interval_type'],
      interval_value: interval?.interval_value ?? null,
      aircraftFlights: Number(aircraft.flights),
      aircraftCycles: Number(aircraft.landings),
    });
    const melId = uuidv7();
    await trx
      .insertInto('mel_items')
      .values({
        id: melId,
        company_id: actor.companyId,
        aircraft_report_id: id,
        mel_reference: mel.mel_reference ?? null,
        category,
        interval_type: interval?.interval_type ?? null,
        interval_value: interval?.interval_value ?? null,
        starts: window.starts,
        expires: window.expires,
        baseline_flights: window.baseline_flights,
        baseline_cycles: window.baseline_cycles,
        placard_fitted: mel.placard_fitted ? 1 : 0,
        procedures: mel.procedures ?? null,
        released_by: mel.released_by ?? null,
        released: raisedAt,
        extended: 0,
        extended_by: null,
        extended_until: null,
        extension_reason: null,
        created: now,
        modified: now,
      })
      .execute();
    await insertLimitations(uow, actor.companyId, melId, limitations, now);
    created = { id, mel_item_id: melId, starts: window.starts, expires: window.expires };
    await emitMelWebhook(uow, actor, id, 'mel.raised');
  }
  await notifyReportCreated(uow, actor, {
    id,
    title: r.title,
    severity: r.severity ?? 'LOW',
    aircraft_status: r.aircraft_status ?? 'FLYABLE',
    registration: aircraft.registration,
  });
  return created;
}

async function loadForWrite(trx: Kysely<DB>, actor: Actor, id: string): Promise<ReportRow> {
  const report = await reportsRepository.find(trx, actor.companyId, id);
  if (!report) throw notFound('Aircraft report not found');
  return report;
}

/** Who may change a report: MEL/CDL only managers and mechanics; other types also their reporter. */
function requireEditor(actor: Actor, report: ReportRow, action: 'edit' | 'close' | 'delete') {
  if (!mayWriteAircraftReports(actor)) throw forbidden('External auditors have read-only access');
  if (isMelType(report.type)) {
    if (!mayActOnMel(actor, action === 'delete' ? 'edit' : action, null)) {
      throw forbidden('Only managers and mechanics can change MEL or CDL items');
    }
    return;
  }
  if (!mayChangeAircraftReport(actor, report))
    throw forbidden('Only the reporter, managers and mechanics can change this report');
}

export async function editReport(uow: UnitOfWork, actor: Actor, id: string, raw: unknown): Promise<void> {
  const trx = uow.trx;
  const report = await loadForWrite(trx, actor, id);
  const input = splitReportBody(raw);
  const errors: FieldErrors = {};
  const parsed = ZReportEdit.safeParse(input.report);
  if (!parsed.success) mergeErrors(errors, '', zodFieldErrors(parsed.error));
  const r = parsed.success ? parsed.data : {};
  requireEditor(actor, report, r.status === 'CLOSED' && report.status !== 'CLOSED' ? 'close' : 'edit');
  // Releasing a grounded aircraft is a release to service (issue 28 item 6): maintenance, with the rectification.
  const after = {
    status: r.status ?? report.status,
    aircraft_status: r.aircraft_status ?? report.aircraft_status,
    dispatch_condition: isMelType(report.type) ? report.type : (r.dispatch_condition ?? report.dispatch_condition),
  };
  if (releasesAircraft(report, after)) {
    if (!mayCloseAircraftReport(actor, report))
      throw forbidden('Only managers and mechanics can release an aircraft this report grounds');
    if (!r.rectification) addError(errors, 'rectification', 'Required: say what was done to rectify the defect');
  }

  if (r.type && r.type !== report.type && (isMelType(r.type) || isMelType(report.type))) {
    addError(errors, 'type', 'A report cannot change to or from MEL or CDL; raise a new report instead');
  }
  const melRow = isMelType(report.type) ? await reportsRepository.melItem(trx, actor.companyId, id) : undefined;
  let mel: TMelEdit | null = null;
  let limitations: TLimitation[] | null = null;
  if (melRow) {
    if (input.mel) {
      const m = ZMelEdit.safeParse(input.mel);
      if (!m.success) mergeErrors(errors, 'MelItem.', zodFieldErrors(m.error));
      else {
        mel = m.data;
        if (mel.released_by && mel.released_by !== melRow.released_by) {
          const why = await checkReleaser(trx, actor.companyId, mel.released_by, report.user_id);
          if (why) addError(errors, 'MelItem.released_by', why);
        }
      }
    }
    if (input.limitations !== null) limitations = parseLimitations(input.limitations, errors);
  }
  if (Object.keys(errors).length) throw invalid(errors);

  const now = nowSeconds();
  const set: Record<string, unknown> = {};
  for (const k of [
    'type',
    'title',
    'description',
    'ata_chapter',
    'system',
    'severity',
    'aircraft_status',
    'dispatch_condition',
    'hours',
    'cycles',
    'deferred_until',
    'deferred_reference',
  ] as const) {
    if (r[k] !== undefined) set[k] = r[k];
  }
  if (isMelType(report.type)) set.dispatch_condition = report.type;
  if (r.rectification) set.description = withRectification(r.description ?? report.description, r.rectification);
  // Closure comes only from the posted status (Part B 3.2).
  if (r.status !== undefined) Object.assign(set, stamp(report, r.status, now, actor.userId));
  await trx
    .updateTable('aircraft_reports')
    .set({ ...set, modified: now, change_no: await uow.changeNo(actor.companyId, 'aircraft_reports') })
    .where('company_id', '=', actor.companyId)
    .where('id', '=', id)
    .execute();
  if (melRow && mel) {
    const mset: Record<string, unknown> = {};
    if (mel.mel_reference !== undefined) mset.mel_reference = mel.mel_reference;
    if (mel.placard_fitted !== undefined) mset.placard_fitted = mel.placard_fitted ? 1 : 0;
    if (mel.procedures !== undefined) mset.procedures = mel.procedures;
    if (mel.released_by !== undefined) {
      mset.released_by = mel.released_by;
      if (mel.released_by !== melRow.released_by) mset.released = now;
    }
    if (Object.keys(mset).length)
      await trx
        .updateTable('mel_items')
        .set({ ...mset, modified: now })
        .where('company_id', '=', actor.companyId)
        .where('id', '=', melRow.id)
        .execute();
  }
  if (melRow && limitations !== null) {
    // Posted limitations replace the whole set (Part B 4.2 item 4).
    await trx
      .deleteFrom('mel_item_limitations')
      .where('company_id', '=', actor.companyId)
      .where('mel_item_id', '=', melRow.id)
      .execute();
    await insertLimitations(uow, actor.companyId, melRow.id, limitations, now);
  }
  // Every closing path (REST edit, the offline command) passes here.
  if (melRow && r.status === 'CLOSED' && report.status !== 'CLOSED') await emitMelWebhook(uow, actor, id, 'mel.closed');
}

export async function deleteReport(uow: UnitOfWork, actor: Actor, id: string): Promise<void> {
  const trx = uow.trx;
  const report = await loadForWrite(trx, actor, id);
  requireEditor(actor, report, 'delete');
  if (report.maintenance_job_id) {
    const job = await trx
      .selectFrom('maintenance_jobs')
      .select(['crs_signed'])
      .where('company_id', '=', actor.companyId)
      .where('id', '=', report.maintenance_job_id)
      .executeTakeFirst();
    if (job?.crs_signed)
      throw badRequest('The report is part of a maintenance job whose CRS is signed; it stays in the record');
  }
  await trx
    .updateTable('aircraft_reports')
    .set({ deleted: 1, modified: nowSeconds(), change_no: await uow.changeNo(actor.companyId, 'aircraft_reports') })
    .where('company_id', '=', actor.companyId)
    .where('id', '=', id)
    .execute();
}

/** A server decision on an item: taken, or refused with the reason (`forbidden` is a role refusal). */
export type MelDecision<T> =
  | { ok: true; value: T }
  | { ok: false; code: 'forbidden' | 'rejected' | 'not_found'; reason: string };

export async function extendItem(
  uow: UnitOfWork,
  actor: Actor,
  reportId: string,
  input: { extended_until?: number | null; reason?: string | null },
): Promise<MelDecision<{ extended_until: number; mel_item_id: string }>> {
  const trx = uow.trx;
  const report = await reportsRepository.find(trx, actor.companyId, reportId);
  if (!report) return { ok: false, code: 'not_found', reason: 'Aircraft report not found' };
  const item = isMelType(report.type) ? await reportsRepository.melItem(trx, actor.companyId, reportId) : undefined;
  if (!item) return { ok: false, code: 'rejected', reason: 'This report has no MEL or CDL item' };
  const now = nowSeconds();
  const check = checkExtension(itemState(item, report.status), {
    extended_until: input.extended_until,
    now,
    role: actor.role,
    timeZone: actor.company.timezone,
  });
  if (!check.ok) return { ok: false, code: check.code, reason: check.reason };
  const until = input.extended_until as number;
  // Conditional on `extended = 0`: two concurrent extensions cannot both win.
  const res = await trx
    .updateTable('mel_items')
    .set({
      extended: 1,
      extended_by: actor.userId,
      extended_until: until,
      extension_reason: input.reason ?? null,
      modified: now,
    })
    .where('company_id', '=', actor.companyId)
    .where('id', '=', item.id)
    .where('extended', '=', 0)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1)
    return { ok: false, code: 'rejected', reason: 'The item has already been extended once.' };
  await trx
    .updateTable('aircraft_reports')
    .set({ modified: now, change_no: await uow.changeNo(actor.companyId, 'aircraft_reports') })
    .where('company_id', '=', actor.companyId)
    .where('id', '=', reportId)
    .execute();
  await emitMelWebhook(uow, actor, reportId, 'mel.extended');
  return { ok: true, value: { extended_until: until, mel_item_id: item.id } };
}

export async function closeItem(
  uow: UnitOfWork,
  actor: Actor,
  reportId: string,
  rectification: string | null = null,
): Promise<MelDecision<{ closed: number }>> {
  const trx = uow.trx;
  const report = await reportsRepository.find(trx, actor.companyId, reportId);
  if (!report) return { ok: false, code: 'not_found', reason: 'Aircraft report not found' };
  if (!mayActOnMel(actor, 'close', null))
    return { ok: false, code: 'forbidden', reason: 'Only managers and mechanics can close MEL or CDL items' };
  if (!isMelType(report.type)) return { ok: false, code: 'rejected', reason: 'This report has no MEL or CDL item' };
  if (report.status === 'CLOSED') return { ok: false, code: 'rejected', reason: 'The item is already closed.' };
  if (releasesAircraft(report, { ...report, status: 'CLOSED' }) && !rectification?.trim())
    return { ok: false, code: 'rejected', reason: 'The item grounds the aircraft: say what was done to rectify it.' };
  await editReport(uow, actor, reportId, { AircraftReport: { status: 'CLOSED', rectification } });
  return { ok: true, value: { closed: nowSeconds() } };
}

/**
 * The app's close (issue 28 item 6): the closer's password was checked by the
 * route; the rectification is required for every report; the answer says
 * whether the aircraft may now be dispatched.
 */
export async function closeReport(
  uow: UnitOfWork,
  actor: Actor,
  reportId: string,
  rectification: string,
): Promise<{ aircraft_id: string; dispatchable: boolean; blockReason: string | null }> {
  const report = await loadForWrite(uow.trx, actor, reportId);
  if (!mayCloseAircraftReport(actor, report))
    throw forbidden('Only managers and mechanics, or the reporter of a report that grounds nothing, can close it');
  if (report.status === 'CLOSED') throw badRequest('The report is already closed');
  await editReport(uow, actor, reportId, { AircraftReport: { status: 'CLOSED', rectification } });
  const blockers = await dispatchBlockers(uow.trx, actor.companyId, report.aircraft_id, nowSeconds());
  return {
    aircraft_id: report.aircraft_id,
    dispatchable: blockers.length === 0,
    blockReason: blockers[0]?.sentence ?? null,
  };
}

/** REST answer of a refused decision: a role refusal is 404 (Part B 4.2 item 7), others `result: false`. */
export function decisionError(d: { code: 'forbidden' | 'rejected' | 'not_found'; reason: string }): HttpError {
  if (d.code === 'rejected') return badRequest(d.reason);
  return notFound(d.code === 'not_found' ? d.reason : 'Not found');
}

/** Closes every open report of a job (CRS signed), stamping the signer (Part B 3.2 last row). */
export async function closeReportsOfJob(
  uow: UnitOfWork,
  actor: Actor,
  signerId: string,
  jobId: string,
  now: number,
): Promise<number> {
  const res = await uow.trx
    .updateTable('aircraft_reports')
    .set({
      status: 'CLOSED',
      closed: now,
      closed_by: signerId,
      modified: now,
      change_no: await uow.changeNo(actor.companyId, 'aircraft_reports'),
    })
    .where('company_id', '=', actor.companyId)
    .where('maintenance_job_id', '=', jobId)
    .where('deleted', '=', 0)
    .where('status', '!=', 'CLOSED')
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}
