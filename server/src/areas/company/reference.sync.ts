import { PERMISSION_KEYS, type PermissionKey, type ReferenceDoc } from '@ops/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import type { SourceRow, SyncSource } from '../../sync/registry.ts';
import './company.tables.ts';
import { loadHoursRows, overridesWindow } from './operating-hours.repository.ts';
import { permissionMatrix } from './permissions.repository.ts';

/** Reference documents assembled from several rows of the company: one each. */
export type StampedType = 'permissions' | 'operating_hours';

const docId = (companyId: string, type: StampedType) => `${companyId}:${type}`;

/**
 * Gives the company's `type` reference document the transaction's change
 * number, so the next pull (and live streams) send it again.
 */
export async function stampReference(uow: UnitOfWork, companyId: string, type: StampedType): Promise<void> {
  const changeNo = await uow.changeNo(companyId, 'reference_stamps');
  const now = nowSeconds();
  await uow.trx
    .insertInto('reference_stamps')
    .values({
      id: docId(companyId, type),
      company_id: companyId,
      type,
      change_no: changeNo,
      deleted: 0,
      created: now,
      modified: now,
    })
    .onConflict((oc) => oc.column('id').doUpdateSet({ change_no: changeNo, modified: now }))
    .execute();
}

/**
 * One document per company; before its first write it exists with change
 * number 0, so a first pull always carries it (the defaults).
 */
function stampedSource(
  type: StampedType,
  build: (db: Kysely<DB>, companyId: string) => Promise<{ name: string; data: Record<string, unknown> }>,
): SyncSource<ReferenceDoc> {
  return {
    tables: ['reference_stamps'],
    async read(db, companyId, after) {
      const id = docId(companyId, type);
      const stamp = await db
        .selectFrom('reference_stamps')
        .select(['change_no', 'modified'])
        .where('id', '=', id)
        .where('company_id', '=', companyId)
        .executeTakeFirst();
      const seq = Number(stamp?.change_no ?? 0);
      if (!(seq > after.seq || (seq === after.seq && id > after.id))) return [];
      const { name, data } = await build(db, companyId);
      const row: SourceRow<ReferenceDoc> = {
        seq,
        id,
        deleted: false,
        scope: {},
        doc: { id, type, name, data, updated: Number(stamp?.modified ?? 0) },
      };
      return [row];
    },
    async count(db, companyId, upTo) {
      const stamp = await db
        .selectFrom('reference_stamps')
        .select('change_no')
        .where('id', '=', docId(companyId, type))
        .where('company_id', '=', companyId)
        .executeTakeFirst();
      // Before its first write the document exists at change number 0: a load always brings it.
      return Number(stamp?.change_no ?? 0) <= upTo ? 1 : 0;
    },
  };
}

/** `permissions`: the flat map of every role of the company (`roles[user_group_id]`), as `/companies/permissions.json` answers one role. */
export const permissionsReferenceSource = stampedSource('permissions', async (db, companyId) => {
  const matrix = await permissionMatrix(db, companyId);
  const roles: Record<string, Record<PermissionKey, boolean>> = {};
  for (const r of matrix) roles[String(r.role)] = r.permissions;
  return { name: 'Permissions', data: { keys: [...PERMISSION_KEYS], roles } };
});

/**
 * `operating_hours`: the weekly rows of every scope and the dated overrides from
 * 7 days ago on, enough for offline clients to run the shared `resolveDay`.
 */
export const operatingHoursReferenceSource = stampedSource('operating_hours', async (db, companyId) => {
  const company = await db
    .selectFrom('companies')
    .select('timezone')
    .where('id', '=', companyId)
    .executeTakeFirstOrThrow();
  const { from } = overridesWindow(company.timezone);
  const rows = await loadHoursRows(db, companyId, { overridesFrom: from, overridesTo: null });
  return { name: 'Operating hours', data: { timezone: company.timezone, rows } };
});

export const companyReferenceSources: SyncSource<ReferenceDoc>[] = [
  permissionsReferenceSource,
  operatingHoursReferenceSource,
];
