import { fleetCollection } from '@ops/shared';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import type { RxStorage } from 'rxdb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { describe, expect, it } from 'vitest';
import { BOOTSTRAP_CONTEXT, CollectionLoad } from './bootstrap.ts';
import { openDatabase } from './database.ts';
import { firstLoadStorage } from './first-load-storage.ts';

const aircraft = (id: string, registration: string) => ({
  id,
  type: 'aircraft',
  registration,
  active: true,
  _deleted: false,
});

/** A page as the bootstrap writes it (bootstrap.ts), straight into the collection's storage. */
const row = (id: string, registration: string) => ({
  document: { ...aircraft(id, registration), _attachments: {}, _meta: { lwt: 0 }, _rev: '' },
});

async function scenario(name: string, storage: RxStorage<unknown, unknown>) {
  const db = await openDatabase(name, storage, [fleetCollection] as never);
  const fleet = db.collections.fleet;
  try {
    // A screen's query open during the load, and a record the device writes before the server's copy arrives.
    let shown: string[] = [];
    const sub = fleet.find().$.subscribe((docs) => {
      shown = docs.map((d) => `${d.id} ${d.get('registration')}`).sort();
    });
    const load = new CollectionLoad(fleet);
    await fleet.insert({ id: 'a2', type: 'aircraft', registration: 'MINE', active: true });
    await load.write({ documents: [aircraft('a1', 'EC-AAA'), aircraft('a2', 'EC-BBB')], checkpoint: { seq: 2 } });
    await load.write({ documents: [aircraft('a3', 'EC-CCC')], checkpoint: { seq: 3 } });
    // Written again (a collection fed by two sources sends a document twice): refused as it is stored.
    const again = await fleet.storageInstance.bulkWrite(
      [row('a1', 'EC-AAA'), row('a4', 'EC-DDD')] as never,
      BOOTSTRAP_CONTEXT,
    );
    // A page one of whose documents IndexedDB cannot take (cannot be cloned, not an existing key): nothing of it
    // is written.
    const bad = { document: { ...row('a6', 'EC-FFF').document, registration: () => 'not storable' } };
    const broken = await fleet.storageInstance.bulkWrite([row('a5', 'EC-EEE'), bad] as never, BOOTSTRAP_CONTEXT).then(
      () => 'written',
      () => 'refused',
    );
    await new Promise((r) => setTimeout(r, 50));
    sub.unsubscribe();
    const stored = (await fleet.find().exec()).map((d) => `${d.id} ${d.get('registration')}`).sort();
    return {
      broken,
      stored,
      shown,
      refused: again.error.map((e) => ({
        status: e.status,
        id: e.documentId,
        inDb: 'documentInDb' in e ? e.documentInDb?.registration : null,
      })),
      result: load.close(),
    };
  } finally {
    await db.remove();
  }
}

describe('a first load written as inserts (first-load-storage.ts)', () => {
  it('stores, refuses and announces exactly what the Dexie storage itself does', async () => {
    const dexie = () => getRxStorageDexie({ indexedDB, IDBKeyRange }) as RxStorage<unknown, unknown>;
    const plain = await scenario('ops_first_load_plain', dexie());
    const fast = await scenario('ops_first_load_fast', firstLoadStorage(dexie()));
    // The device's own record keeps its state; the others are stored and reach an open query.
    expect(fast.stored).toEqual(['a1 EC-AAA', 'a2 MINE', 'a3 EC-CCC', 'a4 EC-DDD']);
    expect(fast.shown).toEqual(fast.stored);
    expect(fast.refused).toEqual([{ status: 409, id: 'a1', inDb: 'EC-AAA' }]);
    expect(fast.broken).toBe('refused');
    // The load saw the device's write: replication pushes it (upstream from the start).
    expect(fast.result).toMatchObject({ checkpoint: { seq: 3 }, upstream: undefined });
    expect({ ...fast, result: { ...fast.result } }).toEqual({ ...plain, result: { ...plain.result } });
  });
});
