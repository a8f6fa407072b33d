/**
 * Bounded devices (docs/sync.md): a first pull (null checkpoint) of an office
 * user leaves out flights and bookings older than 12 months and closed
 * aircraft reports unchanged for 12 months; a pilot's first pull keeps every
 * flight and booking of theirs; a later pull sends any change, old records
 * included.
 */
import { uuidv7 } from '@ops/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../../server/src/db/unit-of-work.ts';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';

type Doc = { id: string; type?: string; _deleted?: boolean };
const DAY = 86_400;

describe.each(DIALECTS)('first-pull bounds on %s', (dialect) => {
  let s: TestServer;
  const ids = { oldOwn: uuidv7(), oldOther: uuidv7(), recent: uuidv7(), oldBooking: uuidv7(), oldOwnBooking: uuidv7() };
  const reports = { oldClosed: uuidv7(), oldOpen: uuidv7() };

  const pull = async (token: string, collection: string, checkpoint: unknown = null) => {
    const docs: Doc[] = [];
    let cp = checkpoint;
    for (;;) {
      const r = await s.api('POST', `/sync/${collection}/pull.json`, { token, body: { checkpoint: cp, limit: 1000 } });
      expect(r.status).toBe(200);
      docs.push(...r.body.documents);
      cp = r.body.checkpoint;
      if (r.body.documents.length < 1000) return { docs, checkpoint: cp };
    }
  };
  const has = (docs: Doc[], id: string) => docs.some((d) => d.id === id && !d._deleted);

  beforeAll(async () => {
    s = await startTestServer(dialect, { seed: 'demo' });
    const db = s.ctx.db;
    const company = s.refs.companies.skyline;
    const pilot = s.userId('pilot@skyline.test');
    const other = s.userId('instructor@skyline.test');
    const now = Math.floor(Date.now() / 1000);
    const flight = await db
      .selectFrom('flights')
      .selectAll()
      .where('company_id', '=', company)
      .executeTakeFirstOrThrow();
    const booking = await db
      .selectFrom('schedules')
      .selectAll()
      .where('company_id', '=', company)
      .executeTakeFirstOrThrow();
    const report = await db
      .selectFrom('aircraft_reports')
      .selectAll()
      .where('company_id', '=', company)
      .executeTakeFirstOrThrow();
    const threeYearsAgo = now - 3 * 365 * DAY;
    const oldDate = new Date(threeYearsAgo * 1000).toISOString().slice(0, 10);
    const recentDate = new Date((now - 30 * DAY) * 1000).toISOString().slice(0, 10);
    await inTransaction(db, null, async (uow) => {
      const f = await uow.changeNo(company, 'flights');
      const flightRow = (id: string, date: string, pic: string) => ({
        ...flight,
        id,
        date,
        pic_id: pic,
        sic_id: null,
        supervisor_id: null,
        user_id: pic,
        change_no: f,
      });
      await uow.trx
        .insertInto('flights')
        .values([
          flightRow(ids.oldOwn, oldDate, pilot),
          flightRow(ids.oldOther, oldDate, other),
          flightRow(ids.recent, recentDate, other),
        ])
        .execute();
      const b = await uow.changeNo(company, 'schedules');
      const bookingRow = (id: string, who: string) => ({
        ...booking,
        id,
        pilot_id: who,
        instructor_id: null,
        user_id: who,
        flight_id: null,
        start_at: threeYearsAgo,
        end_at: threeYearsAgo + 3600,
        change_no: b,
      });
      await uow.trx
        .insertInto('schedules')
        .values([bookingRow(ids.oldBooking, other), bookingRow(ids.oldOwnBooking, pilot)])
        .execute();
      const r = await uow.changeNo(company, 'aircraft_reports');
      const reportRow = (id: string, status: string) => ({
        ...report,
        id,
        type: 'DEFECT',
        status,
        created: threeYearsAgo,
        modified: threeYearsAgo,
        change_no: r,
      });
      await uow.trx
        .insertInto('aircraft_reports')
        .values([reportRow(reports.oldClosed, 'CLOSED'), reportRow(reports.oldOpen, 'OPEN')])
        .execute();
    });
  });
  afterAll(() => s?.close());

  it("an office device's first pull holds the last 12 months of flights and bookings, open reports and recent closed ones", async () => {
    const token = await s.login('admin@skyline.test');
    const flights = await pull(token, 'flights');
    expect(has(flights.docs, ids.recent)).toBe(true);
    expect(has(flights.docs, ids.oldOwn)).toBe(false);
    expect(has(flights.docs, ids.oldOther)).toBe(false);
    const bookings = await pull(token, 'bookings');
    expect(bookings.docs.length).toBeGreaterThan(0);
    expect(has(bookings.docs, ids.oldBooking)).toBe(false);
    const fleet = await pull(token, 'fleet');
    expect(has(fleet.docs, reports.oldOpen)).toBe(true);
    expect(has(fleet.docs, reports.oldClosed)).toBe(false);
    expect(fleet.docs.some((d) => d.type === 'aircraft')).toBe(true);

    // A correction to an old flight reaches the device at its next pull.
    const company = s.refs.companies.skyline;
    await inTransaction(s.ctx.db, null, async (uow) => {
      const n = await uow.changeNo(company, 'flights');
      await uow.trx
        .updateTable('flights')
        .set({ remarks: 'corrected', change_no: n })
        .where('company_id', '=', company)
        .where('id', '=', ids.oldOther)
        .execute();
    });
    const next = await pull(token, 'flights', flights.checkpoint);
    expect(next.docs.map((d) => d.id)).toEqual([ids.oldOther]);
    expect(next.docs[0]).toMatchObject({ remarks: 'corrected' });
  });

  it('a load from nothing reads every page as a first pull; a row hidden during the load leaves after it', async () => {
    const token = await s.login('pilot@skyline.test');
    const page = async (checkpoint: unknown, limit = 1) =>
      (await s.api('POST', '/sync/flights/pull.json', { token, body: { checkpoint, limit } })).body as {
        documents: Doc[];
        checkpoint: { seq: number; id: string; snap?: number };
      };
    const first = await page(null);
    expect(first.documents).toHaveLength(1);
    expect(first.checkpoint.snap).toEqual(expect.any(Number));
    // The flight on the first page gets another crew while the device is still loading.
    const company = s.refs.companies.skyline;
    const other = s.userId('instructor@skyline.test');
    await inTransaction(s.ctx.db, null, async (uow) => {
      const n = await uow.changeNo(company, 'flights');
      await uow.trx
        .updateTable('flights')
        .set({ pic_id: other, sic_id: null, user_id: other, supervisor_id: null, change_no: n })
        .where('company_id', '=', company)
        .where('id', '=', first.documents[0].id)
        .execute();
    });
    let cp = first.checkpoint;
    const pages: Doc[][] = [first.documents];
    for (let i = 0; i < 500 && pages.at(-1)?.length === 1; i++) {
      const p = await page(cp);
      pages.push(p.documents);
      cp = p.checkpoint;
    }
    // Only the pilot's own flights, never the company's other flights as deletions.
    const loaded = pages.flat();
    expect(loaded.filter((d) => d._deleted)).toEqual([]);
    expect(loaded.length).toBeGreaterThanOrEqual(2);
    expect(cp.snap).toBeUndefined();
    expect(cp.seq).toBe(first.checkpoint.snap);
    // After the load: the changes since it began, the hidden flight as a deletion.
    const after = await page(cp, 1000);
    expect(after.documents).toContainEqual(expect.objectContaining({ id: first.documents[0].id, _deleted: true }));
    // Anything else is a deletion of a row changed at `snap` the pilot never had (harmless on the device).
    const ids = new Set(loaded.map((d) => d.id));
    for (const d of after.documents)
      if (d.id !== first.documents[0].id) expect(d._deleted && !ids.has(d.id)).toBe(true);
  });

  it("a pilot's first pull holds every flight and booking of theirs, however old", async () => {
    const token = await s.login('pilot@skyline.test');
    const flights = await pull(token, 'flights');
    expect(has(flights.docs, ids.oldOwn)).toBe(true);
    expect(has(flights.docs, ids.oldOther)).toBe(false);
    const bookings = await pull(token, 'bookings');
    expect(has(bookings.docs, ids.oldOwnBooking)).toBe(true);
    expect(has(bookings.docs, ids.oldBooking)).toBe(false);
  });
});
