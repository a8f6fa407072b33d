import { FLEET_TYPES, fleetCollection, type InventoryPartDoc } from '@ops/shared';
import { partDocs } from './inventory.repository.ts';
import { recordType, type SyncSource } from '../../sync/registry.ts';
import { afterCheckpoint } from '../../sync/checkpoint.ts';
import { countCompanyRows } from '../../sync/table-source.ts';

/** Inventory parts with their units and providers (read-only offline); unit changes stamp their part. */
const source: SyncSource<InventoryPartDoc> = {
  tables: ['inventory_parts'],
  async read(db, companyId, after, limit, onlyVisibleTo) {
    let q = db
      .selectFrom('inventory_parts as p')
      .selectAll('p')
      .where('p.company_id', '=', companyId)
      .where(afterCheckpoint('p.change_no', 'p.id', after));
    if (onlyVisibleTo) q = q.where('p.deleted', '=', 0);
    const rows = await q.orderBy('p.change_no').orderBy('p.id').limit(limit).execute();
    const docs = await partDocs(db, companyId, rows);
    return rows.map((r, i) => ({ seq: Number(r.change_no), id: r.id, deleted: !!r.deleted, scope: {}, doc: docs[i] }));
  },
  count: (db, companyId, upTo) => countCompanyRows(db, 'inventory_parts', companyId, upTo),
};

/** The `inventory_part` record type of `fleet` (read-only on devices). */
export const inventoryPartRecords = recordType<InventoryPartDoc>(fleetCollection, {
  types: [FLEET_TYPES.part],
  sources: [source],
  async load(db, companyId, id) {
    const row = await db
      .selectFrom('inventory_parts')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return null;
    const [doc] = await partDocs(db, companyId, [row]);
    return { ...doc, _deleted: !!row.deleted };
  },
});
