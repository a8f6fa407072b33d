import { type RowScope, rowVisible, scopeFields, type Viewer } from '@ops/shared';
import { type Expression, type Kysely, type OperationNode, type SqlBool, sql } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { SourceRow, SyncSource } from './registry.ts';
import { afterCheckpoint } from './checkpoint.ts';

/** The part of a Kysely select builder a source needs (keeps sources free of alias generics). */
export interface SourceQuery<O> {
  where(expression: Expression<SqlBool>): SourceQuery<O>;
  orderBy(expression: Expression<unknown>): SourceQuery<O>;
  limit(n: number): SourceQuery<O>;
  execute(): Promise<O[]>;
  /** The query as a node, so a count can read it as a subquery (`select count(*) from (…)`). */
  toOperationNode(): OperationNode;
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
  const scope = opts.rows;
  /** A first pull's conditions: the row scope where SQL can decide it, the device's bound, no deletions needed. */
  const firstPullOf = (q: SourceQuery<O>, viewer: Viewer): SourceQuery<O> => {
    if (scope.kind === 'own')
      q = q.where(sql<boolean>`${col(scope.field)} = ${viewer.userId}`).where(sql<boolean>`${col('deleted')} = 0`);
    if (scope.kind === 'involved' && viewer.role > scope.staffMaxRole) {
      // First pull of a non-staff viewer: the deletions-only rows are not needed, filter in SQL.
      q = q.where(
        sql<boolean>`(${sql.join(
          scope.fields.map((f) => sql`${col(f)} = ${viewer.userId}`),
          sql` or `,
        )})`,
      );
      q = q.where(sql<boolean>`${col('deleted')} = 0`);
    }
    const bound = opts.firstPull ? opts.firstPull(viewer) : null;
    if (bound) q = q.where(bound);
    // A custom rule runs in the pull (rowVisible); a first pull still needs no deletions.
    if (scope.kind === 'company' || scope.kind === 'custom') q = q.where(sql<boolean>`${col('deleted')} = 0`);
    return q;
  };
  return {
    tables: opts.tables,
    async read(db, companyId, after, limit, onlyVisibleTo: Viewer | null) {
      let q = opts.query(db, companyId).where(afterCheckpoint(`${opts.alias}.change_no`, `${opts.alias}.id`, after));
      if (onlyVisibleTo) q = firstPullOf(q, onlyVisibleTo);
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
    async count(db, companyId, upTo, viewer, type) {
      // Deleted rows too are left out (a staff viewer's first pull sends them as deletions): what the device will hold.
      const q = firstPullOf(opts.query(db, companyId), viewer)
        .where(sql<boolean>`${col('change_no')} <= ${upTo}`)
        .where(sql<boolean>`${col('deleted')} = 0`);
      if (scope.kind !== 'custom') {
        const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${q} as c`.execute(db);
        return Number(rows[0]?.n ?? 0);
      }
      // A rule SQL cannot state: only its columns are read and the shared rule decides, so nothing hidden is counted.
      // A record type's `type` is the kernel's stamp, not a column (pull.ts does the same).
      const fields = scopeFields(scope).filter((f) => type === null || f !== 'type');
      const { rows } = await sql<Record<string, unknown>>`select ${sql.join(
        fields.map((f) => sql.ref(`c.${f}`)),
      )} from ${q} as c`.execute(db);
      let n = 0;
      for (const r of rows) if (rowVisible(scope, type === null ? r : { ...r, type }, viewer)) n++;
      return n;
    },
  };
}

/**
 * `count` of a hand-written source whose first pull sends every live row of
 * the company's `table` (with `extra`, its bound): one range of the
 * (company_id, change_no, id) index every replicated table has.
 */
export async function countCompanyRows(
  db: Kysely<DB>,
  table: string,
  companyId: string,
  upTo: number,
  extra: Expression<SqlBool> | null = null,
): Promise<number> {
  const { rows } = await sql<{
    n: number | string;
  }>`select count(*) as n from ${sql.table(table)} where company_id = ${companyId} and change_no <= ${upTo} and deleted = 0${extra ? sql` and ${extra}` : sql``}`.execute(
    db,
  );
  return Number(rows[0]?.n ?? 0);
}
