import { GATES } from '@ops/shared';
import { z } from 'zod';
import { defineRoute } from '../http/define-route.ts';
import { notFound } from '../http/errors.ts';
import { bearerToken } from '../http/authenticate.ts';
import { answerBootstrap } from './bootstrap.ts';
import { ZCheckpoint } from './checkpoint.ts';
import { currentPull, pullCollection } from './pull.ts';
import { pullGateOf } from './pull-gate.ts';
import { pushCollection } from './push.ts';
import { allCollections, getCollection } from './registry.ts';
import { openStream } from './stream.ts';
import './index.ts';
import { ZSyncCollections, ZSyncPull, ZSyncPush } from './sync.responses.ts';

const collectionParam = z.object({ collection: z.string().regex(/^[a-z_]{1,40}$/, 'Unknown collection') });
const find = (name: string) => {
  const c = getCollection(name);
  if (!c) throw notFound(`Unknown collection ${name}`);
  return c;
};

export const syncRoutes = [
  defineRoute({
    method: 'GET',
    path: '/sync/collections.json',
    area: 'sync',
    summary: 'Replicated collections and their schema versions',
    access: { who: GATES.member },
    response: ZSyncCollections,
    handler: () => ({
      collections: allCollections().map((c) => ({
        name: c.def.name,
        version: c.def.version,
        writable: c.def.writableFields.length > 0,
      })),
    }),
  }),
  defineRoute({
    method: 'POST',
    path: '/sync/:collection/pull.json',
    area: 'sync',
    summary: 'Documents after a checkpoint, as the caller may see them (RxDB pull)',
    access: { who: GATES.member },
    params: collectionParam,
    body: z.object({
      checkpoint: ZCheckpoint.nullable().optional(),
      limit: z.number().int().min(1).max(1000).default(200),
      /** With a null checkpoint: answer `total`, the documents the whole load brings (a device's progress). */
      count: z.boolean().optional(),
    }),
    response: ZSyncPull,
    handler: async ({ ctx, actor, params, body, req, res }) => {
      const collection = find(params.collection);
      // A checkpoint already at the company's change number is answered without reading the collection.
      const current = await currentPull(ctx, actor, body.checkpoint ?? null);
      if (current) return current;
      // Queued per process (pull-gate.ts) rather than left to the pool's wait; a client gone meanwhile is skipped.
      const page = await pullGateOf(ctx).run(
        actor.companyId,
        () => res.destroyed || req.socket.destroyed,
        () => pullCollection(ctx, actor, collection, body.checkpoint ?? null, body.limit, body.count === true),
      );
      return page ?? undefined;
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/sync/bootstrap.json',
    area: 'sync',
    summary: 'First sync of several collections as one stream of pull pages from a null checkpoint (NDJSON)',
    file: { mediaType: 'application/x-ndjson' },
    access: { who: GATES.member },
    body: z.object({
      collections: z
        .array(z.string().refine((n) => getCollection(n) !== null, 'Unknown collection'))
        .min(1)
        .max(50)
        .refine((names) => new Set(names).size === names.length, 'A collection is named twice'),
      limit: z.number().int().min(1).max(1000).default(1000),
    }),
    handler: async ({ ctx, actor, body, req, res }) => {
      const token = bearerToken(req.headers.authorization) ?? '';
      await answerBootstrap(ctx, actor, token, body.collections.map(find), body.limit, req, res);
      return undefined;
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/sync/:collection/push.json',
    area: 'sync',
    summary: 'Apply pushed documents through the domain services; answers the conflicts (RxDB push)',
    access: { who: GATES.member },
    params: collectionParam,
    body: z.object({
      rows: z
        .array(
          z.object({
            assumedMasterState: z.record(z.string(), z.unknown()).nullable().optional(),
            newDocumentState: z.looseObject({ id: z.string().min(1).max(64) }),
          }),
        )
        .max(500),
    }),
    response: ZSyncPush,
    handler: async ({ ctx, actor, params, body, req, res }) => ({
      conflicts: await pushCollection(
        ctx,
        actor,
        find(params.collection),
        body.rows.map((r) => ({
          assumedMasterState: r.assumedMasterState ?? null,
          newDocumentState: r.newDocumentState,
        })),
        () => res.destroyed || req.socket.destroyed,
      ),
    }),
  }),
  defineRoute({
    method: 'GET',
    path: '/sync/stream.json',
    area: 'sync',
    summary: 'Live changes of the caller’s collections as server-sent events (one stream per client)',
    file: { mediaType: 'text/event-stream' },
    access: { who: GATES.member },
    query: z.object({ collections: z.string().max(2000).optional() }),
    handler: async ({ ctx, actor, query, req, res }) => {
      // Unknown names are skipped, not fatal: a newer client may list a collection this server lacks.
      const names = query.collections
        ? query.collections.split(',').filter(Boolean)
        : allCollections().map((c) => c.def.name);
      const known = names.map(getCollection).filter((c) => c !== null);
      if (!known.length) throw notFound('No known collection requested');
      await openStream(ctx, actor, known, req, res);
      return undefined;
    },
  }),
];
