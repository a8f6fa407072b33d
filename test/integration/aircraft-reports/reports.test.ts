import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { auditorToken, countQueries, createReport, insertFlight, melBody, setPlan, tokens } from './fleet-helpers.ts';

/** Part B 2.2, 2.3, 3.2, 4.2: create, view, edit, delete, list, releasers, gates. */
describe.each(DIALECTS)('aircraft reports on %s', (dialect) => {
  let s: TestServer;
  const t = tokens(() => s);
  let abc: string;
  let def: string;
  let mech: string;
  beforeAll(async () => {
    s = await startTestServer(dialect);
    abc = s.refs.aircraft['EC-ABC'];
    def = s.refs.aircraft['EC-DEF'];
    mech = s.userId('mechanic@skyline.test');
  });
  afterAll(() => s?.close());

  const countReports = async () =>
    Number(
      (
        await s.ctx.db
          .selectFrom('aircraft_reports')
          .select((eb) => eb.fn.countAll<number>().as('c'))
          .executeTakeFirstOrThrow()
      ).c,
    );
  const countItems = async () =>
    Number(
      (
        await s.ctx.db
          .selectFrom('mel_items')
          .select((eb) => eb.fn.countAll<number>().as('c'))
          .executeTakeFirstOrThrow()
      ).c,
    );

  describe('gates', () => {
    it('needs credentials on every endpoint', async () => {
      for (const [m, p] of [
        ['POST', '/maintenance/aircraft_reports/index.json'],
        ['GET', '/maintenance/aircraft_reports/view/x.json'],
        ['POST', '/maintenance/aircraft_reports/create.json'],
        ['POST', '/maintenance/aircraft_reports/edit/x.json'],
        ['GET', '/maintenance/aircraft_reports/delete/x.json'],
        ['GET', '/maintenance/aircraft_reports/releasers.json'],
        ['POST', '/maintenance/aircraft_reports/extend/x.json'],
        ['GET', `/maintenance/aircraft_reports/aircraft_status.json?aircraft_id=${abc}`],
        ['GET', '/maintenance/aircraft_reports/mel_summary.json'],
      ] as const) {
        const r = await s.api(m, p, { body: m === 'POST' ? {} : undefined });
        expect(r.status, `${m} ${p}`).toBe(401);
        expect(r.body.result).toBe(false);
      }
    });

    it('refuses a free-plan company (Harbor) with 403 and writes nothing', async () => {
      const harbor = await t('admin@harbor.test');
      const before = await countReports();
      expect(
        (await s.api('POST', '/maintenance/aircraft_reports/index.json', { token: harbor, body: {} })).status,
      ).toBe(403);
      expect((await s.api('GET', '/maintenance/aircraft_reports/mel_summary.json', { token: harbor })).status).toBe(
        403,
      );
      const c = await createReport(s, harbor, {
        AircraftReport: { aircraft_id: s.refs.aircraft.N123HA, type: 'DEFECT', title: 'x' },
      });
      expect(c.status).toBe(403);
      expect(c.body.message).toMatch(/plan/);
      expect(await countReports()).toBe(before);
    });

    it('answers 404 for another company’s report and aircraft', async () => {
      const created = await createReport(s, await t('mechanic@skyline.test'), {
        AircraftReport: { aircraft_id: abc, type: 'DEFECT', title: 'Skyline only' },
      });
      expect(created.status).toBe(200);
      await setPlan(s, 'harbor', 'premium');
      try {
        const harbor = await t('admin@harbor.test');
        expect(
          (await s.api('GET', `/maintenance/aircraft_reports/view/${created.body.id}.json`, { token: harbor })).status,
        ).toBe(404);
        const edit = await s.api('POST', `/maintenance/aircraft_reports/edit/${created.body.id}.json`, {
          token: harbor,
          body: { AircraftReport: { title: 'hacked' } },
        });
        expect(edit.status).toBe(404);
        expect(
          (await s.api('GET', `/maintenance/aircraft_reports/delete/${created.body.id}.json`, { token: harbor }))
            .status,
        ).toBe(404);
        expect(
          (
            await s.api('POST', `/maintenance/aircraft_reports/extend/${created.body.id}.json`, {
              token: harbor,
              body: { extended_until: 2e9 },
            })
          ).status,
        ).toBe(404);
        expect(
          (
            await s.api('GET', `/maintenance/aircraft_reports/aircraft_status.json?aircraft_id=${abc}`, {
              token: harbor,
            })
          ).status,
        ).toBe(404);
        expect(
          (await createReport(s, harbor, { AircraftReport: { aircraft_id: abc, type: 'DEFECT', title: 'x' } })).status,
        ).toBe(404);
        const list = await s.api('POST', '/maintenance/aircraft_reports/index.json', { token: harbor, body: {} });
        expect(list.body.reports).toEqual([]);
        const summary = await s.api('GET', '/maintenance/aircraft_reports/mel_summary.json', { token: harbor });
        expect(summary.body.open).toBe(0);
        const row = await s.ctx.db
          .selectFrom('aircraft_reports')
          .select(['title', 'deleted'])
          .where('id', '=', created.body.id)
          .executeTakeFirstOrThrow();
        expect(row).toEqual({ title: 'Skyline only', deleted: 0 });
      } finally {
        await setPlan(s, 'harbor', 'free');
      }
    });

    it('lets any role of the company read; the auditor reads but never writes', async () => {
      for (const email of ['pilot@skyline.test', 'student@skyline.test', 'dispatch@skyline.test']) {
        expect(
          (await s.api('POST', '/maintenance/aircraft_reports/index.json', { token: await t(email), body: {} })).status,
        ).toBe(200);
      }
      const auditor = await auditorToken(s);
      expect((await s.api('GET', '/maintenance/aircraft_reports/mel_summary.json', { token: auditor })).status).toBe(
        200,
      );
      const before = await countReports();
      const r = await createReport(s, auditor, {
        AircraftReport: { aircraft_id: abc, type: 'DEFECT', title: 'audit' },
      });
      expect(r.status).toBe(403);
      expect(await countReports()).toBe(before);
    });
  });

  describe('create', () => {
    it('creates a defect from form fields; the server sets reporter and creation time and ignores read-only fields', async () => {
      const pilot = await t('pilot@skyline.test');
      const r = await s.api('POST', '/maintenance/aircraft_reports/create.json', {
        token: pilot,
        form: {
          'AircraftReport[aircraft_id]': abc,
          'AircraftReport[type]': 'DEFECT',
          'AircraftReport[title]': 'Left brake soft',
          'AircraftReport[severity]': 'HIGH',
          'AircraftReport[aircraft_status]': 'GROUNDED',
          'AircraftReport[dispatch_condition]': 'GROUNDED',
          'AircraftReport[user_id]': mech,
          'AircraftReport[created]': '1000',
          'AircraftReport[closed]': '1000',
          'AircraftReport[closed_by]': mech,
          'AircraftReport[hours]': '2451.2',
        },
      });
      expect(r.status).toBe(200);
      expect(r.body.result).toBe(true);
      const v = await s.api('GET', `/maintenance/aircraft_reports/view/${r.body.id}.json`, { token: pilot });
      expect(v.status).toBe(200);
      const rep = v.body.AircraftReport;
      expect(rep).toMatchObject({
        aircraft_id: abc,
        type: 'DEFECT',
        title: 'Left brake soft',
        severity: 'HIGH',
        aircraft_status: 'GROUNDED',
        dispatch_condition: 'GROUNDED',
        status: 'OPEN',
        hours: 2451.2,
        cycles: 5120,
      });
      expect(rep.user_id).toBe(s.userId('pilot@skyline.test'));
      expect(rep.created).toBeGreaterThan(1_700_000_000);
      expect(rep.closed).toBeNull();
      expect(rep.closed_by).toBeNull();
      expect(v.body.MelItem).toBeNull();
      expect(v.body.Aircraft.registration).toBe('EC-ABC');
      expect(v.body.User).toMatchObject({ name: 'Paula', surname: 'Pilot' });
    });

    it('applies the defaults: severity LOW, FLYABLE, NONE, OPEN, and the aircraft’s hours and landings', async () => {
      const r = await createReport(s, await t('mechanic@skyline.test'), {
        AircraftReport: { aircraft_id: def, type: 'INFO', title: 'Note' },
      });
      const v = await s.api('GET', `/maintenance/aircraft_reports/view/${r.body.id}.json`, {
        token: await t('mechanic@skyline.test'),
      });
      expect(v.body.AircraftReport).toMatchObject({
        severity: 'LOW',
        aircraft_status: 'FLYABLE',
        dispatch_condition: 'NONE',
        status: 'OPEN',
        hours: 3890.2,
        cycles: 4210,
      });
    });

    it('remaps the legacy types OBSERVATION and RESTRICTION before validation', async () => {
      const token = await t('mechanic@skyline.test');
      const a = await createReport(s, token, {
        AircraftReport: { aircraft_id: abc, type: 'OBSERVATION', title: 'Old client' },
      });
      const b = await createReport(s, token, {
        AircraftReport: { aircraft_id: abc, type: 'RESTRICTION', title: 'Old client' },
      });
      expect(
        (await s.api('GET', `/maintenance/aircraft_reports/view/${a.body.id}.json`, { token })).body.AircraftReport
          .type,
      ).toBe('INFO');
      expect(
        (await s.api('GET', `/maintenance/aircraft_reports/view/${b.body.id}.json`, { token })).body.AircraftReport
          .type,
      ).toBe('DEFECT');
    });

    it.each([
      ['a missing title', { title: '' }, 'title'],
      ['a title of 181 characters', { title: 'x'.repeat(181) }, 'title'],
      ['an ATA chapter of 11 characters', { ata_chapter: '12345678901' }, 'ata_chapter'],
      ['a system of 121 characters', { system: 's'.repeat(121) }, 'system'],
      ['a deferred reference of 121 characters', { deferred_reference: 'r'.repeat(121) }, 'deferred_reference'],
      ['an unknown type', { type: 'NOPE' }, 'type'],
      ['an unknown severity', { severity: 'EXTREME' }, 'severity'],
      ['an unknown aircraft status', { aircraft_status: 'BROKEN' }, 'aircraft_status'],
      ['an unknown dispatch condition', { dispatch_condition: 'MAYBE' }, 'dispatch_condition'],
      ['an unknown status', { status: 'DONE' }, 'status'],
      ['negative hours', { hours: -1 }, 'hours'],
      ['a deferred_until that is not unix seconds', { deferred_until: 'tomorrow' }, 'deferred_until'],
      ['a flight id that is not a UUID', { flight_id: '12' }, 'flight_id'],
    ])('rejects %s with result false, the field in the message, and no row', async (_name, patch, field) => {
      const before = await countReports();
      const r = await createReport(s, await t('mechanic@skyline.test'), {
        AircraftReport: { aircraft_id: abc, type: 'DEFECT', title: 'ok', ...patch },
      });
      expect(r.status).toBe(400);
      expect(r.body.result).toBe(false);
      expect(r.body.message).toContain(field);
      expect(r.body.errors[field]).toBeDefined();
      expect(await countReports()).toBe(before);
    });

    it('rejects a flight of another aircraft and an unknown flight', async () => {
      const token = await t('mechanic@skyline.test');
      const flight = await insertFlight(s, { aircraftId: def, onblocks: Math.floor(Date.now() / 1000) - 7200 });
      const r = await createReport(s, token, {
        AircraftReport: { aircraft_id: abc, type: 'DEFECT', title: 'x', flight_id: flight },
      });
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(/flight_id: The flight was made with another aircraft/);
      const ok = await createReport(s, token, {
        AircraftReport: { aircraft_id: def, type: 'DEFECT', title: 'x', flight_id: flight },
      });
      expect(ok.status).toBe(200);
      const list = await s.api('POST', '/maintenance/aircraft_reports/index.json', { token, body: { flight } });
      expect(list.body.reports.map((x: any) => x.AircraftReport.id)).toEqual([ok.body.id]);
    });

    it('stamps closure when created CLOSED', async () => {
      const token = await t('mechanic@skyline.test');
      const r = await createReport(s, token, {
        AircraftReport: { aircraft_id: abc, type: 'SERVICING', title: 'Oil top-up', status: 'CLOSED' },
      });
      const v = await s.api('GET', `/maintenance/aircraft_reports/view/${r.body.id}.json`, { token });
      expect(v.body.AircraftReport.status).toBe('CLOSED');
      expect(v.body.AircraftReport.closed).toBeGreaterThan(0);
      expect(v.body.AircraftReport.closed_by).toBe(mech);
    });

    it('creates a MEL item with limitations from form fields; dispatch condition forced to MEL; window computed by the server', async () => {
      const token = await t('mechanic@skyline.test');
      const r = await s.api('POST', '/maintenance/aircraft_reports/create.json', {
        token,
        form: {
          'AircraftReport[aircraft_id]': abc,
          'AircraftReport[type]': 'MEL',
          'AircraftReport[title]': 'Nav light',
          'AircraftReport[dispatch_condition]': 'NONE',
          'MelItem[category]': 'C',
          'MelItem[mel_reference]': '33-40-01',
          'MelItem[released_by]': mech,
          'MelItem[placard_fitted]': '1',
          'MelItem[procedures]': 'M,O',
          'MelItem[starts]': '5',
          'MelItem[expires]': '5',
          'MelItem[baseline_flights]': '77',
          'MelItemLimitation[0][code]': 'NO_NIGHT',
          'MelItemLimitation[0][note]': 'Day only',
          'MelItemLimitation[1][code]': 'NO_IFR',
          'MelItemLimitation[1][value]': 'IMC',
        },
      });
      expect(r.status).toBe(200);
      const v = await s.api('GET', `/maintenance/aircraft_reports/view/${r.body.id}.json`, { token });
      expect(v.body.AircraftReport.dispatch_condition).toBe('MEL');
      const m = v.body.MelItem;
      expect(m).toMatchObject({
        category: 'C',
        interval_type: 'CALENDAR_DAYS',
        interval_value: 10,
        mel_reference: '33-40-01',
        released_by: mech,
        placard_fitted: true,
        procedures: 'MO',
        extended: false,
        baseline_flights: null,
        status: 'OPEN',
      });
      expect(m.starts).toBeGreaterThan(1_700_000_000);
      expect(m.expires - m.starts).toBeGreaterThanOrEqual(10 * 86400 - 3600);
      expect(m.expires - m.starts).toBeLessThanOrEqual(10 * 86400 + 3600);
      expect(m.MelItemLimitation.map((l: any) => [l.code, l.value, l.note])).toEqual([
        ['NO_NIGHT', null, 'Day only'],
        ['NO_IFR', 'IMC', null],
      ]);
    });

    it('accepts the empty-bracket form `MelItemLimitation[][code]` with several rows', async () => {
      const token = await t('mechanic@skyline.test');
      const body = new URLSearchParams();
      body.append('AircraftReport[aircraft_id]', abc);
      body.append('AircraftReport[type]', 'CDL');
      body.append('AircraftReport[title]', 'Static wick');
      body.append('MelItem[released_by]', mech);
      body.append('MelItemLimitation[][code]', 'NO_RVSM');
      body.append('MelItemLimitation[][code]', 'NO_ICING');
      const res = await fetch(`${s.baseUrl}/maintenance/aircraft_reports/create.json`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: body.toString(),
      });
      const created = (await res.json()) as any;
      expect(res.status).toBe(200);
      const v = await s.api('GET', `/maintenance/aircraft_reports/view/${created.id}.json`, { token });
      expect(v.body.AircraftReport.dispatch_condition).toBe('CDL');
      expect(v.body.MelItem.category).toBeNull();
      expect(v.body.MelItem.expires).toBeNull();
      expect(v.body.MelItem.MelItemLimitation.map((l: any) => l.code)).toEqual(['NO_RVSM', 'NO_ICING']);
    });

    it('rolls the whole request back when the MEL item fails (no category): no report row, no item', async () => {
      const [reports, items] = [await countReports(), await countItems()];
      const r = await createReport(s, await t('mechanic@skyline.test'), melBody(abc, mech, { category: '' }));
      expect(r.status).toBe(400);
      expect(r.body.result).toBe(false);
      expect(r.body.message).toMatch(/MelItem\.category/);
      expect([await countReports(), await countItems()]).toEqual([reports, items]);
    });

    it.each([
      ['no releaser', { category: 'B', released_by: '' }, 'MelItem.released_by'],
      ['a student as releaser', { category: 'B', released_by: 'student' }, 'MelItem.released_by'],
      ['a pilot releaser who is not the requester', { category: 'B', released_by: 'pilot' }, 'MelItem.released_by'],
      [
        'a calendar interval on category A',
        { category: 'A', interval_type: 'CALENDAR_DAYS', interval_value: 3 },
        'MelItem.interval_type',
      ],
      ['a flights interval without a value', { category: 'B', interval_type: 'FLIGHTS' }, 'MelItem.interval_value'],
      [
        'a zero interval value',
        { category: 'B', interval_type: 'CYCLES', interval_value: 0 },
        'MelItem.interval_value',
      ],
      ['an unknown interval type', { category: 'B', interval_type: 'HOURS' }, 'MelItem.interval_type'],
      ['an unknown category', { category: 'E' }, 'MelItem.category'],
      ['a MEL reference of 61 characters', { category: 'B', mel_reference: 'm'.repeat(61) }, 'MelItem.mel_reference'],
      ['bad procedures', { category: 'B', procedures: 'X' }, 'MelItem.procedures'],
    ])('rejects a MEL item with %s and writes nothing', async (_n, mel, field) => {
      const ids: Record<string, string> = {
        student: s.userId('student@skyline.test'),
        pilot: s.userId('pilot@skyline.test'),
      };
      const m: Record<string, unknown> = { ...mel };
      if (typeof m.released_by === 'string' && ids[m.released_by]) m.released_by = ids[m.released_by];
      const [reports, items] = [await countReports(), await countItems()];
      const r = await createReport(s, await t('mechanic@skyline.test'), {
        AircraftReport: { aircraft_id: abc, type: 'MEL', title: 'x' },
        MelItem: { released_by: mech, ...m },
      });
      expect(r.status).toBe(400);
      expect(r.body.result).toBe(false);
      expect(r.body.message).toContain(field);
      expect([await countReports(), await countItems()]).toEqual([reports, items]);
    });

    it.each([
      ['a limitation without code', [{ value: 'x' }], 'MelItemLimitation.0.code'],
      ['a limitation value of 61 characters', [{ code: 'NO_IFR', value: 'v'.repeat(61) }], 'MelItemLimitation.0.value'],
      ['a limitation note of 256 characters', [{ code: 'NO_IFR', note: 'n'.repeat(256) }], 'MelItemLimitation.0.note'],
    ])('rejects %s', async (_n, limitations, field) => {
      const before = await countReports();
      const r = await createReport(s, await t('mechanic@skyline.test'), {
        ...melBody(abc, mech),
        MelItemLimitation: limitations,
      });
      expect(r.status).toBe(400);
      expect(r.body.message).toContain(field);
      expect(await countReports()).toBe(before);
    });

    it('lets a pilot release their own item only when they may raise it: the aircraft’s assigned pilot', async () => {
      const pilotId = s.userId('pilot@skyline.test');
      const pilot = await t('pilot@skyline.test');
      const refused = await createReport(s, pilot, melBody(def, pilotId));
      expect(refused.status).toBe(403);
      await s.ctx.db.updateTable('aircraft').set({ user_id: pilotId }).where('id', '=', def).execute();
      try {
        const ok = await createReport(s, pilot, melBody(def, pilotId, { category: 'D' }));
        expect(ok.status).toBe(200);
        // Raising is all an assigned pilot may do: no edit, no close, no extension.
        const edit = await s.api('POST', `/maintenance/aircraft_reports/edit/${ok.body.id}.json`, {
          token: pilot,
          body: { MelItem: { mel_reference: 'x' } },
        });
        expect(edit.status).toBe(403);
        const close = await s.api('POST', `/maintenance/aircraft_reports/edit/${ok.body.id}.json`, {
          token: pilot,
          body: { AircraftReport: { status: 'CLOSED' } },
        });
        expect(close.status).toBe(403);
        expect(
          (
            await s.api('POST', `/maintenance/aircraft_reports/extend/${ok.body.id}.json`, {
              token: pilot,
              body: { extended_until: 2e9 },
            })
          ).status,
        ).toBe(404);
        const row = await s.ctx.db
          .selectFrom('aircraft_reports')
          .select(['status'])
          .where('id', '=', ok.body.id)
          .executeTakeFirstOrThrow();
        expect(row.status).toBe('OPEN');
      } finally {
        await s.ctx.db.updateTable('aircraft').set({ user_id: null }).where('id', '=', def).execute();
      }
    });

    it.each([
      ['student@skyline.test', 403],
      ['dispatch@skyline.test', 403],
      ['instructor@skyline.test', 403],
      ['mechanic@skyline.test', 200],
      ['safety@skyline.test', 200],
      ['ops@skyline.test', 200],
      ['admin@skyline.test', 200],
      ['root@skyline.test', 200],
    ])('role gate to raise a MEL item: %s gets %i', async (email, status) => {
      const r = await createReport(s, await t(email), melBody(abc, mech));
      expect(r.status).toBe(status);
    });

    it('notifies active staff except the reporter, with title, severity and aircraft status; a failed create notifies nobody', async () => {
      const title = `Oil leak ${Date.now()}`;
      const mine = async (email: string) =>
        ((await s.api('GET', '/notifications.json', { token: await t(email) })).body.notifications as any[]).filter(
          (x) => x.title.includes(title),
        );
      const failed = await createReport(s, await t('mechanic@skyline.test'), {
        AircraftReport: { aircraft_id: abc, type: 'DEFECT', title, severity: 'WRONG' },
      });
      expect(failed.status).toBe(400);
      expect(await mine('admin@skyline.test')).toEqual([]);
      const r = await createReport(s, await t('mechanic@skyline.test'), {
        AircraftReport: { aircraft_id: abc, type: 'DEFECT', title, severity: 'CRITICAL', aircraft_status: 'GROUNDED' },
      });
      expect(r.status).toBe(200);
      for (const email of [
        'admin@skyline.test',
        'ops@skyline.test',
        'safety@skyline.test',
        'instructor@skyline.test',
        'dispatch@skyline.test',
        'pilot@skyline.test',
        'root@skyline.test',
      ]) {
        const got = await mine(email);
        expect(got, email).toHaveLength(1);
        expect(got[0]).toMatchObject({
          title: `EC-ABC: ${title}`,
          link: `/maintenance/aircraft_reports/view/${r.body.id}.json`,
          read: false,
        });
        expect(got[0].body).toMatch(/Severity CRITICAL, aircraft GROUNDED/);
      }
      for (const email of ['mechanic@skyline.test', 'student@skyline.test', 'admin@harbor.test'])
        expect(await mine(email), email).toEqual([]);
      const auditor = await s.ctx.db
        .selectFrom('notifications')
        .select('id')
        .where('user_id', '=', s.userId('auditor@skyline.test'))
        .where('title', 'like', `%${title}%`)
        .execute();
      expect(auditor).toEqual([]);
    });

    it('lets a student report a plain defect', async () => {
      const r = await createReport(s, await t('student@skyline.test'), {
        AircraftReport: { aircraft_id: abc, type: 'DEFECT', title: 'Seat rail' },
      });
      expect(r.status).toBe(200);
    });
  });

  describe('edit', () => {
    let melId: string;
    beforeAll(async () => {
      const r = await createReport(s, await t('mechanic@skyline.test'), {
        ...melBody(abc, mech, { category: 'C', mel_reference: 'R1', procedures: 'M' }, { title: 'Autopilot' }),
        MelItemLimitation: [{ code: 'NO_IFR' }],
      });
      melId = r.body.id;
    });
    const view = async (id: string) =>
      (await s.api('GET', `/maintenance/aircraft_reports/view/${id}.json`, { token: await t('mechanic@skyline.test') }))
        .body;
    const edit = async (id: string, body: unknown, email = 'mechanic@skyline.test') =>
      s.api('POST', `/maintenance/aircraft_reports/edit/${id}.json`, { token: await t(email), body });

    it('is partial and ignores read-only fields', async () => {
      const before = await view(melId);
      const r = await edit(melId, {
        AircraftReport: {
          description: 'Disengages in turbulence',
          aircraft_id: def,
          flight_id: null,
          user_id: s.userId('pilot@skyline.test'),
          created: 5,
          closed: 5,
          closed_by: mech,
        },
      });
      expect(r.status).toBe(200);
      const after = await view(melId);
      expect(after.AircraftReport).toMatchObject({
        ...before.AircraftReport,
        description: 'Disengages in turbulence',
        modified: after.AircraftReport.modified,
      });
    });

    it('changes only the editable MEL fields; the window and category stay', async () => {
      const before = (await view(melId)).MelItem;
      const r = await edit(melId, {
        MelItem: {
          mel_reference: 'R2',
          placard_fitted: true,
          procedures: 'O',
          category: 'D',
          interval_type: 'FLIGHTS',
          interval_value: 9,
          expires: 1,
          starts: 1,
          extended: 1,
        },
      });
      expect(r.status).toBe(200);
      const m = (await view(melId)).MelItem;
      expect(m).toMatchObject({
        mel_reference: 'R2',
        placard_fitted: true,
        procedures: 'O',
        category: 'C',
        interval_type: 'CALENDAR_DAYS',
        interval_value: 10,
        starts: before.starts,
        expires: before.expires,
        extended: false,
      });
    });

    it('keeps limitations when the key is omitted and replaces them when posted', async () => {
      await edit(melId, { AircraftReport: { title: 'Autopilot (A/P)' } });
      expect((await view(melId)).MelItem.MelItemLimitation.map((l: any) => l.code)).toEqual(['NO_IFR']);
      await edit(melId, { MelItemLimitation: [{ code: 'NO_RVSM' }, { code: 'DAY_VFR', note: 'VMC' }] });
      expect((await view(melId)).MelItem.MelItemLimitation.map((l: any) => l.code)).toEqual(['NO_RVSM', 'DAY_VFR']);
      const r = await s.api('POST', `/maintenance/aircraft_reports/edit/${melId}.json`, {
        token: await t('mechanic@skyline.test'),
        form: { MelItemLimitation: '' },
      });
      expect(r.status).toBe(200);
      expect((await view(melId)).MelItem.MelItemLimitation).toEqual([]);
    });

    it('checks the releaser again and changes nothing on failure', async () => {
      // derived_at is the clock of the read, not stored state: two reads may straddle a second.
      const stored = async () =>
        JSON.parse(JSON.stringify(await view(melId), (k, v) => (k === 'derived_at' ? undefined : v)));
      const before = await stored();
      const r = await edit(melId, {
        AircraftReport: { title: 'Should not land' },
        MelItem: { released_by: s.userId('student@skyline.test') },
      });
      expect(r.status).toBe(400);
      expect(r.body.message).toContain('MelItem.released_by');
      expect(await stored()).toEqual(before);
    });

    it('refuses to turn a report into a MEL item or back', async () => {
      const plain = await createReport(s, await t('mechanic@skyline.test'), {
        AircraftReport: { aircraft_id: abc, type: 'DEFECT', title: 'x' },
      });
      const a = await edit(plain.body.id, { AircraftReport: { type: 'MEL' } });
      expect(a.status).toBe(400);
      expect(a.body.message).toContain('type');
      const b = await edit(melId, { AircraftReport: { type: 'DEFECT' } });
      expect(b.status).toBe(400);
      expect((await edit(plain.body.id, { AircraftReport: { type: 'MAINTENANCE_ACTION' } })).status).toBe(200);
    });

    it('closure follows the posted status only (Part B 3.2)', async () => {
      const r = await createReport(s, await t('pilot@skyline.test'), {
        AircraftReport: { aircraft_id: abc, type: 'DEFECT', title: 'Door seal' },
      });
      const id = r.body.id;
      await edit(id, { AircraftReport: { closed: 12345, closed_by: mech } }, 'pilot@skyline.test');
      expect((await view(id)).AircraftReport).toMatchObject({ status: 'OPEN', closed: null, closed_by: null });
      await edit(id, { AircraftReport: { status: 'CLOSED' } }, 'pilot@skyline.test');
      const closed = (await view(id)).AircraftReport;
      expect(closed.status).toBe('CLOSED');
      expect(closed.closed_by).toBe(s.userId('pilot@skyline.test'));
      await s.ctx.db.updateTable('aircraft_reports').set({ closed: 1000 }).where('id', '=', id).execute();
      await edit(id, { AircraftReport: { status: 'CLOSED' } });
      expect((await view(id)).AircraftReport).toMatchObject({
        status: 'CLOSED',
        closed: 1000,
        closed_by: s.userId('pilot@skyline.test'),
      });
      await edit(id, { AircraftReport: { status: 'DEFERRED' } });
      expect((await view(id)).AircraftReport).toMatchObject({ status: 'DEFERRED', closed: null, closed_by: null });
    });

    it('lets the reporter edit their plain report but not someone else’s', async () => {
      const mine = await createReport(s, await t('pilot@skyline.test'), {
        AircraftReport: { aircraft_id: abc, type: 'DEFECT', title: 'Mine' },
      });
      expect(
        (await edit(mine.body.id, { AircraftReport: { title: 'Mine, edited' } }, 'pilot@skyline.test')).status,
      ).toBe(200);
      const theirs = await createReport(s, await t('mechanic@skyline.test'), {
        AircraftReport: { aircraft_id: abc, type: 'DEFECT', title: 'Theirs' },
      });
      const r = await edit(theirs.body.id, { AircraftReport: { title: 'x' } }, 'pilot@skyline.test');
      expect(r.status).toBe(403);
      expect((await view(theirs.body.id)).AircraftReport.title).toBe('Theirs');
    });

    it('validates edited fields', async () => {
      const r = await edit(melId, { AircraftReport: { title: 't'.repeat(181), severity: 'NOPE' } });
      expect(r.status).toBe(400);
      expect(Object.keys(r.body.errors).sort()).toEqual(['severity', 'title']);
    });
  });

  describe('delete', () => {
    it('deletes for managers and mechanics; the reporter may delete a plain report; others get 403', async () => {
      const mechanic = await t('mechanic@skyline.test');
      const mel = await createReport(s, mechanic, melBody(abc, mech));
      const pilot = await t('pilot@skyline.test');
      expect(
        (await s.api('GET', `/maintenance/aircraft_reports/delete/${mel.body.id}.json`, { token: pilot })).status,
      ).toBe(403);
      expect(
        (await s.api('GET', `/maintenance/aircraft_reports/view/${mel.body.id}.json`, { token: pilot })).status,
      ).toBe(200);
      const del = await s.api('GET', `/maintenance/aircraft_reports/delete/${mel.body.id}.json`, { token: mechanic });
      expect(del.status).toBe(200);
      expect(del.body.result).toBe(true);
      expect(
        (await s.api('GET', `/maintenance/aircraft_reports/view/${mel.body.id}.json`, { token: pilot })).status,
      ).toBe(404);
      const list = await s.api('POST', '/maintenance/aircraft_reports/index.json', {
        token: pilot,
        body: { limit: 500 },
      });
      expect(list.body.reports.some((r: any) => r.AircraftReport.id === mel.body.id)).toBe(false);
      const own = await createReport(s, pilot, { AircraftReport: { aircraft_id: abc, type: 'DEFECT', title: 'oops' } });
      expect(
        (await s.api('GET', `/maintenance/aircraft_reports/delete/${own.body.id}.json`, { token: pilot })).status,
      ).toBe(200);
      expect(
        (await s.api('GET', `/maintenance/aircraft_reports/delete/${own.body.id}.json`, { token: pilot })).status,
      ).toBe(404);
    });
  });

  describe('index', () => {
    let ids: Record<string, string>;
    beforeAll(async () => {
      const token = await t('mechanic@skyline.test');
      // A fresh aircraft keeps these filters independent of the other tests' reports.
      const add = await s.api('POST', '/manager/aircraft/add.json', {
        token: await t('admin@skyline.test'),
        body: { Aircraft: { registration: 'EC-IDX', model_name: 'Cessna 172S' } },
      });
      const plane = add.body.id as string;
      const mk = async (body: any) => (await createReport(s, token, body)).body.id as string;
      ids = {
        defect: await mk({
          AircraftReport: {
            aircraft_id: plane,
            type: 'DEFECT',
            title: 'Cracked windshield',
            severity: 'HIGH',
            description: 'Left side 50% visible',
          },
        }),
        info: await mk({
          AircraftReport: { aircraft_id: plane, type: 'INFO', title: 'Fuel cap sticky', status: 'CLOSED' },
        }),
        melB: await mk(melBody(plane, mech, { category: 'B' }, { title: 'VOR 2', status: 'DEFERRED' })),
        melC: await mk(
          melBody(plane, mech, { category: 'C' }, { title: 'ADF', description: 'Needle WINDSHIELD stuck' }),
        ),
        cdl: await mk({
          AircraftReport: { aircraft_id: plane, type: 'CDL', title: 'Wheel fairing' },
          MelItem: { released_by: mech },
        }),
      };
      ids.plane = plane;
      const job = await s.api('POST', '/maintenance/jobs/create.json', {
        token,
        body: { Job: { aircraft_id: plane, name: 'Fix', aircraft_report_ids: [ids.defect, ids.melC] } },
      });
      ids.job = job.body.id;
    });
    const list = async (body: Record<string, unknown>) => {
      const r = await s.api('POST', '/maintenance/aircraft_reports/index.json', {
        token: await t('pilot@skyline.test'),
        body: { aircraft: ids.plane, ...body },
      });
      expect(r.status).toBe(200);
      return r.body;
    };
    const names = (b: any) => b.reports.map((r: any) => r.AircraftReport.title).sort();

    it('lists newest first with MEL items and limitations, wrapped with aircraft and reporter', async () => {
      const b = await list({});
      expect(b.reports.map((r: any) => r.AircraftReport.id)).toEqual([
        ids.cdl,
        ids.melC,
        ids.melB,
        ids.info,
        ids.defect,
      ]);
      const melB = b.reports.find((r: any) => r.AircraftReport.id === ids.melB);
      expect(melB.MelItem).toMatchObject({ category: 'B', MelItemLimitation: [] });
      expect(melB.Aircraft.registration).toBe('EC-IDX');
      expect(melB.User.surname).toBe('Mechanic');
      expect(b.reports.find((r: any) => r.AircraftReport.id === ids.defect).MelItem).toBeNull();
      expect(b.paginate).toMatchObject({
        page: 1,
        count: 5,
        current: 5,
        limit: 50,
        pageCount: 1,
        prevPage: false,
        nextPage: false,
      });
    });

    it('filters by type (comma list), status (comma list), severity and MEL category', async () => {
      expect(names(await list({ type: 'MEL,CDL' }))).toEqual(['ADF', 'VOR 2', 'Wheel fairing']);
      expect(names(await list({ type: 'OBSERVATION' }))).toEqual(['Fuel cap sticky']);
      expect(names(await list({ status: 'DEFERRED,CLOSED' }))).toEqual(['Fuel cap sticky', 'VOR 2']);
      expect(names(await list({ severity: 'HIGH' }))).toEqual(['Cracked windshield']);
      expect(names(await list({ type: 'MEL', category: 'C' }))).toEqual(['ADF']);
    });

    it('searches title and description case-insensitively, and treats % literally', async () => {
      expect(names(await list({ wc: 'windshield' }))).toEqual(['ADF', 'Cracked windshield']);
      expect(names(await list({ wc: '50%' }))).toEqual(['Cracked windshield']);
      expect(names(await list({ wc: '5%0' }))).toEqual([]);
    });

    it('filters by job and by linked yes/no', async () => {
      expect(names(await list({ job: ids.job }))).toEqual(['ADF', 'Cracked windshield']);
      expect(names(await list({ linked: 'yes' }))).toEqual(['ADF', 'Cracked windshield']);
      expect(names(await list({ linked: 'no' }))).toEqual(['Fuel cap sticky', 'VOR 2', 'Wheel fairing']);
    });

    it('paginates in SQL and answers bad filters with 400', async () => {
      const p2 = await list({ limit: 2, page: 2 });
      expect(p2.reports.map((r: any) => r.AircraftReport.id)).toEqual([ids.melB, ids.info]);
      expect(p2.paginate).toMatchObject({
        page: 2,
        current: 2,
        count: 5,
        limit: 2,
        pageCount: 3,
        prevPage: true,
        nextPage: true,
      });
      const bad = await s.api('POST', '/maintenance/aircraft_reports/index.json', {
        token: await t('pilot@skyline.test'),
        body: { status: 'LOST' },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.result).toBe(false);
      expect(bad.body.message).toContain('status');
    });

    it('reads a page with a fixed number of queries, whatever its size (no N+1)', async () => {
      const token = await t('pilot@skyline.test');
      const run = (limit: number) =>
        countQueries(s, () =>
          s.api('POST', '/maintenance/aircraft_reports/index.json', { token, body: { aircraft: ids.plane, limit } }),
        );
      const one = await run(1);
      const all = await run(50);
      expect(one).toBeGreaterThanOrEqual(4); // auth, count, page, items (+ limitations)
      expect(all).toBe(one);
      expect(all).toBeLessThanOrEqual(6);
    });

    it('defaults to 50 rows and caps the page size at 500', async () => {
      const now = Math.floor(Date.now() / 1000);
      const rows = Array.from({ length: 60 }, (_, i) => ({
        id: `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`,
        company_id: s.refs.companies.skyline,
        change_no: 0,
        deleted: 0,
        created: now - 1000 - i,
        modified: now,
        aircraft_id: s.refs.aircraft['SIM-01'],
        type: 'INFO',
        title: `bulk ${i}`,
        severity: 'LOW',
        aircraft_status: 'FLYABLE',
        dispatch_condition: 'NONE',
        status: 'OPEN',
      }));
      await (s.ctx.db as any).insertInto('aircraft_reports').values(rows).execute();
      const token = await t('pilot@skyline.test');
      const d = await s.api('POST', '/maintenance/aircraft_reports/index.json', {
        token,
        body: { aircraft: s.refs.aircraft['SIM-01'] },
      });
      expect(d.body.reports).toHaveLength(50);
      expect(d.body.paginate).toMatchObject({ count: 60, limit: 50, pageCount: 2 });
      const capped = await s.api('POST', '/maintenance/aircraft_reports/index.json', {
        token,
        body: { aircraft: s.refs.aircraft['SIM-01'], limit: 100000 },
      });
      expect(capped.body.paginate.limit).toBe(500);
      expect(capped.body.reports).toHaveLength(60);
    });
  });

  describe('releasers', () => {
    it('lists managers and mechanics, plus the caller unless a student', async () => {
      const names = async (email: string) =>
        (
          (await s.api('GET', '/maintenance/aircraft_reports/releasers.json', { token: await t(email) })).body
            .releasers as any[]
        )
          .map((u) => u.user_group_id)
          .sort((a, b) => a - b);
      expect(await names('mechanic@skyline.test')).toEqual([1, 100, 105, 110, 300]);
      expect(await names('pilot@skyline.test')).toEqual([1, 100, 105, 110, 190, 300]);
      expect(await names('student@skyline.test')).toEqual([1, 100, 105, 110, 300]);
    });
  });
});
