import { z } from 'zod';
import { WEBHOOK_EVENTS } from '@ops/shared/rules/webhooks/events';

/**
 * Response schemas of the webhooks routes: the 200 bodies as the handlers return them (each route's
 * `response`). The handler's return type is checked against these at compile time and every answer
 * of the integration suite against the document they produce (the contract test).
 */

/** One webhook endpoint (the secret never included). */
const zWebhookEndpoint = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(z.string()),
  active: z.boolean(),
  secret_hint: z.string(),
  created: z.number(),
  modified: z.number(),
});

/** GET /webhooks/index.json */
export const ZWebhooksIndex = z.strictObject({
  endpoints: z.array(zWebhookEndpoint),
});

/** GET /webhooks/events.json */
export const ZWebhooksEvents = z.strictObject({
  events: z.array(z.enum(WEBHOOK_EVENTS)).readonly(),
});

/** GET /webhooks/view/:id.json */
export const ZWebhooksView = z.strictObject({
  endpoint: zWebhookEndpoint,
});

/** POST /webhooks/add.json */
export const ZWebhooksAdd = z.strictObject({
  result: z.boolean(),
  id: z.string(),
  secret: z.string(),
  endpoint: zWebhookEndpoint,
});

/** POST /webhooks/edit/:id.json */
export const ZWebhooksEdit = z.strictObject({
  result: z.boolean(),
  endpoint: zWebhookEndpoint,
});

/** POST /webhooks/rotate_secret/:id.json */
export const ZWebhooksRotateSecret = z.strictObject({
  result: z.boolean(),
  secret: z.string(),
});

/** POST /webhooks/delete/:id.json */
export const ZWebhooksDelete = z.strictObject({
  result: z.boolean(),
});

/** GET /webhooks/deliveries/:id.json */
export const ZWebhooksDeliveries = z.strictObject({
  deliveries: z.array(
    z.object({
      attempts: z.number(),
      next_attempt: z.number().nullable(),
      last_attempt: z.number().nullable(),
      delivered: z.number().nullable(),
      created: z.number(),
      id: z.string(),
      event_id: z.string(),
      error: z.string().nullable(),
      status: z.string(),
      record_id: z.string(),
      response_status: z.number().nullable(),
      type: z.string(),
      model: z.string(),
    }),
  ),
});

/** POST /webhooks/redeliver/:id.json */
export const ZWebhooksRedeliver = z.strictObject({
  result: z.boolean(),
  id: z.string(),
});
