import type { WebhookEvent } from '@ops/shared/rules/webhooks/events';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { presentAircraft } from '../aircraft/aircraft.presenter.ts';
import { aircraftRepository } from '../aircraft/aircraft.repository.ts';
import { emitWebhook } from '../webhooks/outbox.service.ts';
import '../webhooks/webhooks.tables.ts';
import { aircraftBlockState } from './aircraft-block.service.ts';
import { presentReport } from './aircraft-reports.presenter.ts';
import { reportDocs, reportsRepository } from './aircraft-reports.repository.ts';

/** An aircraft report event, the report presented as `GET /aircraft_reports/view` presents it. */
function emitReportWebhook(
  uow: UnitOfWork,
  companyId: string,
  timeZone: string,
  reportId: string,
  type: WebhookEvent,
): Promise<void> {
  return emitWebhook(uow, companyId, type, 'AircraftReport', reportId, async () => {
    const row = await reportsRepository.find(uow.trx, companyId, reportId);
    if (!row) return null;
    const [doc] = await reportDocs(uow.trx, companyId, [row], nowSeconds(), timeZone);
    const aircraft = await uow.trx
      .selectFrom('aircraft')
      .select('registration')
      .where('company_id', '=', companyId)
      .where('id', '=', doc.aircraft_id)
      .executeTakeFirst();
    return presentReport(doc, { registration: aircraft?.registration ?? null });
  });
}

/**
 * An MEL/CDL event for webhooks (raised, extended, closed), then the aircraft's
 * published state brought up to date in the same transaction: closing or
 * extending an expired item can make it airworthy again, a late raise can
 * block it.
 */
export async function emitMelWebhook(
  uow: UnitOfWork,
  actor: Actor,
  reportId: string,
  type: WebhookEvent,
): Promise<void> {
  await emitReportWebhook(uow, actor.companyId, actor.company.timezone, reportId, type);
  const row = await reportsRepository.find(uow.trx, actor.companyId, reportId);
  if (row) await publishAircraftState(uow, actor.companyId, actor.company.timezone, row.aircraft_id, nowSeconds());
}

/**
 * Publishes what changed for one aircraft at `now` since it was last published:
 * `mel.expired` for each open item that is EXPIRED and not yet marked for its
 * current deadline, and `aircraft.blocked` / `aircraft.unblocked` when the
 * block state (an expired open item, Part B 4.2 item 8) differs from the mark.
 * The aircraft's mark row is locked first, so the expiry job and a MEL write
 * on several processes decide one after the other and publish each change once.
 * Returns what it published.
 */
export async function publishAircraftState(
  uow: UnitOfWork,
  companyId: string,
  timeZone: string,
  aircraftId: string,
  now: number,
): Promise<{ expired: number; block: 'blocked' | 'unblocked' | null }> {
  const trx = uow.trx;
  await trx
    .insertInto('aircraft_block_marks')
    .values({ aircraft_id: aircraftId, company_id: companyId, blocked: 0, modified: now })
    .onConflict((oc) => oc.column('aircraft_id').doNothing())
    .execute();
  const mark = await trx
    .updateTable('aircraft_block_marks')
    .set({ modified: now })
    .where('company_id', '=', companyId)
    .where('aircraft_id', '=', aircraftId)
    .returning('blocked')
    .executeTakeFirst();
  if (!mark) return { expired: 0, block: null }; // an aircraft id of another company: nothing of it is published here
  const state = await aircraftBlockState(trx, companyId, aircraftId, now);
  let expired = 0;
  for (const item of state.items.filter((i) => i.status === 'EXPIRED')) {
    const res = await trx
      .insertInto('mel_expiry_marks')
      .values({
        mel_item_id: item.mel_item_id,
        extended: item.extended ? 1 : 0,
        company_id: companyId,
        aircraft_report_id: item.report_id,
        created: now,
      })
      .onConflict((oc) => oc.columns(['mel_item_id', 'extended']).doNothing())
      .executeTakeFirst();
    if (Number(res.numInsertedOrUpdatedRows ?? 0) !== 1) continue;
    expired++;
    await emitReportWebhook(uow, companyId, timeZone, item.report_id, 'mel.expired');
  }
  if (state.blocked === !!mark.blocked) return { expired, block: null };
  await trx
    .updateTable('aircraft_block_marks')
    .set({ blocked: state.blocked ? 1 : 0 })
    .where('aircraft_id', '=', aircraftId)
    .execute();
  const type = state.blocked ? 'aircraft.blocked' : 'aircraft.unblocked';
  await emitWebhook(uow, companyId, type, 'Aircraft', aircraftId, async () => {
    const a = await aircraftRepository.find(trx, companyId, aircraftId);
    // The aircraft as `GET /aircraft/index` presents it, with the status `aircraft_status.json` answers.
    return {
      ...(a ? presentAircraft(a) : { Aircraft: { id: aircraftId } }),
      AircraftStatus: { blocked: state.blocked, blockReason: state.blockReason, checked_at: now, items: state.items },
    };
  });
  return { expired, block: state.blocked ? 'blocked' : 'unblocked' };
}
