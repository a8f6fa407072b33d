import { describe, expect, it } from 'vitest';
import { backoffDelay, firstConnectDelay, retryAfterMs, retryDelay } from './backoff.ts';
import { type SseEvent, SseParser } from './sse.ts';

// What the server writes (server/src/sync/stream.ts): resync at connect, pings, changes.
const stream =
  'event: resync\ndata: {}\n\n' +
  ': ping\n\n' +
  'event: change\ndata: {"collection":"aircraft","documents":[{"id":"a1","registration":"EC-ÁBC ✈"}],"checkpoint":{"seq":3,"id":"a1","fp":"c:u:1"}}\n\n' +
  'event: error\ndata: {"status":401}\n\n';
const expected: SseEvent[] = [
  { event: 'resync', data: '{}' },
  {
    event: 'change',
    data: '{"collection":"aircraft","documents":[{"id":"a1","registration":"EC-ÁBC ✈"}],"checkpoint":{"seq":3,"id":"a1","fp":"c:u:1"}}',
  },
  { event: 'error', data: '{"status":401}' },
];

const feed = (p: SseParser, chunks: Array<string | Uint8Array>) => chunks.flatMap((c) => p.push(c));

describe('SseParser', () => {
  it('parses whole events and drops comments', () => {
    expect(new SseParser().push(stream)).toEqual(expected);
  });

  it('gives the same events when the text is split at any single position', () => {
    for (let i = 0; i <= stream.length; i++) {
      expect(feed(new SseParser(), [stream.slice(0, i), stream.slice(i)])).toEqual(expected);
    }
  });

  it('gives the same events when the bytes are split anywhere, even inside a UTF-8 character', () => {
    const bytes = new TextEncoder().encode(stream);
    for (let i = 0; i <= bytes.length; i++) {
      expect(feed(new SseParser(), [bytes.slice(0, i), bytes.slice(i)])).toEqual(expected);
    }
    // One byte at a time, and random chunk sizes.
    expect(
      feed(
        new SseParser(),
        Array.from(bytes, (b) => Uint8Array.of(b)),
      ),
    ).toEqual(expected);
    let seed = 7;
    const rand = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    for (let run = 0; run < 50; run++) {
      const chunks: Uint8Array[] = [];
      for (let i = 0; i < bytes.length; ) {
        const n = 1 + Math.floor(rand() * 40);
        chunks.push(bytes.slice(i, i + n));
        i += n;
      }
      expect(feed(new SseParser(), chunks)).toEqual(expected);
    }
  });

  it('accepts CRLF and lone CR line ends, also when CR and LF arrive in different chunks', () => {
    const crlf = stream.replace(/\n/g, '\r\n');
    for (let i = 0; i <= crlf.length; i++)
      expect(feed(new SseParser(), [crlf.slice(0, i), crlf.slice(i)])).toEqual(expected);
    const cr = stream.replace(/\n/g, '\r');
    for (let i = 0; i <= cr.length; i++) expect(feed(new SseParser(), [cr.slice(0, i), cr.slice(i)])).toEqual(expected);
    // An empty read between CR and LF changes nothing.
    expect(feed(new SseParser(), ['event: resync\r\ndata: {}\r', '', '\n\r\n'])).toEqual([
      { event: 'resync', data: '{}' },
    ]);
  });

  it('joins multi-line data, skips a leading BOM, keeps id and retry, ignores events without data', () => {
    const p = new SseParser();
    expect(p.push('\uFEFFevent: x\ndata: a\ndata\ndata:b\n\nevent: empty\n\nid: 42\nretry: 3000\ndata: y\n\n')).toEqual(
      [
        { event: 'x', data: 'a\n\nb' },
        { event: 'message', data: 'y', id: '42' },
      ],
    );
    expect(p.retry).toBe(3000);
  });

  it('holds an unfinished event until its blank line arrives', () => {
    const p = new SseParser();
    expect(p.push('event: resync\ndata: {}\n')).toEqual([]);
    expect(p.push('\n')).toEqual([{ event: 'resync', data: '{}' }]);
  });
});

describe('backoffDelay', () => {
  it('doubles from 0.5 s and is capped at 30 s', () => {
    const top = (n: number) => backoffDelay(n, () => 1);
    expect([0, 1, 2, 3, 4, 5, 6, 7].map(top)).toEqual([500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
    expect(top(1000)).toBe(30_000);
  });

  it('jitters between half and the full delay, so clients that lost the server together do not return together', () => {
    expect(backoffDelay(3, () => 0)).toBe(2000);
    expect(backoffDelay(20, () => 0)).toBe(15_000);
    const samples = Array.from({ length: 200 }, () => backoffDelay(4));
    expect(Math.min(...samples)).toBeGreaterThanOrEqual(4000);
    expect(Math.max(...samples)).toBeLessThanOrEqual(8000);
    expect(new Set(samples).size).toBeGreaterThan(10);
  });
});

describe('Retry-After and the first connection (issue 34)', () => {
  it('reads Retry-After in seconds or as a date, capped at two minutes, and ignores junk', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(' 0 ')).toBe(0);
    expect(retryAfterMs('86400')).toBe(120_000);
    const now = Date.parse('2026-11-26T12:00:00Z');
    expect(retryAfterMs('Thu, 26 Nov 2026 12:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Thu, 26 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon')).toBeNull();
    expect(retryAfterMs(null)).toBeNull();
    expect(retryAfterMs(undefined)).toBeNull();
  });

  it('waits at least what the server asked, spread by up to half of it, and the back-off when that is longer', () => {
    expect(retryDelay(0, 4000, () => 0)).toBe(4000);
    expect(retryDelay(0, 4000, () => 1)).toBe(6000);
    const samples = Array.from({ length: 200 }, () => retryDelay(0, 2000));
    expect(Math.min(...samples)).toBeGreaterThanOrEqual(2000);
    expect(Math.max(...samples)).toBeLessThanOrEqual(3000);
    expect(new Set(samples).size).toBeGreaterThan(10);
    // Without Retry-After, or when the back-off is already longer, the back-off stands.
    expect(retryDelay(3, null, () => 1)).toBe(backoffDelay(3, () => 1));
    expect(retryDelay(6, 1000, () => 1)).toBe(30_000);
  });

  it('spreads first connections over the window', () => {
    expect(firstConnectDelay(1000, () => 0)).toBe(0);
    expect(firstConnectDelay(1000, () => 0.999)).toBe(999);
    expect(firstConnectDelay(-5, () => 0.5)).toBe(0);
    const samples = Array.from({ length: 500 }, () => firstConnectDelay(1000));
    expect(Math.max(...samples)).toBeLessThanOrEqual(1000);
    expect(new Set(samples.map((x) => Math.floor(x / 100))).size).toBeGreaterThan(8);
  });
});
