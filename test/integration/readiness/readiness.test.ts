import { uuidv7 } from '@ops/shared';
import { translator } from '@ops/shared/i18n/index';
import type { ReadinessLine } from '@ops/shared/rules/readiness/readiness';
import { DEFAULT_READINESS_SETTINGS, type ReadinessSettings } from '@ops/shared/rules/readiness/settings';
import { renderText } from '@ops/shared/rules/readiness/text';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { push } from '../../setup/sync.ts';
import { readinessReads } from '@ops/server/areas/readiness/readiness.repository';
import { sql } from 'kysely';
import { startWeatherFake, type WeatherFake } from '../../setup/weather-fake.ts';
import { changesOf, createFlight, flightRow, insertExpiredMel, tokenCache, typeIds } from '../flights/helpers.ts';

const H = 3600;
const D = 86400;
const now = () => Math.floor(Date.now() / 1000);
const pad = (n: number) => String(n).padStart(2, '0');
const ddhh = (t: number) => {
  const d = new Date(t * 1000);
  return `${pad(d.getUTCDate())}${pad(d.getUTCHours())}`;
};
const issuedTag = (t: number) => `${ddhh(t)}${pad(new Date(t * 1000).getUTCMinutes())}Z`;
/** A TAF in the provider's raw format, valid from `from` for 30 hours. */
const taf = (icao: string, issued: number, from: number, body: string) =>
  `TAF ${icao} ${issuedTag(issued)} ${ddhh(from)}/${ddhh(from + 30 * H)} ${body}`;

const allChecks = (action: 'ignore' | 'warn' | 'block'): ReadinessSettings['checks'] => ({
  BALANCE: action,
  CERTIFICATES: action,
  CURRENCY: action,
  MAINTENANCE: action,
  MEL: action,
  DUTY: action,
  WEATHER: action,
});

describe.each(DIALECTS)('Flight readiness on %s', (dialect) => {
  let s: TestServer;
  let fake: WeatherFake;
  const t = tokenCache(() => s);
  let types: Record<string, string>;
  let sky: string;
  let student: string;
  let paula: string;
  let ivan: string;
  let abc: string;
  let def: string;

  beforeAll(async () => {
    fake = await startWeatherFake();
    s = await startTestServer(dialect, {
      env: { WEATHER_AVIATION_URL: fake.aviationUrl, WEATHER_ARCHIVE_URL: fake.archiveUrl, WEATHER_TIMEOUT_MS: '400' },
    });
    types = await typeIds(s, await t('admin@skyline.test'));
    sky = s.refs.companies.skyline;
    student = s.userId('student@skyline.test');
    paula = s.userId('pilot@skyline.test');
    ivan = s.userId('instructor@skyline.test');
    abc = s.refs.aircraft['EC-ABC'];
    def = s.refs.aircraft['EC-DEF'];
  });
  afterAll(async () => {
    await s?.close();
    await fake?.close();
  });

  const settingsWith = async (patch: Partial<ReadinessSettings>) => {
    const r = await s.api('POST', '/readiness/settings.json', {
      token: await t('admin@skyline.test'),
      body: { ...DEFAULT_READINESS_SETTINGS, ...patch },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  };
  const only = (
    code: keyof ReadinessSettings['checks'],
    action: 'warn' | 'block',
    extra: Partial<ReadinessSettings> = {},
  ) => settingsWith({ ...extra, checks: { ...allChecks('ignore'), [code]: action } });
  /** A slot on a future day of its own, so tests never collide. */
  let slot = 20;
  const futureSlot = (hours = 2) => {
    slot += 1;
    const start = Math.floor(now() / D) * D + slot * D + 9 * H;
    return { start, end: start + hours * H };
  };
  const plan = async (body: Record<string, unknown>, email = 'dispatch@skyline.test') =>
    s.api('POST', '/schedules/readiness.json', { token: await t(email), body });
  const book = async (Schedule: Record<string, unknown>, email = 'dispatch@skyline.test') =>
    s.api('POST', '/schedules/edit.json', { token: await t(email), body: { Schedule } });
  const lineOf = (body: { lines: { code: string }[] }, code: string) => body.lines.find((l) => l.code === code);
  const bookingCount = async () =>
    Number(
      (
        await s.ctx.db
          .selectFrom('schedules')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('company_id', '=', sky)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const soloPlan = (extra: Record<string, unknown> = {}) => ({
    aircraft_id: abc,
    pilot_id: paula,
    flight_type_id: types.Solo,
    ...futureSlot(),
    ...extra,
  });
  const openJob = async (aircraftId: string, start: number) =>
    s.ctx.db
      .insertInto('maintenance_jobs')
      .values({
        id: uuidv7(),
        company_id: sky,
        change_no: 0,
        deleted: 0,
        created: now(),
        modified: now(),
        user_id: null,
        aircraft_id: aircraftId,
        name: '50 h inspection',
        description: null,
        status: 'OPEN',
        start,
        finish: null,
        crs_signed: 0,
        crs_signed_by: null,
        crs_signed_at: null,
        crs_expiration: null,
        maintenance_plan_id: null,
        repeat: 'NEVER',
      } as never)
      .execute();

  describe('access and input', () => {
    it('wants a credential; settings are for managers; bad settings are a 400 and change nothing', async () => {
      expect((await s.api('GET', '/readiness/settings.json')).status).toBe(401);
      expect((await s.api('POST', '/schedules/readiness.json', { body: {} })).status).toBe(401);
      const read = await s.api('GET', '/readiness/settings.json', { token: await t('student@skyline.test') });
      expect(read.status).toBe(200);
      expect(read.body.settings.checks.MEL).toBe('ignore');
      for (const email of ['pilot@skyline.test', 'dispatch@skyline.test', 'instructor@skyline.test']) {
        const r = await s.api('POST', '/readiness/settings.json', {
          token: await t(email),
          body: DEFAULT_READINESS_SETTINGS,
        });
        expect(r.status, email).toBe(403);
      }
      const bad = await s.api('POST', '/readiness/settings.json', {
        token: await t('ops@skyline.test'),
        body: { ...DEFAULT_READINESS_SETTINGS, checks: { ...allChecks('warn'), MEL: 'loud' } },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.result).toBe(false);
      const after = await s.api('GET', '/readiness/settings.json', { token: await t('ops@skyline.test') });
      expect(after.body.settings.checks.MEL).toBe('ignore');
    });

    it('one company’s policy is not another’s; another company’s flight is 404; unknown refs are a 400', async () => {
      await only('MEL', 'block');
      const harbor = await s.api('GET', '/readiness/settings.json', { token: await t('admin@harbor.test') });
      expect(harbor.body.settings.checks.MEL).toBe('ignore');
      const id = await createFlight(s, await t('admin@skyline.test'), {
        date: '2026-01-10',
        aircraft_id: abc,
        flight_type_id: types.Solo,
        pic_id: paula,
        departure_airport: 'LECU',
        landing_airport: 'LECU',
        offblocks_time: '10:00',
        onblocks_time: '11:00',
      });
      expect(
        (await s.api('GET', `/flights/readiness/${id}.json`, { token: await t('admin@harbor.test') })).status,
      ).toBe(404);
      expect(
        (await s.api('GET', `/flights/readiness/${uuidv7()}.json`, { token: await t('admin@skyline.test') })).status,
      ).toBe(404);
      expect(
        (await s.api('GET', `/flights/readiness/${id}.json`, { token: await t('student@skyline.test') })).status,
      ).toBe(403);
      const mine = await s.api('GET', `/flights/readiness/${id}.json`, { token: await t('pilot@skyline.test') });
      expect(mine.status).toBe(200);
      expect(mine.body).toMatchObject({ result: true, ready: true, lines: [{ code: 'MEL', level: 'ok' }] });
      const bad = await plan({ ...soloPlan(), aircraft_id: s.refs.aircraft.N123HA });
      expect(bad.status).toBe(400);
      expect((await plan({ ...soloPlan(), start: 'soon' })).status).toBe(400);
      // A self-booker asks only about their own flying.
      expect((await plan(soloPlan(), 'student@skyline.test')).status).toBe(403);
    });

    it('every check ignored (no row): no lines, and booking answers as before', async () => {
      await settingsWith({});
      const r = await plan(soloPlan());
      expect(r.body).toEqual({ result: true, ready: true, lines: [] });
      const b = await book(soloPlan());
      expect(b.body.result).toBe(true);
      expect(b.body.readiness).toBeUndefined();
    });
  });

  describe('each check', () => {
    it('BALANCE: below the company minimum (no account is zero); null minimum is off', async () => {
      await only('BALANCE', 'block', { balance_minimum: 1000 });
      const r = await plan(soloPlan());
      expect(lineOf(r.body, 'BALANCE')).toMatchObject({
        level: 'block',
        message: expect.stringContaining('below the company minimum'),
      });
      expect(r.body.ready).toBe(false);
      await only('BALANCE', 'block', { balance_minimum: null });
      expect(lineOf((await plan(soloPlan())).body, 'BALANCE')).toMatchObject({ level: 'ok' });
    });

    it('CERTIFICATES: a required certificate missing or expired on the flight date', async () => {
      await only('CERTIFICATES', 'warn');
      await s.ctx.db
        .insertInto('flight_type_certificates')
        .values({
          id: uuidv7(),
          company_id: sky,
          flight_type_id: types.Solo,
          role: 'pic',
          certificate_type: 'CPL',
        } as never)
        .execute();
      try {
        const r = await plan(soloPlan());
        expect(lineOf(r.body, 'CERTIFICATES')).toMatchObject({
          level: 'warn',
          message: expect.stringContaining('CPL'),
        });
        expect(r.body.ready).toBe(true);
        // Issue 33: the line carries its message id and values; English renders the API's sentence, Spanish its own.
        const line = lineOf(r.body, 'CERTIFICATES') as ReadinessLine;
        if (!line.text || !line.fix_text) throw new Error('the line has no message id');
        expect(line.text.id).toBe('readiness.certsMissing');
        expect(renderText(translator('en'), line.text)).toBe(line.message);
        expect(renderText(translator('en'), line.fix_text)).toBe(line.fix);
        const es = renderText(translator('es'), line.text, 'es');
        expect(es).toMatch(/^Faltan certificados exigidos o están caducados el \d+ \S+ \d{4} \(.*CPL\)\.$/);
      } finally {
        await s.ctx.db.deleteFrom('flight_type_certificates').where('certificate_type', '=', 'CPL').execute();
      }
    });

    it('CURRENCY: the PIC without 3 landings in 90 days, only with passengers', async () => {
      await only('CURRENCY', 'block');
      expect(lineOf((await plan(soloPlan({ pax: 2 }))).body, 'CURRENCY')).toMatchObject({ level: 'block' });
      expect(lineOf((await plan(soloPlan({ pax: 0 }))).body, 'CURRENCY')).toMatchObject({ level: 'ok' });
      const id = await createFlight(s, await t('admin@skyline.test'), {
        date: '2026-01-11',
        aircraft_id: def,
        flight_type_id: types.Solo,
        pic_id: ivan,
        pax: 1,
        departure_airport: 'LECU',
        landing_airport: 'LECU',
        offblocks_time: '10:00',
        onblocks_time: '11:00',
      });
      const f = await s.api('GET', `/flights/readiness/${id}.json`, { token: await t('admin@skyline.test') });
      expect(lineOf(f.body, 'CURRENCY')).toMatchObject({ level: 'block' });
    });

    it('MAINTENANCE: a job due before the flight ends; after it, fine', async () => {
      await only('MAINTENANCE', 'block');
      const p = soloPlan({ aircraft_id: def });
      await openJob(def, p.start + H);
      try {
        expect(lineOf((await plan(p)).body, 'MAINTENANCE')).toMatchObject({
          level: 'block',
          message: expect.stringContaining('50 h inspection'),
        });
        expect(
          lineOf((await plan({ ...p, start: p.start - 5 * D, end: p.start - 5 * D + H })).body, 'MAINTENANCE'),
        ).toMatchObject({ level: 'ok' });
      } finally {
        await s.ctx.db
          .deleteFrom('maintenance_jobs')
          .where('aircraft_id', '=', def)
          .where('crs_signed', '=', 0)
          .execute();
      }
    });

    it('MAINTENANCE: a programme item by hours since its latest signed job (summed in SQL), by date from that job', async () => {
      await only('MAINTENANCE', 'block');
      const db = s.ctx.db;
      const t0 = now();
      const latest = t0 - 10 * D;
      const planId = uuidv7();
      // A draft long ago as the row to copy (every column filled as the flights area fills it).
      const template = await flightRow(
        s,
        await createFlight(s, await t('admin@skyline.test'), {
          date: '2020-03-01',
          aircraft_id: def,
          flight_type_id: types.Solo,
          pic_id: paula,
          departure_airport: 'LECU',
          landing_airport: 'LECU',
          offblocks_time: '10:00',
          onblocks_time: '11:00',
        }),
      );
      const landed = (offblocks: number, seconds: number) => ({
        ...template,
        id: uuidv7(),
        status: 'LANDED',
        deleted: 0,
        aircraft_id: def,
        offblocks,
        onblocks: offblocks + seconds,
        starts: offblocks,
        block_time: seconds,
        flight_time: seconds,
      });
      const job = (done: number, crsExpiration: number | null) => ({
        id: uuidv7(),
        company_id: sky,
        change_no: 0,
        deleted: 0,
        created: t0,
        modified: t0,
        user_id: null,
        aircraft_id: def,
        name: 'Programme job',
        description: null,
        status: 'COMPLETED',
        start: done - D,
        finish: done,
        crs_signed: 1,
        crs_signed_by: null,
        crs_signed_at: done,
        crs_expiration: crsExpiration,
        maintenance_plan_id: planId,
        repeat: 'NEVER',
      });
      // What the aircraft already flew since the latest job (fixtures), counted here the plain way.
      const before = await db
        .selectFrom('flights')
        .select(['flight_time'])
        .where('company_id', '=', sky)
        .where('aircraft_id', '=', def)
        .where('status', '=', 'LANDED')
        .where('deleted', '=', 0)
        .where('offblocks', '>=', latest)
        .execute();
      const flownHours = before.reduce((a, r) => a + Number(r.flight_time), 0) / H + 48;
      const ids = [landed(t0 - 40 * D, 20 * H), landed(t0 - 5 * D, 30 * H), landed(t0 - 3 * D, 18 * H)];
      await db.insertInto('flights').values(ids).execute();
      await db
        .insertInto('maintenance_plans')
        .values({
          id: planId,
          company_id: sky,
          change_no: 0,
          deleted: 0,
          created: t0,
          modified: t0,
          user_id: null,
          name: '50 h check',
          description: null,
          hours_interval: flownHours + 1.5,
          landings_interval: null,
          repeat: 'NEVER',
          maintenance_programme_id: null,
          sort_order: 0,
        })
        .execute();
      await db
        .insertInto('plan_aircraft')
        .values({ company_id: sky, maintenance_plan_id: planId, aircraft_id: def })
        .execute();
      // An older signed job with the 20 h flight after it: if it counted, a one-hour flight would be due too.
      await db
        .insertInto('maintenance_jobs')
        .values([job(t0 - 100 * D, null), job(latest, null)] as never)
        .execute();
      try {
        const two = await plan(soloPlan({ aircraft_id: def }));
        expect(lineOf(two.body, 'MAINTENANCE')).toMatchObject({
          level: 'block',
          message: expect.stringContaining(`50 h check (${Math.round((flownHours + 2) * 10) / 10} h of`),
        });
        const one = soloPlan({ aircraft_id: def });
        expect(lineOf((await plan({ ...one, end: one.start + H })).body, 'MAINTENANCE')).toMatchObject({ level: 'ok' });
        // A yearly item whose signed jobs are all more than a year old is due by date.
        await db
          .updateTable('maintenance_plans')
          .set({ repeat: 'YEAR', hours_interval: null })
          .where('id', '=', planId)
          .execute();
        await db
          .updateTable('maintenance_jobs')
          .set({ finish: t0 - 400 * D, crs_signed_at: t0 - 400 * D })
          .where('maintenance_plan_id', '=', planId)
          .execute();
        expect(lineOf((await plan(soloPlan({ aircraft_id: def }))).body, 'MAINTENANCE')).toMatchObject({
          level: 'block',
          message: expect.stringContaining('50 h check (due'),
        });
      } finally {
        await db.deleteFrom('maintenance_jobs').where('maintenance_plan_id', '=', planId).execute();
        await db.deleteFrom('plan_aircraft').where('maintenance_plan_id', '=', planId).execute();
        await db.deleteFrom('maintenance_plans').where('id', '=', planId).execute();
        await db
          .deleteFrom('flights')
          .where(
            'id',
            'in',
            ids.map((f) => f.id),
          )
          .execute();
      }
    });

    it('MEL: an expired item blocks', async () => {
      await only('MEL', 'block');
      const n123 = s.refs.aircraft['EC-JET'];
      await insertExpiredMel(s, sky, n123, { ata: '34', category: 'C', title: 'Transponder' });
      const r = await plan(soloPlan({ aircraft_id: n123 }));
      expect(lineOf(r.body, 'MEL')).toMatchObject({ level: 'block', message: expect.stringContaining('Transponder') });
    });

    it('DUTY: the duty rule of CONTRACT 7', async () => {
      await only('DUTY', 'warn');
      await s.ctx.db.updateTable('companies').set({ max_duty_hours: 1 }).where('id', '=', sky).execute();
      try {
        const r = await plan(soloPlan());
        expect(lineOf(r.body, 'DUTY')).toMatchObject({
          level: 'warn',
          message: expect.stringContaining('Paula Pilot'),
        });
      } finally {
        await s.ctx.db.updateTable('companies').set({ max_duty_hours: null }).where('id', '=', sky).execute();
      }
    });

    it('WEATHER: a student below minimums in the TAF; a pilot is not checked; provider down is amber "no current report", never a 500', async () => {
      await only('WEATHER', 'block');
      // Within the TAF's 30 hours: six hours from now.
      const start = Math.floor(now() / 300) * 300 + 6 * H;
      const p = soloPlan({ pilot_id: student, start, end: start + 2 * H });
      fake.tafs.push({
        station: 'LECU',
        time: now() - H,
        raw: taf('LECU', now() - H, p.start - 6 * H, '27030G40KT 1500 BKN004'),
      });
      try {
        const r = await plan(p);
        expect(lineOf(r.body, 'WEATHER')).toMatchObject({
          level: 'block',
          message: expect.stringContaining('Below student minimums'),
        });
        // The answer carries the reports it used, so the device keeps them without asking the provider itself.
        expect(r.body.weather).toMatchObject({ icao: 'LECU', taf: expect.stringContaining('27030G40KT') });
        expect(lineOf((await plan({ ...p, pilot_id: paula })).body, 'WEATHER')).toMatchObject({ level: 'ok' });
        fake.mode.aviation = 'down';
        await s.ctx.db.deleteFrom('weather_cache').execute();
        const down = await plan(p);
        expect(down.status).toBe(200);
        expect(down.body.weather).toBeUndefined();
        expect(lineOf(down.body, 'WEATHER')).toMatchObject({
          level: 'warn',
          message: expect.stringContaining('No current report'),
        });
        fake.mode.aviation = 'garbage';
        expect(lineOf((await plan(p)).body, 'WEATHER')).toMatchObject({ level: 'warn' });
        // The METAR fails at once, the TAF answers later: the answer waits for it, so nothing it started is still
        // writing afterwards (a cache write once landed after the answer, in the next test).
        fake.mode.aviation = 'up';
        fake.paths['/api/data/metar'] = { mode: 'error' };
        fake.paths['/api/data/taf'] = { delayMs: 300 };
        await s.ctx.db.deleteFrom('weather_cache').execute();
        expect(lineOf((await plan(p)).body, 'WEATHER')).toMatchObject({ level: 'warn' });
        const cache = () => s.ctx.db.selectFrom('weather_cache').select(['key', 'body']).orderBy('key').execute();
        const held = await cache();
        await new Promise((r) => setTimeout(r, 500));
        expect(await cache()).toEqual(held);
      } finally {
        fake.paths = {};
        fake.mode.aviation = 'up';
        fake.tafs.length = 0;
        await s.ctx.db.deleteFrom('weather_cache').execute();
      }
    });
  });

  it.runIf(dialect === 'postgres')(
    'the combined read is a named statement: PostgreSQL keeps a generic plan for it, and the facts stay the same',
    async () => {
      const t0 = now();
      const wanted = {
        people: [paula, student],
        balanceOf: paula,
        certificates: { flightTypeId: types.Solo, seated: [paula] },
        currency: { picId: paula, from: t0 - 90 * D, to: t0 },
        maintenanceOf: abc,
        groupsOf: paula,
        weatherAt: 'LECU',
        melOf: abc,
        duty: { people: [paula], from: t0 - D, to: t0 + D, yearFrom: t0 - 365 * D, yearTo: t0 + D, except: {} },
      };
      await s.ctx.db.connection().execute(async (db) => {
        const first = await readinessReads(db, sky, wanted);
        // Five custom plans, then the generic one is made and kept (plan_cache_mode auto).
        for (let i = 0; i < 7; i++) expect(await readinessReads(db, sky, wanted)).toEqual(first);
        const { rows } = await sql<{ name: string; generic_plans: number; custom_plans: number }>`
          select name, generic_plans, custom_plans from pg_prepared_statements where name like 'readiness_reads_%'`.execute(
          db,
        );
        // Earlier tests prepared other texts on this connection (another number of people is another text).
        const ours = rows.find((r) => Number(r.generic_plans) + Number(r.custom_plans) >= 8);
        expect(ours, JSON.stringify(rows)).toBeDefined();
        expect(Number(ours?.generic_plans)).toBeGreaterThanOrEqual(2);
      });
    },
  );

  describe('the policy at booking, dispatch and offline', () => {
    it("the booking form's answer in the request's language: each line's message and fix, the rest unchanged (issue 33)", async () => {
      await only('MAINTENANCE', 'block');
      const p = soloPlan({ aircraft_id: def });
      await openJob(def, p.start);
      const dispatcher = s.userId('dispatch@skyline.test');
      try {
        const en = await plan(p);
        expect(en.body).toMatchObject({ result: true, ready: false });
        const [line] = en.body.lines as ReadinessLine[];
        expect(line).toMatchObject({ code: 'MAINTENANCE', level: 'block', message: expect.stringContaining('50 h') });
        const text = line.text;
        if (!text || !line.fix || !line.fix_text) throw new Error('the MAINTENANCE line carries no text or fix');
        const ask = async (headers: Record<string, string>) =>
          s.api('POST', '/schedules/readiness.json', { token: await t('dispatch@skyline.test'), body: p, headers });
        // Accept-Language first, then the caller's own language.
        await s.ctx.db.updateTable('users').set({ language: 'fr' }).where('id', '=', dispatcher).execute();
        for (const [locale, r] of [
          ['es', await ask({ 'Accept-Language': 'es-ES,es;q=0.9' })],
          ['fr', await ask({})],
        ] as const) {
          expect(r.status, locale).toBe(200);
          const [worded] = r.body.lines as ReadinessLine[];
          expect(worded.message, locale).toBe(renderText(translator(locale), text, locale));
          expect(worded.message, locale).not.toBe(line.message);
          expect(worded.fix, locale).toBe(renderText(translator(locale), line.fix_text, locale));
          expect(worded.fix, locale).not.toBe(line.fix);
          expect({ ...r.body, lines: [{ ...worded, message: null, fix: null }] }).toEqual({
            ...en.body,
            lines: [{ ...line, message: null, fix: null }],
          });
        }
        // English stays byte for byte what it was.
        expect((await ask({ 'Accept-Language': 'en' })).body).toEqual(en.body);
      } finally {
        await s.ctx.db.updateTable('users').set({ language: 'en' }).where('id', '=', dispatcher).execute();
        await s.ctx.db
          .deleteFrom('maintenance_jobs')
          .where('aircraft_id', '=', def)
          .where('crs_signed', '=', 0)
          .execute();
      }
    });

    it('block: the booking is refused with READINESS and the list, nothing written', async () => {
      await only('MAINTENANCE', 'block');
      const p = soloPlan({ aircraft_id: def });
      await openJob(def, p.start);
      try {
        const before = await bookingCount();
        const r = await book(p);
        expect(r.body).toMatchObject({ result: false, code: 'READINESS' });
        expect(r.body.message).toContain('50 h inspection');
        expect(r.body.readiness).toEqual([expect.objectContaining({ code: 'MAINTENANCE', level: 'block' })]);
        // In Spanish (issue 33): the refusal and each line's message and fix, worded from their `text`.
        const es = await s.api('POST', '/schedules/edit.json', {
          token: await t('dispatch@skyline.test'),
          body: { Schedule: p },
          headers: { 'Accept-Language': 'es' },
        });
        expect(es.headers.get('content-language')).toBe('es');
        expect(es.body).toMatchObject({ result: false, code: 'READINESS' });
        const [line] = r.body.readiness as ReadinessLine[];
        const [esLine] = es.body.readiness as ReadinessLine[];
        const text = line.text;
        if (!text) throw new Error('the MAINTENANCE line carries no text');
        expect(esLine.message).toBe(renderText(translator('es'), text, 'es'));
        expect(esLine.message).not.toBe(line.message);
        if (line.fix_text) expect(esLine.fix).toBe(renderText(translator('es'), line.fix_text, 'es'));
        // Everything else of the line is what an English caller reads.
        expect({ ...esLine, message: null, fix: null }).toEqual({ ...line, message: null, fix: null });
        expect(await bookingCount()).toBe(before);
      } finally {
        await s.ctx.db
          .deleteFrom('maintenance_jobs')
          .where('aircraft_id', '=', def)
          .where('crs_signed', '=', 0)
          .execute();
      }
    });

    it('warn: the booking is made, answered with the lines and written in the flight history', async () => {
      await only('MAINTENANCE', 'warn');
      const p = soloPlan({ aircraft_id: def });
      await openJob(def, p.start);
      try {
        const r = await book(p);
        expect(r.body).toMatchObject({ result: true, readiness: [{ code: 'MAINTENANCE', level: 'warn' }] });
        const history = await changesOf(s, r.body.flight_id);
        expect(history.some((h) => h.comments?.includes('Readiness warnings: MAINTENANCE'))).toBe(true);
      } finally {
        await s.ctx.db
          .deleteFrom('maintenance_jobs')
          .where('aircraft_id', '=', def)
          .where('crs_signed', '=', 0)
          .execute();
      }
    });

    it('dispatch: blocked with READINESS (flight unchanged), then dispatched with the warning in its history', async () => {
      await only('MAINTENANCE', 'block');
      const p = soloPlan({ aircraft_id: def });
      const booked = await book(p);
      expect(booked.body.result, JSON.stringify(booked.body)).toBe(true);
      const flightId = booked.body.flight_id as string;
      await openJob(def, p.start);
      try {
        const r = await s.api('POST', `/flights/dispatch/${flightId}.json`, {
          token: await t('dispatch@skyline.test'),
        });
        expect(r.body).toMatchObject({
          result: false,
          code: 'READINESS',
          readiness: [{ code: 'MAINTENANCE', level: 'block' }],
        });
        expect((await flightRow(s, flightId)).status).toBe('SCHEDULED');
        await only('MAINTENANCE', 'warn');
        const ok = await s.api('POST', `/flights/dispatch/${flightId}.json`, {
          token: await t('dispatch@skyline.test'),
        });
        expect(ok.body).toMatchObject({
          result: true,
          status: 'DISPATCHED',
          readiness: [{ code: 'MAINTENANCE', level: 'warn' }],
        });
        const history = await changesOf(s, flightId);
        expect(history.filter((h) => h.comments?.includes('Readiness warnings')).length).toBeGreaterThan(0);
      } finally {
        await s.ctx.db
          .deleteFrom('maintenance_jobs')
          .where('aircraft_id', '=', def)
          .where('crs_signed', '=', 0)
          .execute();
      }
    });

    it('offline: the booking command is re-decided with the policy and rejected with READINESS', async () => {
      await only('BALANCE', 'block', { balance_minimum: 1000 });
      const before = await bookingCount();
      const r = await push(s, await t('dispatch@skyline.test'), 'commands', [
        {
          assumedMasterState: null,
          newDocumentState: {
            id: uuidv7(),
            name: 'schedule.book',
            args: { new_id: uuidv7(), ...soloPlan() },
            client_time: Date.now(),
            user_id: null,
            status: 'pending',
            reason: null,
            details: null,
            result: null,
            decided_at: null,
          },
        },
      ]);
      expect(r.body.conflicts[0]).toMatchObject({ status: 'rejected', details: { code: 'READINESS' } });
      expect(r.body.conflicts[0].reason).toContain('below the company minimum');
      expect(await bookingCount()).toBe(before);
      await settingsWith({});
    });
  });
});
