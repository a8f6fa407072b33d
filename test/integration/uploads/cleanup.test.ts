import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_CLEANUP_JOB } from '@ops/server/areas/uploads/uploads.jobs';
import { runJob } from '@ops/server/jobs/scheduler';
import { fileStore } from '@ops/server/files/index';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { tokens } from '../pilots/people-helpers.ts';
import { aircraftId, putBytes, uploadRow } from './helpers.ts';
import { pdfSample } from './samples.ts';
import { DIALECT_STORES, type S3Fixture, startS3 } from './stores.ts';

describe.each(DIALECT_STORES)('Upload cleanup on %s with the %s store', (dialect, storeKind) => {
  let s: TestServer;
  let s3: S3Fixture | null = null;
  let tok: (email: string) => Promise<string>;
  beforeAll(async () => {
    if (storeKind === 's3') s3 = await startS3();
    s = await startTestServer(dialect, { env: { ...(s3?.env ?? {}), JOBS: 'off' } });
    tok = tokens(() => s);
  });
  afterAll(async () => {
    await s?.close();
    await s3?.close();
  });

  const sign = async (put: boolean) => {
    const r = await s.api('POST', '/uploads/sign.json', {
      token: await tok('mechanic@skyline.test'),
      body: {
        filename: 'late.pdf',
        mime: 'application/pdf',
        size: 1000,
        model: 'Aircraft',
        foreign_key: aircraftId(s),
      },
    });
    if (put) expect(await putBytes(r.body.url, pdfSample())).toBe(200);
    return { id: r.body.upload_id as string, key: r.body.key as string };
  };

  it('removes signed uploads never completed after 24 hours, record and object; exactly one process runs each window', async () => {
    const stale = await sign(true);
    const staleNoBytes = await sign(false);
    const fresh = await sign(true);
    const done = await sign(true);
    expect(
      (await s.api('POST', `/uploads/complete/${done.id}.json`, { token: await tok('mechanic@skyline.test') })).status,
    ).toBe(200);
    const t = Math.floor(Date.now() / 1000);
    // Age three of them past the 24 hours.
    await s.ctx.db
      .updateTable('uploads')
      .set({ created: t - 24 * 3600 - 60 })
      .where('id', 'in', [stale.id, staleNoBytes.id, done.id])
      .execute();

    // Several processes wake up in the same window: one runs, the others stand down.
    const results = await Promise.all([1, 2, 3, 4].map(() => runJob(s.ctx, UPLOAD_CLEANUP_JOB, false)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await uploadRow(s, stale.id))?.deleted).toBe(1);
    expect((await uploadRow(s, staleNoBytes.id))?.deleted).toBe(1);
    expect(await fileStore(s.ctx).head(stale.key)).toBeNull();
    expect((await uploadRow(s, fresh.id))?.deleted).toBe(0);
    expect(await fileStore(s.ctx).head(fresh.key)).not.toBeNull();
    // A completed upload is never touched, however old.
    const kept = await uploadRow(s, done.id);
    expect(kept?.deleted).toBe(0);
    expect(await fileStore(s.ctx).head(kept!.storage_key)).not.toBeNull();

    // Still inside the window: nobody runs again; the next run has one runner.
    expect(await runJob(s.ctx, UPLOAD_CLEANUP_JOB, false)).toBe(false);
    // The next window (its interval made to have passed): again exactly one runner. Forced runs would not
    // show it: a forced run may start as soon as the first has released the lease.
    await s.ctx.db.updateTable('job_leases').set({ last_run: 0 }).where('name', '=', UPLOAD_CLEANUP_JOB).execute();
    const next = await Promise.all([1, 2].map(() => runJob(s.ctx, UPLOAD_CLEANUP_JOB, false)));
    expect(next.filter(Boolean)).toHaveLength(1);
    expect((await uploadRow(s, fresh.id))?.deleted).toBe(0);
  });
});
