import type { WebhookEvent } from '@ops/shared/rules/webhooks/events';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { emitWebhook } from '../webhooks/outbox.ts';
import { presentReport } from './aircraft-reports.queries.ts';
import { reportDocs, reportsRepository } from './aircraft-reports.repository.ts';

/** An MEL/CDL event for webhooks, the report presented as `GET /aircraft_reports/view` presents it. */
export function emitMelWebhook(uow: UnitOfWork, actor: Actor, reportId: string, type: WebhookEvent): Promise<void> {
  return emitWebhook(uow, actor.companyId, type, 'AircraftReport', reportId, async () => {
    const row = await reportsRepository.find(uow.trx, actor.companyId, reportId);
    if (!row) return null;
    const [doc] = await reportDocs(uow.trx, actor.companyId, [row], nowSeconds(), actor.company.timezone);
    const aircraft = await uow.trx.selectFrom('aircraft').select('registration').where('company_id', '=', actor.companyId).where('id', '=', doc.aircraft_id).executeTakeFirst();
    return presentReport(doc, { registration: aircraft?.registration ?? null });
  });
}
