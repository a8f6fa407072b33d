import { WEBHOOK_EVENTS } from '@ops/shared/rules/webhooks/events';
import { webhookGates } from '@ops/shared/rules/webhooks/policy';
import { z } from 'zod';
import { defineRoute } from '../../http/define-route.ts';
import { zBoolish, zId } from '../../http/zod.ts';
import './delivery.jobs.ts';
import './mel-expiry.jobs.ts';
import {
  createEndpoint,
  deleteEndpoint,
  editEndpoint,
  listDeliveries,
  listEndpoints,
  redeliver,
  rotateSecret,
  viewEndpoint,
} from './webhooks.service.ts';
import {
  ZWebhooksIndex,
  ZWebhooksEvents,
  ZWebhooksView,
  ZWebhooksAdd,
  ZWebhooksEdit,
  ZWebhooksRotateSecret,
  ZWebhooksDelete,
  ZWebhooksDeliveries,
  ZWebhooksRedeliver,
} from './webhooks.responses.ts';

const access = { who: webhookGates.manage } as const;

const zUrl = z
  .string({ error: 'url is required' })
  .trim()
  .max(2000, 'Too long')
  .pipe(z.url({ protocol: /^https?$/, error: 'An http or https URL' }));
const zEvents = z
  .array(z.enum(WEBHOOK_EVENTS, { error: `Each event one of ${WEBHOOK_EVENTS.join(', ')}` }), {
    error: 'events is required',
  })
  .min(1, 'Choose at least one event');
const zDescription = z.string().trim().max(500, 'Too long').nullable();

export const webhooksRoutes = [
  defineRoute({
    method: 'GET',
    path: '/webhooks/index.json',
    area: 'webhooks',
    summary: 'Webhook endpoints of the company (secrets only as a hint)',
    access,
    response: ZWebhooksIndex,
    handler: ({ ctx, actor }) => listEndpoints(ctx, actor),
  }),
  defineRoute({
    method: 'GET',
    path: '/webhooks/events.json',
    area: 'webhooks',
    summary: 'Event types an endpoint can subscribe to',
    access,
    response: ZWebhooksEvents,
    handler: () => ({ events: WEBHOOK_EVENTS }),
  }),
  defineRoute({
    method: 'GET',
    path: '/webhooks/view/:id.json',
    area: 'webhooks',
    summary: 'One webhook endpoint',
    access,
    params: z.object({ id: zId }),
    response: ZWebhooksView,
    handler: ({ ctx, actor, params }) => viewEndpoint(ctx, actor, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/webhooks/add.json',
    area: 'webhooks',
    summary: 'Register an endpoint for event types; the signing secret is shown once',
    access,
    body: z.object({ url: zUrl, events: zEvents, description: zDescription.optional(), active: zBoolish.optional() }),
    response: ZWebhooksAdd,
    handler: ({ ctx, actor, body }) => createEndpoint(ctx, actor, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/webhooks/edit/:id.json',
    area: 'webhooks',
    summary: 'Change an endpoint’s URL, events, description or active flag',
    access,
    params: z.object({ id: zId }),
    body: z
      .object({
        url: zUrl.optional(),
        events: zEvents.optional(),
        description: zDescription.optional(),
        active: zBoolish.optional(),
      })
      .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'Nothing to change' }),
    response: ZWebhooksEdit,
    handler: ({ ctx, actor, params, body }) => editEndpoint(ctx, actor, params.id, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/webhooks/rotate_secret/:id.json',
    noBody: true,
    area: 'webhooks',
    summary: 'Replace the signing secret; the new one is shown once',
    access,
    params: z.object({ id: zId }),
    response: ZWebhooksRotateSecret,
    handler: ({ ctx, actor, params }) => rotateSecret(ctx, actor, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/webhooks/delete/:id.json',
    noBody: true,
    area: 'webhooks',
    summary: 'Remove an endpoint; pending deliveries stop, the log stays',
    access,
    params: z.object({ id: zId }),
    response: ZWebhooksDelete,
    handler: ({ ctx, actor, params }) => deleteEndpoint(ctx, actor, params.id),
  }),
  defineRoute({
    method: 'GET',
    path: '/webhooks/deliveries/:id.json',
    area: 'webhooks',
    summary: 'Delivery log of an endpoint, newest first, 50 a page',
    access,
    params: z.object({ id: zId }),
    query: z.object({ page: z.coerce.number().int().min(1).max(100000).default(1) }),
    response: ZWebhooksDeliveries,
    handler: ({ ctx, actor, params, query }) => listDeliveries(ctx, actor, params.id, query.page),
  }),
  defineRoute({
    method: 'POST',
    path: '/webhooks/redeliver/:id.json',
    noBody: true,
    area: 'webhooks',
    summary: 'Deliver an event again (a new delivery of a delivered or failed one)',
    access,
    params: z.object({ id: zId }),
    response: ZWebhooksRedeliver,
    handler: ({ ctx, actor, params }) => redeliver(ctx, actor, params.id),
  }),
];
