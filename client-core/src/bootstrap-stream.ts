import type { WithDeleted } from 'rxdb';
import type { BootstrapPage, CollectionLoad } from './bootstrap.ts';
import type { OpsDoc } from './database.ts';
import { HttpError, OfflineError } from './errors.ts';
import type { Transport } from './transport.ts';

/** A checkpoint as the bootstrap stream needs it: `snap` set while the load of its collection goes on. */
interface LoadCheckpoint {
  snap?: number;
}

/** One line of `POST /sync/bootstrap.json` (docs/sync.md, "The bootstrap stream"). */
type Line<C> =
  | { collection: string; documents: WithDeleted<OpsDoc>[]; checkpoint: C; total?: number }
  | { error: { status: number; message: string } }
  | { done: true };

/** Pages stored at once at most: one written while the next is prepared, not the whole stream held in memory. */
const WRITES_IN_FLIGHT = 2;

/** Splits a byte stream into lines; a line (or a character) may be cut across chunks. */
export class LineSplitter {
  private readonly decoder = new TextDecoder();
  private rest = '';

  push(chunk: Uint8Array): string[] {
    const text = this.rest + this.decoder.decode(chunk, { stream: true });
    const lines = text.split('\n');
    this.rest = lines.pop() ?? '';
    return lines.filter((l) => l.trim() !== '');
  }

  /** What is left at the end of the stream (a last line without its newline). */
  end(): string[] {
    const last = this.rest + this.decoder.decode();
    this.rest = '';
    return last.trim() ? [last] : [];
  }
}

export interface StreamHooks<C> {
  /** A page of `name` arrived (the first one starts its load). */
  arrived(name: string, load: CollectionLoad<C>): void;
  /** A page of `name` was stored (its load's counts are current). */
  stored(name: string, load: CollectionLoad<C>): void;
  /** The last page of `name` was stored: its load is complete. */
  complete(name: string, load: CollectionLoad<C>): void;
}

/**
 * Reads a first sync as one stream (issue 35) and stores each page in its
 * collection with the load's own write, in arrival order, at most
 * WRITES_IN_FLIGHT at once (reading waits meanwhile, so the server waits
 * too). Answers true once the server's `done` line came and everything is
 * stored. Throws when the endpoint is missing or refused (an older server:
 * 404), on an error line, a broken or silent stream, or a failed write;
 * every page before the failure is stored and its load's checkpoint says
 * where pulls continue.
 */
export async function readBootstrapStream<C extends LoadCheckpoint>(
  transport: Transport,
  loads: ReadonlyMap<string, CollectionLoad<C>>,
  limit: number,
  hooks: StreamHooks<C>,
  signal: AbortSignal,
  silenceMs: number,
): Promise<void> {
  const connection = new AbortController();
  const stop = () => connection.abort(signal.reason);
  signal.addEventListener('abort', stop, { once: true });
  let lastChunkAt = Date.now();
  const watchdog = setInterval(
    () => {
      if (Date.now() - lastChunkAt > silenceMs)
        connection.abort(new OfflineError(`bootstrap stream silent for ${Math.round(silenceMs / 1000)} s`));
    },
    Math.min(5000, silenceMs),
  );
  const writes: Promise<void>[] = [];
  /** Per collection, its last write: pages of a collection are stored in order. */
  const tails = new Map<string, Promise<void>>();
  let done = false;
  try {
    const res = await transport.fetch('/sync/bootstrap.json', {
      method: 'POST',
      signal: connection.signal,
      timeoutMs: 0,
      headers: { 'content-type': 'application/json', accept: 'application/x-ndjson' },
      body: JSON.stringify({ collections: [...loads.keys()], limit }),
    });
    if (!res.ok || !res.body) {
      const body = await res.text().catch(() => '');
      throw new HttpError(res.status, safeJson(body), null);
    }
    const reader = res.body.getReader();
    const splitter = new LineSplitter();
    const handle = async (text: string) => {
      const line = JSON.parse(text) as Line<C>;
      if ('done' in line) {
        done = true;
        return;
      }
      if ('error' in line) throw new HttpError(line.error.status, line.error, null);
      const name = line.collection;
      const load = loads.get(name);
      if (!load) throw new Error(`bootstrap stream: collection ${name} was not asked for`);
      const page: BootstrapPage<C> = line;
      hooks.arrived(name, load);
      const w = (tails.get(name) ?? Promise.resolve()).then(async () => {
        await load.write(page);
        hooks.stored(name, load);
        if (page.checkpoint.snap === undefined) hooks.complete(name, load);
      });
      tails.set(name, w);
      writes.push(w);
      // The oldest write settles before another starts: a failed one stops the reading.
      if (writes.length >= WRITES_IN_FLIGHT) await writes.shift();
    };
    for (;;) {
      const { value, done: ended } = await reader.read();
      lastChunkAt = Date.now();
      const lines = ended ? splitter.end() : splitter.push(value);
      for (const l of lines) await handle(l);
      // Read to the end after `done` too: the response completes instead of being left half read.
      if (ended) break;
    }
    await Promise.all(writes.splice(0));
    if (!done) throw new OfflineError('bootstrap stream ended before its last line');
  } finally {
    clearInterval(watchdog);
    signal.removeEventListener('abort', stop);
    if (!done) connection.abort();
    // Whatever happened, the pages already handed to storage finish first: their checkpoints count.
    await Promise.allSettled(writes);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
