import { uploadFileWithheld, uploadReplicated } from '../rules/uploads/policy.ts';
import { areaCollection } from './area.ts';
import { type CollectionDef, s } from './types.ts';

/**
 * Attachment metadata offline (issue 15, docs/areas/uploads.md): which files a
 * defect, flight or record has, so a device without network lists them. The
 * bytes stay on the server (thumbnails and downloads through the uploads
 * endpoints); files taken on the device wait in client-core's file queue.
 * Read-only: files arrive through sign, PUT and complete.
 *
 * The upload's own type class (photo, document...) travels as `file_type`,
 * since `type` names the record type of the area collection.
 */
export interface UploadDoc {
  id: string;
  type: 'upload';
  file_type: string;
  filename: string;
  mime: string;
  /** Bytes read from storage; null until completed. */
  size: number | null;
  width: number | null;
  height: number | null;
  /** The record it is attached to (`AircraftReport`, `Flight`...); '' while unattached (indexed, so never null). */
  model: string;
  foreign_key: string;
  user_id: string;
  active: boolean;
  /** The object was checked (complete, or streamed through create). */
  verified: boolean;
  /** A server thumbnail exists and this viewer may fetch it. */
  has_thumb: boolean;
  /** This viewer may download the file (false: External Auditor on certificate files). */
  downloadable: boolean;
  expiration: string | null;
  tag: string | null;
  created: number;
  modified: number;
}

export const FILES_TYPES = { upload: 'upload' } as const;

export const uploadRecord: CollectionDef<UploadDoc> = {
  name: 'uploads',
  version: 0,
  schema: {
    properties: {
      id: s.id,
      type: { type: 'string', maxLength: 32 },
      file_type: s.reqStr,
      filename: s.reqStr,
      mime: s.reqStr,
      size: s.num,
      width: s.num,
      height: s.num,
      model: { type: 'string', maxLength: 64 },
      foreign_key: { type: 'string', maxLength: 64 },
      user_id: s.reqStr,
      active: s.bool,
      verified: s.bool,
      has_thumb: s.bool,
      downloadable: s.bool,
      expiration: s.str,
      tag: s.str,
      created: s.int,
      modified: s.int,
    },
    required: [
      'id',
      'type',
      'file_type',
      'filename',
      'mime',
      'model',
      'foreign_key',
      'user_id',
      'active',
      'verified',
      'has_thumb',
      'downloadable',
      'created',
      'modified',
    ],
  },
  rows: {
    kind: 'custom',
    fields: ['active', 'user_id', 'model'],
    test: (row, viewer) => uploadReplicated(row as { active: unknown; user_id: unknown; model: unknown }, viewer),
  },
  visible: (doc, viewer) => (uploadFileWithheld(doc, viewer) ? { ...doc, has_thumb: false, downloadable: false } : doc),
  writableFields: [],
  canPush: () => false,
};

/**
 * The files area offline. A screen reads one record's attachments by
 * `model` and `foreign_key` through the `['type', 'model', 'foreign_key']` index.
 */
export const filesCollection = areaCollection({
  name: 'files',
  version: 0,
  parts: [{ types: [FILES_TYPES.upload], def: uploadRecord }],
  indexes: [['type', 'model', 'foreign_key', 'id']],
});
