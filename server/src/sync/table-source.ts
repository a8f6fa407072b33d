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

/** Unix seconds `months` calendar months before now (UTC): the start of a device's history window. */
export function monthsAgo(months: number, now = new Date()): number {
  const d = new Date(now);
  d.setUTCMonth(d.getUTCMonth() - months);
  return Math.floor(d.getTime() / 1000);
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
  /**
   * What a device loads on its first pull, beyond the row scope: a condition
   * bounding a large history (flights of the last months for an office
   * device), or null for everything visible. Later pulls send every change,
   * old records included, so a record the device holds never goes stale.
   */
  firstPull?: (viewer: Viewer) => Expression<SqlBool> | null;
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
      const bound = onlyVisibleTo && opts.firstPull ? opts.firstPull(onlyVisibleTo) : null;
      if (bound) q = q.where(bound);
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
