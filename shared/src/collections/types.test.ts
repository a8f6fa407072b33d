import { describe, expect, it } from 'vitest';
import { type RowScope, rowVisible, scopeFields } from './types.ts';

const viewer = { userId: 'u1', companyId: 'c1', role: 190 };

describe('row scopes', () => {
  it('custom scope runs its own test on the fields it names', () => {
    const scope: RowScope = {
      kind: 'custom',
      fields: ['type', 'user_id'],
      test: (row, v) => row.type === 'public' || row.user_id === v.userId,
    };
    expect(scopeFields(scope)).toEqual(['type', 'user_id']);
    expect(rowVisible(scope, { type: 'draft', user_id: 'u1' }, viewer)).toBe(true);
    expect(rowVisible(scope, { type: 'draft', user_id: 'u2' }, viewer)).toBe(false);
    expect(rowVisible(scope, { type: 'public', user_id: 'u2' }, viewer)).toBe(true);
  });
  it('own and involved scopes', () => {
    expect(rowVisible({ kind: 'own', field: 'user_id' }, { user_id: 'u2' }, viewer)).toBe(false);
    expect(
      rowVisible(
        { kind: 'involved', fields: ['pic_id'], staffMaxRole: 170 },
        { pic_id: 'x' },
        { ...viewer, role: 150 },
      ),
    ).toBe(true);
  });
});
