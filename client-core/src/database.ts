import { COLLECTIONS, type CollectionDef, MAX_COLLECTIONS } from '@ops/shared';
import {
  addRxPlugin,
  createRxDatabase,
  type RxCollection,
  type RxConflictHandler,
  type RxDatabase,
  type RxJsonSchema,
  type RxStorage,
} from 'rxdb';
import { RxDBLocalDocumentsPlugin } from 'rxdb/plugins/local-documents';

// Local documents keep client bookkeeping that is not replicated (the layout upgrade's carried states).
addRxPlugin(RxDBLocalDocumentsPlugin);

/** A replicated document as the client stores it (shared definitions type them further). */
export type OpsDoc = Record<string, unknown> & { id: string };
export type OpsCollections = Record<string, RxCollection<OpsDoc>>;
export type OpsDatabase = RxDatabase<OpsCollections>;

/**
 * The RxDB schema of a shared collection definition:
 * `{ version, primaryKey: 'id', type: 'object', properties, required, indexes }`.
 */
export function toRxSchema<D extends { id: string }>(def: CollectionDef<D>): RxJsonSchema<OpsDoc> {
  return {
    version: def.version,
    primaryKey: 'id',
    type: 'object',
    properties: def.schema.properties as RxJsonSchema<OpsDoc>['properties'],
    required: [...def.schema.required],
    ...(def.schema.indexes?.length ? { indexes: def.schema.indexes.map((i) => [...i]) } : {}),
  };
}

/** FNV-1a, 32 bits, as 8 hex digits: a short stable tag, not a security measure. */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '');

/**
 * The local database name of one login: separate local data per server,
 * company and user (two people on one hangar laptop never share a database).
 * Lowercase letters, digits and `_`, valid for every RxDB storage; the server
 * part is a readable host plus a hash of the whole base URL, so ids are never cut.
 */
export function databaseName(baseUrl: string, userId: string, companyId: string): string {
  const normalized = baseUrl.trim().toLowerCase().replace(/\/+$/, '');
  const host = slug(normalized.replace(/^[a-z]+:\/\//, '').split('/')[0] ?? '').slice(0, 32);
  return `ops_${host}_${fnv1a(normalized)}_${slug(companyId)}_${slug(userId)}`;
}

function withoutLocalFields(doc: Record<string, unknown>): Record<string, unknown> {
  const { _meta, _rev, _attachments, _deleted, ...rest } = doc;
  return { ...rest, _deleted: !!_deleted };
}

/** Deep equality where `null`, `undefined` and a missing field are the same (the server sends null). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a == null || b == null) return a == null && b == null;
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => sameValue(x, b[i]));
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  for (const k of Object.keys(x)) if (!sameValue(x[k], y[k])) return false;
  for (const k of Object.keys(y)) if (!(k in x) && y[k] != null) return false;
  return true;
}

/**
 * The server is the authority (docs/sync.md): a push answered with a conflict
 * adopts the server's master state (for a command: its decision). Equality
 * ignores RxDB's local fields and null-versus-missing, so a document the
 * server echoes back with explicit nulls is not pushed again.
 */
export const serverWins: RxConflictHandler<OpsDoc> = {
  isEqual: (a, b) => sameValue(withoutLocalFields(a), withoutLocalFields(b)),
  resolve: async (input) => input.realMasterState,
};

/**
 * Opens (or creates) the local database with one collection per shared
 * definition. One process owns it (`multiInstance: false`): an Electron window,
 * a browser tab, a Node integration.
 */
export async function openDatabase(
  name: string,
  storage: RxStorage<unknown, unknown>,
  defs: readonly CollectionDef<{ id: string }>[] = COLLECTIONS,
): Promise<OpsDatabase> {
  if (defs.length > MAX_COLLECTIONS) {
    throw new Error(
      `@ops/client-core: ${defs.length} collections are defined (${defs.map((d) => d.name).join(', ')}), but free RxDB opens at most about ${MAX_COLLECTIONS} per JavaScript context; give an area one collection with a \`type\` field (areaCollection in @ops/shared) instead of adding collections`,
    );
  }
  const db = await createRxDatabase<OpsCollections>({
    name,
    storage,
    multiInstance: false,
    eventReduce: true,
    closeDuplicates: true,
    localDocuments: true,
  });
  try {
    await db.addCollections(
      Object.fromEntries(defs.map((d) => [d.name, { schema: toRxSchema(d), conflictHandler: serverWins }])),
    );
  } catch (err) {
    await db.close().catch(() => {});
    if ((err as { code?: string }).code === 'COL23') {
      throw new Error(
        '@ops/client-core: free RxDB allows 16 open collections per JavaScript context and another database is still open here; destroy() the other client first, or run each client in its own process or worker',
        { cause: err },
      );
    }
    throw err;
  }
  return db;
}
