import { createHash } from 'node:crypto';
import { blankDoc, commandsCollection, recordDefOf, rowVisible, uuidv7 } from '@ops/shared';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { AppContext } from '../context.ts';
import type { Actor } from '../http/actor.ts';
import { HttpError } from '../http/errors.ts';
import { nowSeconds } from '../lib/tokens.ts';
import { partFor, type RegisteredCollection, viewerOf } from './registry.ts';

export interface PushRow {
  assumedMasterState: Record<string, unknown> | null;
  newDocumentState: Record<string, unknown> & { id: string; _deleted?: boolean };
}

type Doc = { id: string } & Record<string, unknown>;

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

async function recordOutcome(
  ctx: AppContext,
  actor: Actor,
  collection: string,
  row: PushRow,
  status: 'rejected' | 'conflict',
  reason: string,
) {
  const { _deleted, ...attempted } = row.newDocumentState;
  await ctx.tx(async (uow) => {
    await uow.trx
      .insertInto('sync_outcomes')
      .values({
        id: uuidv7(),
        company_id: actor.companyId,
        change_no: await uow.changeNo(actor.companyId, 'sync_outcomes'),
        deleted: 0,
        created: nowSeconds(),
        modified: nowSeconds(),
        user_id: actor.userId,
        collection,
        document_id: row.newDocumentState.id,
        status,
        reason,
        attempted: JSON.stringify({ ...attempted, _deleted: !!_deleted }),
      })
      .execute();
  });
}

/** Thrown inside a row's write transaction when its master changed since it was checked: the row is decided again. */
class StaleMaster extends Error {}

/** How often one row is decided again because a concurrent write got there first, before it answers a conflict. */
const MAX_RECHECKS = 5;

/** Two int4 keys of a PostgreSQL transaction-level advisory lock for one document of one company and collection. */
function lockKeys(companyId: string, collection: string, id: string): [number, number] {
  const h = createHash('sha1').update(`${companyId}:${collection}:${id}`).digest();
  return [h.readInt32BE(0), h.readInt32BE(4)];
}

/**
 * The context a row's domain write runs in: its first transaction begins by
 * locking the document (PostgreSQL: an advisory lock per company, collection
 * and id; SQLite runs one write transaction at a time) and checking that the
 * master it was decided on is still the stored one, else StaleMaster rolls it
 * back. Without this the check (assumed master = stored master) and the write
 * were two steps: two devices pushing over the same master at the same moment
 * (typically all retrying together once a 503 outage ends, through several
 * processes) both passed the check, both were answered "applied", and the
 * second silently overwrote the first (issue 34: lost aircraft edits).
 */
function guardedContext(
  ctx: AppContext,
  keys: [number, number],
  unchanged: (db: Kysely<DB>) => Promise<boolean>,
): AppContext {
  let checked = false;
  return {
    ...ctx,
    tx: (fn) =>
      ctx.tx(async (uow) => {
        if (!checked) {
          if (ctx.database.dialect === 'postgres')
            await sql`select pg_advisory_xact_lock(${keys[0]}::int4, ${keys[1]}::int4)`.execute(uow.trx);
          if (!(await unchanged(uow.trx))) throw new StaleMaster();
          checked = true;
        }
        return fn(uow);
      }),
  };
}

/**
 * Applies pushed documents one by one through the collection's domain write.
 * Answers the master state of every document not applied as sent (RxDB
 * conflicts). The comparison with the assumed master looks only at the fields
 * a client may write, so a second local edit pushed before the next pull is not
 * a false conflict.
 */
export async function pushCollection(
  ctx: AppContext,
  actor: Actor,
  collection: RegisteredCollection,
  rows: PushRow[],
  /** The client left: the rows after the current one are not applied (no one reads the answer; it pushes them again). */
  gone: () => boolean = () => false,
): Promise<Doc[]> {
  const def = collection.def;
  const viewer = viewerOf(actor);
  const conflicts: Doc[] = [];
  const name = def.name;
  nextRow: for (const row of rows) {
    // A push that outlived its client's timeout (a herd draining its queues behind one company's counter)
    // would otherwise keep the database busy with rows the device sends again anyway.
    if (gone()) throw new HttpError(499, { result: false, message: 'Client closed the request' });
    const id = row.newDocumentState.id;
    const type = row.newDocumentState.type;
    const part = partFor(collection, type);
    // In an area collection every rule is the record type's own (roles, writable fields).
    const record = recordDefOf(def, row.newDocumentState);
    // The outcome names the record type in an area collection (what the screens show), else the collection.
    const label = record && record !== def ? String(type) : name;
    const loadFrom = async (db: Kysely<DB>): Promise<Doc | null> => {
      const m = part?.load ? ((await part.load(db, actor.companyId, id)) as Doc | null) : null;
      if (!m) return null;
      if (part?.types?.length === 1) m.type = part.types[0];
      // A row the caller may not see answers as a deletion stand-in, never its content.
      if (!rowVisible(def.rows, m, viewer)) return { ...blankDoc(def, id), _deleted: true };
      return { ...def.visible(m, viewer), _deleted: !!m._deleted };
    };
    const load = () => loadFrom(ctx.db);
    if (!part || !record) {
      await recordOutcome(ctx, actor, name, row, 'rejected', `Unknown record type ${String(type)} in ${name}`);
      continue;
    }
    // A refused new document has no master: answer a deletion stand-in, else the device would keep a record the server never had.
    const refusedState = async () => (await load()) ?? { ...blankDoc(def, id), _deleted: true };
    if (!record.canPush(viewer) || !part.write) {
      await recordOutcome(ctx, actor, label, row, 'rejected', `Your role cannot change ${label} records`);
      conflicts.push((await load()) ?? { ...blankDoc(def, id), _deleted: true });
      continue;
    }
    const fields = record.writableFields as readonly string[];
    const keys = lockKeys(actor.companyId, name, id);
    // Decided again from a fresh master when a concurrent write changed it between the check and the write.
    for (let recheck = 0; ; recheck++) {
      const master = await load();
      const assumed = row.assumedMasterState;
      const sameAs = (doc: Record<string, unknown>) =>
        !fields.some((f) => !same(doc[f], master?.[f])) && !!doc._deleted === !!master?._deleted;
      // The stored master as the write transaction sees it, compared on what the decision above rested on.
      const unchanged = async (db: Kysely<DB>) => {
        const now = await loadFrom(db);
        return now === null ? master === null : master !== null && sameAs(now);
      };
      const mismatch =
        (master !== null && (!assumed || !sameAs(assumed))) || (recheck >= MAX_RECHECKS && master !== null);
      // A replay of a push already applied (its first answer was lost): nothing to do and no conflict to report;
      // hand back the master only where it differs from what was sent (server-derived fields).
      if (mismatch && master && record.name !== commandsCollection.name && sameAs(row.newDocumentState)) {
        if (!same({ ...master, _deleted: undefined }, { ...row.newDocumentState, _deleted: undefined }))
          conflicts.push(master);
        continue nextRow;
      }
      if (mismatch && master) {
        const commandLike = record.name === commandsCollection.name;
        // Commands replayed after a lost response land here: answer the decided command, run nothing.
        if (!commandLike)
          await recordOutcome(
            ctx,
            actor,
            label,
            row,
            'conflict',
            'Someone else changed this record first; your change was not applied',
          );
        conflicts.push(master);
        continue nextRow;
      }
      try {
        const guarded = guardedContext(ctx, keys, unchanged);
        const decision = await part.write(guarded, actor, row.newDocumentState as Doc, master);
        if (!decision.ok) {
          await recordOutcome(ctx, actor, label, row, 'rejected', decision.reason);
          conflicts.push(await refusedState());
          continue nextRow;
        }
        // The server may have derived fields (a decided command): hand back the master at once.
        const now = await load();
        if (now && !same({ ...now, _deleted: undefined }, { ...row.newDocumentState, _deleted: undefined }))
          conflicts.push(now);
      } catch (err) {
        if (err instanceof StaleMaster) continue;
        if (!(err instanceof HttpError)) throw err;
        await recordOutcome(ctx, actor, label, row, 'rejected', err.message);
        conflicts.push(await refusedState());
      }
      continue nextRow;
    }
  }
  return conflicts;
}
