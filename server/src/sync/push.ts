import { blankDoc, rowVisible, uuidv7 } from '@ops/shared';
import type { AppContext } from '../context.ts';
import type { Actor } from '../http/actor.ts';
import { HttpError } from '../http/errors.ts';
import { nowSeconds } from '../lib/tokens.ts';
import { type ServerCollection, viewerOf } from './registry.ts';

export interface PushRow {
  assumedMasterState: Record<string, unknown> | null;
  newDocumentState: Record<string, unknown> & { id: string; _deleted?: boolean };
}

type Doc = { id: string } & Record<string, unknown>;

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

async function recordOutcome(ctx: AppContext, actor: Actor, collection: string, row: PushRow, status: 'rejected' | 'conflict', reason: string) {
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
export async function pushCollection(ctx: AppContext, actor: Actor, collection: ServerCollection<Doc>, rows: PushRow[]): Promise<Doc[]> {
  const def = collection.def;
  const viewer = viewerOf(actor);
  const conflicts: Doc[] = [];
  const name = def.name;
  for (const row of rows) {
    const id = row.newDocumentState.id;
    const load = async (): Promise<Doc | null> => {
      const m = collection.load ? await collection.load(ctx.db, actor.companyId, id) : null;
      if (!m) return null;
      // A row the caller may not see answers as a deletion stand-in, never its content.
      if (!rowVisible(def.rows, m, viewer)) return { ...blankDoc(def, id), _deleted: true };
      return { ...def.visible(m, viewer), _deleted: !!m._deleted };
    };
    const master = await load();
    if (!def.canPush(viewer) || !collection.write) {
      await recordOutcome(ctx, actor, name, row, 'rejected', `Your role cannot change ${name} records`);
      if (master) conflicts.push(master);
      continue;
    }
    const assumed = row.assumedMasterState;
    const fields = def.writableFields as readonly string[];
    const mismatch = master !== null && (!assumed || fields.some((f) => !same(assumed[f], master[f])) || !!assumed._deleted !== !!master._deleted);
    if (mismatch && master) {
      // Commands replayed after a lost response land here: answer the decided command, run nothing.
      if (name !== 'commands') await recordOutcome(ctx, actor, name, row, 'conflict', 'Someone else changed this record first; your change was not applied');
      conflicts.push(master);
      continue;
    }
    try {
      const decision = await collection.write(ctx, actor, row.newDocumentState as Doc, master);
      if (!decision.ok) {
        await recordOutcome(ctx, actor, name, row, 'rejected', decision.reason);
        const now = await load();
        if (now) conflicts.push(now);
        continue;
      }
      // The server may have derived fields (a decided command): hand back the master at once.
      const now = await load();
      if (now && !same({ ...now, _deleted: undefined }, { ...row.newDocumentState, _deleted: undefined })) conflicts.push(now);
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      await recordOutcome(ctx, actor, name, row, 'rejected', err.message);
      const now = await load();
      if (now) conflicts.push(now);
    }
  }
  return conflicts;
}
