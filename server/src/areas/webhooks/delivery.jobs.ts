import { nextAttemptDelay } from '@ops/shared/rules/webhooks/events';
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Job } from '../../jobs/scheduler.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { signWebhook } from './signature.service.ts';
import './webhooks.tables.ts';

const BATCH = 50;
const TIMEOUT_MS = 10_000;
const PASS_MS = 240_000;

/**
 * Due deliveries, oldest first, skipping any whose endpoint still has an older
 * pending delivery for the same record: events of one record arrive in order.
 */
async function dueDeliveries(ctx: AppContext, now: number) {
  return ctx.db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .innerJoin('webhook_endpoints as p', 'p.id', 'd.endpoint_id')
    .select([
      'd.id',
      'd.attempts',
      'd.company_id',
      'e.id as event_id',
      'e.payload',
      'e.created as event_created',
      'p.url',
      'p.secret',
      'p.active',
      'p.deleted',
    ])
    .where('d.status', '=', 'pending')
    .where('d.next_attempt', '<=', now)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('webhook_deliveries as o')
            .select(sql`1`.as('x'))
            .whereRef('o.endpoint_id', '=', 'd.endpoint_id')
            .whereRef('o.record_id', '=', 'd.record_id')
            .where('o.status', '=', 'pending')
            .whereRef('o.id', '<', 'd.id'),
        ),
      ),
    )
    .orderBy('d.id')
    .limit(BATCH)
    .execute();
}

async function post(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number | null; error: string | null }> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    await res.arrayBuffer().catch(() => undefined);
    return { status: res.status, error: res.ok ? null : `HTTP ${res.status}` };
  } catch (err) {
    return { status: null, error: (err as Error).message.slice(0, 500) };
  }
}

/**
 * One pass of the delivery job (run by one server process at a time through
 * the job lease): each due delivery is attempted once; success marks it
 * delivered, failure schedules the next attempt on the back-off of
 * `nextAttemptDelay`, and after a day it is marked failed.
 */
export async function deliverWebhooks(ctx: AppContext): Promise<number> {
  let attempted = 0;
  // Stay well inside the lease, so another process never takes over a live pass.
  const stopAt = Date.now() + PASS_MS;
  while (Date.now() < stopAt) {
    const now = nowSeconds();
    const due = await dueDeliveries(ctx, now);
    if (due.length === 0) return attempted;
    for (const d of due) {
      attempted++;
      const attempts = d.attempts + 1;
      if (d.deleted || !d.active) {
        await ctx.db
          .updateTable('webhook_deliveries')
          .set({ status: 'failed', attempts, last_attempt: now, error: 'Endpoint disabled' })
          .where('id', '=', d.id)
          .execute();
        continue;
      }
      const ts = nowSeconds();
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'OpsPlatform-Webhooks/1',
        'x-webhook-id': d.event_id,
        'x-webhook-timestamp': String(ts),
        'x-webhook-signature': signWebhook(d.secret, ts, d.payload),
      };
      const r = await post(d.url, headers, d.payload);
      const done = nowSeconds();
      if (r.error === null) {
        await ctx.db
          .updateTable('webhook_deliveries')
          .set({
            status: 'delivered',
            attempts,
            last_attempt: done,
            response_status: r.status,
            error: null,
            delivered: done,
          })
          .where('id', '=', d.id)
          .execute();
        continue;
      }
      const delay = nextAttemptDelay(attempts, Number(d.event_created), done);
      await ctx.db
        .updateTable('webhook_deliveries')
        .set({
          status: delay === null ? 'failed' : 'pending',
          attempts,
          last_attempt: done,
          response_status: r.status,
          error: r.error,
          next_attempt: delay === null ? done : done + delay,
        })
        .where('id', '=', d.id)
        .execute();
    }
    // Go on until nothing is due: a delivered event may have released the next one of its record.
    // Each attempt either delivers or moves `next_attempt` at least 10 s ahead, so this ends.
  }
  return attempted;
}

export const WEBHOOK_JOB = 'webhooks.deliver';
export const webhookDeliveryJob: Job = {
  name: WEBHOOK_JOB,
  everySeconds: 5,
  leaseSeconds: 600,
  run: async (ctx) => void (await deliverWebhooks(ctx)),
};
