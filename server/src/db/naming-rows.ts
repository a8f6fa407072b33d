import type { Viewer } from '@ops/shared';
import { type Expression, type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { DB } from './schema.ts';
import type { SourceRow, SyncSource } from '../sync/registry.ts';

/**
 * Rows naming one person (a pilot's flights and bookings), read per naming
 * column instead of over the company's whole change order.
 *
 * A first pull of a person who sees only the rows naming them used to walk the
 * company's (company_id, change_no, id) index and test every row: 100,000
 * flights read for a logbook of 1,700. Each naming column has an index
 * (company_id, <column>, change_no, id) (migration 0147), so each column gives
 * the person's rows in change order from one index range; a page is the union
 * of those ranges, each cut at the page's size, then cut again. A count is the
 * union's size. The same rule as the collection's row scope, stated per
 * column: "one of these columns is the viewer" (tested against the shared rule
 * on both databases, test/integration/schedules/booking-visibility.test.ts).
 */
export interface NamingRows {
  table: 'flights' | 'schedules';
  /** The table's alias in the source's query and in `bound` (`f.date`). */
  alias: string;
  /** The columns naming the person (each leads an index with the company). */
  columns: readonly string[];
}

interface SyncedRow {
  id: string;
  change_no: number | string;
  deleted: number;
}

/** `(col1 = me)` branch of one column: the company's live rows naming the viewer, with `more` conditions. */
function branch(
  spec: NamingRows,
  column: string,
  companyId: string,
  userId: string,
  more: RawBuilder<unknown>,
): RawBuilder<unknown> {
  const a = (c: string) => sql.ref(`${spec.alias}.${c}`);
  return sql`select ${a('id')}, ${a('change_no')} from ${sql.table(spec.table)} as ${sql.raw(spec.alias)}
    where ${a('company_id')} = ${companyId} and ${a(column)} = ${userId} and ${a('deleted')} = 0${more}`;
}

/** The query of `namingPage` (exported so a test can EXPLAIN it): ids in (change_no, id) order. */
export function namingPageQuery(
  spec: NamingRows,
  companyId: string,
  userId: string,
  after: { seq: number; id: string },
  limit: number,
  bound: Expression<SqlBool> | null,
): RawBuilder<{ id: string }> {
  const a = (c: string) => sql.ref(`${spec.alias}.${c}`);
  const more = sql`${bound ? sql` and ${bound}` : sql``} and (${a('change_no')}, ${a('id')}) > (${after.seq}, ${after.id})
    order by ${a('change_no')}, ${a('id')} limit ${limit}`;
  // Each branch in its own subquery: a union's members cannot carry their own ORDER BY / LIMIT.
  const branches = spec.columns.map(
    (c, i) => sql`select id, change_no from (${branch(spec, c, companyId, userId, more)}) as ${sql.raw(`b${i}`)}`,
  );
  return sql<{ id: string }>`select u.id from (${sql.join(branches, sql` union `)}) as u
    order by u.change_no, u.id limit ${limit}`;
}

/** Ids of the next `limit` live rows naming `userId` after `after`, in (change_no, id) order: one index range per column. */
export async function namingPage(
  db: Kysely<DB>,
  spec: NamingRows,
  companyId: string,
  userId: string,
  after: { seq: number; id: string },
  limit: number,
  bound: Expression<SqlBool> | null,
): Promise<string[]> {
  const { rows } = await namingPageQuery(spec, companyId, userId, after, limit, bound).execute(db);
  return rows.map((r) => r.id);
}

/** How many live rows up to change number `upTo` name `userId` (a row naming them twice counts once). */
export async function namingCount(
  db: Kysely<DB>,
  spec: NamingRows,
  companyId: string,
  userId: string,
  upTo: number,
  bound: Expression<SqlBool> | null,
): Promise<number> {
  const a = (c: string) => sql.ref(`${spec.alias}.${c}`);
  const more = sql`${bound ? sql` and ${bound}` : sql``} and ${a('change_no')} <= ${upTo}`;
  const branches = spec.columns.map((c) => branch(spec, c, companyId, userId, more));
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from (${sql.join(
    branches,
    sql` union `,
  )}) as u`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/**
 * A collection source whose first pull, for a viewer who sees only rows naming
 * them (`naming(viewer)`), reads those rows per column; everything else
 * (office viewers, incremental pulls with their deletions) is `base`'s.
 * `load` reads the full rows of a page's ids (the source's own columns, so the
 * documents are the ones `base` makes) by primary key alone: the ids were just
 * read for the company, and `company_id = ?` beside `id in (…)` led SQLite's
 * planner to walk the company's index (100,000 flights for a page of 1,000
 * ids, 40 ms) instead of the key.
 */
export function namingSource<O extends SyncedRow, Doc>(
  base: SyncSource<Doc>,
  spec: NamingRows & {
    naming: (viewer: Viewer) => boolean;
    bound: (viewer: Viewer) => Expression<SqlBool> | null;
    load: (db: Kysely<DB>, ids: string[]) => Promise<O[]>;
    toDoc: (row: O) => Doc;
  },
): SyncSource<Doc> {
  return {
    tables: base.tables,
    async read(db, companyId, after, limit, onlyVisibleTo) {
      if (!onlyVisibleTo || !spec.naming(onlyVisibleTo)) return base.read(db, companyId, after, limit, onlyVisibleTo);
      const ids = await namingPage(db, spec, companyId, onlyVisibleTo.userId, after, limit, spec.bound(onlyVisibleTo));
      if (!ids.length) return [];
      const byId = new Map((await spec.load(db, ids)).map((r) => [r.id, r]));
      // The page's order is the database's (change_no, id), kept as the ids came.
      const out: SourceRow<Doc>[] = [];
      for (const id of ids) {
        const r = byId.get(id);
        if (!r) continue;
        const row = r as unknown as Record<string, unknown>;
        out.push({
          seq: Number(r.change_no),
          id: r.id,
          deleted: !!r.deleted,
          // The naming columns are the row scope's fields: they travel with each row for the pull's check.
          scope: Object.fromEntries(spec.columns.map((f) => [f, row[f]])),
          doc: spec.toDoc(r),
        });
      }
      return out;
    },
    // Counted only where `base` counts too: a collection has a total for every viewer or for none.
    count: base.count
      ? (db, companyId, upTo, viewer, type) =>
          spec.naming(viewer)
            ? namingCount(db, spec, companyId, viewer.userId, upTo, spec.bound(viewer))
            : (base.count as NonNullable<SyncSource<Doc>['count']>)(db, companyId, upTo, viewer, type)
      : undefined,
  };
}
