import type { ServerResponse } from 'node:http';

const CRLF = '\r\n';

/**
 * One server-sent event, encoded once and written to every stream that gets it
 * (issue 34: the fan-out writes the same event to thousands of streams). The
 * bytes are built on first use and kept: the SSE text as UTF-8, and the same
 * bytes framed as one HTTP/1.1 chunk (`<hex length>\r\n<bytes>\r\n`), exactly
 * what `res.write` would have put on the wire for a chunked response.
 */
export class SseFrame {
  private raw: Buffer | null = null;
  private framed: Buffer | null = null;

  constructor(readonly text: string) {}

  /** The event's bytes (a response that is not chunked: HTTP/1.0, or a length set). */
  get bytes(): Buffer {
    this.raw ??= Buffer.from(this.text, 'utf8');
    return this.raw;
  }

  /** The event as one chunk of a chunked response. */
  get chunk(): Buffer {
    if (!this.framed) {
      const b = this.bytes;
      this.framed = Buffer.concat([
        Buffer.from(b.length.toString(16) + CRLF, 'latin1'),
        b,
        Buffer.from(CRLF, 'latin1'),
      ]);
    }
    return this.framed;
  }
}

/** An event frame: `event: <name>` and its data as one JSON line. */
export const sseEvent = (name: string, data: unknown): SseFrame =>
  new SseFrame(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);

/**
 * Frames every stream writes, built on first use (not at import: stream.ts and
 * fanout.ts both use them, and neither has to be loaded first).
 */
let resync: SseFrame | null = null;
let ping: SseFrame | null = null;
/** `resync` with no reason: the stream's first event (the client pulls). */
export const resyncFrame = (): SseFrame => {
  resync ??= new SseFrame('event: resync\ndata: {}\n\n');
  return resync;
};
/** A comment that keeps proxies from closing an idle stream. */
export const pingFrame = (): SseFrame => {
  ping ??= new SseFrame(': ping\n\n');
  return ping;
};

/**
 * Writes a frame to a streaming response. When nothing is queued ahead of it
 * (head sent, no data buffered in the response or its socket, socket not
 * corked and owned by this response), the pre-framed bytes go to the socket in
 * ONE write: `res.write` would cork, frame the length and make three or four
 * writes per call, for each of thousands of streams (19.5 -> 13.7 µs
 * per delivery as f40 measured it, docs/performance.md). Otherwise `res.write`, which keeps the
 * order behind what is queued. The bytes on the wire are the same either way.
 * A response without a body (HEAD) always takes `res.write`, which writes
 * nothing for it. Returns whether the frame went straight to the socket.
 */
export function writeFrame(res: ServerResponse, frame: SseFrame): boolean {
  const socket = res.socket;
  if (
    socket &&
    res.headersSent &&
    !res.writableEnded &&
    res.writableLength === 0 &&
    socket.writableCorked === 0 &&
    socket.writable &&
    (socket as { _httpMessage?: unknown })._httpMessage === res &&
    res.req.method !== 'HEAD'
  ) {
    socket.write(res.chunkedEncoding ? frame.chunk : frame.bytes);
    return true;
  }
  res.write(frame.text);
  return false;
}
