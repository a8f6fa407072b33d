import type { Request, Response } from 'express';
import { visibilityFingerprint } from '@ops/shared';
import type { AppContext } from '../context.ts';
import type { Actor } from '../http/actor.ts';
import { bearerToken } from '../http/authenticate.ts';
import { onShutdown } from '../server.ts';
import { type RegisteredCollection, viewerOf } from './registry.ts';
import type { Checkpoint } from './checkpoint.ts';
import { fanoutOf, type LiveStream } from './fanout.ts';

/**
 * One server-sent-event stream per client for all its collections. It starts at
 * the company's current change number (the client's own pull covers what came
 * before) and joins the process's fan-out (fanout.ts): every committed change
 * batch of the company is read once per collection and each stream gets the
 * rows after its checkpoint as its viewer may see them (the pull's rules).
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
  const viewer = viewerOf(actor);
  const fp = visibilityFingerprint(viewer);
  const checkpoints = new Map<string, Checkpoint>(
    collections.map((c) => [c.def.name, { seq: Number(counter?.value ?? 0), id: '', fp }]),
  );

  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('Connection', 'keep-alive');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();

  let closed = false;
  const stream: LiveStream = {
    companyId: actor.companyId,
    token,
    fp,
    viewer,
    collections,
    checkpoints,
    write: (chunk) => {
      if (!closed) res.write(chunk);
    },
    end,
  };
  // Joined before `resync` is written: the client pulls after it, so a change committed after the join reaches
  // the stream and one committed before it is in that pull.
  const leave = fanoutOf(ctx).join(stream);
  stream.write('event: resync\ndata: {}\n\n');
  const offShutdown = onShutdown(end);
  function end() {
    if (closed) return;
    closed = true;
    leave();
    offShutdown();
    res.end();
  }
  // The client went away (the response closes with its socket).
  req.on('close', end);
  res.on('close', end);
}
