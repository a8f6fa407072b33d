import { randomBytes } from 'node:crypto';
import { uuidv7 } from '@ops/shared';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../http/actor.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import './webhooks.tables.ts';

export interface EndpointInput {
  url: string;
  events: string[];
  description?: string | null;
  active?: boolean;
}

type EndpointRow = {
  id: string;
  url: string;
  description: string | null;
  events: string;
  active: number;
  created: number;
  modified: number;
  secret: string;
};

/** The endpoint as managers see it: the secret only as a hint of its last characters. */
const present = (e: EndpointRow) => ({
  id: e.id,
  url: e.url,
  description: e.description,
  events: JSON.parse(e.events) as string[],
  active: !!e.active,
  secret_hint: `…${e.secret.slice(-4)}`,
  created: Number(e.created),
  modified: Number(e.modified),
});

const newSecret = () => `whsec_${randomBytes(24).toString('base64url')}`;

async function requireEndpoint(ctx: AppContext, actor: Actor, id: string): Promise<EndpointRow> {
  const row = await ctx.db
    .selectFrom('webhook_endpoints')
    .select(['id', 'url', 'description', 'events', 'active', 'created', 'modified', 'secret'])
    .where('company_id', '=', actor.companyId)
    .where('id', '=', id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!row) throw notFound('Webhook endpoint not found');
  return row;
}

export async function listEndpoints(ctx: AppContext, actor: Actor) {
  const rows = await ctx.db
    .selectFrom('webhook_endpoints')
    .select(['id', 'url', 'description', 'events', 'active', 'created', 'modified', 'secret'])
    .where('company_id', '=', actor.companyId)
    .where('deleted', '=', 0)
    .orderBy('created')
    .orderBy('id')
    .execute();
  return { endpoints: rows.map(present) };
}

export async function viewEndpoint(ctx: AppContext, actor: Actor, id: string) {
  return { endpoint: present(await requireEndpoint(ctx, actor, id)) };
}

/** Creates an endpoint; the signing secret is in this answer only. */
export async function createEndpoint(ctx: AppContext, actor: Actor, input: EndpointInput) {
  const now = nowSeconds();
  const row = {
    id: uuidv7(),
    company_id: actor.companyId,
    url: input.url,
    description: input.description ?? null,
    secret: newSecret(),
    events: JSON.stringify([...new Set(input.events)]),
    active: input.active === false ? 0 : 1,
    deleted: 0,
    created_by: actor.userId,
    created: now,
    modified: now,
  };
  await ctx.db.insertInto('webhook_endpoints').values(row).execute();
  return { result: true, id: row.id, secret: row.secret, endpoint: present(row) };
}

export async function editEndpoint(ctx: AppContext, actor: Actor, id: string, input: Partial<EndpointInput>) {
  await requireEndpoint(ctx, actor, id);
  const set: { url?: string; description?: string | null; events?: string; active?: number; modified: number } = {
    modified: nowSeconds(),
  };
  if (input.url !== undefined) set.url = input.url;
  if (input.description !== undefined) set.description = input.description;
  if (input.events !== undefined) set.events = JSON.stringify([...new Set(input.events)]);
  if (input.active !== undefined) set.active = input.active ? 1 : 0;
  await ctx.db
    .updateTable('webhook_endpoints')
    .set(set)
    .where('company_id', '=', actor.companyId)
    .where('id', '=', id)
    .execute();
  return { result: true, endpoint: present(await requireEndpoint(ctx, actor, id)) };
}

/** A new secret, shown once; the old one stops signing at once. */
export async function rotateSecret(ctx: AppContext, actor: Actor, id: string) {
  await requireEndpoint(ctx, actor, id);
  const secret = newSecret();
  await ctx.db
    .updateTable('webhook_endpoints')
    .set({ secret, modified: nowSeconds() })
    .where('company_id', '=', actor.companyId)
    .where('id', '=', id)
    .execute();
  return { result: true, secret };
}

/** Soft delete: pending deliveries are dropped by the job as failed (`Endpoint disabled`); the log stays. */
export async function deleteEndpoint(ctx: AppContext, actor: Actor, id: string) {
  await requireEndpoint(ctx, actor, id);
  await ctx.db
    .updateTable('webhook_endpoints')
    .set({ deleted: 1, active: 0, modified: nowSeconds() })
    .where('company_id', '=', actor.companyId)
    .where('id', '=', id)
    .execute();
  return { result: true };
}

const PAGE = 50;

/** The delivery log of an endpoint, newest first, 50 a page. */
export async function listDeliveries(ctx: AppContext, actor: Actor, endpointId: string, page: number) {
  await requireEndpoint(ctx, actor, endpointId);
  const rows = await ctx.db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .select([
      'd.id',
      'd.event_id',
      'e.type',
      'e.model',
      'd.record_id',
      'd.status',
      'd.attempts',
      'd.next_attempt',
      'd.last_attempt',
      'd.response_status',
      'd.error',
      'd.delivered',
      'd.created',
    ])
    .where('d.company_id', '=', actor.companyId)
    .where('d.endpoint_id', '=', endpointId)
    .orderBy('d.id', 'desc')
    .limit(PAGE)
    .offset((page - 1) * PAGE)
    .execute();
  const num = (v: number | null) => (v === null ? null : Number(v));
  return {
    deliveries: rows.map((r) => ({
      ...r,
      attempts: Number(r.attempts),
      next_attempt: r.status === 'pending' ? Number(r.next_attempt) : null,
      last_attempt: num(r.last_attempt),
      delivered: num(r.delivered),
      created: Number(r.created),
    })),
  };
}

/** Manual redelivery: a new pending delivery of the same event to the same endpoint (the log keeps both). */
export async function redeliver(ctx: AppContext, actor: Actor, deliveryId: string) {
  const d = await ctx.db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as p', 'p.id', 'd.endpoint_id')
    .select(['d.endpoint_id', 'd.event_id', 'd.record_id', 'd.status', 'p.deleted', 'p.active'])
    .where('d.company_id', '=', actor.companyId)
    .where('d.id', '=', deliveryId)
    .executeTakeFirst();
  if (!d || d.deleted) throw notFound('Delivery not found');
  if (!d.active) throw badRequest('The endpoint is disabled: enable it before redelivering');
  if (d.status === 'pending') throw badRequest('This delivery is still pending');
  const now = nowSeconds();
  const id = uuidv7();
  await ctx.db
    .insertInto('webhook_deliveries')
    .values({
      id,
      company_id: actor.companyId,
      endpoint_id: d.endpoint_id,
      event_id: d.event_id,
      record_id: d.record_id,
      status: 'pending',
      attempts: 0,
      next_attempt: now,
      created: now,
    })
    .execute();
  return { result: true, id };
}
