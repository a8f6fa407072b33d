import { uuidv7 } from '@ops/shared';
import type { WebhookEvent } from '@ops/shared/rules/webhooks/events';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import './webhooks.tables.ts';

/**
 * Records a webhook event in the transaction of the change it describes, with
 * one pending delivery per active endpoint of the company subscribed to it. A
 * rolled-back change leaves no event; a committed one is delivered at least
 * once by the delivery job, even if this process dies right after the commit.
 * `record` presents the affected record as the API does; it runs only when
 * some endpoint listens, so companies without webhooks pay one indexed query.
 */
export async function emitWebhook(
  uow: UnitOfWork,
  companyId: string,
  type: WebhookEvent,
  model: string,
  recordId: string,
  record: () => Promise<unknown>,
): Promise<void> {
  const trx = uow.trx;
  const endpoints = await trx
    .selectFrom('webhook_endpoints')
    .select(['id', 'events'])
    .where('company_id', '=', companyId)
    .where('deleted', '=', 0)
    .where('active', '=', 1)
    .execute();
  const targets = endpoints.filter((e) => (JSON.parse(e.events) as string[]).includes(type));
  if (targets.length === 0) return;
  const now = nowSeconds();
  const eventId = uuidv7();
  const payload = JSON.stringify({
    id: eventId,
    type,
    created: now,
    company_id: companyId,
    model,
    data: await record(),
  });
  await trx
    .insertInto('webhook_events')
    .values({ id: eventId, company_id: companyId, type, model, record_id: recordId, payload, created: now })
    .execute();
  await trx
    .insertInto('webhook_deliveries')
    .values(
      targets.map((e) => ({
        id: uuidv7(),
        company_id: companyId,
        endpoint_id: e.id,
        event_id: eventId,
        record_id: recordId,
        status: 'pending',
        attempts: 0,
        next_attempt: now,
        created: now,
      })),
    )
    .execute();
}
