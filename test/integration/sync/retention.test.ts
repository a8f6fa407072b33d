import { uuidv7 } from '@ops/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { horizonOf, purgeTombstones } from '../../../server/src/sync/retention.ts';
import { DIALECTS } from '../../setup/dialects.ts';
import { Device } from '../../setup/device.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { pullAll } from '../../setup/sync.ts';

const DAY = 86400;
const now = () => Math.floor(Date.now() / 1000);

const until = async (check: () => Promise<boolean> | boolean, timeoutMs = 20_000) => {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
};

/** Tombstone retention (docs/sync.md): purge older than SYNC_TOMBSTONE_DAYS, 410 below the horizon. */
describe.each(DIALECTS)('tombstone retention on %s', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(dialect);
  });
  afterAll(() => s?.close());

  const company = () => s.refs.companies.skyline;

  async function notify(userId: string, title: string): Promise<string> {
    const id = uuidv7();
    await s.ctx.tx(async (uow) => {
      const t = now();
      await uow.trx
        .insertInto('notifications')
        .values({
          id,
          company_id: company(),
          change_no: await uow.changeNo(company(), 'notifications'),
          deleted: 0,
          created: t,
          modified: t,
          user_id: userId,
          title,
          body: null,
          link: null,
          read: 0,
        })
        .execute();
    });
    return id;
  }

  /** Deletes a notification as if it happened `age` seconds ago (its tombstone is that old). */
  async function deleteAged(id: string, age: number): Promise<void> {
    await s.ctx.tx(async (uow) => {
      await uow.trx
        .updateTable('notifications')
        .set({ deleted: 1, modified: now() - age, change_no: await uow.changeNo(company(), 'notifications') })
        .where('id', '=', id)
        .execute();
    });
  }

  it('purges tombstones older than the horizon only; a pull from before it answers 410, other companies are untouched', async () => {
    const pilot = await s.login('pilot@skyline.test');
    const harbor = await s.login('admin@harbor.test');
    const pilotId = s.userId('pilot@skyline.test');
    const old = await notify(pilotId, 'Old news');
    const recent = await notify(pilotId, 'Recent news');
    const before = await pullAll(s, pilot, 'inbox');
    const harborBefore = await pullAll(s, harbor, 'inbox');
    await deleteAged(old, 91 * DAY);
    await deleteAged(recent, 1 * DAY);
    // Two server processes purging at once: the same end state, no error.
    const counts = await Promise.all([purgeTombstones(s.ctx.db, 90), purgeTombstones(s.ctx.db, 90)]);
    expect(counts[0] + counts[1]).toBeGreaterThanOrEqual(1);
    expect(
      await s.ctx.db.selectFrom('notifications').select('id').where('id', '=', old).executeTakeFirst(),
    ).toBeUndefined();
    expect(
      await s.ctx.db.selectFrom('notifications').select('deleted').where('id', '=', recent).executeTakeFirstOrThrow(),
    ).toMatchObject({ deleted: 1 });
    expect(await horizonOf(s.ctx.db, company())).toBeGreaterThan(before.checkpoint.seq);

    const stale = await s.api('POST', '/sync/inbox/pull.json', {
      token: pilot,
      body: { checkpoint: before.checkpoint, limit: 100 },
    });
    expect(stale.status).toBe(410);
    const fresh = await pullAll(s, pilot, 'inbox');
    expect(fresh.docs.map((d) => d.id)).not.toContain(old);
    // A first pull sends no tombstones at all.
    expect(fresh.docs.map((d) => d.id)).not.toContain(recent);
    // Its checkpoint is at or above the horizon: the next pull is not a 410 (only tombstones after it may follow).
    expect(fresh.checkpoint.seq).toBeGreaterThanOrEqual(await horizonOf(s.ctx.db, company()));
    const after = await pullAll(s, pilot, 'inbox', fresh.checkpoint);
    expect(after.docs.every((d) => d._deleted)).toBe(true);
    // Harbor's horizon did not move.
    expect(
      (
        await s.api('POST', '/sync/inbox/pull.json', {
          token: harbor,
          body: { checkpoint: harborBefore.checkpoint, limit: 100 },
        })
      ).status,
    ).toBe(200);
  });

  it('a device offline for longer than the horizon re-pulls, keeps its pending writes and ends equal to the server', async () => {
    const pilotId = s.userId('pilot@skyline.test');
    const keep = await notify(pilotId, 'Read me offline');
    const gone = await notify(pilotId, 'Deleted while away');
    const device = await Device.open(s.baseUrl, 'pilot@skyline.test');
    try {
      const local = await device.find('notifications', { id: keep });
      expect(local).toHaveLength(1);
      await device.offline();
      const { _meta, _rev, _attachments, _deleted, ...doc } = local[0];
      await device.save('notifications', { ...doc, read: true });
      // While it is away: a deletion, older than the horizon by the time it returns, is purged.
      await deleteAged(gone, 120 * DAY);
      expect(await purgeTombstones(s.ctx.db, 90)).toBeGreaterThanOrEqual(1);
      await device.online();
      expect(
        await until(
          async () =>
            (await device.state()).pendingWrites === 0 &&
            (await device.find('notifications', { id: gone })).length === 0,
        ),
      ).toBe(true);
      // The offline edit reached the server, and the device holds exactly what the server shows it.
      expect(
        (await s.ctx.db.selectFrom('notifications').select('read').where('id', '=', keep).executeTakeFirstOrThrow())
          .read,
      ).toBeTruthy();
      const server = await pullAll(s, await s.login('pilot@skyline.test'), 'inbox');
      const visible = server.docs.filter((d) => !d._deleted);
      const strip = ({ _meta: _m, _rev: _r, _attachments: _a, _deleted: _d, ...d }: Record<string, unknown>) => d;
      const mine = (await device.find('inbox')).map(strip);
      const byId = (a: Record<string, unknown>, b: Record<string, unknown>) => (String(a.id) < String(b.id) ? -1 : 1);
      expect(JSON.parse(JSON.stringify(mine.sort(byId)))).toEqual(
        JSON.parse(JSON.stringify(visible.map(strip).sort(byId))),
      );
    } finally {
      await device.close();
    }
  });
});
