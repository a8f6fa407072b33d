import type { AreaCollectionDef, AreaDoc, CollectionDef, Viewer } from '@ops/shared';
import type { Kysely } from 'kysely';
import type { AppContext } from '../context.ts';
import type { DB } from '../db/schema.ts';
import type { Actor } from '../http/actor.ts';

/** One changed row read for a pull, before visibility is applied. */
export interface SourceRow<Doc> {
  seq: number;
  id: string;
  deleted: boolean;
  /** The row's fields the collection's row scope looks at (e.g. pic_id). */
  scope: Record<string, unknown>;
  doc: Doc;
}

/** A table (or query) feeding a collection. Reference collections have several. */
export interface SyncSource<Doc> {
  /** Tables whose writes can change this source (the live stream listens for them). */
  tables: readonly string[];
  /**
   * Company rows after the checkpoint, in (change_no, id) order. `onlyVisibleTo`
   * is set on a first pull: filter in SQL, there is nothing to delete locally.
   */
  read(
    db: Kysely<DB>,
    companyId: string,
    after: { seq: number; id: string },
    limit: number,
    onlyVisibleTo: Viewer | null,
  ): Promise<SourceRow<Doc>[]>;
  /**
   * How many documents a load from nothing up to change number `upTo` (its
   * `snap`) brings `viewer`: the rows `read` sends with `onlyVisibleTo`,
   * deletions left out. Counted in SQL where the row scope allows; never a row
   * the viewer may not see. `type`: the record type the kernel stamps on this
   * source's documents (null for a plain collection). Optional: without it the
   * collection has no total.
   */
  count?(db: Kysely<DB>, companyId: string, upTo: number, viewer: Viewer, type: string | null): Promise<number>;
}

export type PushDecision = { ok: true; doc?: unknown } | { ok: false; reason: string };

/**
 * What an area contributes to one collection: the sources feeding it and, for
 * records devices may write, how to load the master and apply a push. In an
 * area collection (`areaCollection` in @ops/shared) each record type is one
 * part, registered by its own area; `types` names the `type` values it serves
 * (the kernel stamps a single one on the documents its sources read).
 */
export interface CollectionPart<Doc extends { id: string }> {
  types?: readonly string[];
  sources: SyncSource<Doc>[];
  /** The current master document (unmasked) or null. */
  load?(db: Kysely<DB>, companyId: string, id: string): Promise<Doc | null>;
  /**
   * Applies a pushed document through the area's domain service (the same one
   * REST uses), in its own transaction (`ctx.tx`). Throwing an HttpError or
   * returning `{ok: false}` rejects it.
   */
  write?(ctx: AppContext, actor: Actor, next: Doc, master: Doc | null): Promise<PushDecision>;
}

export interface ServerCollection<Doc extends { id: string }> extends CollectionPart<Doc> {
  def: CollectionDef<Doc>;
}

/** A registered collection: its shared definition and the parts areas registered for it. */
export interface RegisteredCollection {
  def: CollectionDef<{ id: string }>;
  // biome-ignore lint/suspicious/noExplicitAny: parts of different record types
  parts: CollectionPart<any>[];
  /** Every source of every part (pull and stream). */
  // biome-ignore lint/suspicious/noExplicitAny: parts of different record types
  sources: Array<{ source: SyncSource<any>; type: string | null }>;
}

const registry = new Map<string, RegisteredCollection>();

/** What an area's manifest lists: a collection or one record type of an area collection, its document type erased. */
// biome-ignore lint/suspicious/noExplicitAny: parts of different record types
export type SyncPartDef = ServerCollection<any>;

/** A plain collection (or a source part of one), typed here and listed in the area's manifest. */
export const defineCollection = <Doc extends { id: string }>(c: ServerCollection<Doc>): SyncPartDef => c;

/** One record type (a part) of an area collection, listed in the area's manifest. */
export const recordType = <Doc extends { id: string }>(
  collection: AreaCollectionDef<AreaDoc>,
  part: CollectionPart<Doc> & { types: readonly string[] },
): SyncPartDef => ({ ...part, def: collection }) as unknown as SyncPartDef;

/**
 * Registers (a part of) a collection. Called once per part by `registerAreas()`
 * (server/src/areas/index.ts) from the areas' manifests; several areas may
 * register parts of one collection (record types of an area collection, or
 * reference sources). The kernel never imports areas.
 */
export function registerCollection<Doc extends { id: string }>(c: ServerCollection<Doc>): void {
  const { def, ...part } = c;
  let entry = registry.get(def.name);
  if (!entry) {
    entry = { def: def as unknown as CollectionDef<{ id: string }>, parts: [], sources: [] };
    registry.set(def.name, entry);
  } else if (entry.def !== (def as unknown))
    throw new Error(`sync: two definitions registered for collection ${def.name}`);
  for (const t of part.types ?? [])
    if (entry.parts.some((p) => p.types?.includes(t)))
      throw new Error(`sync: record type ${def.name}/${t} registered twice`);
  entry.parts.push(part);
  const single = part.types?.length === 1 ? part.types[0] : null;
  for (const source of part.sources) entry.sources.push({ source, type: single });
}

/**
 * Registers one record type (a part) of an area collection: the documents its
 * sources read get `type` stamped; pushes of that `type` reach its `write`.
 */
export function registerRecordType<Doc extends { id: string }>(
  collection: AreaCollectionDef<AreaDoc>,
  part: CollectionPart<Doc> & { types: readonly string[] },
): void {
  registerCollection(recordType(collection, part));
}

/** The part serving a document of `type` (the untyped part of a plain collection). */
export function partFor(c: RegisteredCollection, type: unknown): CollectionPart<{ id: string }> | null {
  return c.parts.find((p) => (p.types ? typeof type === 'string' && p.types.includes(type) : true)) ?? null;
}

export function getCollection(name: string) {
  return registry.get(name) ?? null;
}

export function allCollections() {
  return [...registry.values()];
}

/** Replicated tables whose `deleted = 1` rows are only tombstones (purged after the retention horizon, sync/retention.ts). */
const tombstones = new Set<string>();

export function registerTombstones(table: string): void {
  if (!/^[a-z_]+$/.test(table)) throw new Error(`bad table name ${table}`);
  tombstones.add(table);
}

export const tombstoneTables = () => [...tombstones];

export const viewerOf = (actor: Actor): Viewer => ({
  userId: actor.userId,
  companyId: actor.companyId,
  role: actor.role,
});
