import type { Request, Response } from 'express';
import { visibilityFingerprint } from '@ops/shared';
import type { AppContext } from '../context.ts';
import type { Actor } from '../http/actor.ts';
import { authenticate, bearerToken } from '../http/authenticate.ts';
import { onShutdown } from '../server.ts';
import { pullCollection } from './pull.ts';
import { type RegisteredCollection, viewerOf } from './registry.ts';
import type { Checkpoint } from './checkpoint.ts';

const PING_MS = 25_000;
const BATCH = 500;
/** After a failed re-read (database down), the next try. */
const RETRY_MS = 500;

/**
 * One server-sent-event stream per client for all its collections. It starts at
 * the company's current change number (the client's own pull covers what came
 * before), and on every committed change of the company re-reads the affected
 * collections through the normal pull path, so visibility rules apply once.
 */
export async function openStream(
  ctx: AppContext,
  actor: Actor,
  collections: RegisteredCollection[],
  req: Request,
  res: Response,
) {
  const token = bearerToken(req.headers.authorization) ?? '';
  const counter = await ctx.db
    .selectFrom('sync_counters')
    .select('value')
    .where('company_id', '=', actor.companyId)
    .executeTakeFirst();
  const fp = visibilityFingerprint(viewerOf(actor));
  const checkpoints = new Map<string, Checkpoint>(
    collections.map((c) => [c.def.name, { seq: counter?.value ?? 0, id: '', fp }]),
  );

  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('Connection', 'keep-alive');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  send('resync', {});

  let closed = false;
  let running: Promise<void> = Promise.resolve();
  const dirty = new Set<string>();
  let retry: NodeJS.Timeout | null = null;

  const flush = async () => {
    if (closed || dirty.size === 0) return;
    const names = [...dirty];
    dirty.clear();
    try {
      const auth = await authenticate(ctx.db, token);
      if (!auth.ok) {
        send('error', { status: 401, message: auth.message });
        return end();
      }
      if (visibilityFingerprint(viewerOf(auth.actor)) !== fp) {
        // Role changed: the client re-pulls and loses what it may no longer see.
        send('resync', { reason: 'visibility changed' });
        return end();
      }
      for (const c of collections.filter((x) => names.includes(x.def.name))) {
        for (;;) {
          const cp = checkpoints.get(c.def.name)!;
          const page = await pullCollection(ctx, auth.actor, c, cp, BATCH);
          checkpoints.set(c.def.name, page.checkpoint);
          if (page.documents.length)
            send('change', { collection: c.def.name, documents: page.documents, checkpoint: page.checkpoint });
          if (page.documents.length < BATCH || closed) break;
        }
      }
    } catch (err) {
      // Database unreachable (restart, failover): keep the stream, and read again from the checkpoints a little later.
      for (const n of names) dirty.add(n);
      retry ??= setTimeout(() => {
        retry = null;
        schedule();
      }, RETRY_MS);
      throw err;
    }
  };
  const schedule = () => {
    if (dirty.size)
      running = running
        .then(flush)
        .catch((err) => req.log.warn({ err: (err as Error).message }, 'sync stream flush failed; retrying'));
  };

  const unsubscribe = ctx.changes.subscribe((events) => {
    for (const e of events) {
      if (e.companyId !== actor.companyId) continue;
      for (const c of collections)
        if (c.sources.some(({ source }) => source.tables.some((t) => e.tables.includes(t)))) dirty.add(c.def.name);
    }
    schedule();
  });
  // The change listener was down: other processes' changes of that time were announced to nobody; re-read all.
  const offResume = ctx.changes.onResume(() => {
    for (const c of collections) dirty.add(c.def.name);
    schedule();
  });
  const ping = setInterval(() => res.write(': ping\n\n'), PING_MS);
  const offShutdown = onShutdown(() => end());
  function end() {
    if (closed) return;
    closed = true;
    clearInterval(ping);
    if (retry) clearTimeout(retry);
    unsubscribe();
    offResume();
    offShutdown();
    res.end();
  }
  req.on('close', end);
}
