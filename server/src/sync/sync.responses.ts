import { z } from 'zod';

/**
 * Response schemas of the sync routes: the 200 bodies as the handlers return them (each route's
 * `response`). The handler's return type is checked against these at compile time and every answer
 * of the integration suite against the document they produce (the contract test).
 */

/** GET /sync/collections.json */
export const ZSyncCollections = z.strictObject({
  collections: z.array(
    z.object({
      name: z.string(),
      version: z.number(),
      writable: z.boolean(),
    }),
  ),
});

/** POST /sync/:collection/pull.json */
export const ZSyncPull = z.strictObject({
  documents: z.array(z.record(z.string(), z.unknown())),
  checkpoint: z.object({
    seq: z.number(),
    id: z.string(),
    fp: z.string(),
    snap: z.number().optional(),
    tail: z.literal(true).optional(),
  }),
  /** First page of a load from nothing asked with `count: true`: documents the whole load brings. */
  total: z.number().int().nonnegative().optional(),
});

/** POST /sync/:collection/push.json */
export const ZSyncPush = z.strictObject({
  conflicts: z.array(
    z
      .object({
        id: z.string(),
      })
      .catchall(z.unknown()),
  ),
});
