import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { pullAll } from '../../setup/sync.ts';

const unix = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const open = (weekday: number, start: number, end: number) => ({
  weekday,
  closed: 0,
  start_minute: start,
  end_minute: end,
});

describe.each(DIALECTS)('operating hours on %s', (dialect) => {
  let s: TestServer;
  let admin: string;
  let ops: string;
  const rowsOf = async (token = admin) =>
    (await s.api('GET', '/manager/companies/operating_hours.json', { token })).body.OperatingHours.rows as any[];
  const save = (body: unknown, token = admin) =>
    s.api('POST', '/manager/companies/save_operating_hours.json', { token, body });

  beforeAll(async () => {
    s = await startTestServer(dialect);
    admin = await s.login('admin@skyline.test');
    ops = await s.login('ops@skyline.test');
  });
  afterAll(() => s?.close());

  it('need credentials and a company manager (roles <= 105)', async () => {
    expect((await s.api('GET', '/manager/companies/operating_hours.json')).status).toBe(401);
    expect((await s.api('POST', '/manager/companies/save_operating_hours.json', { body: { rows: [] } })).status).toBe(
      401,
    );
    expect((await s.api('GET', '/companies/hours/company/2026-01-01/2026-01-02.json')).status).toBe(401);
    for (const email of ['safety@skyline.test', 'instructor@skyline.test', 'pilot@skyline.test']) {
      const t = await s.login(email);
      expect((await s.api('GET', '/manager/companies/operating_hours.json', { token: t })).status).toBe(403);
      expect((await save({ rows: [open(0, 480, 600)] }, t)).status).toBe(403);
    }
    expect((await rowsOf()).length).toBe(0);
    expect((await s.api('GET', '/manager/companies/operating_hours.json', { token: ops })).status).toBe(200);
  });

  it('rejects each broken rule with `rows` messages and changes nothing', async () => {
    expect((await save({ rows: [open(0, 480, 720), open(1, 480, 720)] })).status).toBe(200);
    const before = await rowsOf();
    const cases: Array<[string, unknown[], RegExp]> = [
      [
        'both weekday and date',
        [{ weekday: 0, override_date: '2026-05-04', closed: 0, start_minute: 480, end_minute: 600 }],
        /either a weekday or an override date, not both/,
      ],
      [
        'neither weekday nor date',
        [{ closed: 0, start_minute: 480, end_minute: 600 }],
        /give a weekday or an override date/,
      ],
      ['end at its start', [open(2, 600, 600)], /end time must be after the start time/],
      ['end before its start', [open(2, 660, 600)], /end time must be after the start time/],
      ['off the 15-minute grid', [open(2, 605, 700)], /15-minute grid/],
      ['beyond 1440', [open(2, 600, 1455)], /between 0 and 1440/],
      ['overlap on one day', [open(3, 480, 720), open(3, 690, 900)], /Rows 2 and 3 overlap on Thursday/],
      [
        'overlap on one date',
        [
          { override_date: '2026-05-04', closed: 0, start_minute: 480, end_minute: 720 },
          { override_date: '2026-05-04', closed: 0, start_minute: 600, end_minute: 810 },
        ],
        /overlap on 2026-05-04/,
      ],
      ['weekday out of range', [open(7, 480, 600)], /weekday must be a whole number from 0/],
      ['not a real date', [{ override_date: '2026-02-30', closed: 1 }], /real date/],
      ['closed missing', [{ weekday: 4, start_minute: 480, end_minute: 600 }], /closed is required/],
      ['minutes missing on an open day', [{ weekday: 4, closed: 0 }], /start time is required/],
    ];
    for (const [label, rows, message] of cases) {
      // A valid row next to the broken one: the whole set is refused, not part of it.
      const r = await save({ rows: [open(5, 540, 600), ...rows] });
      expect(r.status, label).toBe(400);
      expect(r.body.result, label).toBe(false);
      expect(
        r.body.rows.some((m: string) => message.test(m)),
        `${label}: ${JSON.stringify(r.body.rows)}`,
      ).toBe(true);
    }
    expect(await rowsOf()).toEqual(before);
    // At most 1000 rows per save; an unknown base is 404 (another company's is below).
    const many = Array.from({ length: 1001 }, (_, i) => ({
      override_date: DateTime.fromISO('2030-01-01').plus({ days: i }).toISODate(),
      closed: 1,
    }));
    const tooMany = await save({ rows: many });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.result).toBe(false);
    expect(await rowsOf()).toEqual(before);
  });

  it('words the refusal and its `rows` in the caller’s language (Accept-Language), changing nothing', async () => {
    const before = await rowsOf();
    const rows = [open(3, 480, 720), open(3, 690, 900), open(2, 605, 720), { weekday: 4, closed: 0 }];
    const es = await s.api('POST', '/manager/companies/save_operating_hours.json', {
      token: admin,
      body: { rows },
      headers: { 'Accept-Language': 'es-ES,es;q=0.9' },
    });
    expect(es.status).toBe(400);
    expect(es.body).toMatchObject({ result: false, message: 'Horario de operación no guardado: corrija las filas' });
    expect(es.body.rows).toEqual([
      'Fila 4: la hora de inicio es obligatoria cuando el día está abierto.',
      'Fila 4: la hora de fin es obligatoria cuando el día está abierto.',
      'Fila 3: la hora de inicio debe caer en la cuadrícula de 15 minutos.',
      'Las filas 1 y 2 se solapan el jueves.',
    ]);
    const de = await s.api('POST', '/manager/companies/save_operating_hours.json', {
      token: admin,
      body: { rows: [open(0, 480, 720), open(0, 600, 660)] },
      headers: { 'Accept-Language': 'de' },
    });
    expect(de.body.rows).toEqual(['Die Zeilen 1 und 2 überschneiden sich am Montag.']);
    // No preference and an English-speaking user: the English of before.
    const en = await save({ rows: [open(0, 480, 720), open(0, 600, 660)] });
    expect(en.body).toMatchObject({ message: 'Operating hours not saved: fix the rows' });
    expect(en.body.rows).toEqual(['Rows 1 and 2 overlap on Monday.']);
    expect(await rowsOf()).toEqual(before);
  });

  it('replaces the whole set of one scope; other scopes stay', async () => {
    const sabadell = s.refs.bases.Sabadell;
    expect((await save({ base_id: sabadell, rows: [open(0, 540, 780)] })).status).toBe(200);
    const r = await save({ rows: [open(0, 480, 600), open(0, 660, 900), { override_date: '2026-12-25', closed: 1 }] });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ result: true, base_id: null });
    const rows = await rowsOf();
    const company = rows.filter((x) => x.base_id === null);
    // Tuesday (weekday 1) was left out, so it is gone; the dated closure is new.
    expect(company.map((x) => [x.weekday, x.override_date, x.closed, x.start_minute, x.end_minute])).toEqual([
      [0, null, false, 480, 600],
      [0, null, false, 660, 900],
      [null, '2026-12-25', true, 0, 0],
    ]);
    expect(rows.filter((x) => x.base_id === sabadell).map((x) => [x.weekday, x.start_minute, x.end_minute])).toEqual([
      [0, 540, 780],
    ]);
  });

  it('accepts the form names data[base_id] and data[rows][n][...]', async () => {
    const sabadell = s.refs.bases.Sabadell;
    const form: Record<string, string> = { 'data[base_id]': sabadell };
    [
      ['0', '540', '780'],
      ['1', '540', '780'],
    ].forEach(([weekday, start, end], i) => {
      form[`data[rows][${i}][weekday]`] = weekday;
      form[`data[rows][${i}][override_date]`] = '';
      form[`data[rows][${i}][closed]`] = '0';
      form[`data[rows][${i}][start_minute]`] = start;
      form[`data[rows][${i}][end_minute]`] = end;
    });
    const r = await s.api('POST', '/manager/companies/save_operating_hours.json', { token: admin, form });
    expect(r.status).toBe(200);
    expect((await rowsOf()).filter((x) => x.base_id === sabadell).map((x) => x.weekday)).toEqual([0, 1]);
  });

  it('posting no rows for a base removes its customisation', async () => {
    const sabadell = s.refs.bases.Sabadell;
    const r = await save({ base_id: sabadell });
    expect(r.status).toBe(200);
    expect(r.body.rows).toEqual([]);
    expect((await rowsOf()).some((x) => x.base_id === sabadell)).toBe(false);
    const list = (await s.api('GET', '/manager/companies/operating_hours.json', { token: admin })).body.OperatingHours;
    expect(list.bases.find((b: any) => b.id === sabadell).customised).toBe(false);
  });

  it('a base of another company, or an unknown one, is 404 and changes nothing', async () => {
    const before = await rowsOf();
    const r = await save({ base_id: s.refs.bases.Republic, rows: [open(0, 480, 600)] });
    expect(r.status).toBe(404);
    expect((await save({ base_id: 'no-such-base', rows: [] })).status).toBe(404);
    expect(await rowsOf()).toEqual(before);
    const harbor = await s.login('admin@harbor.test');
    expect((await rowsOf(harbor)).length).toBe(0);
    expect(
      (await s.api('GET', `/companies/hours/${s.refs.bases.Sabadell}/2026-05-04/2026-05-04.json`, { token: harbor }))
        .status,
    ).toBe(404);
  });

  it('lists dated overrides from 7 days ago to 365 days ahead only', async () => {
    const today = DateTime.now().setZone('Europe/Madrid').startOf('day');
    const day = (n: number) => today.plus({ days: n }).toISODate() as string;
    const r = await save({
      rows: [open(0, 480, 600), ...[-8, -7, 365, 366].map((n) => ({ override_date: day(n), closed: 1 }))],
    });
    expect(r.status).toBe(200);
    const list = (await s.api('GET', '/manager/companies/operating_hours.json', { token: admin })).body.OperatingHours;
    expect(list.overrides_from).toBe(day(-7));
    expect(list.overrides_to).toBe(day(365));
    expect(list.rows.filter((x: any) => x.override_date).map((x: any) => x.override_date)).toEqual([day(-7), day(365)]);
    expect(list.rows.some((x: any) => x.weekday === 0)).toBe(true);
  });

  describe('resolution through HTTP', () => {
    beforeAll(async () => {
      const sabadell = s.refs.bases.Sabadell;
      // Company week: Monday to Saturday 08:00-18:00; Sunday 01:00-05:00 (spans the spring-forward jump).
      const week = [0, 1, 2, 3, 4, 5].map((d) => open(d, 480, 1080));
      const companyRows = [
        ...week,
        open(6, 60, 300),
        { override_date: '2026-04-06', closed: 1 },
        { override_date: '2026-04-08', closed: 0, start_minute: 600, end_minute: 660 },
      ];
      expect((await save({ rows: companyRows })).status).toBe(200);
      // Sabadell owns its week: only Monday 09:00-13:00; plus its own override on 2026-04-07.
      expect(
        (
          await save({
            base_id: sabadell,
            rows: [open(0, 540, 780), { override_date: '2026-04-07', closed: 0, start_minute: 600, end_minute: 720 }],
          })
        ).status,
      ).toBe(200);
    });

    const hours = async (scope: string, from: string, to: string, token = admin) =>
      s.api('GET', `/companies/hours/${scope}/${from}/${to}.json`, { token });

    it('a DST day in Europe/Madrid keeps wall-clock minutes (23-hour day)', async () => {
      const r = await hours('company', '2026-03-28', '2026-03-30', await s.login('student@skyline.test'));
      expect(r.status).toBe(200);
      expect(r.body.timezone).toBe('Europe/Madrid');
      const [sat, sun, mon] = r.body.days;
      expect(sat.windows[0]).toMatchObject({
        start_minute: 480,
        end_minute: 1080,
        start: unix('2026-03-28T07:00:00Z'),
        end: unix('2026-03-28T17:00:00Z'),
      });
      // 01:00 CET to 05:00 CEST is three hours of real time.
      expect(sun).toMatchObject({ date: '2026-03-29', closed: false });
      expect(sun.windows[0]).toMatchObject({ start: unix('2026-03-29T00:00:00Z'), end: unix('2026-03-29T03:00:00Z') });
      expect(mon.windows[0]).toMatchObject({ start: unix('2026-03-30T06:00:00Z'), end: unix('2026-03-30T16:00:00Z') });
      const fall = await hours('company', '2026-10-25', '2026-10-25');
      expect(fall.body.days[0].windows[0]).toMatchObject({
        start: unix('2026-10-24T23:00:00Z'),
        end: unix('2026-10-25T04:00:00Z'),
      });
    });

    it('a company override wins over the week, for the company and for bases', async () => {
      const company = await hours('company', '2026-04-06', '2026-04-06');
      expect(company.body.days[0]).toEqual({ date: '2026-04-06', closed: true, windows: [] });
      const base = await hours(s.refs.bases.Sabadell, '2026-04-06', '2026-04-08');
      expect(base.body.base_id).toBe(s.refs.bases.Sabadell);
      const [mon, tue, wed] = base.body.days;
      expect(mon.closed).toBe(true);
      // A base override wins over everything.
      expect(tue.windows.map((w: any) => [w.start_minute, w.end_minute])).toEqual([[600, 720]]);
      // No base override that day: the company override wins over the base week.
      expect(wed.windows.map((w: any) => [w.start_minute, w.end_minute])).toEqual([[600, 660]]);
    });

    it('a base with weekly rows owns its week; a base without follows the company', async () => {
      const sab = await hours(s.refs.bases.Sabadell, '2026-03-30', '2026-03-31');
      expect(sab.body.days[0].windows.map((w: any) => [w.start_minute, w.end_minute])).toEqual([[540, 780]]);
      expect(sab.body.days[1]).toEqual({ date: '2026-03-31', closed: true, windows: [] });
      const cv = await hours(s.refs.bases['Cuatro Vientos'], '2026-03-31', '2026-03-31');
      expect(cv.body.days[0].windows.map((w: any) => [w.start_minute, w.end_minute])).toEqual([[480, 1080]]);
    });

    it('a company without rows is open around the clock', async () => {
      const harbor = await s.login('pilot@harbor.test');
      const r = await hours('company', '2026-03-08', '2026-03-08', harbor);
      expect(r.body.timezone).toBe('America/New_York');
      // US spring-forward day: 00:00 to 24:00 wall clock is 23 hours.
      expect(r.body.days[0].windows[0]).toMatchObject({
        start_minute: 0,
        end_minute: 1440,
        start: unix('2026-03-08T05:00:00Z'),
        end: unix('2026-03-09T04:00:00Z'),
      });
    });

    it('rejects a bad range with 400', async () => {
      expect((await hours('company', '2026-04-02', '2026-04-01')).status).toBe(400);
      expect((await hours('company', '2026-02-30', '2026-03-01')).status).toBe(400);
      expect((await hours('company', '2026-01-01', '2027-06-01')).status).toBe(400);
      expect((await hours('company', 'soon', '2026-01-01')).status).toBe(400);
    });

    it('replicates as one `operating_hours` reference document per company', async () => {
      const token = await s.login('pilot@skyline.test');
      const { docs } = await pullAll(s, token, 'reference');
      const doc = docs.find((d) => d.type === 'operating_hours');
      expect(doc.id).toBe(`${s.refs.companies.skyline}:operating_hours`);
      expect(doc.data.timezone).toBe('Europe/Madrid');
      // Weekly rows of every scope; overrides from 7 days ago on (the April ones are past).
      expect(doc.data.rows.filter((r: any) => r.base_id === s.refs.bases.Sabadell).map((r: any) => r.weekday)).toEqual([
        0,
      ]);
      const { checkpoint } = await pullAll(s, token, 'reference');
      expect((await save({ base_id: s.refs.bases.Sabadell })).status).toBe(200);
      const next = await pullAll(s, token, 'reference', checkpoint);
      const changed = next.docs.find((d) => d.type === 'operating_hours');
      expect(changed.data.rows.some((r: any) => r.base_id === s.refs.bases.Sabadell)).toBe(false);
      // Harbor's document is its own and empty (open around the clock).
      const harbor = (await pullAll(s, await s.login('pilot@harbor.test'), 'reference')).docs.find(
        (d) => d.type === 'operating_hours',
      );
      expect(harbor.data.rows).toEqual([]);
    });
  });

  it('rows of a deleted base are not listed nor counted as customised', async () => {
    const sabadell = s.refs.bases.Sabadell;
    expect((await save({ base_id: sabadell, rows: [open(2, 600, 720)] })).status).toBe(200);
    const customisedBases = async () =>
      (await s.api('GET', '/manager/companies/settings.json', { token: admin })).body.Admin.operating_hours.bases;
    const before = await customisedBases();
    await s.ctx.db.updateTable('bases').set({ deleted: 1 }).where('id', '=', sabadell).execute();
    try {
      expect((await rowsOf()).some((x) => x.base_id === sabadell)).toBe(false);
      expect(await customisedBases()).toBe(before - 1);
    } finally {
      await s.ctx.db.updateTable('bases').set({ deleted: 0 }).where('id', '=', sabadell).execute();
    }
    expect((await rowsOf()).some((x) => x.base_id === sabadell)).toBe(true);
  });
});
