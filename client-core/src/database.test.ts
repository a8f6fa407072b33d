import {
  COLLECTIONS,
  type CollectionDef,
  MAX_COLLECTIONS,
  aircraftCollection,
  commandsCollection,
  deviceCollection,
} from '@ops/shared';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { addRxPlugin, createRxDatabase } from 'rxdb';
import { RxDBDevModePlugin } from 'rxdb/plugins/dev-mode';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { wrappedValidateAjvStorage } from 'rxdb/plugins/validate-ajv';
import { describe, expect, it } from 'vitest';
import { databaseName, openDatabase, sameValue, serverWins, toRxSchema } from './database.ts';

describe('schemas built from the shared collections', () => {
  it('stay within the free RxDB collection limit', () => {
    expect(COLLECTIONS.length).toBeLessThanOrEqual(MAX_COLLECTIONS);
  });

  it('map each definition to an RxDB schema with primary key id', () => {
    for (const def of COLLECTIONS) {
      const schema = toRxSchema(def);
      expect(schema).toMatchObject({
        version: def.version,
        primaryKey: 'id',
        type: 'object',
        properties: def.schema.properties,
        required: [...def.schema.required],
      });
      expect(schema.properties.id).toMatchObject({ type: 'string', maxLength: expect.any(Number) });
      expect(schema.indexes).toEqual(def.schema.indexes?.length ? def.schema.indexes : undefined);
    }
    expect(toRxSchema(commandsCollection).required).toEqual(['id', 'name', 'args', 'client_time', 'status']);
    // An area collection: the union of its record types, `type` required and leading every index.
    expect(toRxSchema(deviceCollection).required).toEqual(['id', 'type', 'status']);
    for (const def of COLLECTIONS)
      for (const index of def.schema.indexes ?? []) if ('parts' in def) expect(index[0]).toBe('type');
  });

  it('pass RxDB dev-mode schema checks (reserved names, index rules) and validate documents', async () => {
    // Dev-mode only here, never in shipped code.
    addRxPlugin(RxDBDevModePlugin);
    const db = await createRxDatabase({
      name: 'schemacheck',
      storage: wrappedValidateAjvStorage({ storage: getRxStorageMemory() }),
      multiInstance: false,
    });
    await db.addCollections(Object.fromEntries(COLLECTIONS.map((c) => [c.name, { schema: toRxSchema(c) }])));
    expect(Object.keys(db.collections).sort()).toEqual(COLLECTIONS.map((c) => c.name).sort());
    await db.collections.fleet.insert({ id: 'a1', type: 'aircraft', registration: 'EC-ABC', active: true });
    // Every document carries its record type.
    await expect(db.collections.fleet.insert({ id: 'a2', registration: 'EC-DEF', active: true })).rejects.toThrow();
    await db.close();
  });

  it('open in IndexedDB through Dexie (browser and Electron storage)', async () => {
    // Dev-mode (added above) demands a validator and checks Dexie's index rules too.
    const db = await openDatabase(
      'ops_dexie_test',
      wrappedValidateAjvStorage({ storage: getRxStorageDexie({ indexedDB, IDBKeyRange }) }) as never,
    );
    expect(Object.keys(db.collections).sort()).toEqual(COLLECTIONS.map((c) => c.name).sort());
    await db.collections.fleet.insert({ id: 'a1', type: 'aircraft', registration: 'EC-ABC', active: true });
    expect((await db.collections.fleet.findOne('a1').exec())?.get('registration')).toBe('EC-ABC');
    await db.remove();
  });

  it('the budget: MAX_COLLECTIONS (13) collections open in one JavaScript context, with room for the layout upgrade', async () => {
    // Today's collections plus stand-ins up to the budget, and one more: the old collection the upgrade opens at a time.
    const fill = Array.from(
      { length: MAX_COLLECTIONS - COLLECTIONS.length },
      (_, i) => ({ ...aircraftCollection, name: `area${i}` }) as CollectionDef<{ id: string }>,
    );
    const db = await openDatabase(
      'budget_check',
      wrappedValidateAjvStorage({ storage: getRxStorageMemory() }) as never,
      [...COLLECTIONS, ...fill],
    );
    expect(Object.keys(db.collections)).toHaveLength(MAX_COLLECTIONS);
    await db.addCollections({ upgrading: { schema: toRxSchema(aircraftCollection) } });
    expect(Object.keys(db.collections)).toHaveLength(MAX_COLLECTIONS + 1);
    await db.remove();
  });

  it('refuses more collections than free RxDB opens, before touching storage', async () => {
    const many = Array.from(
      { length: MAX_COLLECTIONS + 1 },
      (_, i) => ({ ...aircraftCollection, name: `c${i}` }) as CollectionDef<{ id: string }>,
    );
    await expect(openDatabase('too_many', getRxStorageMemory() as never, many)).rejects.toThrow(/at most about 13/);
  });

  it('names one database per server, company and user, never cutting the ids', () => {
    const a = databaseName('http://127.0.0.1:3000/api/v1', 'u-1', 'c-1');
    expect(a).not.toBe(databaseName('http://127.0.0.1:3000/api/v1', 'u-2', 'c-1'));
    expect(a).not.toBe(databaseName('http://127.0.0.1:3000/api/v1', 'u-1', 'c-2'));
    expect(a).not.toBe(databaseName('http://127.0.0.1:3001/api/v1', 'u-1', 'c-1'));
    expect(a).toBe(databaseName('http://127.0.0.1:3000/api/v1/', 'u-1', 'c-1'));
    expect(a).toMatch(/^[a-z0-9_]+$/);
    const user = '0194d6a2-7c1e-7aa0-8f3e-5b1c2d3e4f50';
    const long = databaseName(`https://${'very-long-subdomain.'.repeat(8)}example.com/api/v1`, user, user);
    expect(long.endsWith(`_${user.replace(/-/g, '')}`)).toBe(true);
  });
});

describe('serverWins conflict handler', () => {
  it('adopts the server master state', async () => {
    const realMasterState = { id: 'x', status: 'rejected', _deleted: false };
    expect(
      await serverWins.resolve(
        { realMasterState, newDocumentState: { id: 'x', status: 'pending', _deleted: false } },
        'test',
      ),
    ).toBe(realMasterState);
  });

  it('treats null, undefined and a missing field as equal, and ignores local RxDB fields', () => {
    expect(
      serverWins.isEqual(
        { id: 'x', a: null, _deleted: false },
        { id: 'x', _deleted: false, _rev: '1-a', _meta: { lwt: 1 } } as never,
        'test',
      ),
    ).toBe(true);
    expect(serverWins.isEqual({ id: 'x', a: 1, _deleted: false }, { id: 'x', a: 2, _deleted: false }, 'test')).toBe(
      false,
    );
    expect(serverWins.isEqual({ id: 'x', _deleted: true }, { id: 'x', _deleted: false }, 'test')).toBe(false);
    expect(sameValue({ a: [1, { b: null }] }, { a: [1, {}] })).toBe(true);
    expect(sameValue({ a: [1, 2] }, { a: [1] })).toBe(false);
    expect(sameValue({ a: 0 }, { a: null })).toBe(false);
  });
});
