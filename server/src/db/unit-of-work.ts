import { type Kysely, type Transaction, sql } from 'kysely';
import type { DB } from './schema.ts';

export type Tx = Transaction<DB>;

export interface ChangeEvent {
  companyId: string;
  changeNo: number;
  tables: string[];
}

/**
 * A write transaction that can stamp rows of replicated tables with the
 * company's next change number. The number is taken with `UPDATE ... RETURNING`
 * on the company's counter row; the row lock is held until commit, so change
 * numbers of one company become visible strictly in order (docs/sync.md).
 * One number per transaction and company: every row a transaction writes for a
 * company shares it, and readers page with (change_no, id).
 */
export class UnitOfWork {
  private readonly numbers = new Map<string, number>();
  private readonly touched = new Map<string, Set<string>>();
  private readonly afterCommitHooks: Array<() => void> = [];

  constructor(readonly trx: Tx) {}

  async changeNo(companyId: string, table: string): Promise<number> {
    const tables = this.touched.get(companyId) ?? new Set<string>();
    this.touched.set(companyId, tables);
    tables.add(table);
    const known = this.numbers.get(companyId);
    if (known !== undefined) return known;
    const row = await this.trx
      .updateTable('sync_counters')
      .set({ value: sql<number>`value + 1` })
      .where('company_id', '=', companyId)
      .returning('value')
      .executeTakeFirst();
    let value = row?.value;
    if (value === undefined) {
      await this.trx
        .insertInto('sync_counters')
        .values({ company_id: companyId, value: 1 })
        .onConflict((oc) => oc.column('company_id').doUpdateSet({ value: sql<number>`sync_counters.value + 1` }))
        .execute();
      const again = await this.trx
        .selectFrom('sync_counters')
        .select('value')
        .where('company_id', '=', companyId)
        .executeTakeFirstOrThrow();
      value = again.value;
    }
    this.numbers.set(companyId, Number(value));
    return Number(value);
  }

  afterCommit(fn: () => void): void {
    this.afterCommitHooks.push(fn);
  }

  /** Change events for the commit listeners (live sync streams). */
  events(): ChangeEvent[] {
    return [...this.numbers].map(([companyId, changeNo]) => ({
      companyId,
      changeNo,
      tables: [...(this.touched.get(companyId) ?? [])],
    }));
  }

  runAfterCommit(): void {
    for (const fn of this.afterCommitHooks) fn();
  }
}

declare module './schema.ts' {
  interface DB {
    sync_counters: { company_id: string; value: number };
  }
}

export type ChangeListener = (events: ChangeEvent[]) => void;

/** Runs `fn` in a transaction; publishes change events after a successful commit. */
export async function inTransaction<T>(
  db: Kysely<DB>,
  onChanges: ChangeListener | null,
  fn: (uow: UnitOfWork) => Promise<T>,
): Promise<T> {
  let uow: UnitOfWork | null = null;
  const result = await db.transaction().execute(async (trx) => {
    uow = new UnitOfWork(trx);
    return fn(uow);
  });
  const done = uow as UnitOfWork | null;
  if (done) {
    const events = done.events();
    if (events.length && onChanges) onChanges(events);
    done.runAfterCommit();
  }
  return result;
}
