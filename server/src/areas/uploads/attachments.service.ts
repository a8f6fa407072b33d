import { mayAttachAnyUpload, UPLOAD_MODELS_WITH_RECORD_VISIBILITY } from '@ops/shared/rules/uploads/policy';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import './uploads.tables.ts';

/**
 * The attachment hook (docs/areas/uploads.md): how other areas attach uploads to their
 * records by `model` and `id`, list them on their views, and drop them with the record.
 *
 * An area lists its model once in its manifest (`uploadModels: { SafetyReport: ... }`) so
 * sign, create and confirm refuse a foreign key that is not a record of the caller's
 * company (404). Models nobody registered are accepted as free labels.
 */
export interface UploadModel {
  /** True when `id` is a live record of the company. */
  exists(db: Kysely<DB>, companyId: string, id: string): Promise<boolean>;
  /** Extra list fields for rows of this model (e.g. `deadline` and `late` on classwork). */
  listExtras?(db: Kysely<DB>, companyId: string, foreignKeys: string[]): Promise<Map<string, Record<string, unknown>>>;
  /**
   * The keys among `foreignKeys` whose record `actor` may see, in one query for
   * all of them. Absent: every record of the company is visible to its users.
   * Models with it are listed in UPLOAD_MODELS_WITH_RECORD_VISIBILITY (shared),
   * which the `files` sync collection keeps to their uploaders.
   */
  visibleTo?(db: Kysely<DB>, actor: Actor, foreignKeys: readonly string[]): Promise<Set<string>>;
}

const models = new Map<string, UploadModel>();

export function registerUploadModel(model: string, def: UploadModel): void {
  // The shared list and the registrations must agree, or sync would replicate what REST hides.
  const listed = (UPLOAD_MODELS_WITH_RECORD_VISIBILITY as readonly string[]).includes(model);
  if (listed !== !!def.visibleTo)
    throw new Error(`Upload model ${model}: visibleTo and UPLOAD_MODELS_WITH_RECORD_VISIBILITY disagree`);
  models.set(model, def);
}
export const uploadModel = (model: string): UploadModel | undefined => models.get(model);

/**
 * The one gate on uploads attached to records (docs/areas/uploads.md): whether
 * `actor` may see the record `model`/`foreignKey`, hence its uploads. Unattached
 * uploads and models without `visibleTo` are visible company-wide.
 */
export async function attachedRecordVisible(
  db: Kysely<DB>,
  actor: Actor,
  model: string | null,
  foreignKey: string | null,
): Promise<boolean> {
  const check = model && foreignKey ? models.get(model)?.visibleTo : undefined;
  if (!check || !foreignKey) return true;
  return (await check(db, actor, [foreignKey])).has(foreignKey);
}

/** A replicated table row that is live in the company. */
function liveIn(table: 'flights' | 'aircraft' | 'user_certificates' | 'aircraft_reports'): UploadModel {
  return {
    async exists(db, companyId, id) {
      const row = await db
        .selectFrom(table)
        .select('id')
        .where('id', '=', id)
        .where('company_id', '=', companyId)
        .where('deleted', '=', 0)
        .executeTakeFirst();
      return !!row;
    },
  };
}
/** The models of other areas' replicated records that need no more than liveness (the uploads manifest lists them). */
export const liveRecordModels: Record<string, UploadModel> = {
  Flight: liveIn('flights'),
  Aircraft: liveIn('aircraft'),
  UserCertificate: liveIn('user_certificates'),
  AircraftReport: liveIn('aircraft_reports'),
};

/** The summary other resources embed (Part A 2.10 `Upload`: id, filename, type, mime, size). */
export interface UploadSummary {
  id: string;
  filename: string;
  type: string;
  mime: string;
  size: string | null;
  width: string | null;
  height: string | null;
  created: number;
  user_id: string;
}

/** Active uploads of several records of one model in one query, grouped by foreign key (oldest first). */
export async function uploadsOf(
  db: Kysely<DB>,
  companyId: string,
  model: string,
  foreignKeys: readonly string[],
): Promise<Map<string, UploadSummary[]>> {
  const out = new Map<string, UploadSummary[]>();
  if (foreignKeys.length === 0) return out;
  const rows = await db
    .selectFrom('uploads')
    .select(['id', 'foreign_key', 'filename', 'type', 'mime', 'size', 'width', 'height', 'created', 'user_id'])
    .where('company_id', '=', companyId)
    .where('model', '=', model)
    .where('foreign_key', 'in', [...new Set(foreignKeys)])
    .where('deleted', '=', 0)
    .where('active', '=', 1)
    .orderBy('created')
    .orderBy('id')
    .execute();
  for (const r of rows) {
    const list = out.get(r.foreign_key ?? '') ?? [];
    list.push({
      id: r.id,
      filename: r.filename,
      type: r.type,
      mime: r.mime,
      size: r.size === null ? null : String(r.size),
      width: r.width === null ? null : String(r.width),
      height: r.height === null ? null : String(r.height),
      created: Number(r.created),
      user_id: r.user_id,
    });
    out.set(r.foreign_key ?? '', list);
  }
  return out;
}

/**
 * Attaches the caller's verified uploads to a record inside the caller's transaction
 * (an area calls this when it saves a record with `Upload` ids). Uploads of another
 * company, of another user (unless the caller is staff, group <= 170) or not yet
 * verified are skipped; returns the ids attached.
 */
export async function attachUploads(
  uow: UnitOfWork,
  actor: Actor,
  model: string,
  foreignKey: string,
  uploadIds: readonly string[],
): Promise<string[]> {
  const ids = [...new Set(uploadIds)].filter((id) => typeof id === 'string' && id.length > 0 && id.length <= 64);
  if (ids.length === 0) return [];
  let q = uow.trx
    .selectFrom('uploads')
    .select('id')
    .where('company_id', '=', actor.companyId)
    .where('id', 'in', ids)
    .where('deleted', '=', 0)
    .where('verified', '=', 1);
  if (!mayAttachAnyUpload(actor)) q = q.where('user_id', '=', actor.userId);
  const found = (await q.execute()).map((r) => r.id);
  if (found.length === 0) return [];
  const changeNo = await uow.changeNo(actor.companyId, 'uploads');
  await uow.trx
    .updateTable('uploads')
    .set({ model, foreign_key: foreignKey, active: 1, change_no: changeNo, modified: Math.floor(Date.now() / 1000) })
    .where('company_id', '=', actor.companyId)
    .where('id', 'in', found)
    .execute();
  return found;
}

/**
 * Tombstones the uploads of a deleted record; returns their storage keys so the caller
 * removes the objects after commit (`removeStoredObjects` in uploads.service.ts).
 */
export async function detachAllUploads(
  uow: UnitOfWork,
  companyId: string,
  model: string,
  foreignKey: string,
): Promise<string[]> {
  const rows = await uow.trx
    .selectFrom('uploads')
    .select(['id', 'storage_key', 'thumb_key'])
    .where('company_id', '=', companyId)
    .where('model', '=', model)
    .where('foreign_key', '=', foreignKey)
    .where('deleted', '=', 0)
    .execute();
  if (rows.length === 0) return [];
  const changeNo = await uow.changeNo(companyId, 'uploads');
  await uow.trx
    .updateTable('uploads')
    .set({ deleted: 1, active: 0, change_no: changeNo, modified: Math.floor(Date.now() / 1000) })
    .where('company_id', '=', companyId)
    .where(
      'id',
      'in',
      rows.map((r) => r.id),
    )
    .execute();
  return rows.flatMap((r) => [r.storage_key, ...(r.thumb_key ? [r.thumb_key] : [])]);
}
