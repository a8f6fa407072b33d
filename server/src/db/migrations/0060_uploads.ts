import type { Kysely } from 'kysely';
import { replicated } from '../columns.ts';

/**
 * Uploads (Part A 2.11, docs/areas/uploads.md): one row per file, attached to a
 * record by `model` and `foreign_key`. Replicated (the `files` collection) so offline
 * clients see attachments. The HMAC key of the local store's signed URLs and the
 * lease that lets exactly one server process run the cleanup live here too.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await replicated(s.createTable('uploads'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('model', 'text')
    .addColumn('foreign_key', 'text')
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('mime', 'text', (c) => c.notNull())
    // Bytes read from storage (null until the object is verified); declared size from sign.
    .addColumn('size', 'bigint')
    .addColumn('declared_size', 'bigint')
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('exif', 'text')
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(0))
    // 1 once the object was checked (complete, or streamed through create).
    .addColumn('verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expiration', 'text')
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('thumb_key', 'text')
    // Optional label set by the area that owns the record (e.g. SessionClasswork).
    .addColumn('tag', 'text')
    .execute();
  await s
    .createIndex('uploads_company_record')
    .on('uploads')
    .columns(['company_id', 'model', 'foreign_key', 'created'])
    .execute();
  await s.createIndex('uploads_company_change').on('uploads').columns(['company_id', 'change_no', 'id']).execute();
  // The cleanup job scans unverified rows by age across companies.
  await s.createIndex('uploads_verified_created').on('uploads').columns(['verified', 'created']).execute();

  await s
    .createTable('uploads_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('uploads_secrets').execute();
  await db.schema.dropTable('uploads').execute();
}
