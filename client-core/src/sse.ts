export interface SseEvent {
  /** `event:` field, `message` when absent. */
  event: string;
  /** `data:` lines joined with `\n`. */
  data: string;
  /** `id:` field of the event, if any. */
  id?: string;
}

/**
 * Incremental parser of a `text/event-stream` body (WHATWG HTML, "server-sent
 * events"): feed it chunks split anywhere (bytes or text, even inside a UTF-8
 * character or between `\r` and `\n`), get whole events back. Lines end with
 * LF, CR or CRLF; comments (`: ping`) are dropped; events without data are not
 * dispatched. `retry` keeps the server's reconnection hint.
 */
export class SseParser {
  private buffer = '';
  private started = false;
  private event = '';
  private data: string[] = [];
  private id: string | undefined;
  private skipLf = false;
  private readonly decoder = new TextDecoder('utf-8');
  /** Last `retry:` value in milliseconds, if the server sent one. */
  retry: number | null = null;
  /** Time of the last chunk received (comments included), for a silence watchdog. */
  lastChunkAt = 0;

  push(chunk: string | Uint8Array): SseEvent[] {
    this.lastChunkAt = Date.now();
    this.buffer += typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    if (!this.started && this.buffer.length) {
      this.started = true;
      if (this.buffer.charCodeAt(0) === 0xfeff) this.buffer = this.buffer.slice(1);
    }
    const out: SseEvent[] = [];
    let start = 0;
    // A CR ended the previous chunk's last line: an LF right after it is the same line end.
    if (this.skipLf && this.buffer.length) {
      if (this.buffer.startsWith('\n')) start = 1;
      this.skipLf = false;
    }
    for (;;) {
      const lf = this.buffer.indexOf('\n', start);
      const cr = this.buffer.indexOf('\r', start);
      if (lf === -1 && cr === -1) break;
      const end = cr !== -1 && (lf === -1 || cr < lf) ? cr : lf;
      const ev = this.line(this.buffer.slice(start, end));
      if (ev) out.push(ev);
      start = end + 1;
      if (end === cr) {
        if (start === this.buffer.length) this.skipLf = true;
        else if (this.buffer[start] === '\n') start++;
      }
    }
    this.buffer = this.buffer.slice(start);
    return out;
  }

  private line(line: string): SseEvent | null {
    if (line === '') {
      const ev = this.data.length
        ? {
            event: this.event || 'message',
            data: this.data.join('\n'),
            ...(this.id !== undefined ? { id: this.id } : {}),
          }
        : null;
      this.event = '';
      this.data = [];
      return ev;
    }
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id' && !value.includes('\0')) this.id = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.retry = Number(value);
    return null;
  }
}
