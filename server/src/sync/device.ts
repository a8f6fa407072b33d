import {
  type CommandDoc,
  commandsCollection,
  DEVICE_TYPES,
  deviceCollection,
  type OutcomeDoc,
  outcomesCollection,
} from '@ops/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { executeCommand } from './commands.ts';
import { recordType } from './registry.ts';
import { tableSource } from './table-source.ts';

const parse = (v: string | null) => (v ? (JSON.parse(v) as Record<string, unknown>) : null);

const commandQuery = (db: Kysely<DB>, companyId: string) =>
  db.selectFrom('commands as k').selectAll('k').where('k.company_id', '=', companyId);
type CommandRow = Awaited<ReturnType<ReturnType<typeof commandQuery>['execute']>>[number];

const toCommandDoc = (k: CommandRow): CommandDoc => ({
  id: k.id,
  name: k.name,
  args: parse(k.args) ?? {},
  client_time: k.client_time,
  user_id: k.user_id,
  status: k.status as CommandDoc['status'],
  reason: k.reason,
  details: parse(k.details),
  result: parse(k.result),
  decided_at: k.decided_at,
});

/**
 * The protocol's own collection, `device`: commands (`command`, decided once by
 * the server) and outcomes of refused pushes (`outcome`), both own scope.
 */
export const deviceCommandRecords = recordType<CommandDoc>(deviceCollection, {
  types: [DEVICE_TYPES.command],
  sources: [
    tableSource({
      tables: ['commands'],
      alias: 'k',
      rows: commandsCollection.rows,
      query: commandQuery,
      toDoc: toCommandDoc,
    }),
  ],
  async load(db, companyId, id) {
    const row = await commandQuery(db, companyId).where('k.id', '=', id).executeTakeFirst();
    return row ? toCommandDoc(row) : null;
  },
  async write(ctx, actor, next, master) {
    // A known id is a replay: push answers the stored decision and runs nothing.
    if (master) return { ok: true };
    await executeCommand(ctx, actor, next);
    return { ok: true };
  },
});

const outcomeQuery = (db: Kysely<DB>, companyId: string) =>
  db.selectFrom('sync_outcomes as o').selectAll('o').where('o.company_id', '=', companyId);

export const deviceOutcomeRecords = recordType<OutcomeDoc>(deviceCollection, {
  types: [DEVICE_TYPES.outcome],
  sources: [
    tableSource({
      tables: ['sync_outcomes'],
      alias: 'o',
      rows: outcomesCollection.rows,
      query: outcomeQuery,
      toDoc: (o): OutcomeDoc => ({
        id: o.id,
        collection_name: o.collection,
        document_id: o.document_id,
        status: o.status as OutcomeDoc['status'],
        reason: o.reason,
        attempted: parse(o.attempted),
        user_id: o.user_id,
        created: o.created,
      }),
    }),
  ],
});
