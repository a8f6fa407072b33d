import { z } from 'zod';

/**
 * Response schemas of the notifications routes: the 200 bodies as the handlers return them (each route's
 * `response`). The handler's return type is checked against these at compile time and every answer
 * of the integration suite against the document they produce (the contract test).
 */

/** GET /notifications.json */
export const ZNotifications = z.strictObject({
  notifications: z.array(
    z.object({
      read: z.boolean(),
      link: z.string().nullable(),
      id: z.string(),
      title: z.string(),
      body: z.string().nullable(),
      created: z.number(),
    }),
  ),
});

/** POST /notifications/read.json */
export const ZNotificationsRead = z.strictObject({
  result: z.boolean(),
  marked: z.number(),
});
