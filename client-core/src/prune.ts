import { DEVICE_WINDOWS, type DeviceWindow } from '@ops/shared';
import {
  createRevision,
  getAssumedMasterState,
  getMetaWriteRow,
  type RxCollection,
  type RxDocumentData,
  type RxStorageInstanceReplicationState,
  writeDocToDocState,
} from 'rxdb';
import type { OpsDoc } from './database.ts';

/**
 * Pruning (docs/sync.md, "Bounded devices"): documents that aged out of the
 * device's window (`DEVICE_WINDOWS` of @ops/shared, the numbers the server's
 * first pull uses) leave the device, so its database does not grow back to
 * the company's whole history.
 *
 * Never pruned: a document naming the person (a pilot keeps every flight and
 * booking of theirs, whatever their role), and a document with a local change
 * the server has not acknowledged (its fork state differs from the assumed
 * master, or it was created here). A pruned document is removed as RxDB's own
 * downstream removes one the server deleted: its assumed master becomes the
 * deleted state and the fork is written with the downstream's write flag, so
 * the upstream never pushes the removal. A later server change of the record
 * brings it back like any other change.
 */

/** `_meta` flag of a bootstrap write (bootstrap.ts): the server's state, never changed here while no master exists. */
const FROM_BOOTSTRAP = 'opsBootstrap';

export interface PruneTarget {
  name: string;
  collection: RxCollection<OpsDoc>;
  /** The running replication's internal state (null: not replicating, nothing is pruned). */
  state: RxStorageInstanceReplicationState<OpsDoc> | null;
  /** Ids with local changes not acknowledged yet, as PendingWrites knows them. */
  pending: ReadonlySet<string>;
}

/** Removes the documents of one collection outside its windows; answers how many left. */
export async function pruneCollection(target: PruneTarget, userId: string, at: Date): Promise<number> {
  const windows = DEVICE_WINDOWS.filter((w) => w.collection === target.name);
  const { state, collection } = target;
  if (!windows.length || !state || collection.closed) return 0;
  const candidates = await outsideWindows(collection, windows, userId, at);
  if (!candidates.length) return 0;
  const ids = candidates.map((d) => d.id);
  const masters = await getAssumedMasterState(state, ids);
  const metaRows = [];
  const forkRows = [];
  const token = collection.database.token;
  for (const doc of candidates) {
    if (target.pending.has(doc.id)) continue;
    const master = masters[doc.id];
    const serverState = writeDocToDocState(doc, state.hasAttachments, !!state.input.keepMeta);
    const untouched = master
      ? collection.conflictHandler.isEqual(master.docData, serverState, 'ops-prune')
      : (doc._meta as Record<string, unknown>)[FROM_BOOTSTRAP] === 1;
    if (!untouched) continue;
    metaRows.push(
      await getMetaWriteRow(state, { ...serverState, _deleted: true }, master ? master.metaDocument : undefined),
    );
    // Written with the downstream's flag: the live upstream skips it, and after a restart it equals its master.
    const removed = { ...doc, _deleted: true } as RxDocumentData<OpsDoc>;
    removed._rev = createRevision(token, doc);
    forkRows.push({ previous: doc, document: removed });
  }
  if (!forkRows.length) return 0;
  // The master first: should the fork write fail half-way, a document is only known as deleted, never pushed as such.
  await state.input.metaInstance.bulkWrite(metaRows, 'replication-prune-meta');
  const result = await collection.storageInstance.bulkWrite(forkRows, await state.downstreamBulkWriteFlag);
  // A 409 is a document changed meanwhile (a local edit, a server change): it stays.
  return forkRows.length - result.error.length;
}

/** The collection's live documents outside one of its windows, in storage form. */
async function outsideWindows(
  collection: RxCollection<OpsDoc>,
  windows: readonly DeviceWindow[],
  userId: string,
  at: Date,
): Promise<RxDocumentData<OpsDoc>[]> {
  const ids: string[] = [];
  for (const w of windows) {
    // Only documents below the window's bound are read (a day's worth after the first prune), not the collection.
    const { field, value } = w.below(at);
    const docs = await collection
      .find({ selector: { [field]: { $lt: value }, ...(w.type ? { type: w.type } : {}) } })
      .exec();
    for (const d of docs) if (w.outside(d.toJSON() as Record<string, unknown>, userId, at)) ids.push(d.primary);
  }
  if (!ids.length) return [];
  return collection.storageInstance.findDocumentsById(ids, false);
}

/** Every collection with a window. */
export const PRUNED_COLLECTIONS = [...new Set(DEVICE_WINDOWS.map((w) => w.collection))];
