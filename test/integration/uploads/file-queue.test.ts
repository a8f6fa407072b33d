import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DiskFileQueueStore } from '@ops/client-core/files/disk-store';
import { FileQueue, type FileQueueStore, IndexedDbFileQueueStore, type IDBFactory } from '@ops/client-core/files/index';
import { uuidv7 } from '@ops/shared';
import { IDBFactory as FakeIDBFactory } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { aircraftId, uploadRow } from './helpers.ts';
import { jpegWithExifSample, pdfSample } from './samples.ts';

/** Offline attachments in client-core: the file queue against a real server. */
describe.each(DIALECTS)('Offline file queue on %s', (dialect) => {
  let s: TestServer;
  let token: string;
  const dirs: string[] = [];
  beforeAll(async () => {
    s = await startTestServer(dialect);
    token = await s.login('mechanic@skyline.test');
  });
  afterAll(async () => {
    await s?.close();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  const queueOver = (store: FileQueueStore, online: boolean) =>
    new FileQueue({ store, baseUrl: s.baseUrl, token: () => (online ? token : null) });

  /** A flight inserted with a known id: what the sync push of an offline-created record does. */
  const arriveFlight = async (id: string) => {
    const t = Math.floor(Date.now() / 1000);
    await (s.ctx.db as any)
      .insertInto('flights')
      .values({
        id,
        company_id: s.refs.companies.skyline,
        change_no: 0,
        deleted: 0,
        created: t,
        modified: t,
        date: '2026-11-20',
        status: 'LANDED',
        aircraft_id: aircraftId(s),
        offblocks: t - 7200,
        takeoff: t - 7000,
        landing: t - 3700,
        onblocks: t - 3600,
        block_time: 3600,
        flight_time: 3300,
        landings: 1,
      })
      .execute();
  };

  it('keeps photos on disk while offline, survives a restart, then signs, PUTs and completes them', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-queue-'));
    dirs.push(dir);
    const photo = await jpegWithExifSample(200, 150);
    const offline = queueOver(new DiskFileQueueStore(dir), false);
    const queued = await offline.enqueue({
      filename: 'defect.jpg',
      mime: 'image/jpeg',
      bytes: photo,
      model: 'Aircraft',
      foreignKey: aircraftId(s),
    });
    expect(await offline.pendingCount()).toBe(1);
    expect(Object.values(await offline.process())).toEqual(['offline']);
    expect(await offline.pendingCount()).toBe(1);

    // The app restarts: a new queue over the same folder finds the file and uploads it.
    const restarted = queueOver(new DiskFileQueueStore(dir), true);
    expect((await restarted.list()).map((f) => f.filename)).toEqual(['defect.jpg']);
    const seen: number[] = [];
    restarted.subscribe((files) => seen.push(files.length));
    expect(await restarted.process()).toEqual({ [queued.id]: 'uploaded' });
    expect(await restarted.pendingCount()).toBe(0);
    expect(seen.at(-1)).toBe(0);
    expect(fs.readdirSync(dir)).toEqual([]);
    const list = await s.api('GET', `/uploads/index/Aircraft/${aircraftId(s)}.json`, { token });
    expect(list.body.uploads).toEqual([
      expect.objectContaining({
        filename: 'defect.jpg',
        type: 'photo',
        width: '200',
        height: '150',
        size: String(photo.length),
      }),
    ]);
  });

  it('waits for a record created offline, then attaches to it once it reached the server', async () => {
    const queue = queueOver(
      new IndexedDbFileQueueStore('queue-a', new FakeIDBFactory() as unknown as IDBFactory),
      true,
    );
    const flightId = uuidv7();
    const f = await queue.enqueue({
      filename: 'techlog.pdf',
      mime: 'application/pdf',
      bytes: pdfSample(),
      model: 'Flight',
      foreignKey: flightId,
    });
    expect(await queue.process()).toEqual({ [f.id]: 'waiting' });
    const waiting = await queue.filesFor('Flight', flightId);
    expect(waiting).toHaveLength(1);
    expect(waiting[0]).toMatchObject({ state: 'pending', attempts: 0 });
    await arriveFlight(flightId);
    expect(await queue.process()).toEqual({ [f.id]: 'uploaded' });
    const view = await s.api('GET', `/flights/view/${flightId}.json`, { token: await s.login('admin@skyline.test') });
    expect(view.body.flight.Upload.map((u: any) => u.filename)).toEqual(['techlog.pdf']);
  });

  it('IndexedDB entries survive reopening; a file the server refuses is marked failed, not retried forever', async () => {
    const factory = new FakeIDBFactory() as unknown as IDBFactory;
    const first = new IndexedDbFileQueueStore('queue-b', factory);
    const q1 = queueOver(first, false);
    const lying = await q1.enqueue({
      filename: 'fake.jpg',
      mime: 'image/jpeg',
      bytes: pdfSample(),
      model: 'Aircraft',
      foreignKey: aircraftId(s),
    });
    first.close();
    const q2 = queueOver(new IndexedDbFileQueueStore('queue-b', factory), true);
    expect((await q2.list()).map((f) => f.id)).toEqual([lying.id]);
    expect(await q2.process()).toEqual({ [lying.id]: 'failed' });
    const [failed] = await q2.list();
    expect(failed).toMatchObject({ state: 'failed' });
    expect(failed!.error).toMatch(/does not match/);
    expect(await q2.pendingCount()).toBe(0);
    expect((await uploadRow(s, failed!.uploadId!))?.deleted).toBe(1);
    expect(await q2.process()).toEqual({});
    await expect(
      q2.enqueue({
        filename: 'x.exe',
        mime: 'application/x-msdownload',
        bytes: new Uint8Array(3),
        model: 'Aircraft',
        foreignKey: 'x',
      }),
    ).rejects.toThrow(/Unsupported/);
  });
});
