import { COLLECTIONS, MAX_COLLECTIONS } from '@ops/shared';
import { addRxPlugin, createRxDatabase } from 'rxdb';
import { RxDBDevModePlugin } from 'rxdb/plugins/dev-mode';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { wrappedValidateAjvStorage } from 'rxdb/plugins/validate-ajv';
import { describe, expect, it } from 'vitest';
import { databaseName, toRxSchema } from './database.ts';

describe('schemas built from the shared collections', () => {
  it('stay within the free RxDB collection limit', () => {
    expect(COLLECTIONS.length).toBeLessThanOrEqual(MAX_COLLECTIONS);
  });

  it('pass RxDB dev-mode schema checks (reserved names, index rules)', async () => {
    // Dev-mode only here, never in shipped code.
    addRxPlugin(RxDBDevModePlugin);
    const db = await createRxDatabase({ name: 'schemacheck', storage: wrappedValidateAjvStorage({ storage: getRxStorageMemory() }), multiInstance: false });
    await db.addCollections(Object.fromEntries(COLLECTIONS.map((c) => [c.name, { schema: toRxSchema(c) }])));
    expect(Object.keys(db.collections).sort()).toEqual(COLLECTIONS.map((c) => c.name).sort());
    await db.close();
  });

  it('names one database per server, company and user', () => {
    const a = databaseName('http://127.0.0.1:3000/api/v1', 'u-1', 'c-1');
    expect(a).not.toBe(databaseName('http://127.0.0.1:3000/api/v1', 'u-2', 'c-1'));
    expect(a).not.toBe(databaseName('http://127.0.0.1:3000/api/v1', 'u-1', 'c-2'));
    expect(a).toMatch(/^[a-z0-9_]+$/);
  });
});
