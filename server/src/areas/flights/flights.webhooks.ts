import type { WebhookEvent } from '@ops/shared/rules/webhooks/events';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { emitWebhook } from '../webhooks/outbox.service.ts';
import { flightZone } from '@ops/shared/rules/flights/clock';
import { presentFlightRow } from './flights.presenter.ts';
import { flightsQuery } from './flights.repository.ts';

/** A flight event for webhooks, the flight presented as the list and view present it. */
export function emitFlightWebhook(uow: UnitOfWork, actor: Actor, id: string, type: WebhookEvent): Promise<void> {
  return emitWebhook(uow, actor.companyId, type, 'Flight', id, async () => {
    const row = await flightsQuery(uow.trx, actor.companyId).where('f.id', '=', id).executeTakeFirstOrThrow();
    return presentFlightRow(row, flightZone(actor), nowSeconds(), true);
  });
}
