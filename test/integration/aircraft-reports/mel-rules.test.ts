import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { DAY, createReport, insertFlight, melBody, statusOf, tokens, u } from './fleet-helpers.ts';

/**
 * MEL and CDL windows, counters, derived status, extension and dispatch block
 * through HTTP, with the server's clock set by faking Date in this process
 * (the test server runs in-process). Company zone: Europe/Madrid, whose
 * clocks go forward on 2026-03-29.
 */
const T0 = '2026-03-27T10:00:00+01:00';
const at = (iso: string) => vi.setSystemTime(new Date(iso));

describe.each(DIALECTS)('MEL and CDL rules on %s', (dialect) => {
  let s: TestServer;
  const t = tokens(() => s);
  let mech: string;
  let n = 0;
  /** A fresh aircraft per scenario, so statuses of one test never leak into another. */
  const plane = async (flights = 0, landings = 0) => {
    n += 1;
    const r = await s.api('POST', '/manager/aircraft/add.json', {
      token: await t('admin@skyline.test'),
      body: {
        Aircraft: { registration: `EC-M${String(n).padStart(2, '0')}`, model_name: 'Cessna 172S', flights, landings },
      },
    });
    expect(r.status).toBe(200);
    return r.body.id as string;
  };
  const raise = async (aircraftId: string, mel: Record<string, unknown>, report: Record<string, unknown> = {}) => {
    const r = await createReport(s, await t('mechanic@skyline.test'), melBody(aircraftId, mech, mel, report));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.id as string;
  };
  const item = async (reportId: string) =>
    (
      await s.api('GET', `/maintenance/aircraft_reports/view/${reportId}.json`, {
        token: await t('mechanic@skyline.test'),
      })
    ).body.MelItem;
  const derived = async (aircraftId: string, reportId: string) => {
    const st = await statusOf(s, await t('pilot@skyline.test'), aircraftId);
    return st.items.find((i: any) => i.report_id === reportId)?.status;
  };

  beforeAll(async () => {
    s = await startTestServer(dialect);
    mech = s.userId('mechanic@skyline.test');
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => at(T0));
  afterAll(async () => {
    vi.useRealTimers();
    await s?.close();
  });

  describe('windows per category, in calendar days of the company zone', () => {
    it('B, C and D start at the company midnight after raising and end after 3, 10 and 120 days, across the DST change', async () => {
      at(T0);
      const a = await plane();
      const b = await item(await raise(a, { category: 'B' }));
      const c = await item(await raise(a, { category: 'C' }));
      const d = await item(await raise(a, { category: 'D' }));
      const starts = u('2026-03-28T00:00:00+01:00');
      expect([b.starts, c.starts, d.starts]).toEqual([starts, starts, starts]);
      expect(b).toMatchObject({
        interval_type: 'CALENDAR_DAYS',
        interval_value: 3,
        expires: u('2026-03-31T00:00:00+02:00'),
      });
      expect(c).toMatchObject({
        interval_type: 'CALENDAR_DAYS',
        interval_value: 10,
        expires: u('2026-04-07T00:00:00+02:00'),
      });
      expect(d).toMatchObject({
        interval_type: 'CALENDAR_DAYS',
        interval_value: 120,
        expires: u('2026-07-26T00:00:00+02:00'),
      });
      // The window holds 71 hours: the night of the change is one hour short.
      expect(b.expires - b.starts).toBe(3 * DAY - 3600);
    });

    it('counts the day in the company zone, not in UTC', async () => {
      at('2026-03-27T23:30:00Z'); // 00:30 on the 28th in Madrid
      const b = await item(await raise(await plane(), { category: 'B' }));
      expect(b.starts).toBe(u('2026-03-29T00:00:00+01:00'));
      expect(b.expires).toBe(u('2026-04-01T00:00:00+02:00'));
      at('2026-03-27T22:30:00Z'); // 23:30 on the 27th in Madrid
      const late = await item(await raise(await plane(), { category: 'B' }));
      expect(late.starts).toBe(u('2026-03-28T00:00:00+01:00'));
    });

    it('a CDL item with a category gets the same window; without one it has none and never expires', async () => {
      at(T0);
      const a = await plane();
      const withCat = await raise(a, { category: 'B' }, { type: 'CDL' });
      const noCat = await raise(a, { category: null }, { type: 'CDL' });
      expect((await item(withCat)).expires).toBe(u('2026-03-31T00:00:00+02:00'));
      expect(await item(noCat)).toMatchObject({
        category: null,
        interval_type: null,
        interval_value: null,
        expires: null,
        starts: u('2026-03-28T00:00:00+01:00'),
      });
      at('2026-04-09T00:00:00+02:00'); // sessions last 14 days: stay inside them
      expect(await derived(a, noCat)).toBe('OPEN');
      expect(await derived(a, withCat)).toBe('EXPIRED');
    });

    it('a posted interval overrides the category default; counter intervals have no expiry', async () => {
      at(T0);
      const a = await plane(40, 90);
      const cal = await item(await raise(a, { category: 'C', interval_type: 'CALENDAR_DAYS', interval_value: 5 }));
      expect(cal.expires).toBe(u('2026-04-02T00:00:00+02:00'));
      const fl = await item(await raise(a, { category: 'A', interval_type: 'FLIGHTS', interval_value: 3 }));
      expect(fl).toMatchObject({
        interval_type: 'FLIGHTS',
        interval_value: 3,
        expires: null,
        baseline_flights: 40,
        baseline_cycles: null,
      });
      const cy = await item(await raise(a, { category: 'B', interval_type: 'CYCLES', interval_value: 5 }));
      // Decision: baseline_cycles is populated from the aircraft's landings (the spec notes nothing did).
      expect(cy).toMatchObject({ interval_type: 'CYCLES', expires: null, baseline_flights: null, baseline_cycles: 90 });
      const nf = await item(await raise(a, { category: 'A' }));
      expect(nf).toMatchObject({
        interval_type: 'NEXT_FLIGHT',
        interval_value: null,
        expires: null,
        baseline_flights: 40,
      });
    });
  });

  describe('derived status', () => {
    it('is OPEN until 3 days before expiry, EXPIRING_SOON from then, EXPIRED at expiry; blocked from the first expired item', async () => {
      at(T0);
      const a = await plane();
      const id = await raise(a, { category: 'B' }, { ata_chapter: '34-51', title: 'VOR 2 inoperative' });
      const expires = u('2026-03-31T00:00:00+02:00');
      const check = async (instant: number, status: string, blocked: boolean) => {
        vi.setSystemTime(new Date(instant * 1000));
        const st = await statusOf(s, await t('pilot@skyline.test'), a);
        expect(st.items.find((i: any) => i.report_id === id).status, new Date(instant * 1000).toISOString()).toBe(
          status,
        );
        expect(st.blocked).toBe(blocked);
        return st;
      };
      await check(u(T0), 'OPEN', false);
      await check(expires - 3 * DAY - 1, 'OPEN', false);
      await check(expires - 3 * DAY, 'EXPIRING_SOON', false);
      await check(expires - 1, 'EXPIRING_SOON', false);
      const st = await check(expires, 'EXPIRED', true);
      expect(st.blockReason).toBe('MEL item 34-51 (category B) expired: VOR 2 inoperative');
      expect(st.items[0].deadline).toEqual({ kind: 'time', expires });
    });

    it('blocks as soon as one of several items is expired and names the first expired one', async () => {
      at(T0);
      const a = await plane();
      await raise(a, { category: 'D' }, { title: 'Cabin light', ata_chapter: '33' });
      at('2026-03-27T10:05:00+01:00'); // items are listed oldest first
      await raise(a, { category: 'B' }, { title: 'Pitot heat', ata_chapter: '30-31', type: 'CDL' });
      at('2026-04-01T12:00:00+02:00');
      const st = await statusOf(s, await t('pilot@skyline.test'), a);
      expect(st.items.map((i: any) => i.status)).toEqual(['OPEN', 'EXPIRED']);
      expect(st).toMatchObject({ blocked: true, blockReason: 'CDL item 30-31 (category B) expired: Pitot heat' });
      const summary = await s.api('GET', '/maintenance/aircraft_reports/mel_summary.json', {
        token: await t('pilot@skyline.test'),
      });
      expect(summary.body.aircraft.find((x: any) => x.aircraft_id === a)).toMatchObject({
        open: 2,
        expiring_soon: 0,
        expired: 1,
        blocked: true,
      });
    });

    it('a closed item is no longer listed and no longer blocks', async () => {
      at(T0);
      const a = await plane();
      const id = await raise(a, { category: 'B' });
      at('2026-04-02T00:00:00+02:00');
      expect((await statusOf(s, await t('pilot@skyline.test'), a)).blocked).toBe(true);
      const close = await s.api('POST', `/maintenance/aircraft_reports/edit/${id}.json`, {
        token: await t('mechanic@skyline.test'),
        body: { AircraftReport: { status: 'CLOSED' } },
      });
      expect(close.status).toBe(200);
      const st = await statusOf(s, await t('pilot@skyline.test'), a);
      expect(st).toMatchObject({ blocked: false, blockReason: null, items: [] });
      expect((await item(id)).status).toBe('CLOSED');
    });

    it('NEXT_FLIGHT: due before the next flight; the first LANDED flight after raising expires it', async () => {
      at(T0);
      const a = await plane(12, 30);
      // Flown before the defect was found, confirmed afterwards: it does not count.
      await insertFlight(s, { aircraftId: a, onblocks: u(T0) - 3600 });
      const id = await raise(a, { category: 'A' }, { ata_chapter: '21', title: 'Pack valve' });
      expect(await derived(a, id)).toBe('EXPIRING_SOON');
      await insertFlight(s, { aircraftId: a, onblocks: u(T0) + 3600, status: 'DISPATCHED' });
      await insertFlight(s, { aircraftId: a, onblocks: u(T0) + 3600, status: 'CANCELED' });
      at('2026-03-27T13:00:00+01:00');
      expect(await derived(a, id)).toBe('EXPIRING_SOON');
      await insertFlight(s, { aircraftId: a, onblocks: u('2026-03-27T12:30:00+01:00') });
      const st = await statusOf(s, await t('pilot@skyline.test'), a);
      expect(st.items[0]).toMatchObject({
        status: 'EXPIRED',
        deadline: { kind: 'counter', unit: 'flights', used: 1, limit: 1, remaining: 0 },
      });
      expect(st.blockReason).toBe('MEL item 21 (category A) expired: Pack valve');
    });

    it('FLIGHTS: open, then expiring with one flight left, then expired', async () => {
      at(T0);
      const a = await plane(5, 5);
      const id = await raise(a, { category: 'A', interval_type: 'FLIGHTS', interval_value: 3 });
      const seen: string[] = [await derived(a, id)];
      for (let i = 1; i <= 3; i++) {
        await insertFlight(s, { aircraftId: a, onblocks: u(T0) + i * 3600 });
        seen.push(await derived(a, id));
      }
      expect(seen).toEqual(['OPEN', 'OPEN', 'EXPIRING_SOON', 'EXPIRED']);
    });

    it('CYCLES: counts landings of LANDED flights since raising', async () => {
      at(T0);
      const a = await plane(5, 500);
      const id = await raise(a, { category: 'B', interval_type: 'CYCLES', interval_value: 5 });
      await insertFlight(s, { aircraftId: a, onblocks: u(T0) + 3600, landings: 3 });
      expect(await derived(a, id)).toBe('OPEN');
      await insertFlight(s, { aircraftId: a, onblocks: u(T0) + 7200, landings: 1 });
      expect(await derived(a, id)).toBe('EXPIRING_SOON');
      await insertFlight(s, { aircraftId: a, onblocks: u(T0) + 10800, landings: 1 });
      expect(await derived(a, id)).toBe('EXPIRED');
    });

    it('FLIGHT_DAYS: counts company-zone days with a flight from the day after raising', async () => {
      at(T0);
      const a = await plane();
      const id = await raise(a, { category: 'C', interval_type: 'FLIGHT_DAYS', interval_value: 2 });
      await insertFlight(s, { aircraftId: a, onblocks: u('2026-03-27T18:00:00+01:00') }); // day of raising
      expect(await derived(a, id)).toBe('OPEN');
      await insertFlight(s, { aircraftId: a, onblocks: u('2026-03-29T09:00:00+02:00') });
      await insertFlight(s, { aircraftId: a, onblocks: u('2026-03-29T17:00:00+02:00') }); // same day
      expect(await derived(a, id)).toBe('EXPIRING_SOON');
      await insertFlight(s, { aircraftId: a, onblocks: u('2026-03-30T23:30:00Z') }); // 01:30 on the 31st in Madrid
      const st = await statusOf(s, await t('pilot@skyline.test'), a);
      expect(st.items[0]).toMatchObject({ status: 'EXPIRED', deadline: { unit: 'flight_days', used: 2 } });
    });
  });

  describe('one-time extension', () => {
    const extend = async (id: string, body: unknown, email = 'mechanic@skyline.test') =>
      s.api('POST', `/maintenance/aircraft_reports/extend/${id}.json`, { token: await t(email), body });
    const row = (id: string) =>
      s.ctx.db.selectFrom('mel_items').selectAll().where('aircraft_report_id', '=', id).executeTakeFirstOrThrow();
    const E = u('2026-03-31T00:00:00+02:00');

    it('is refused to roles other than 1, 100, 105, 110, 300 with 404', async () => {
      at(T0);
      const id = await raise(await plane(), { category: 'B' });
      for (const email of [
        'pilot@skyline.test',
        'dispatch@skyline.test',
        'instructor@skyline.test',
        'student@skyline.test',
      ]) {
        const r = await extend(id, { extended_until: E + DAY }, email);
        expect(r.status, email).toBe(404);
      }
      expect((await row(id)).extended).toBe(0);
      expect((await extend(id, { extended_until: E + DAY }, 'safety@skyline.test')).status).toBe(200);
    });

    it('is refused for category A', async () => {
      at(T0);
      const id = await raise(await plane(), { category: 'A', interval_type: 'FLIGHTS', interval_value: 2 });
      const before = await row(id);
      const r = await extend(id, { extended_until: u(T0) + DAY });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ result: false, message: 'Category A items cannot be extended.' });
      expect(await row(id)).toEqual(before);
    });

    it('needs extended_until', async () => {
      at(T0);
      const id = await raise(await plane(), { category: 'B' });
      const r = await extend(id, { reason: 'parts' });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ result: false, message: 'The new deadline is required.' });
      expect((await row(id)).extended).toBe(0);
    });

    it('allows at most the expiry plus one original interval, once, and then uses the new deadline', async () => {
      at(T0);
      const a = await plane();
      const id = await raise(a, { category: 'B' });
      const limit = u('2026-04-03T00:00:00+02:00');
      const before = await row(id);
      const tooFar = await extend(id, { extended_until: limit + 1, reason: 'parts' });
      expect(tooFar.status).toBe(400);
      expect(tooFar.body.result).toBe(false);
      expect(tooFar.body.message).toMatch(/at most one original interval \(3 days\)/);
      expect(await row(id)).toEqual(before);

      const ok = await extend(id, { extended_until: limit, reason: 'Part on order' });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ result: true, MelItem: { extended: true, extended_until: limit } });
      const m = await item(id);
      expect(m).toMatchObject({
        extended: true,
        extended_by: mech,
        extended_until: limit,
        extension_reason: 'Part on order',
        expires: E,
      });

      at('2026-03-31T12:00:00+02:00'); // past the original expiry
      const st = await statusOf(s, await t('pilot@skyline.test'), a);
      expect(st.items[0].status).toBe('EXPIRING_SOON');
      expect(st.blocked).toBe(false);

      const again = await extend(id, { extended_until: limit });
      expect(again.status).toBe(400);
      expect(again.body.message).toBe('The item has already been extended once.');
      at('2026-04-03T00:00:00+02:00');
      expect((await statusOf(s, await t('pilot@skyline.test'), a)).blocked).toBe(true);
    });

    it('is refused for a closed item', async () => {
      at(T0);
      const id = await raise(await plane(), { category: 'C' });
      await s.api('POST', `/maintenance/aircraft_reports/edit/${id}.json`, {
        token: await t('mechanic@skyline.test'),
        body: { AircraftReport: { status: 'CLOSED' } },
      });
      const r = await extend(id, { extended_until: E + DAY });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe('The item is closed.');
      expect((await row(id)).extended).toBe(0);
    });

    it('is refused for a report without an item', async () => {
      at(T0);
      const r = await createReport(s, await t('mechanic@skyline.test'), {
        AircraftReport: { aircraft_id: await plane(), type: 'DEFECT', title: 'x' },
      });
      const e = await extend(r.body.id, { extended_until: E });
      expect(e.status).toBe(400);
      expect(e.body.result).toBe(false);
    });
  });

  describe('aircraft status endpoint', () => {
    it('needs aircraft_id and lists upcoming jobs of the aircraft', async () => {
      at(T0);
      const token = await t('pilot@skyline.test');
      const missing = await s.api('GET', '/maintenance/aircraft_reports/aircraft_status.json', { token });
      expect(missing.status).toBe(400);
      expect(
        (await s.api('GET', '/maintenance/aircraft_reports/aircraft_status.json?aircraft_id=nope', { token })).status,
      ).toBe(404);
      const a = await plane();
      const mechanic = await t('mechanic@skyline.test');
      const later = await s.api('POST', '/maintenance/jobs/create.json', {
        token: mechanic,
        body: { Job: { aircraft_id: a, name: '100 h', start: u(T0) + 20 * DAY } },
      });
      const sooner = await s.api('POST', '/maintenance/jobs/create.json', {
        token: mechanic,
        body: { Job: { aircraft_id: a, name: '50 h', start: u(T0) + 2 * DAY } },
      });
      const undated = await s.api('POST', '/maintenance/jobs/create.json', {
        token: mechanic,
        body: { Job: { aircraft_id: a, name: 'Whenever' } },
      });
      const st = await statusOf(s, token, a);
      expect(st.jobs.map((j: any) => j.id)).toEqual([sooner.body.id, later.body.id, undated.body.id]);
      expect(st).toMatchObject({ blocked: false, blockReason: null, items: [] });
    });
  });
});
