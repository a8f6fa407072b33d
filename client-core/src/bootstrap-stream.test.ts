import { describe, expect, it } from 'vitest';
import { LineSplitter } from './bootstrap-stream.ts';

describe('LineSplitter', () => {
  const text = '{"a":"Mía ✈"}\n{"b":2}\n\n{"c":"«x»"}';
  const bytes = new TextEncoder().encode(text);

  it('answers the same lines wherever the chunks cut, inside a line or inside a character', () => {
    for (let cut = 1; cut < bytes.length; cut++) {
      const s = new LineSplitter();
      const lines = [...s.push(bytes.slice(0, cut)), ...s.push(bytes.slice(cut)), ...s.end()];
      expect(lines).toEqual(['{"a":"Mía ✈"}', '{"b":2}', '{"c":"«x»"}']);
    }
  });

  it('answers a line only once its newline came (or the stream ended)', () => {
    const s = new LineSplitter();
    expect(s.push(new TextEncoder().encode('{"done":'))).toEqual([]);
    expect(s.push(new TextEncoder().encode('true}\n{"x"'))).toEqual(['{"done":true}']);
    expect(s.end()).toEqual(['{"x"']);
  });
});
