import type { CollectionDef, Viewer } from '@ops/shared';
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
  read(db: Kysely<DB>, companyId: string, after: { seq: number; id: string }, limit: number, onlyVisibleTo: Viewer | null): Promise<SourceRow<Doc>[]>;
}

export type PushDecision = { ok: true; doc?: unknown } | { ok: false; reason: string };

export interface ServerCollection<Doc extends { id: string }> {
  def: CollectionDef<Doc>;
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

// biome-ignore lint/suspicious/noExplicitAny: heterogeneous registry keyed by name
const registry = new Map<string, ServerCollection<any>>();

export function registerCollection<Doc extends { id: string }>(c: ServerCollection<Doc>): void {
  registry.set(c.def.name, c);
}

export function getCollection(name: string) {
  return registry.get(name) ?? null;
}

export function allCollections() {
  return [...registry.values()];
}

export const viewerOf = (actor: Actor): Viewer => ({ userId: actor.userId, companyId: actor.companyId, role: actor.role });
