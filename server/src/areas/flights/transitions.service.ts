import argon2 from 'argon2';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import { badRequest, forbidden, HttpError, notFound } from '../../http/errors.ts';
import { english, said } from '../../http/messages.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { dispatchBlockers } from '../aircraft-reports/aircraft-block.service.ts';
import { blockedRefusal, blockedRefusalText, blockerCode } from '@ops/shared/rules/aircraft-reports/blockers';
import type { MessageId } from '@ops/shared/i18n/index';
import type { RuleText } from '@ops/shared/rules/readiness/text';
import { companyFlags } from '../company/company.presenter.ts';
import type { ReadinessLine } from '@ops/shared/rules/readiness/readiness';
import { decideReadiness } from '../readiness/readiness.service.ts';
import { confirmDutyWarnings, dispatchDutyRefusal, type DutyWarning } from '../duty/duty.service.ts';
import { seatCompliance } from '@ops/shared/rules/flight-types/compliance';
import { moveBooks } from './books.repository.ts';
import { adjustFlightCount } from './flights.repository.ts';
import {
  isCrew,
  mayCancelFlight,
  mayDispatchFlight,
  reachesFlight,
  UNCONFIRMED,
} from '@ops/shared/rules/flights/policy';
import { type FlightRow, flightActor, landedProblems, loadFlightRow } from './flights.service.ts';
import { emitFlightWebhook } from './flights.webhooks.ts';
import { runDispatchHooks } from './dispatch-hooks.service.ts';
import { recordChange } from './history.repository.ts';
import { notifyCrew } from './crew.notify.ts';
import { assertNoOverlap } from './overlap.service.ts';

async function companyFlagsOf(db: Kysely<DB>, companyId: string) {
  const row = await db.selectFrom('companies').select('flags').where('id', '=', companyId).executeTakeFirstOrThrow();
  return companyFlags(row);
}

async function registrationOf(db: Kysely<DB>, companyId: string, aircraftId: string): Promise<string> {
  const a = await db
    .selectFrom('aircraft')
    .select('registration')
    .where('company_id', '=', companyId)
    .where('id', '=', aircraftId)
    .executeTakeFirst();
  return a?.registration ?? 'The aircraft';
}

async function passwordMatches(db: Kysely<DB>, actor: Actor, pass: string): Promise<boolean> {
  const identity = await db
    .selectFrom('users as u')
    .innerJoin('identities as i', 'i.id', 'u.identity_id')
    .select('i.password_hash')
    .where('u.id', '=', actor.userId)
    .where('u.company_id', '=', actor.companyId)
    .executeTakeFirst();
  if (!identity) return false;
  return argon2.verify(identity.password_hash, pass).catch(() => false);
}

async function requireFlight(db: Kysely<DB>, actor: Actor, id: string): Promise<FlightRow> {
  const f = await loadFlightRow(db, actor.companyId, id);
  if (!f) throw notFound('Flight not found');
  return f;
}

async function setStatus(
  uow: UnitOfWork,
  actor: Actor,
  f: FlightRow,
  status: string,
  extra: Record<string, number | string | null> = {},
) {
  await uow.trx
    .updateTable('flights')
    .set({ ...extra, status, modified: nowSeconds(), change_no: await uow.changeNo(actor.companyId, 'flights') })
    .where('company_id', '=', actor.companyId)
    .where('id', '=', f.id)
    .execute();
  await adjustFlightCount(uow.trx, actor.companyId, f.status, -1);
  await adjustFlightCount(uow.trx, actor.companyId, status, 1);
}

/**
 * POST /flights/confirm/{id}.json and the `flight.confirm` command (Part B 3.1):
 * block time, aircraft and PIC present; Flight.confirm; the caller's password
 * when the company requires it; no overlap with another LANDED flight of the
 * aircraft. Then LANDED, with the aircraft books moved in the same transaction.
 */
export async function confirmFlight(
  uow: UnitOfWork,
  actor: Actor,
  id: string,
  opts: { pass?: string; offline?: boolean } = {},
): Promise<{ status: string; warnings: DutyWarning[] }> {
  const trx = uow.trx;
  const who = await flightActor(trx, actor);
  const f = await requireFlight(trx, actor, id);
  if (!reachesFlight(who, f)) throw forbidden('You can only confirm flights you are involved in');
  if (!who.perms['Flight.confirm'])
    throw new HttpError(403, { result: false, ...said('errors.missingPermission', { permission: 'Flight.confirm' }) });
  if (!UNCONFIRMED.includes(f.status))
    throw new HttpError(400, {
      result: false,
      ...said('errors.onlyUnconfirmed', { status: f.status }),
      code: 'NOT_UNCONFIRMED',
    });
  const problem = landedProblems(f);
  if (problem) throw badRequest(problem, { code: 'INCOMPLETE' });
  if ((await companyFlagsOf(trx, actor.companyId)).require_flight_password) {
    // A password never travels in a stored command: offline confirms are refused here.
    if (opts.offline)
      throw badRequest('Your company requires your password to confirm flights; confirm this flight online', {
        code: 'PASSWORD_REQUIRED',
      });
    if (!opts.pass) throw badRequest('Your password is required to confirm flights', { code: 'PASSWORD_REQUIRED' });
    if (!(await passwordMatches(trx, actor, opts.pass))) throw badRequest('Wrong password', { code: 'WRONG_PASSWORD' });
  }
  // Take the company's write lock before reading the aircraft's LANDED flights, so two
  // concurrent confirms of overlapping flights are decided one after the other (docs/sync.md).
  await uow.changeNo(actor.companyId, 'flights');
  await assertNoOverlap(trx, actor, f);
  await setStatus(uow, actor, f, 'LANDED', { confirmed_at: nowSeconds(), confirmed_by: actor.userId });
  await moveBooks(
    uow,
    actor.companyId,
    { aircraft_id: f.aircraft_id, flight_time: Number(f.flight_time), landings: Number(f.landings) },
    1,
  );
  await recordChange(uow, {
    companyId: actor.companyId,
    flightId: f.id,
    userId: actor.userId,
    action: 'confirm',
    fields: [{ field: 'status', from: f.status, to: 'LANDED' }],
  });
  await emitFlightWebhook(uow, actor, f.id, 'flight.confirmed');
  // Duty hook (issue 30): never refuses; exceeded limits become warnings, operations and webhooks are told.
  const warnings = await confirmDutyWarnings(uow, actor, f.id);
  return { status: 'LANDED', warnings };
}

export type DispatchResult =
  | { result: true; status: 'DISPATCHED'; readiness?: ReadinessLine[] }
  | { result: false; message: string; code: string; text?: RuleText | null; readiness?: ReadinessLine[] };

/** A dispatch refusal worded by the catalogue: the English `message` and its `text` for other languages (issue 33). */
const refused = (code: string, id: MessageId, values?: Record<string, string>): DispatchResult => ({
  result: false,
  code,
  message: english(id, values),
  text: values ? { id, values } : { id },
});

/**
 * POST /flights/dispatch/{id}.json and the `flight.dispatch` command. After the
 * status and authorization checks, preconditions in order, each a
 * `result: false` with its message: no open report grounding the aircraft and
 * no expired MEL or CDL item on it (`aircraftBlockers`); a FRAT when `schedule_dispatch_frat` is on and the dispatcher is
 * crew; an aircraft; the PIC's required certificates when the company blocks
 * PICs without documents (`require_pic_docs` and `block_pic_without_docs`).
 */
export async function dispatchFlight(
  uow: UnitOfWork,
  actor: Actor,
  id: string,
  now = nowSeconds(),
): Promise<DispatchResult> {
  const trx = uow.trx;
  const who = await flightActor(trx, actor);
  const f = await requireFlight(trx, actor, id);
  if (!mayDispatchFlight(who, f)) throw badRequest('Not authorized');
  if (f.status !== 'DRAFT' && f.status !== 'SCHEDULED') return refused('STATUS', 'flights.dispatchStatus');
  if (f.aircraft_id) {
    // Issue 28: an open grounding report blocks as an expired MEL item does (Part B 2.2), one shared rule.
    const blockers = await dispatchBlockers(trx, actor.companyId, f.aircraft_id, now);
    const registration = await registrationOf(trx, actor.companyId, f.aircraft_id);
    const refusal = blockedRefusal(registration, 'dispatched', blockers);
    if (refusal && blockers[0])
      return {
        result: false,
        code: blockerCode(blockers[0]),
        message: refusal,
        text: blockedRefusalText(registration, 'dispatched', blockers),
      };
  }
  const flags = await companyFlagsOf(trx, actor.companyId);
  if (flags.schedule_dispatch_frat && isCrew(who, f)) {
    const frat = await trx
      .selectFrom('flight_risk_assessments')
      .select('id')
      .where('company_id', '=', actor.companyId)
      .where('flight_id', '=', f.id)
      .executeTakeFirst();
    if (!frat) return refused('FRAT_REQUIRED', 'flights.dispatchFrat');
  }
  if (!f.aircraft_id) return refused('NO_AIRCRAFT', 'flights.dispatchNoAircraft');
  // Duty hook (issue 30): the crew's duty day and flight year (CONTRACT 7).
  const dutyStop = await dispatchDutyRefusal(trx, actor, f);
  if (dutyStop) return { result: false, ...dutyStop };
  if (flags.require_pic_docs && flags.block_pic_without_docs && f.pic_id && f.flight_type_id) {
    const required = await trx
      .selectFrom('flight_type_certificates')
      .select('certificate_type')
      .where('company_id', '=', actor.companyId)
      .where('flight_type_id', '=', f.flight_type_id)
      .where('role', '=', 'pic')
      .execute();
    if (required.length) {
      const held = await trx
        .selectFrom('user_certificates')
        .select(['type', 'issue', 'expiration'])
        .where('company_id', '=', actor.companyId)
        .where('user_id', '=', f.pic_id)
        .where('deleted', '=', 0)
        .execute();
      const seat = seatCompliance(
        required.map((r) => r.certificate_type),
        held,
        Math.max(now, Number(f.starts)),
        actor.company.timezone,
      );
      if (!seat.compliant) {
        const missing = seat.required.filter((t) => !seat.ok.includes(t));
        return refused('PIC_DOCUMENTS', 'flights.dispatchPicDocuments', { types: missing.join(', ') });
      }
    }
  }
  // Readiness hook (issue 31): blocks refuse before anything is written; warnings go to the history.
  const ready = await decideReadiness(uow, actor, f.id, { now });
  if (ready.blocked)
    return { result: false, code: 'READINESS', message: ready.message, text: ready.text, readiness: ready.lines };
  await setStatus(uow, actor, f, 'DISPATCHED', { dispatched_at: now, dispatched_by: actor.userId });
  await recordChange(uow, {
    companyId: actor.companyId,
    flightId: f.id,
    userId: actor.userId,
    action: 'dispatch',
    fields: [{ field: 'status', from: f.status, to: 'DISPATCHED' }],
  });
  await emitFlightWebhook(uow, actor, f.id, 'flight.dispatched');
  await runDispatchHooks(uow, actor, f);
  return { result: true, status: 'DISPATCHED', ...(ready.lines.length ? { readiness: ready.lines } : {}) };
}

/**
 * POST /flights/cancel.json: any status; LANDED becomes DELETED (books
 * reversed), others CANCELED; a flight already canceled or deleted is left as
 * it is. `notify` tells the rest of the crew in-app.
 */
export async function cancelFlight(
  uow: UnitOfWork,
  actor: Actor,
  input: { id: string; reason: string; text?: string; notify?: boolean },
  opts: { trusted?: boolean } = {},
): Promise<{ status: string; changed: boolean }> {
  const trx = uow.trx;
  const who = await flightActor(trx, actor);
  const f = await requireFlight(trx, actor, input.id);
  // `trusted`: a schedule booking cancelling its own SCHEDULED flight, already authorized there.
  if (!opts.trusted && !mayCancelFlight(who, f)) throw badRequest('Not authorized');
  if (f.status === 'CANCELED' || f.status === 'DELETED') return { status: f.status, changed: false };
  const status = f.status === 'LANDED' ? 'DELETED' : 'CANCELED';
  await setStatus(uow, actor, f, status);
  if (f.status === 'LANDED')
    await moveBooks(
      uow,
      actor.companyId,
      { aircraft_id: f.aircraft_id, flight_time: Number(f.flight_time), landings: Number(f.landings) },
      -1,
    );
  const comments = input.text ? `${input.reason}\n\n${input.text}` : input.reason;
  await recordChange(uow, {
    companyId: actor.companyId,
    flightId: f.id,
    userId: actor.userId,
    action: 'cancel',
    fields: [{ field: 'status', from: f.status, to: status }],
    comments,
  });
  if (input.notify) await notifyCrew(uow, actor, f, input.reason);
  await emitFlightWebhook(uow, actor, f.id, 'flight.canceled');
  return { status, changed: true };
}
