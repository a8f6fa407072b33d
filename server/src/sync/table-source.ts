import { type RowScope, scopeFields, type Viewer } from '@ops/shared';
import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { SourceRow, SyncSource } from './registry.ts';
import { afterCheckpoint } from './checkpoint.ts';

/** The part of a Kysely select builder a source needs (keeps sources free of alias generics). */
export interface SourceQuery<O> {
  where(expression: Expression<SqlBool>): SourceQuery<O>;
  orderBy(expression: Expression<unknown>): SourceQuery<O>;
  limit(n: number): SourceQuery<O>;
  execute(): Promise<O[]>;
}

interface SyncedRow {
  id: string;
  change_no: number;
  deleted: number;
}

/**
 * A source reading one table (with joins) of the company. `alias` is the
 * replicated table's alias in the query; its change_no and id order the rows.
 */
export function tableSource<O extends SyncedRow, Doc>(opts: {
  tables: readonly string[];
  alias: string;
  rows: RowScope;
  query: (db: Kysely<DB>, companyId: string) => SourceQuery<O>;
  toDoc: (row: O) => Doc;
}): SyncSource<Doc> {
  const col = (name: string) => sql.ref(`${opts.alias}.${name}`);
  return {
    tables: opts.tables,
    async read(db, companyId, after, limit, onlyVisibleTo: Viewer | null) {
      let q = opts.query(db, companyId).where(afterCheckpoint(`${opts.alias}.change_no`, `${opts.alias}.id`, after));
      const scope = opts.rows;
      if (onlyVisibleTo && scope.kind === 'own')
        q = q
          .where(sql<boolean>`${col(scope.field)} = ${onlyVisibleTo.userId}`)
          .where(sql<boolean>`${col('deleted')} = 0`);
      if (onlyVisibleTo && scope.kind === 'involved' && onlyVisibleTo.role > scope.staffMaxRole) {
        // First pull of a non-staff viewer: the deletions-only rows are not needed, filter in SQL.
        q = q.where(
          sql<boolean>`(${sql.join(
            scope.fields.map((f) => sql`${col(f)} = ${onlyVisibleTo.userId}`),
            sql` or `,
          )})`,
        );
        q = q.where(sql<boolean>`${col('deleted')} = 0`);
      }
      // A custom rule runs in the pull (rowVisible); a first pull still needs no deletions.
      if (onlyVisibleTo && (scope.kind === 'company' || scope.kind === 'custom'))
        q = q.where(sql<boolean>`${col('deleted')} = 0`);
      const rows = await q.orderBy(col('change_no')).orderBy(col('id')).limit(limit).execute();
      const fields = scopeFields(scope);
      return rows.map(
        (r): SourceRow<Doc> => ({
          seq: Number(r.change_no),
          id: r.id,
          deleted: !!r.deleted,
          scope: Object.fromEntries(fields.map((f) => [f, (r as unknown as Record<string, unknown>)[f]])),
          doc: opts.toDoc(r),
        }),
      );
    },
  };
}
