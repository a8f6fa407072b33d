import { LOCALES, translator } from '@ops/shared/i18n/index';
import { describe, expect, it } from 'vitest';
import { problemLine } from './SyncBar.tsx';

describe('the sync bar says a failure in a sentence', () => {
  it('names where and what follows, in every language, never the transport message', () => {
    const en = translator('en');
    expect(problemLine({ source: 'fleet', kind: 'busy' }, en)).toBe(
      'Aircraft and defects: the server is busy. Sync tries again in a moment.',
    );
    expect(problemLine({ source: 'bootstrap', kind: 'offline' }, en)).toBe(
      'First sync: the server did not answer. Sync tries again on its own.',
    );
    expect(problemLine({ source: 'stream', kind: 'signIn' }, translator('es'))).toMatch(
      /^Actualizaciones en directo: /,
    );
    for (const locale of LOCALES) {
      const t = translator(locale);
      for (const kind of ['offline', 'signIn', 'busy', 'server', 'refused', 'version', 'device'] as const) {
        const line = problemLine({ source: 'flights', kind }, t);
        expect(line, `${locale} ${kind}`).toMatch(/[.!]$/);
        expect(line).not.toMatch(/HTTP|\{|\}|syncProblem/);
      }
    }
  });
});
