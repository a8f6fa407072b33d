import type { ReplicatedBase } from '../../db/core-tables.ts';
import type { Bool } from '../../db/schema.ts';

/** Part A 2.11 Upload rows (migration 0060). */
export interface UploadsTable extends ReplicatedBase {
  user_id: string;
  model: string | null;
  foreign_key: string | null;
  filename: string;
  type: string;
  mime: string;
  size: number | null;
  declared_size: number | null;
  width: number | null;
  height: number | null;
  /** JSON text of the EXIF tags (images). */
  exif: string | null;
  active: Bool;
  verified: Bool;
  /** `YYYY-MM-DD` or null. */
  expiration: string | null;
  storage_key: string;
  thumb_key: string | null;
  tag: string | null;
}

declare module '../../db/schema.ts' {
  interface DB {
    uploads: UploadsTable;
    uploads_secrets: { name: string; value: string; created: number };
  }
}
