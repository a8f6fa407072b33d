import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import S3rver from 's3rver';
import type { TestDialect } from '../../setup/dialects.ts';
import { DIALECTS } from '../../setup/dialects.ts';

export type StoreKind = 'local' | 's3';
/** Every dialect with both stores: the same suite runs against local disk and a real S3-compatible server. */
export const DIALECT_STORES: Array<[TestDialect, StoreKind]> = DIALECTS.flatMap(
  (d) =>
    [
      [d, 'local'],
      [d, 's3'],
    ] as Array<[TestDialect, StoreKind]>,
);

export interface S3Fixture {
  env: Record<string, string>;
  close(): Promise<void>;
}

/** An s3rver instance on an ephemeral port with a fresh bucket; its env switches the server to the S3 store. */
export async function startS3(): Promise<S3Fixture> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-s3-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: 'uploads', configs: [] }],
  });
  const addr = (await server.run()) as AddressInfo;
  return {
    env: {
      S3_ENDPOINT: `http://127.0.0.1:${addr.port}`,
      S3_BUCKET: 'uploads',
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
