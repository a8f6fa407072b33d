import type { Request, Response } from 'express';
import type { AppContext } from '../context.ts';
import type { Actor } from '../http/actor.ts';
import { bearerToken, type HashedCredential, hashedCredential } from '../http/authenticate.ts';
import { type RegisteredCollection, viewerOf } from './registry.ts';
import { fanoutOf, type LiveStream, type StreamCheckpoint } from './fanout.ts';
import { releaseRequestState } from '../http/release-request.ts';
import { resyncFrame, type SseFrame, writeFrame } from './sse-frame.ts';

/**
 * One open stream as the fan-out holds it. A class, so the per-stream state is
 * a few fields (ids, shared viewer, checkpoints, the response) and its methods
 * live once on the prototype instead of as closures per stream (issue 34:
 * memory per idle connection).
 */
class OpenStream implements LiveStream {
  private closed = false;
  leave: () => void = () => {};

  constructor(
    readonly companyId: string,
    readonly credential: HashedCredential,
    readonly fp: string,
    readonly viewer: LiveStream['viewer'],
    readonly collections: readonly RegisteredCollection[],
    readonly checkpoints: StreamCheckpoint[],
    private readonly res: Response,
  ) {}

  write(frame: SseFrame): void {
    if (!this.closed) writeFrame(this.res, frame);
  }

  end(): void {
    if (this.closed) return;
    this.closed = true;
    this.leave();
    this.res.end();
  }
}

/** Streams asking for the same collections share one list. Bounded: a client may name any combination. */
const lists = new Map<string, readonly RegisteredCollection[]>();
function sharedList(collections: readonly RegisteredCollection[]): readonly RegisteredCollection[] {
  const key = collections.map((c) => c.def.name).join(',');
  const known = lists.get(key);
  if (known) return known;
  if (lists.size >= 256) lists.clear();
  lists.set(key, collections);
  return collections;
}

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
  collections: readonly RegisteredCollection[],
  req: Request,
  res: Response,
) {
  const token = bearerToken(req.headers.authorization) ?? '';
  // The company's change number came with the credential (authenticate reads it); a second query per stream
  // was a share of what a herd of reconnecting devices costs. A cached value can only be older, which re-sends
  // rows the client's own pull also brings (harmless), never skips one.
  const seq =
    actor.companyVersion ??
    Number(
      (
        await ctx.db
          .selectFrom('sync_counters')
          .select('value')
          .where('company_id', '=', actor.companyId)
          .executeTakeFirst()
      )?.value ?? 0,
    );
  const fanout = fanoutOf(ctx);
  const { viewer, fp } = fanout.viewer(viewerOf(actor));

  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('Connection', 'keep-alive');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  releaseRequestState(req);

  const stream = new OpenStream(
    actor.companyId,
    hashedCredential(token),
    fp,
    viewer,
    sharedList(collections),
    collections.map(() => ({ seq, id: '' })),
    res,
  );
  // Joined before `resync` is written: the client pulls after it, so a change committed after the join reaches
  // the stream and one committed before it is in that pull.
  stream.leave = fanout.join(stream);
  stream.write(resyncFrame());
  // The client went away (the response closes with its socket).
  res.once('close', () => stream.end());
}
