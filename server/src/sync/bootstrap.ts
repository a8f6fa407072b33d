import { visibilityFingerprint } from '@ops/shared';
import type { Request, Response } from 'express';
import type { AppContext } from '../context.ts';
import type { Actor } from '../http/actor.ts';
import { authenticate } from '../http/authenticate.ts';
import { drained } from '../http/drained.ts';
import { HttpError } from '../http/errors.ts';
import type { Checkpoint } from './checkpoint.ts';
import { type PullResult, pullCollection } from './pull.ts';
import { pullGateOf } from './pull-gate.ts';
import { type RegisteredCollection, viewerOf } from './registry.ts';

/** One line of the bootstrap stream (docs/sync.md, "The bootstrap stream"). */
export type BootstrapLine =
  | { collection: string; documents: Record<string, unknown>[]; checkpoint: Checkpoint; total?: number }
  | { error: { status: number; message: string } }
  | { done: true };

/** Where the lines go: the HTTP response, or a test's recorder. */
export interface BootstrapSink {
  /** Resolves when the line may be followed by the next (the response drained). */
  write(line: BootstrapLine): Promise<void>;
  /** The client went away: no further page is read. */
  gone(): boolean;
}

/**
 * A device's first sync of several collections as one streamed answer
 * (issue 35): for each collection in the order asked, the pages a pull from a
 * `null` checkpoint answers, one after the other, each through the pull gate
 * and `pullCollection` (the same rules, bounds and checkpoints as the pull
 * endpoint), until the load's checkpoint has no `snap` (read to its end). The
 * credential is checked again before every collection after the first: a
 * session revoked or a role changed meanwhile ends the stream with an error
 * line, and the device continues with ordinary pulls from what it stored.
 */
export async function streamBootstrap(
  ctx: AppContext,
  actor: Actor,
  token: string,
  collections: readonly RegisteredCollection[],
  limit: number,
  sink: BootstrapSink,
): Promise<void> {
  const fp = visibilityFingerprint(viewerOf(actor));
  const gate = pullGateOf(ctx);
  for (const [i, collection] of collections.entries()) {
    if (i > 0) {
      const auth = await authenticate(ctx.db, token);
      if (!auth.ok) return sink.write({ error: { status: 401, message: auth.message } });
      // Another visibility: the pages already sent were read for the old one; the device's pulls restart them.
      if (visibilityFingerprint(viewerOf(auth.actor)) !== fp)
        return sink.write({ error: { status: 409, message: 'Visibility changed; pull again' } });
    }
    let checkpoint: Checkpoint | null = null;
    for (;;) {
      if (sink.gone()) return;
      const from: Checkpoint | null = checkpoint;
      const page: PullResult | null = await gate.run(actor.companyId, sink.gone, () =>
        pullCollection(ctx, actor, collection, from, limit, from === null),
      );
      if (!page) return;
      await sink.write({ collection: collection.def.name, ...page });
      // The load's last page answers the checkpoint live pulls continue from (no `snap`).
      if (page.checkpoint.snap === undefined) break;
      checkpoint = page.checkpoint;
    }
  }
  if (!sink.gone()) await sink.write({ done: true });
}

/** The response as a sink: one JSON document per line, waiting for 'drain' when the socket's buffer is full. */
export function responseSink(req: Request, res: Response): BootstrapSink {
  const gone = () => res.destroyed || req.socket.destroyed || res.writableEnded;
  return {
    gone,
    write: (line) => {
      if (gone()) return Promise.resolve();
      return res.write(`${JSON.stringify(line)}\n`) ? Promise.resolve() : drained(res);
    },
  };
}

/** Answers the stream on `res`: headers, the lines, and an error line if a page fails after the head was sent. */
export async function answerBootstrap(
  ctx: AppContext,
  actor: Actor,
  token: string,
  collections: readonly RegisteredCollection[],
  limit: number,
  req: Request,
  res: Response,
): Promise<void> {
  res.status(200);
  res.setHeader('Content-Type', 'application/x-ndjson; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('X-Accel-Buffering', 'no');
  const sink = responseSink(req, res);
  try {
    await streamBootstrap(ctx, actor, token, collections, limit, sink);
  } catch (err) {
    // Nothing sent yet: the ordinary error answer (a busy gate's 503 with its Retry-After).
    if (!res.headersSent) throw err;
    // The head is sent: the failure becomes the last line (a busy gate's 503, a 410, the database gone).
    const status = err instanceof HttpError ? err.status : 500;
    if (status >= 500) ctx.log.warn({ err: (err as Error).message }, 'bootstrap stream failed');
    const message = err instanceof HttpError ? err.message : 'Bootstrap failed; pull instead';
    await sink.write({ error: { status, message } });
  }
  if (!res.writableEnded) res.end();
}
