/**
 * The catalogues (shared/src/i18n): every key in all four languages, valid ICU
 * with the same placeholders, translated rather than copied, and used by the code.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { AREA_MESSAGES } from '@ops/shared/i18n/catalogue';
import { LOCALES } from '@ops/shared/i18n/index';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../../..');
const SOURCES = ['server/src', 'shared/src', 'desktop/renderer/src', 'client-core/src'];

function sourceText(): string {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        // The catalogues themselves do not count as a use.
        if (p !== path.join(root, 'shared/src/i18n')) walk(p);
      } else if (/\.(ts|tsx)$/.test(e.name)) out.push(fs.readFileSync(p, 'utf8'));
    }
  };
  for (const s of SOURCES) walk(path.join(root, s));
  return out.join('\n');
}

function placeholders(els: MessageFormatElement[], out = new Set<string>()): Set<string> {
  for (const el of els) {
    if (el.type === TYPE.literal || el.type === TYPE.pound) continue;
    out.add(el.value);
    if (el.type === TYPE.plural || el.type === TYPE.select)
      for (const o of Object.values(el.options)) placeholders(o.value, out);
    if (el.type === TYPE.tag) placeholders(el.children, out);
  }
  return out;
}

const areas = Object.entries(AREA_MESSAGES) as unknown as [string, Record<string, Record<string, string>>][];

describe('message catalogues', () => {
  it.each(areas)('%s: the same keys in every language, none empty', (_area, m) => {
    const keys = Object.keys(m.en).sort();
    for (const l of LOCALES) {
      expect(Object.keys(m[l]).sort(), l).toEqual(keys);
      for (const k of keys) expect(m[l][k]?.trim(), `${l}.${k}`).toBeTruthy();
    }
  });

  it.each(areas)('%s: valid ICU, the same placeholders as English', (area, m) => {
    for (const k of Object.keys(m.en)) {
      const en = [...placeholders(parse(m.en[k]))].sort();
      for (const l of LOCALES) {
        let ast: MessageFormatElement[] = [];
        expect(() => {
          ast = parse(m[l][k]);
        }, `${area}.${k} in ${l}`).not.toThrow();
        expect([...placeholders(ast)].sort(), `${area}.${k} in ${l}`).toEqual(en);
      }
    }
  });

  it.each(areas)('%s: translated, not English copies', (area, m) => {
    const keys = Object.keys(m.en);
    for (const l of LOCALES.filter((x) => x !== 'en')) {
      // Some words are the same in two languages (Date, Description, {subject}); most are not.
      const same = keys.filter((k) => m[l][k] === m.en[k]);
      expect(same.length / keys.length, `${area} ${l} copies: ${same.join(', ')}`).toBeLessThan(0.25);
    }
  });

  it('no message is unused: each id is named in the code (server errors: their English text is thrown)', () => {
    const code = sourceText();
    const unused: string[] = [];
    for (const [area, m] of areas)
      for (const [k, text] of Object.entries(m.en)) {
        const id = `${area}.${k}`;
        const named = code.includes(`'${id}'`) || code.includes(`"${id}"`);
        const thrown = area === 'errors' && (code.includes(`'${text}'`) || code.includes(`"${text}"`));
        if (!named && !thrown) unused.push(id);
      }
    expect(unused).toEqual([]);
  });

  it('the check fails on a key missing in a language (the comparison it relies on)', () => {
    const broken = { en: { a: 'A', b: 'B' }, es: { a: 'Á' } };
    expect(Object.keys(broken.es).sort()).not.toEqual(Object.keys(broken.en).sort());
    expect(() => parse('Hola {name')).toThrow();
  });
});
