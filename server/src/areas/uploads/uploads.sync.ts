import { FILES_TYPES, filesCollection, type UploadDoc } from '@ops/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { recordType } from '../../sync/registry.ts';
import { tableSource } from '../../sync/table-source.ts';
import type { UploadsTable } from './uploads.tables.ts';
import './uploads.tables.ts';

/**
 * The `files` collection (shared/src/collections/files.ts): upload metadata, so
 * a device offline lists a record's attachments. Rows follow `uploadReplicated`:
 * `uploadVisible`, the rule REST's index, view and download apply, and uploads of
 * records with their own visibility to their uploader only; the auditor's withheld files
 * are masked by the shared `visible`. Storage keys never leave the server.
 */
const query = (db: Kysely<DB>, companyId: string) =>
  db.selectFrom('uploads as u').selectAll('u').where('u.company_id', '=', companyId);

const num = (v: number | string | null) => (v === null || v === undefined ? null : Number(v));

export const toUploadDoc = (r: UploadsTable): UploadDoc => ({
  id: r.id,
  type: FILES_TYPES.upload,
  file_type: r.type,
  filename: r.filename,
  mime: r.mime,
  size: num(r.size),
  width: num(r.width),
  height: num(r.height),
  model: r.model ?? '',
  foreign_key: r.foreign_key ?? '',
  user_id: r.user_id,
  active: Number(r.active) === 1,
  verified: Number(r.verified) === 1,
  has_thumb: !!r.thumb_key,
  downloadable: Number(r.verified) === 1,
  expiration: r.expiration,
  tag: r.tag,
  created: Number(r.created),
  modified: Number(r.modified),
});

export const uploadRecords = recordType<UploadDoc>(filesCollection, {
  types: [FILES_TYPES.upload],
  sources: [
    tableSource({
      tables: ['uploads'],
      alias: 'u',
      rows: filesCollection.rows,
      query,
      toDoc: (r) => toUploadDoc(r as UploadsTable),
    }),
  ],
  async load(db, companyId, id) {
    const r = await query(db, companyId).where('u.id', '=', id).executeTakeFirst();
    return r ? toUploadDoc(r as UploadsTable) : null;
  },
});
