import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff.ts';
import { SseParser } from './sse.ts';

describe('SseParser', () => {
  const stream = 'event: resync\ndata: {}\n\n: ping\n\nevent: change\ndata: {"collection":"aircraft","documents":[]}\n\n';

  it('parses whole events and drops comments', () => {
    expect(new SseParser().push(stream)).toEqual([
      { event: 'resync', data: '{}' },
      { event: 'change', data: '{"collection":"aircraft","documents":[]}' },
    ]);
  });

  it('gives the same events whatever the chunking', () => {
    for (let size = 1; size < stream.length; size += 7) {
      const p = new SseParser();
      const out = [];
      for (let i = 0; i < stream.length; i += size) out.push(...p.push(stream.slice(i, i + size)));
      expect(out.map((e) => e.event)).toEqual(['resync', 'change']);
    }
  });

  it('handles CRLF line ends and multi-line data', () => {
    expect(new SseParser().push('event: x\r\ndata: a\r\ndata: b\r\n\r\n')).toEqual([{ event: 'x', data: 'a\nb' }]);
  });
});

describe('backoffDelay', () => {
  it('doubles from 0.5 s up to 30 s, with jitter between half and full', () => {
    expect(backoffDelay(0, () => 1)).toBe(500);
    expect(backoffDelay(3, () => 1)).toBe(4000);
    expect(backoffDelay(20, () => 1)).toBe(30_000);
    expect(backoffDelay(20, () => 0)).toBe(15_000);
  });
});
