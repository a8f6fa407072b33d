/**
 * The size of a first load (issue 35, "Progress as a percentage"): the first
 * page of a load from nothing, asked with `count: true`, carries `total`, the
 * documents the whole load brings. It is counted like the load itself: the
 * viewer's rows only (a pilot's count never includes the company's other
 * flights, bookings or safety drafts), the device's window (an office device's
 * flights of the last 12 months), deletions left out, the caller's company
 * only. Later pages and pulls without `count` carry none; bad input is a 400.
 */
import { COLLECTIONS } from '@ops/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../../server/src/db/unit-of-work.ts';
import { seedDeviceBench } from '../../bench/device-seed.ts';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';

type Doc = { id: string; _deleted?: boolean };
type Answer = { documents: Doc[]; checkpoint: Record<string, unknown>; total?: number };

describe.each(DIALECTS)('first-load totals on %s', (dialect) => {
  let s: TestServer;

  /** A whole load from nothing: the first page's total and the live ids every page brought. */
  const load = async (token: string, collection: string, limit = 200) => {
    const first = await s.api('POST', `/sync/${collection}/pull.json`, {
      token,
      body: { checkpoint: null, limit, count: true },
    });
    expect(first.status).toBe(200);
    const ids = new Set<string>();
    let page = first.body as Answer;
    for (;;) {
      for (const d of page.documents) if (!d._deleted) ids.add(d.id);
      if (page.documents.length < limit) break;
      const next = await s.api('POST', `/sync/${collection}/pull.json`, {
        token,
        body: { checkpoint: page.checkpoint, limit, count: true },
      });
      expect(next.status).toBe(200);
      // Only the first page counts: a later one would cost a count per page.
      expect(next.body.total).toBeUndefined();
      page = next.body as Answer;
    }
    return { total: (first.body as Answer).total, ids };
  };

  beforeAll(async () => {
    s = await startTestServer(dialect, { seed: 'demo' });
    // Ten years of flights (one in 60 the fixture pilot's), five of bookings: most outside an office device's window.
    await seedDeviceBench(s, {
      users: 40,
      students: 5,
      flights: 900,
      bookings: 400,
      aircraftReports: 120,
      safetyReports: 60,
    });
  });
  afterAll(() => s?.close());

  it("counts exactly what an office device's load brings, collection by collection, within its window", async () => {
    const token = await s.login('admin@skyline.test');
    for (const def of COLLECTIONS) {
      const { total, ids } = await load(token, def.name);
      // Reference documents may come from two sources (an airport used by flights and a base): an upper bound there.
      if (def.name === 'reference') expect(total).toBeGreaterThanOrEqual(ids.size);
      else expect({ collection: def.name, total }).toEqual({ collection: def.name, total: ids.size });
    }
    const flights = await load(token, 'flights');
    // The window: about a tenth of ten years of flights, not all of them.
    const all = await s.ctx.db
      .selectFrom('flights')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('company_id', '=', s.refs.companies.skyline)
      .where('deleted', '=', 0)
      .executeTakeFirstOrThrow();
    expect(flights.total).toBeGreaterThan(50);
    expect(flights.total).toBeLessThan(Number(all.n) / 3);
  });

  it("a pilot's count holds only what the pilot may see, however large the company", async () => {
    const admin = await s.login('admin@skyline.test');
    const pilot = await s.login('pilot@skyline.test');
    for (const name of ['flights', 'bookings', 'safety', 'training', 'device', 'files']) {
      const mine = await load(pilot, name);
      expect({ name, total: mine.total }).toEqual({ name, total: mine.ids.size });
    }
    // Every flight naming the pilot, however old (their logbook), and none of the others.
    const flights = await load(pilot, 'flights');
    const named = await s.ctx.db
      .selectFrom('flights')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('company_id', '=', s.refs.companies.skyline)
      .where('deleted', '=', 0)
      .where((eb) =>
        eb.or(
          ['pic_id', 'sic_id', 'supervisor_id', 'user_id'].map((f) =>
            eb(f as 'pic_id', '=', s.userId('pilot@skyline.test')),
          ),
        ),
      )
      .executeTakeFirstOrThrow();
    expect(flights.total).toBe(Number(named.n));
    const office = await load(admin, 'bookings');
    const own = await load(pilot, 'bookings');
    expect(own.total).toBeLessThan(office.total ?? 0);
  });

  it('another company counts only its own records', async () => {
    const harbor = await s.login('admin@harbor.test');
    const skyline = await s.login('admin@skyline.test');
    for (const name of ['flights', 'bookings', 'fleet', 'people']) {
      const theirs = await load(harbor, name);
      const ours = await load(skyline, name);
      expect({ name, total: theirs.total }).toEqual({ name, total: theirs.ids.size });
      expect(theirs.total).toBeLessThan(ours.total ?? 0);
    }
  });

  it('a deleted flight leaves the count; a pull without `count` or after the first page has none', async () => {
    const token = await s.login('admin@skyline.test');
    const before = await load(token, 'flights');
    const company = s.refs.companies.skyline;
    const victim = [...before.ids][0];
    await inTransaction(s.ctx.db, null, async (uow) => {
      const n = await uow.changeNo(company, 'flights');
      await uow.trx
        .updateTable('flights')
        .set({ deleted: 1, change_no: n })
        .where('company_id', '=', company)
        .where('id', '=', victim)
        .execute();
    });
    const after = await load(token, 'flights');
    expect(after.total).toBe((before.total ?? 0) - 1);
    expect(after.ids.has(victim)).toBe(false);

    const plain = await s.api('POST', '/sync/flights/pull.json', { token, body: { checkpoint: null, limit: 10 } });
    expect(plain.status).toBe(200);
    expect(plain.body.total).toBeUndefined();
  });

  it('refuses a count that is not a boolean with a 400 in the error shape', async () => {
    const token = await s.login('pilot@skyline.test');
    const r = await s.api('POST', '/sync/flights/pull.json', {
      token,
      body: { checkpoint: null, limit: 10, count: 'yes' },
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ result: false, message: expect.any(String) });
    const unknown = await s.api('POST', '/sync/nothing/pull.json', { token, body: { checkpoint: null, count: true } });
    expect(unknown.status).toBe(404);
  });
});
