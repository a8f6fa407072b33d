import { commandsCollection } from '@ops/shared';
import { createRxDatabase, type RxDatabase } from 'rxdb';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Commands } from './commands.ts';
import { type OpsCollections, serverWins, toRxSchema } from './database.ts';

describe('Commands', () => {
  let db: RxDatabase<OpsCollections>;
  let commands: Commands;
  beforeEach(async () => {
    db = await createRxDatabase<OpsCollections>({
      name: `cmd${Date.now()}${Math.random().toString(36).slice(2)}`,
      storage: getRxStorageMemory(),
      multiInstance: false,
    });
    await db.addCollections({ commands: { schema: toRxSchema(commandsCollection), conflictHandler: serverWins } });
    commands = new Commands(db.collections.commands, 'user-1');
  });
  afterEach(async () => {
    await db.close();
  });

  const settledFlag = (p: Promise<unknown>) => {
    const s = { settled: false };
    void p.then(() => {
      s.settled = true;
    });
    return s;
  };

  it('queues a pending command and resolves done when the document is updated to accepted', async () => {
    const pending: number[] = [];
    const sub = commands.pending$.subscribe((p) => pending.push(p.length));
    const before = Date.now();
    const q = await commands.run('base.set_default', { base_id: 'b1' });
    const stored = (await db.collections.commands.findOne(q.id).exec())!.toJSON();
    expect(stored).toMatchObject({
      name: 'base.set_default',
      args: { base_id: 'b1' },
      status: 'pending',
      user_id: 'user-1',
      reason: null,
      result: null,
    });
    expect(stored.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    expect(stored.client_time).toBeGreaterThanOrEqual(before);
    const s = settledFlag(q.done);
    await new Promise((r) => setTimeout(r, 20));
    expect(s.settled).toBe(false);
    // An unrelated update keeps it pending.
    await db.collections.commands.upsert({ ...stored, details: { note: 'still waiting' } });
    await new Promise((r) => setTimeout(r, 20));
    expect(s.settled).toBe(false);
    // The server's decision arrives as an update of the same document (pull, stream or push answer).
    await db.collections.commands.upsert({
      ...stored,
      status: 'accepted',
      result: { base_id: 'b1', previous: 'b0' },
      decided_at: 1,
    });
    const decided = await q.done;
    expect(decided).toMatchObject({ status: 'accepted', result: { base_id: 'b1', previous: 'b0' } });
    if (decided.status === 'accepted') expect(decided.result?.previous).toBe('b0'); // typed by OpsCommands
    await new Promise((r) => setTimeout(r, 20));
    expect(pending).toContain(1);
    expect(pending.at(-1)).toBe(0);
    sub.unsubscribe();
  });

  it('resolves done with the reason when the server rejects', async () => {
    const q = await commands.run('mel.extend', { report_id: 'r1', extended_until: 123, reason: 'Part on order' });
    const stored = (await db.collections.commands.findOne(q.id).exec())!.toJSON();
    await db.collections.commands.upsert({
      ...stored,
      status: 'rejected',
      reason: 'Item already extended',
      decided_at: 1,
    });
    await expect(q.done).resolves.toMatchObject({ status: 'rejected', reason: 'Item already extended' });
  });

  it('finds the decision of a command queued in an earlier session', async () => {
    const q = await commands.run('flight.confirm', { flight_id: 'f1' });
    const again = new Commands(db.collections.commands, 'user-1').decided(q.id);
    const stored = (await db.collections.commands.findOne(q.id).exec())!.toJSON();
    await db.collections.commands.upsert({
      ...stored,
      status: 'accepted',
      result: { flight_id: 'f1', status: 'LANDED' },
    });
    await expect(again).resolves.toMatchObject({ status: 'accepted' });
  });
});
