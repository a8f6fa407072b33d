import { merge, Subject } from 'rxjs';
import {
  type BulkWriteRow,
  type DexieStorageInternals,
  type EventBulk,
  type RxDocumentData,
  type RxStorage,
  type RxStorageBulkWriteResponse,
  type RxStorageChangeEvent,
  type RxStorageDefaultCheckpoint,
  type RxStorageInstance,
  type RxStorageInstanceCreationParams,
  type RxStorageWriteError,
  randomToken,
} from 'rxdb';
import { fromStorageToDexie } from 'rxdb/plugins/storage-dexie';
import { BOOTSTRAP_CONTEXT } from './bootstrap.ts';

/**
 * The Dexie storage with one shortcut for a first sync (docs/performance.md, "Seventh round"). RxDB's
 * `bulkWrite` reads every document before it writes it, to find conflicts: a get request per document
 * beside its put, half the IndexedDB requests of a load and about a third of the page's main thread. A
 * load from nothing (`BOOTSTRAP_CONTEXT`, bootstrap.ts) only inserts, so it adds the documents instead: IndexedDB
 * refuses an `add` whose key exists, and that document is answered 409 with what is stored, as RxDB
 * would answer it (a record the device wrote meanwhile keeps its own state). Everything else, and every
 * other write, is the Dexie storage's own.
 *
 * The inserted documents are announced on the instance's change stream like any write, so RxDB's
 * collection, its queries and the app's subscribers see them.
 */
type Doc = RxDocumentData<{ id: string }>;
type Instance = RxStorageInstance<{ id: string }, unknown, unknown, RxStorageDefaultCheckpoint>;
type Bulk = EventBulk<RxStorageChangeEvent<Doc>, RxStorageDefaultCheckpoint>;

/** Dexie's error for a `bulkAdd` some of whose rows failed (the others are written). */
interface BulkError extends Error {
  failuresByPos: Record<number, Error>;
}
const isBulkError = (e: unknown): e is BulkError =>
  e instanceof Error && e.name === 'BulkError' && typeof (e as BulkError).failuresByPos === 'object';

async function insertAbsent(
  inner: Instance,
  own$: Subject<Bulk>,
  rows: BulkWriteRow<{ id: string }>[],
  context: string,
): Promise<RxStorageBulkWriteResponse<{ id: string }>> {
  const state = await (inner.internals as Promise<DexieStorageInternals>);
  const failed = new Set<number>();
  await state.dexieDb.transaction('rw', state.dexieTable, async () => {
    try {
      await state.dexieTable.bulkAdd(rows.map((r) => fromStorageToDexie(state.booleanIndexes, r.document)));
    } catch (err) {
      // Caught inside the transaction: the rows that were added stay. Any failure but an existing key (a full
      // disk, a bad key) is thrown, which aborts the transaction: nothing of the page is written, and the load
      // goes on with pulls from its last checkpoint, as when the storage's own write fails.
      if (!isBulkError(err)) throw err;
      for (const [pos, why] of Object.entries(err.failuresByPos)) {
        if (why.name !== 'ConstraintError') throw err;
        failed.add(Number(pos));
      }
    }
  });
  const error: RxStorageWriteError<{ id: string }>[] = [];
  if (failed.size) {
    const ids = [...failed].map((i) => rows[i].document.id);
    const stored = new Map((await inner.findDocumentsById(ids, true)).map((d) => [d.id, d]));
    for (const i of failed) {
      const writeRow = rows[i];
      const documentInDb = stored.get(writeRow.document.id);
      if (documentInDb)
        error.push({ status: 409, isError: true, documentId: writeRow.document.id, writeRow, documentInDb });
    }
  }
  const added = rows.filter((_, i) => !failed.has(i)).map((r) => r.document);
  const last = added.at(-1);
  if (last)
    own$.next({
      id: randomToken(10),
      events: added.map((documentData) => ({
        documentId: documentData.id,
        isLocal: false,
        operation: 'INSERT',
        documentData,
        previousDocumentData: undefined,
      })),
      checkpoint: { id: last.id, lwt: last._meta.lwt },
      context,
    });
  return { error };
}

/** The Dexie storage, with its instances taking a first load's pages as inserts (see above). */
export function firstLoadStorage(dexie: RxStorage<unknown, unknown>): RxStorage<unknown, unknown> {
  return {
    ...dexie,
    async createStorageInstance<R>(params: RxStorageInstanceCreationParams<R, unknown>) {
      const inner = (await dexie.createStorageInstance(params)) as unknown as Instance;
      const own$ = new Subject<Bulk>();
      const instance: Instance = {
        databaseName: inner.databaseName,
        collectionName: inner.collectionName,
        schema: inner.schema,
        internals: inner.internals,
        options: inner.options,
        bulkWrite: (rows, context) =>
          context === BOOTSTRAP_CONTEXT && rows.every((r) => !r.previous)
            ? insertAbsent(inner, own$, rows, context)
            : inner.bulkWrite(rows, context),
        findDocumentsById: (ids, deleted) => inner.findDocumentsById(ids, deleted),
        query: (q) => inner.query(q),
        count: (q) => inner.count(q),
        getAttachmentData: (id, attachment, digest) => inner.getAttachmentData(id, attachment, digest),
        changeStream: () => merge(inner.changeStream(), own$),
        cleanup: (t) => inner.cleanup(t),
        close: async () => {
          own$.complete();
          await inner.close();
        },
        remove: async () => {
          own$.complete();
          await inner.remove();
        },
      };
      return instance as unknown as RxStorageInstance<R, unknown, unknown>;
    },
  };
}
