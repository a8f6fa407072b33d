import { COLLECTIONS, type CollectionDef, MAX_COLLECTIONS } from '@ops/shared';
import { createRxDatabase, type RxCollection, type RxDatabase, type RxJsonSchema, type RxStorage } from 'rxdb';

export type OpsCollections = Record<string, RxCollection>;
export type OpsDatabase = RxDatabase<OpsCollections>;

/** The RxDB schema of a shared collection definition. */
export function toRxSchema<D extends { id: string }>(def: CollectionDef<D>): RxJsonSchema<Record<string, unknown>> {
  return {
    version: def.version,
    primaryKey: 'id',
    type: 'object',
    properties: def.schema.properties as RxJsonSchema<Record<string, unknown>>['properties'],
    required: [...def.schema.required],
    ...(def.schema.indexes ? { indexes: def.schema.indexes } : {}),
  };
}

/** A database name for one login: separate local data per server, company and user. */
export function databaseName(baseUrl: string, userId: string, companyId: string): string {
  const origin = baseUrl.replace(/^https?:\/\//, '').replace(/[^a-z0-9]/gi, '_');
  return `ops_${origin}_${companyId}_${userId}`.toLowerCase().replace(/-/g, '').slice(0, 120);
}

/** Opens (or creates) the local database with every shared collection. */
export async function openDatabase(name: string, storage: RxStorage<unknown, unknown>, defs = COLLECTIONS): Promise<OpsDatabase> {
  if (defs.length > MAX_COLLECTIONS) throw new Error(`Free RxDB opens at most ${MAX_COLLECTIONS} collections; ${defs.length} are defined`);
  const db = await createRxDatabase<OpsCollections>({ name, storage, multiInstance: false, eventReduce: true, closeDuplicates: true });
  await db.addCollections(Object.fromEntries(defs.map((d) => [d.name, { schema: toRxSchema(d) }])));
  return db;
}
