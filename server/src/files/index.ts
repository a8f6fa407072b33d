import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { AppContext } from '../context.ts';
import { LocalFileStore } from './local-store.ts';
import { S3FileStore } from './s3-store.ts';
import type { FileStore } from './store.ts';

export type { FileStore } from './store.ts';
export { LocalFileStore } from './local-store.ts';
export { S3FileStore } from './s3-store.ts';

const stores = new WeakMap<AppContext, FileStore>();

/**
 * The HMAC key of the local store's signed URLs: created once per deployment and kept
 * in the database, so every server process of a deployment accepts the others' URLs.
 */
async function loadSecret(ctx: AppContext): Promise<Buffer> {
  const read = () =>
    ctx.db.selectFrom('uploads_secrets').select('value').where('name', '=', 'url_hmac').executeTakeFirst();
  let row = await read();
  if (!row) {
    await ctx.db
      .insertInto('uploads_secrets')
      .values({ name: 'url_hmac', value: randomBytes(32).toString('base64'), created: Math.floor(Date.now() / 1000) })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    row = await read();
  }
  return Buffer.from(row!.value, 'base64');
}

/** The deployment's file store: S3 when configured (CONTRACT 1), else local disk under DATA_DIR. */
export function fileStore(ctx: AppContext): FileStore {
  let store = stores.get(ctx);
  if (!store) {
    if (ctx.config.s3) store = new S3FileStore(ctx.config.s3, path.join(ctx.config.dataDir, 'tmp'));
    else {
      let secret: Promise<Buffer> | null = null;
      store = new LocalFileStore(
        ctx.config.dataDir,
        () => {
          secret ??= loadSecret(ctx).catch((err) => {
            secret = null;
            throw err;
          });
          return secret;
        },
        '/api/v1',
      );
    }
    stores.set(ctx, store);
  }
  return store;
}
