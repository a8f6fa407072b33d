import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { addFlight, addUser, DAY, flightTypeIds, HOUR, now, tokens } from './people-helpers.ts';

describe.each(DIALECTS)('Pilot totals and currency on %s', (dialect) => {
  let s: TestServer;
  let tok: (email: string) => Promise<string>;
  let p: string;
  let types: Record<string, string>;
  beforeAll(async () => {
    s = await startTestServer(dialect);
    tok = tokens(() => s);
    types = await flightTypeIds(s);
    // The pilot under test has a login shared with a Harbor account (same email).
    p = await addUser(s, {
      name: 'Tess',
      surname: 'Totals',
      email: 'tess@people.test',
      login: true,
      flightHours: 12.5,
    });
    const identity = (
      await s.ctx.db.selectFrom('users').select('identity_id').where('id', '=', p).executeTakeFirstOrThrow()
    ).identity_id;
    const harborTess = await addUser(s, {
      company: 'harbor',
      name: 'Tess',
      surname: 'Totals',
      email: 'tess@people.test',
      identityId: identity,
    });
    const x = s.userId('instructor@skyline.test');
    const ac = s.refs.aircraft;
    const t = now() - 10 * DAY;
    // Class by class (Part B 2.6): which line each seat credits.
    await addFlight(s, {
      pic: p,
      type: types.Solo,
      aircraft: ac['EC-ABC'],
      block: 3600,
      crosscountry: true,
      onblocks: t,
    });
    await addFlight(s, {
      pic: x,
      sic: p,
      type: types['Dual training'],
      aircraft: ac['EC-ABC'],
      block: 5400,
      onblocks: t - DAY,
    });
    await addFlight(s, {
      pic: x,
      sic: p,
      type: types['Multi-crew'],
      aircraft: ac['EC-JET'],
      block: 7200,
      rules: 'IFR',
      ifr: 6000,
      night: 1800,
      multiengine: true,
      onblocks: t - 2 * DAY,
    });
    // SIC on a single-pilot aircraft logs nothing at all.
    await addFlight(s, {
      pic: x,
      sic: p,
      type: types['Multi-crew'],
      aircraft: ac['EC-ABC'],
      block: 1000,
      onblocks: t - 3 * DAY,
    });
    await addFlight(s, {
      pic: p,
      type: types.Checkride,
      aircraft: ac['EC-DEF'],
      block: 4000,
      multiengine: true,
      onblocks: t - 4 * DAY,
    });
    await addFlight(s, {
      pic: x,
      sic: p,
      type: types.Checkride,
      aircraft: ac['EC-ABC'],
      block: 2000,
      onblocks: t - 5 * DAY,
    });
    await addFlight(s, {
      pic: x,
      supervisor: p,
      type: types['Supervised solo'],
      aircraft: ac['EC-ABC'],
      block: 2500,
      onblocks: t - 6 * DAY,
    });
    await addFlight(s, {
      pic: p,
      type: types['Dual training'],
      aircraft: ac['SIM-01'],
      block: 3000,
      onblocks: t - 7 * DAY,
    });
    // Only LANDED flights count.
    for (const status of ['DRAFT', 'SCHEDULED', 'DISPATCHED', 'CANCELED', 'DELETED']) {
      await addFlight(s, {
        status,
        pic: p,
        type: types.Solo,
        aircraft: ac['EC-ABC'],
        block: 9999,
        onblocks: t - 8 * DAY,
      });
    }
    // A flight without the pilot.
    await addFlight(s, { pic: x, type: types.Solo, aircraft: ac['EC-ABC'], block: 7777, onblocks: t - 9 * DAY });
    // Harbor: the same person's account flew 1800 s (a flight without a type logs its PIC as pic); a scheduled one does not count.
    await addFlight(s, {
      company: 'harbor',
      pic: harborTess,
      aircraft: ac.N123HA,
      type: null,
      block: 1800,
      onblocks: t,
    });
    await addFlight(s, {
      company: 'harbor',
      status: 'SCHEDULED',
      pic: harborTess,
      aircraft: ac.N123HA,
      type: null,
      block: 5000,
      onblocks: t,
    });
  });
  afterAll(() => s?.close());

  const totals = async (email: string, userId?: string) =>
    s.api('GET', userId ? `/pilots/totals/${userId}.json` : '/pilots/totals.json', { token: await tok(email) });

  it('answers 401 without a token', async () => {
    expect((await s.api('GET', '/pilots/totals.json')).status).toBe(401);
    expect((await s.api('GET', `/pilots/totals/${p}.json`)).status).toBe(401);
    expect((await s.api('GET', '/pilots/get_currency.json')).status).toBe(401);
    expect((await s.api('GET', `/pilots/get_currency/${p}/30/90/90.json`)).status).toBe(401);
    expect((await s.api('GET', '/pilots/currency_requirements.json')).status).toBe(401);
    expect((await s.api('POST', '/pilots/currency_requirements.json', { body: {} })).status).toBe(401);
  });

  describe('totals', () => {
    it('rolls up LANDED flights class by class', async () => {
      const r = await totals('admin@skyline.test', p);
      expect(r.status).toBe(200);
      const b = r.body;
      const fn = Object.fromEntries(Object.entries(b.functions).map(([k, v]: [string, any]) => [k, v.time]));
      expect(fn).toEqual({
        PIC: 12600,
        FI: 7000,
        EXA: 4000,
        PICUS: 2000,
        SIC: 7200,
        DUAL: 5400,
        SUPERVISOR: 2500,
        CRI: 0,
        IRI: 0,
        FIFI: 0,
        SFI: 0,
        TRI: 0,
      });
      const rules = Object.fromEntries(Object.entries(b.rules).map(([k, v]: [string, any]) => [k, v.time]));
      expect(rules).toEqual({
        VFR: 18000,
        IFR: 6000,
        SIM: 3000,
        'Cross Country': 3600,
        Night: 1800,
        'Multi Engine': 11200,
      });
      expect(b.total_time).toBe(25200);
      expect(b.flight_time).toBe(25200 - 3000);
      expect(b.average).toBe(4200);
      expect(b.flight_types).toEqual({ Solo: 3600, 'Dual training': 8400, 'Multi-crew': 7200, Checkride: 6000 });
      expect(b.functions.PIC.icon).toMatch(/^fa/);
      expect(b.user).toEqual({ id: p, previous_time: 45000, other_companies: 1800 });
    });

    it('defaults to the caller; a pilot with no flights gets zeros', async () => {
      const r = await totals('pilot@skyline.test');
      expect(r.status).toBe(200);
      expect(r.body.user.id).toBe(s.userId('pilot@skyline.test'));
      expect(r.body.total_time).toBe(0);
      expect(r.body.average).toBe(0);
      const own = await s.api('GET', '/pilots/totals.json', { token: await s.login('tess@people.test') });
      expect(own.body.total_time).toBe(25200);
    });

    it('staff see anyone of the company; others themselves and their students (403 otherwise); another company 404', async () => {
      for (const email of ['dispatch@skyline.test', 'instructor@skyline.test', 'ops@skyline.test'])
        expect((await totals(email, p)).status, email).toBe(200);
      for (const email of [
        'pilot@skyline.test',
        'student@skyline.test',
        'auditor@skyline.test',
        'mechanic@skyline.test',
      ]) {
        const r = await totals(email, p);
        expect(r.status, email).toBe(403);
        expect(r.body.total_time).toBeUndefined();
      }
      // A non-staff supervisor sees the student they supervise.
      const mentor = await addUser(s, { name: 'Mentor', surname: 'Pilot', email: 'mentor@people.test', login: true });
      const student = await addUser(s, { role: 200, name: 'Mentee', surname: 'Student', supervisor: mentor });
      const mentorToken = await s.login('mentor@people.test');
      expect((await s.api('GET', `/pilots/totals/${student}.json`, { token: mentorToken })).status).toBe(200);
      expect((await s.api('GET', `/pilots/totals/${p}.json`, { token: mentorToken })).status).toBe(403);
      const foreign = await totals('admin@skyline.test', s.userId('pilot@harbor.test', 'harbor'));
      expect(foreign.status).toBe(404);
    });
  });

  describe('currency', () => {
    let c: string;
    const currency = async (email: string, path: string) =>
      s.api('GET', `/pilots/get_currency${path}.json`, { token: await tok(email) });
    beforeAll(async () => {
      c = await addUser(s, { name: 'Cory', surname: 'Current', email: 'cory@people.test', login: true });
      const x = s.userId('instructor@skyline.test');
      const ac = s.refs.aircraft['EC-ABC'];
      await addFlight(s, {
        pic: c,
        aircraft: ac,
        type: types.Solo,
        landings: 2,
        nightLandings: 1,
        block: HOUR,
        onblocks: now() - 5 * DAY,
      });
      await addFlight(s, {
        pic: x,
        sic: c,
        aircraft: ac,
        type: types['Dual training'],
        landings: 1,
        block: 1800,
        onblocks: now() - 20 * DAY,
      });
      await addFlight(s, {
        pic: c,
        aircraft: ac,
        type: types.Solo,
        landings: 5,
        nightLandings: 2,
        block: 2 * HOUR,
        onblocks: now() - 40 * DAY,
      });
      // Not counted: a draft, and a seat as supervisor.
      await addFlight(s, {
        status: 'DRAFT',
        pic: c,
        aircraft: ac,
        type: types.Solo,
        landings: 10,
        block: HOUR,
        onblocks: now() - DAY,
      });
      await addFlight(s, {
        pic: x,
        supervisor: c,
        aircraft: ac,
        type: types['Supervised solo'],
        landings: 4,
        block: HOUR,
        onblocks: now() - 2 * DAY,
      });
    });

    it('counts landings, night landings and hours in the d1, d2, d3 windows against the default requirements', async () => {
      const r = await currency('admin@skyline.test', `/${c}`);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        user_id: c,
        d1: 30,
        d2: 90,
        d3: 90,
        requirements: { landings: 3, night_landings: 1, hours: 0 },
        current: true,
      });
      expect(r.body.windows.landings).toEqual({ days: 30, count: 3, required: 3, current: true });
      expect(r.body.windows.night_landings).toEqual({ days: 90, count: 3, required: 1, current: true });
      expect(r.body.windows.hours).toEqual({ days: 90, seconds: 3 * HOUR + 1800, required_seconds: 0, current: true });
      const short = await currency('admin@skyline.test', `/${c}/10/3/50`);
      expect(short.body.windows.landings).toMatchObject({ days: 10, count: 2, current: false });
      expect(short.body.windows.night_landings).toMatchObject({ days: 3, count: 0, current: false });
      expect(short.body.windows.hours).toMatchObject({ days: 50, seconds: 3 * HOUR + 1800 });
      expect(short.body.current).toBe(false);
    });

    it('d1 is at most 999 days; an unreadable window falls back to its default', async () => {
      const r = await currency('admin@skyline.test', `/${c}/5000/abc/0`);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ d1: 999, d2: 90, d3: 90 });
    });

    it('userId is the caller when null, and always the caller for roles above 170', async () => {
      const cory = await s.login('cory@people.test');
      const nul = await s.api('GET', '/pilots/get_currency/null/30/90/90.json', { token: cory });
      expect(nul.body.user_id).toBe(c);
      expect(nul.body.windows.landings.count).toBe(3);
      const none = await s.api('GET', '/pilots/get_currency.json', { token: cory });
      expect(none.body.user_id).toBe(c);
      const forced = await currency('pilot@skyline.test', `/${c}/30/90/90`);
      expect(forced.status).toBe(200);
      expect(forced.body.user_id).toBe(s.userId('pilot@skyline.test'));
      expect(forced.body.windows.landings.count).toBe(0);
      const staff = await currency('dispatch@skyline.test', `/${c}`);
      expect(staff.body.user_id).toBe(c);
      expect((await currency('admin@skyline.test', `/${s.userId('pilot@harbor.test', 'harbor')}`)).status).toBe(404);
    });

    it('the company’s requirements are stored by managers (roles <= 110) and used by the check', async () => {
      const before = await s.ctx.db
        .selectFrom('companies')
        .select(['currency_requirements', 'change_no'])
        .where('id', '=', s.refs.companies.skyline)
        .executeTakeFirstOrThrow();
      const denied = await s.api('POST', '/pilots/currency_requirements.json', {
        token: await tok('instructor@skyline.test'),
        body: { landings: 4, night_landings: 1, hours: 2 },
      });
      expect(denied.status).toBe(403);
      const bad = await s.api('POST', '/pilots/currency_requirements.json', {
        token: await tok('admin@skyline.test'),
        body: { landings: -1, night_landings: 'x', hours: 2 },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.errors.landings).toBeDefined();
      expect(bad.body.errors.night_landings).toBeDefined();
      expect(
        (
          await s.ctx.db
            .selectFrom('companies')
            .select('currency_requirements')
            .where('id', '=', s.refs.companies.skyline)
            .executeTakeFirstOrThrow()
        ).currency_requirements,
      ).toBe(before.currency_requirements);

      const ok = await s.api('POST', '/pilots/currency_requirements.json', {
        token: await tok('admin@skyline.test'),
        body: { landings: 4, night_landings: 1, hours: '2.5' },
      });
      expect(ok.status).toBe(200);
      expect(ok.body.requirements).toEqual({ landings: 4, night_landings: 1, hours: 2.5 });
      const after = await s.ctx.db
        .selectFrom('companies')
        .select('change_no')
        .where('id', '=', s.refs.companies.skyline)
        .executeTakeFirstOrThrow();
      expect(Number(after.change_no)).toBeGreaterThan(Number(before.change_no));
      expect(
        (await s.api('GET', '/pilots/currency_requirements.json', { token: await tok('student@skyline.test') })).body
          .requirements,
      ).toEqual({ landings: 4, night_landings: 1, hours: 2.5 });

      const month = await currency('admin@skyline.test', `/${c}/30/90/90`);
      expect(month.body.windows.landings).toMatchObject({ count: 3, required: 4, current: false });
      expect(month.body.windows.hours).toMatchObject({ required_seconds: 9000, current: true });
      expect(month.body.current).toBe(false);
      const twoMonths = await currency('admin@skyline.test', `/${c}/60/90/90`);
      expect(twoMonths.body.windows.landings).toMatchObject({ count: 8, current: true });
      expect(twoMonths.body.current).toBe(true);
      // Harbor keeps the defaults.
      expect(
        (await s.api('GET', '/pilots/currency_requirements.json', { token: await tok('admin@harbor.test') })).body
          .requirements,
      ).toEqual({ landings: 3, night_landings: 1, hours: 0 });
    });
  });
});
