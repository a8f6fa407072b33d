import { blankDoc, commandsCollection, recordDefOf, rowVisible, uuidv7 } from '@ops/shared';
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
): Promise<Doc[]> {
  const def = collection.def;
  const viewer = viewerOf(actor);
  const conflicts: Doc[] = [];
  const name = def.name;
  for (const row of rows) {
    const id = row.newDocumentState.id;
    const type = row.newDocumentState.type;
    const part = partFor(collection, type);
    // In an area collection every rule is the record type's own (roles, writable fields).
    const record = recordDefOf(def, row.newDocumentState);
    // The outcome names the record type in an area collection (what the screens show), else the collection.
    const label = record && record !== def ? String(type) : name;
    const load = async (): Promise<Doc | null> => {
      const m = part?.load ? ((await part.load(ctx.db, actor.companyId, id)) as Doc | null) : null;
      if (!m) return null;
      if (part?.types?.length === 1) m.type = part.types[0];
      // A row the caller may not see answers as a deletion stand-in, never its content.
      if (!rowVisible(def.rows, m, viewer)) return { ...blankDoc(def, id), _deleted: true };
      return { ...def.visible(m, viewer), _deleted: !!m._deleted };
    };
    if (!part || !record) {
      await recordOutcome(ctx, actor, name, row, 'rejected', `Unknown record type ${String(type)} in ${name}`);
      continue;
    }
    // A refused new document has no master: answer a deletion stand-in, else the device would keep a record the server never had.
    const refusedState = async () => (await load()) ?? { ...blankDoc(def, id), _deleted: true };
    const master = await load();
    if (!record.canPush(viewer) || !part.write) {
      await recordOutcome(ctx, actor, label, row, 'rejected', `Your role cannot change ${label} records`);
      conflicts.push(master ?? { ...blankDoc(def, id), _deleted: true });
      continue;
    }
    const assumed = row.assumedMasterState;
    const fields = record.writableFields as readonly string[];
    const sameAs = (doc: Record<string, unknown>) =>
      !fields.some((f) => !same(doc[f], master?.[f])) && !!doc._deleted === !!master?._deleted;
    const mismatch = master !== null && (!assumed || !sameAs(assumed));
    // A replay of a push already applied (its first answer was lost): nothing to do and no conflict to report;
    // hand back the master only where it differs from what was sent (server-derived fields).
    if (mismatch && master && record.name !== commandsCollection.name && sameAs(row.newDocumentState)) {
      if (!same({ ...master, _deleted: undefined }, { ...row.newDocumentState, _deleted: undefined }))
        conflicts.push(master);
      continue;
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
      continue;
    }
    try {
      const decision = await part.write(ctx, actor, row.newDocumentState as Doc, master);
      if (!decision.ok) {
        await recordOutcome(ctx, actor, label, row, 'rejected', decision.reason);
        conflicts.push(await refusedState());
        continue;
      }
      // The server may have derived fields (a decided command): hand back the master at once.
      const now = await load();
      if (now && !same({ ...now, _deleted: undefined }, { ...row.newDocumentState, _deleted: undefined }))
        conflicts.push(now);
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      await recordOutcome(ctx, actor, label, row, 'rejected', err.message);
      conflicts.push(await refusedState());
    }
  }
  return conflicts;
}
