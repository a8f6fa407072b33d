import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { createFlight, tokenCache, typeIds } from '../flights/helpers.ts';
import { recount } from './recount.ts';
import { uuidv7 } from '@ops/shared';
import { pullAll, push } from '../../setup/sync.ts';

const command = (name: string, args: Record<string, unknown>) => ({
  id: uuidv7(),
  name,
  args,
  client_time: Date.now(),
  user_id: null,
  status: 'pending',
  reason: null,
  details: null,
  result: null,
  decided_at: null,
});

describe.each(DIALECTS)('billing (CONTRACT 6) on %s', (dialect) => {
  let s: TestServer;
  const t = tokenCache(() => s);
  let types: Record<string, string>;
  let day = 0;
  const nextDate = () => {
    day += 1;
    return new Date(Date.UTC(2024, 0, 1) + day * 86400000).toISOString().slice(0, 10);
  };
  const api = async (method: string, path: string, email: string, body?: unknown) =>
    s.api(method, path, { token: await t(email), body });
  const entriesCount = async () =>
    Number(
      (
        await s.ctx.db
          .selectFrom('billing_entries')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const ratesCount = async () =>
    Number(
      (
        await s.ctx.db
          .selectFrom('billing_rates')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const flightEntries = (flightId: string) =>
    s.ctx.db
      .selectFrom('billing_entries')
      .selectAll()
      .where('flight_id', '=', flightId)
      .orderBy('created')
      .orderBy('id')
      .execute();
  const sumOf = (rows: { amount: number }[]) => rows.reduce((x, r) => x + Number(r.amount), 0);
  let paula: string;
  let stefan: string;
  let ivan: string;

  beforeAll(async () => {
    s = await startTestServer(dialect);
    types = await typeIds(s, await t('admin@skyline.test'));
    paula = s.userId('pilot@skyline.test');
    stefan = s.userId('student@skyline.test');
    ivan = s.userId('instructor@skyline.test');
  });
  afterAll(async () => {
    // Every account's totals row equals a full recount of its entries.
    if (s) expect(await recount(s)).toEqual([]);
    await s?.close();
  });

  describe('settings', () => {
    it('reads basis and tax in /companies/settings.json and changes them with /manager/companies/edit.json', async () => {
      const before = await api('GET', '/companies/settings.json', 'pilot@skyline.test');
      expect(before.body.CompanyBillingSetting).toMatchObject({ enabled: true, tax: 21, basis: 'block' });
      const bad = await api('POST', '/manager/companies/edit.json', 'admin@skyline.test', {
        CompanyBillingSetting: { basis: 'wall' },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.errors['CompanyBillingSetting.basis']).toBeDefined();
      expect(
        (
          await api('POST', '/manager/companies/edit.json', 'admin@skyline.test', {
            CompanyBillingSetting: { basis: 'flight' },
          })
        ).status,
      ).toBe(200);
      expect(
        (await api('GET', '/companies/settings.json', 'pilot@skyline.test')).body.CompanyBillingSetting.basis,
      ).toBe('flight');
      expect(
        (
          await api('POST', '/manager/companies/edit.json', 'admin@skyline.test', {
            CompanyBillingSetting: { basis: 'block' },
          })
        ).status,
      ).toBe(200);
    });
  });

  describe('rates', () => {
    it('gates: read <= 170, write <= 105; 403 on a free plan', async () => {
      expect((await api('GET', '/billing/rates.json', 'pilot@skyline.test')).status).toBe(403);
      const list = await api('GET', '/billing/rates.json', 'dispatch@skyline.test');
      expect(list.status).toBe(200);
      expect(list.body).toEqual({ rates: [], currency: 'EUR', basis: 'block' });
      const rate = { Rate: { kind: 'aircraft', target_id: s.refs.aircraft['EC-ABC'], amount: 120 } };
      expect((await api('POST', '/manager/billing/rates/edit.json', 'dispatch@skyline.test', rate)).status).toBe(403);
      expect((await api('GET', '/billing/rates.json', 'admin@harbor.test')).status).toBe(403);
      expect((await api('POST', '/manager/billing/rates/edit.json', 'admin@harbor.test', rate)).body).toMatchObject({
        result: false,
      });
      expect(await ratesCount()).toBe(0);
    });

    it('creates, changes by kind and target, deletes; bad input is a 400 that writes nothing', async () => {
      const r1 = await api('POST', '/manager/billing/rates/edit.json', 'ops@skyline.test', {
        Rate: { kind: 'aircraft', target_id: s.refs.aircraft['EC-ABC'], amount: 99 },
      });
      expect(r1.status).toBe(200);
      expect(r1.body).toEqual({ result: true, id: expect.any(String) });
      const r2 = await api('POST', '/manager/billing/rates/edit.json', 'ops@skyline.test', {
        Rate: { kind: 'aircraft', target_id: s.refs.aircraft['EC-ABC'], amount: '120.00' },
      });
      expect(r2.body.id).toBe(r1.body.id);
      const form = await s.api('POST', '/manager/billing/rates/edit.json', {
        token: await t('ops@skyline.test'),
        form: { 'data[Rate][kind]': 'instructor', 'data[Rate][target_id]': ivan, 'data[Rate][amount]': '40' },
      });
      expect(form.status).toBe(200);
      const n = await ratesCount();
      for (const [Rate, field] of [
        [{ kind: 'aircraft', target_id: s.refs.aircraft['EC-DEF'], amount: -1 }, 'Rate.amount'],
        [{ kind: 'aircraft', target_id: s.refs.aircraft['EC-DEF'], amount: 1.234 }, 'Rate.amount'],
        [{ kind: 'aircraft', target_id: s.refs.aircraft.N123HA ?? 'nope', amount: 10 }, 'Rate.target_id'],
        [{ kind: 'instructor', target_id: s.userId('admin@harbor.test', 'harbor'), amount: 10 }, 'Rate.target_id'],
        [{ kind: 'boat', target_id: s.refs.aircraft['EC-DEF'], amount: 10 }, 'Rate.kind'],
      ] as const) {
        const r = await api('POST', '/manager/billing/rates/edit.json', 'ops@skyline.test', { Rate });
        expect(r.status, JSON.stringify(Rate)).toBe(400);
        expect(r.body.result).toBe(false);
        expect(typeof r.body.message).toBe('string');
        expect(r.body.errors[field], JSON.stringify(r.body)).toBeDefined();
      }
      expect(await ratesCount()).toBe(n);
      const list = await api('GET', '/billing/rates.json', 'dispatch@skyline.test');
      expect(list.body.rates).toContainEqual({
        Rate: { id: r1.body.id, kind: 'aircraft', target_id: s.refs.aircraft['EC-ABC'], amount: 120 },
      });
      const tmp = await api('POST', '/manager/billing/rates/edit.json', 'ops@skyline.test', {
        Rate: { kind: 'aircraft', target_id: s.refs.aircraft['SIM-01'], amount: 50 },
      });
      expect((await api('POST', `/manager/billing/rates/delete/${tmp.body.id}.json`, 'admin@harbor.test')).status).toBe(
        404,
      );
      expect((await api('POST', `/manager/billing/rates/delete/${tmp.body.id}.json`, 'ops@skyline.test')).body).toEqual(
        { result: true },
      );
      expect((await api('POST', `/manager/billing/rates/delete/${tmp.body.id}.json`, 'ops@skyline.test')).status).toBe(
        404,
      );
    });
  });

  describe('entries and accounts', () => {
    it('books payments exactly (0.10 three times is 0.30) and answers the account', async () => {
      const user = s.userId('mechanic@skyline.test');
      for (let i = 0; i < 3; i++) {
        const r = await api('POST', '/manager/billing/entries/add.json', 'dispatch@skyline.test', {
          Entry: { user_id: user, kind: 'payment', amount: 0.1, description: 'Cash' },
        });
        expect(r.status).toBe(200);
        expect(r.body.result).toBe(true);
      }
      const acc = await api('GET', `/billing/account/${user}.json`, 'dispatch@skyline.test');
      expect(acc.body.Account).toEqual({ user_id: user, balance: 0.3, package_balance: 0, currency: 'EUR' });
      expect(acc.body.entries).toHaveLength(3);
      expect(acc.body.entries[0].Entry).toMatchObject({
        kind: 'payment',
        amount: 0.1,
        tax: 0,
        hours: 0,
        user_id: user,
        created_by: s.userId('dispatch@skyline.test'),
        description: 'Cash',
      });
    });

    it('gates accounts: own or <= 170; another company’s user or entry is 404; free plan 403', async () => {
      expect((await api('GET', '/billing/account.json', 'pilot@skyline.test')).body.Account).toMatchObject({
        user_id: paula,
        balance: 0,
      });
      expect((await api('GET', `/billing/account/${paula}.json`, 'pilot@skyline.test')).status).toBe(200);
      expect((await api('GET', `/billing/account/${stefan}.json`, 'pilot@skyline.test')).status).toBe(403);
      expect(
        (await api('GET', `/billing/account/${s.userId('pilot@harbor.test', 'harbor')}.json`, 'admin@skyline.test'))
          .status,
      ).toBe(404);
      expect((await api('GET', `/billing/account/${paula}.json`, 'admin@harbor.test')).status).toBe(404);
      expect((await api('GET', '/billing/account.json', 'pilot@harbor.test')).status).toBe(403);
      expect(
        (
          await api('POST', '/manager/billing/entries/add.json', 'pilot@skyline.test', {
            Entry: { user_id: paula, kind: 'payment', amount: 5 },
          })
        ).status,
      ).toBe(403);
      expect(
        (
          await api('POST', '/manager/billing/entries/add.json', 'dispatch@skyline.test', {
            Entry: { user_id: s.userId('pilot@harbor.test', 'harbor'), kind: 'payment', amount: 5 },
          })
        ).status,
      ).toBe(404);
    });

    it('refuses bad entries with a 400 that writes nothing', async () => {
      const n = await entriesCount();
      for (const [Entry, field] of [
        [{ user_id: paula, kind: 'payment', amount: 1.005 }, 'Entry.amount'],
        [{ user_id: paula, kind: 'payment', amount: -5 }, 'Entry.amount'],
        [{ user_id: paula, kind: 'package', amount: 500 }, 'Entry.hours'],
        [{ user_id: paula, kind: 'package', amount: 500, hours: 0 }, 'Entry.hours'],
        [{ user_id: paula, kind: 'package', amount: 500, hours: 5, aircraft_id: 'nope' }, 'Entry.aircraft_id'],
        [{ user_id: paula, kind: 'flight', amount: 5 }, 'Entry.kind'],
        [{ user_id: paula, kind: 'adjustment', amount: 'ten' }, 'Entry.amount'],
      ] as const) {
        const r = await api('POST', '/manager/billing/entries/add.json', 'dispatch@skyline.test', { Entry });
        expect(r.status, JSON.stringify(Entry)).toBe(400);
        expect(r.body.result).toBe(false);
        expect(r.body.errors[field], JSON.stringify(r.body)).toBeDefined();
      }
      expect(await entriesCount()).toBe(n);
    });

    it('reverses once, never a reversal; pages and filters the list, never the balance', async () => {
      const user = s.userId('safety@skyline.test');
      const a = await api('POST', '/manager/billing/entries/add.json', 'dispatch@skyline.test', {
        Entry: { user_id: user, kind: 'adjustment', amount: -12.34, description: 'Fuel' },
      });
      expect(a.body.Account.balance).toBe(-12.34);
      const r = await api('POST', `/manager/billing/entries/reverse/${a.body.id}.json`, 'dispatch@skyline.test', {
        description: 'Wrong person',
      });
      expect(r.status).toBe(200);
      const n = await entriesCount();
      const again = await api(
        'POST',
        `/manager/billing/entries/reverse/${a.body.id}.json`,
        'dispatch@skyline.test',
        {},
      );
      expect(again.status).toBe(400);
      expect(again.body).toMatchObject({ result: false, message: expect.any(String) });
      const ofReversal = await api(
        'POST',
        `/manager/billing/entries/reverse/${r.body.id}.json`,
        'dispatch@skyline.test',
        {},
      );
      expect(ofReversal.status).toBe(400);
      expect(
        (await api('POST', `/manager/billing/entries/reverse/${a.body.id}.json`, 'admin@harbor.test', {})).status,
      ).toBe(404);
      expect(
        (await api('POST', `/manager/billing/entries/reverse/${a.body.id}.json`, 'pilot@skyline.test', {})).status,
      ).toBe(403);
      expect(await entriesCount()).toBe(n);
      const acc = await api('GET', `/billing/account/${user}.json?limit=1`, 'admin@skyline.test');
      expect(acc.body.Account.balance).toBe(0);
      expect(acc.body.entries).toHaveLength(1);
      expect(acc.body.entries[0].Entry).toMatchObject({
        kind: 'reversal',
        amount: 12.34,
        reverses_id: a.body.id,
        description: 'Wrong person',
      });
      expect(acc.body.paginate).toMatchObject({ page: 1, count: 2, pageCount: 2, nextPage: true });
      const none = await api('GET', `/billing/account/${user}.json?from=1&to=2`, 'admin@skyline.test');
      expect(none.body.entries).toEqual([]);
      expect(none.body.Account.balance).toBe(0);
      expect((await api('GET', `/billing/account/${user}.json?page=0`, 'admin@skyline.test')).status).toBe(400);
    });
  });

  describe('charges at confirm', () => {
    const flight = (over: Record<string, unknown> = {}) => ({
      date: nextDate(),
      aircraft_id: s.refs.aircraft['EC-ABC'],
      flight_type_id: types['Dual training'],
      pic_id: ivan,
      sic_id: stefan,
      departure_airport: 'LECU',
      landing_airport: 'LECU',
      offblocks_time: '10:00',
      takeoff_time: '10:10',
      landing_time: '11:10',
      onblocks_time: '11:30',
      landings: 1,
      ...over,
    });

    it('charges the dual student aircraft and instructor by block time with tax, once however often confirmed', async () => {
      const id = await createFlight(s, await t('instructor@skyline.test'), flight());
      expect(await flightEntries(id)).toEqual([]);
      expect((await api('POST', `/flights/confirm/${id}.json`, 'dispatch@skyline.test', {})).status).toBe(200);
      const rows = await flightEntries(id);
      // 1.5 h block: aircraft 120.00/h = 180.00 + 21 % = 217.80; instructor 40.00/h = 60.00 + 12.60 = 72.60.
      expect(rows.map((r) => [r.user_id, r.kind, Number(r.amount), Number(r.tax), Number(r.seconds)]).sort()).toEqual([
        [stefan, 'flight', -21780, -3780, 5400],
        [stefan, 'instructor', -7260, -1260, 5400],
      ]);
      expect((await api('POST', `/flights/confirm/${id}.json`, 'dispatch@skyline.test', {})).status).toBe(400);
      expect(await flightEntries(id)).toHaveLength(2);
      const acc = await api('GET', '/billing/account.json', 'student@skyline.test');
      expect(acc.body.Account.balance).toBe(-290.4);
      expect(acc.body.entries.map((e: any) => e.Entry.flight_id)).toEqual([id, id]);
    });

    it('edits of a LANDED flight reverse and charge anew; unchanged charges write nothing; cancel brings the flight to 0', async () => {
      const id = await createFlight(s, await t('instructor@skyline.test'), flight());
      await api('POST', `/flights/confirm/${id}.json`, 'dispatch@skyline.test', {});
      expect(sumOf(await flightEntries(id))).toBe(-29040);
      const remarks = await api('POST', '/flights/edit.json', 'dispatch@skyline.test', {
        Flight: { id, remarks: 'Nice landing' },
      });
      expect(remarks.status).toBe(200);
      expect(await flightEntries(id)).toHaveLength(2);
      const edit = await api('POST', '/flights/edit.json', 'dispatch@skyline.test', {
        Flight: { id, onblocks_time: '12:00' },
      });
      expect(edit.status).toBe(200);
      const rows = await flightEntries(id);
      expect(rows.filter((r) => r.kind === 'reversal')).toHaveLength(2);
      // 2 h block: 240.00 + 50.40 and 80.00 + 16.80.
      expect(sumOf(rows)).toBe(-38720);
      const cancel = await api('POST', '/flights/cancel.json', 'dispatch@skyline.test', { id, reason: 'Logged twice' });
      expect(cancel.status).toBe(200);
      expect(sumOf(await flightEntries(id))).toBe(0);
    });

    it('uses prepaid hours for the aircraft first; nobody is charged without billing; flight time basis', async () => {
      const pkg = await api('POST', '/manager/billing/entries/add.json', 'dispatch@skyline.test', {
        Entry: {
          user_id: paula,
          kind: 'package',
          amount: 1000,
          hours: 1,
          aircraft_id: s.refs.aircraft['EC-ABC'],
          description: '1 h block',
        },
      });
      expect(pkg.status).toBe(200);
      expect(pkg.body.Account).toMatchObject({ balance: -1000, package_balance: 1 });
      const solo = await createFlight(
        s,
        await t('pilot@skyline.test'),
        flight({ flight_type_id: types.Solo, pic_id: paula, sic_id: null }),
      );
      await api('POST', `/flights/confirm/${solo}.json`, 'dispatch@skyline.test', {});
      const rows = await flightEntries(solo);
      expect(rows.map((r) => [r.kind, Number(r.amount), Number(r.seconds), Number(r.package_seconds)]).sort()).toEqual([
        ['flight', -7260, 1800, 0],
        ['package', 0, -3600, -3600],
      ]);
      const acc = await api('GET', '/billing/account.json', 'pilot@skyline.test');
      expect(acc.body.Account).toMatchObject({ balance: -1072.6, package_balance: 0 });
      // The instructor flying solo has billing false: no charge.
      const own = await createFlight(
        s,
        await t('instructor@skyline.test'),
        flight({ flight_type_id: types.Solo, pic_id: ivan, sic_id: null }),
      );
      await api('POST', `/flights/confirm/${own}.json`, 'dispatch@skyline.test', {});
      expect(await flightEntries(own)).toEqual([]);
      // Flight time basis: 1 h airborne.
      await api('POST', '/manager/companies/edit.json', 'admin@skyline.test', {
        CompanyBillingSetting: { basis: 'flight' },
      });
      const f2 = await createFlight(
        s,
        await t('pilot@skyline.test'),
        flight({ flight_type_id: types.Solo, pic_id: paula, sic_id: null }),
      );
      await api('POST', `/flights/confirm/${f2}.json`, 'dispatch@skyline.test', {});
      expect((await flightEntries(f2)).map((r) => Number(r.amount))).toEqual([-14520]);
      await api('POST', '/manager/companies/edit.json', 'admin@skyline.test', {
        CompanyBillingSetting: { basis: 'block' },
      });
      // Cancelling the package flight gives the hour back.
      await api('POST', '/flights/cancel.json', 'dispatch@skyline.test', { id: solo, reason: 'Test' });
      expect((await api('GET', '/billing/account.json', 'pilot@skyline.test')).body.Account.package_balance).toBe(1);
    });

    it('charges a device’s offline confirm once, also when the command is replayed, and replicates the own account read-only', async () => {
      const id = await createFlight(s, await t('instructor@skyline.test'), flight());
      const cmd = command('flight.confirm', { flight_id: id });
      const token = await t('instructor@skyline.test');
      const r = await push(s, token, 'commands', [{ assumedMasterState: null, newDocumentState: cmd }]);
      expect(r.status).toBe(200);
      expect(sumOf(await flightEntries(id))).toBe(-29040);
      await push(s, token, 'commands', [{ assumedMasterState: null, newDocumentState: cmd }]);
      await push(s, token, 'commands', [
        { assumedMasterState: null, newDocumentState: command('flight.confirm', { flight_id: id }) },
      ]);
      expect(await flightEntries(id)).toHaveLength(2);
      const docs = (await pullAll(s, await t('student@skyline.test'), 'people')).docs.filter(
        (d: any) => d.type === 'account',
      );
      expect(docs).toHaveLength(1);
      const rest = await api('GET', '/billing/account.json', 'student@skyline.test');
      expect(docs[0].user_id).toBe(stefan);
      expect(docs[0].data.Account).toEqual(rest.body.Account);
      expect(docs[0].data.entries.slice(0, 2)).toEqual(rest.body.entries.slice(0, 2).map((e: any) => e.Entry));
      // Another user's account never reaches the student's device; a device cannot write it.
      expect(
        (await pullAll(s, await t('pilot@skyline.test'), 'people')).docs
          .filter((d: any) => d.type === 'account')
          .map((d: any) => d.user_id),
      ).toEqual([paula]);
      const write = await push(s, await t('student@skyline.test'), 'people', [
        {
          assumedMasterState: docs[0],
          newDocumentState: {
            ...docs[0],
            data: { ...docs[0].data, Account: { ...docs[0].data.Account, balance: 1e6 } },
          },
        },
      ]);
      expect(JSON.stringify(write.body)).not.toContain('1000000');
      expect((await api('GET', '/billing/account.json', 'student@skyline.test')).body.Account.balance).toBe(
        rest.body.Account.balance,
      );
    });

    it('notifies the charged user in-app, queues a mail, and emits account.entry_created', async () => {
      const now = Math.floor(Date.now() / 1000);
      await s.ctx.db
        .insertInto('webhook_endpoints')
        .values({
          id: uuidv7(),
          company_id: s.refs.companies.skyline,
          url: 'http://127.0.0.1:9/hook',
          description: null,
          secret: 'whsec',
          events: JSON.stringify(['account.entry_created']),
          active: 1,
          deleted: 0,
          created_by: null,
          created: now,
          modified: now,
        })
        .execute();
      const id = await createFlight(s, await t('instructor@skyline.test'), flight());
      await api('POST', `/flights/confirm/${id}.json`, 'dispatch@skyline.test', {});
      const n = await s.ctx.db
        .selectFrom('notifications')
        .select(['title'])
        .where('user_id', '=', stefan)
        .orderBy('created', 'desc')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(n.title).toMatch(/2 entries on your account: -290\.40 EUR/);
      const queued = await s.ctx.db
        .selectFrom('billing_mail_queue')
        .select('subject')
        .where('user_id', '=', stefan)
        .execute();
      expect(queued.length).toBeGreaterThan(0);
      const events = await s.ctx.db
        .selectFrom('webhook_events')
        .select(['type', 'model', 'payload'])
        .where('type', '=', 'account.entry_created')
        .execute();
      const entries = events.map((e) => JSON.parse(e.payload).data.Entry).filter((e: any) => e.flight_id === id);
      expect(entries.map((e: any) => e.kind).sort()).toEqual(['flight', 'instructor']);
      expect(entries.every((e: any) => e.user_id === stefan)).toBe(true);
    });
  });
});
