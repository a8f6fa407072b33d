import { commandsCollection } from '@ops/shared';
import { createRxDatabase } from 'rxdb';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { describe, expect, it } from 'vitest';
import { Commands } from './commands.ts';
import { toRxSchema } from './database.ts';

describe('Commands', () => {
  it('queues a pending command offline and resolves done when the decision arrives', async () => {
    const db = await createRxDatabase({ name: 'cmdtest', storage: getRxStorageMemory(), multiInstance: false });
    await db.addCollections({ commands: { schema: toRxSchema(commandsCollection) } });
    const commands = new Commands(db.collections.commands, 'user-1');
    const pending: number[] = [];
    const sub = commands.pending$.subscribe((p) => pending.push(p.length));
    const q = await commands.run('mel.extend', { report_id: 'r1', extended_until: 123 });
    const stored = (await db.collections.commands.findOne(q.id).exec())!.toJSON();
    expect(stored).toMatchObject({ name: 'mel.extend', status: 'pending', user_id: 'user-1' });
    let settled = false;
    void q.done.then(() => {
      settled = true;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(settled).toBe(false);
    // The server's decision comes back through replication as an update of the same document.
    await db.collections.commands.upsert({ ...stored, status: 'rejected', reason: 'Item already extended', decided_at: 1 });
    await expect(q.done).resolves.toMatchObject({ status: 'rejected', reason: 'Item already extended' });
    expect(pending.at(-1)).toBe(0);
    expect(pending).toContain(1);
    sub.unsubscribe();
    await db.close();
  });
});
