import { LEGACY_COLLECTIONS, type LegacyCollection } from '@ops/shared';
import { getAllCollectionDocuments, type RxCollection, type WithDeleted } from 'rxdb';
import { replicateRxCollection } from 'rxdb/plugins/replication';
import { type OpsDatabase, type OpsDoc, toRxSchema } from './database.ts';

/** Local document holding the carried assumed master states until they were pushed. */
const CARRIED = 'ops-carried-masters';

type Carried = Record<string, Record<string, Record<string, unknown> | null>>;

const strip = (doc: Record<string, unknown>) => {
  const { _meta, _rev, _attachments, ...rest } = doc;
  return rest;
};

/**
 * Assumed master states of documents carried over from the old layout, by new
 * collection and id. RxDB pushes a carried document with no assumed master
 * (it never pulled it under its new name); the push handler sends the old
 * replication's assumed master instead, so an offline edit of an existing
 * record is applied (not taken for a conflict). Kept in an RxDB local document
 * until the server answered the push.
 */
export class CarriedMasters {
  private constructor(
    private readonly db: OpsDatabase,
    private data: Carried,
  ) {}

  static async load(db: OpsDatabase): Promise<CarriedMasters> {
    const doc = await db.getLocal<{ carried: Carried }>(CARRIED);
    return new CarriedMasters(db, (doc?.get('carried') as Carried | undefined) ?? {});
  }

  get size(): number {
    return Object.values(this.data).reduce((n, m) => n + Object.keys(m).length, 0);
  }

  assumed(collection: string, id: string): Record<string, unknown> | null | undefined {
    return this.data[collection]?.[id];
  }

  async add(collection: string, states: Record<string, Record<string, unknown> | null>): Promise<void> {
    this.data = { ...this.data, [collection]: { ...(this.data[collection] ?? {}), ...states } };
    await this.db.upsertLocal(CARRIED, { carried: this.data });
  }

  /** The server answered pushes of these ids: their carried state is no longer needed. */
  async acknowledge(collection: string, ids: readonly string[]): Promise<void> {
    const mine = this.data[collection];
    if (!mine || !ids.some((id) => id in mine)) return;
    const rest = { ...mine };
    for (const id of ids) delete rest[id];
    this.data = { ...this.data, [collection]: rest };
    await this.db.upsertLocal(CARRIED, { carried: this.data });
  }
}

/** Names of the collections this database has ever created (RxDB's internal store). */
async function existingCollections(db: OpsDatabase): Promise<Set<string>> {
  const docs = await getAllCollectionDocuments(db.internalStore);
  return new Set(docs.map((d) => d.data.name));
}

/**
 * The documents of an old collection the server has not acknowledged, with
 * the master state RxDB assumed for each: RxDB's own rule, read by running the
 * old replication (same identifier, so the same meta data) push-only once with
 * a handler that collects instead of sending.
 */
async function unpushed(collection: RxCollection<OpsDoc>, replicationIdentifier: string) {
  const rows: Array<{ assumedMasterState: WithDeleted<OpsDoc> | null; newDocumentState: WithDeleted<OpsDoc> }> = [];
  const rs = replicateRxCollection<OpsDoc, unknown>({
    collection,
    replicationIdentifier,
    live: false,
    waitForLeadership: false,
    autoStart: true,
    push: {
      batchSize: 100,
      handler: async (batch) => {
        for (const r of batch)
          rows.push({ assumedMasterState: r.assumedMasterState ?? null, newDocumentState: r.newDocumentState });
        return [];
      },
    },
  });
  let failure: unknown = null;
  const sub = rs.error$.subscribe((e) => {
    failure = e;
  });
  await rs.awaitInitialReplication();
  sub.unsubscribe();
  await rs.cancel();
  if (failure) throw failure;
  return rows;
}

async function carryOne(
  db: OpsDatabase,
  legacy: LegacyCollection,
  identifier: string,
  carried: CarriedMasters,
): Promise<number> {
  const name = legacy.def.name;
  const added = await db.addCollections({ [name]: { schema: toRxSchema(legacy.def) } });
  const old = added[name] as RxCollection<OpsDoc>;
  const rows = await unpushed(old, `${identifier}-${name}-v${legacy.def.version}`);
  const target = db.collections[legacy.into];
  if (rows.length && target) {
    const states: Record<string, Record<string, unknown> | null> = {};
    const live: OpsDoc[] = [];
    const removed: string[] = [];
    for (const r of rows) {
      const { _deleted, ...doc } = strip(r.newDocumentState);
      const next = legacy.convert(doc) as OpsDoc;
      states[next.id] = r.assumedMasterState ? legacy.convert(strip(r.assumedMasterState)) : null;
      live.push(next);
      if (_deleted) removed.push(next.id);
    }
    // The carried states first: a crash between the two steps then pushes with them, never without.
    await carried.add(legacy.into, states);
    await target.bulkUpsert(live);
    if (removed.length) await target.bulkRemove(removed);
  }
  // Removes the old collection with its replication meta data.
  await old.remove();
  return rows.length;
}

/**
 * Upgrades a database written by a client of the old layout (one collection
 * per record type): each old collection still present is opened on its own
 * (so the free RxDB limit of 16 open collections is never reached), its
 * unpushed documents (offline edits, queued commands) move into their area
 * collection as local writes, and it is removed. What the server had already
 * acknowledged is not copied: it is pulled again under the new names.
 * Answers the number of carried documents.
 */
export async function upgradeLayout(db: OpsDatabase, identifier: string, carried: CarriedMasters): Promise<number> {
  const present = await existingCollections(db);
  let moved = 0;
  for (const legacy of LEGACY_COLLECTIONS) {
    if (!present.has(legacy.def.name) || db.collections[legacy.def.name]) continue;
    moved += await carryOne(db, legacy, identifier, carried);
  }
  return moved;
}
