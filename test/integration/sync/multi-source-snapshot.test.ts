import { ROLES, uuidv7, visibilityFingerprint } from '@ops/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../../server/src/http/actor.ts';
import { pullCollection } from '../../../server/src/sync/pull.ts';
import {
  getCollection,
  type RegisteredCollection,
  type SyncSource,
  viewerOf,
} from '../../../server/src/sync/registry.ts';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';

/**
 * A collection fed by several sources is read with one statement per source. Here the second
 * statement starts only after change N committed in the first source's table (which its statement
 * did not see) and N+1 in the second's: the pull must not hand out a checkpoint past N, or the
 * next pull from it skips N for good (issue 34's rare missed change).
 */
describe.each(DIALECTS)('a collection of several sources on %s', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(dialect);
  });
  afterAll(() => s?.close());

  it('never passes a change committed between its sources’ reads', async () => {
    const company = s.refs.companies.skyline;
    const userId = s.userId('pilot@skyline.test');
    const actor = { userId, companyId: company, role: ROLES.PILOT } as Actor;
    const device = getCollection('device') as RegisteredCollection;
    const outcomes = device.sources.find((x) => x.source.tables.includes('sync_outcomes'));
    if (!outcomes) throw new Error('device collection without its outcomes source');
    const prefix = uuidv7();
    // Two sources over one table, told apart by a document id mark: `a` read at once, `b` held until `release`.
    let aRead = () => {};
    const aDone = new Promise<void>((r) => {
      aRead = r;
    });
    let release = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const part = (mark: string, before: Promise<void>, after: () => void): SyncSource<unknown> => ({
      tables: outcomes.source.tables,
      async read(db, companyId, from, limit, onlyVisibleTo) {
        await before;
        const rows = await outcomes.source.read(db, companyId, from, limit, onlyVisibleTo);
        after();
        return rows.filter((r) => (r.doc as { document_id: string }).document_id === `${prefix}-${mark}`);
      },
    });
    const gated: RegisteredCollection = {
      ...device,
      sources: [
        { source: part('a', Promise.resolve(), aRead), type: outcomes.type },
        { source: part('b', gate, () => {}), type: outcomes.type },
      ],
    };
    const write = (mark: string) =>
      s.ctx.tx(async (uow) => {
        const now = Math.floor(Date.now() / 1000);
        await uow.trx
          .insertInto('sync_outcomes')
          .values({
            id: uuidv7(),
            company_id: company,
            change_no: await uow.changeNo(company, 'sync_outcomes'),
            deleted: 0,
            created: now,
            modified: now,
            user_id: userId,
            collection: 'flights',
            document_id: `${prefix}-${mark}`,
            status: 'rejected',
            reason: mark,
            attempted: null,
          })
          .execute();
      });
    // A device that is up to date: its checkpoint at the company's current change number.
    const counter = await s.ctx.db
      .selectFrom('sync_counters')
      .select('value')
      .where('company_id', '=', company)
      .executeTakeFirstOrThrow();
    const checkpoint = { seq: Number(counter.value), id: '', fp: visibilityFingerprint(viewerOf(actor)) };
    const pulling = pullCollection(s.ctx, actor, gated, checkpoint, 1000);
    await aDone;
    await write('a');
    await write('b');
    release();
    const first = await pulling;
    const second = await pullCollection(s.ctx, actor, gated, first.checkpoint, 1000);
    const seen = [...first.documents, ...second.documents].map((d) => (d as { document_id: string }).document_id);
    // Both changes reach the reader: `a` is not skipped by a checkpoint that passed it.
    expect(seen.sort()).toEqual([`${prefix}-a`, `${prefix}-b`]);
  });
});
