import { uuidv7 } from '@ops/shared';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';

const ZONE = 'Europe/Madrid';
const today = () => DateTime.now().setZone(ZONE).startOf('day');
const day = (n: number) => today().plus({ days: n }).toISODate() as string;

describe.each(DIALECTS)('company alerts on %s', (dialect) => {
  let s: TestServer;
  const cert = async (company: 'skyline' | 'harbor', email: string, name: string, expiresIn: number, deleted = 0) => {
    const companyId = s.refs.companies[company];
    const now = Math.floor(Date.now() / 1000);
    await s.ctx.db
      .insertInto('user_certificates')
      .values({
        id: uuidv7(),
        company_id: companyId,
        change_no: 1,
        deleted,
        created: now,
        modified: now,
        user_id: s.userId(email, company),
        type: 'LICENCE',
        name,
        issue: null,
        expiration: day(expiresIn),
        comments: null,
        upload_id: null,
      })
      .execute();
  };
  const alerts = async (email: string, query = '') => {
    const r = await s.api('GET', `/companies/alerts.json${query}`, { token: await s.login(email) });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body as any[];
  };
  const names = (list: any[]) => list.filter((a) => a.type === 'UserCertificate').map((a) => a.name);

  beforeAll(async () => {
    s = await startTestServer(dialect);
    await cert('skyline', 'pilot@skyline.test', 'Pilot medical (expired)', -10);
    await cert('skyline', 'pilot@skyline.test', 'Pilot licence (10 days)', 10);
    await cert('skyline', 'pilot@skyline.test', 'Pilot old rating (60 days ago)', -60);
    await cert('skyline', 'student@skyline.test', 'Student medical (60 days)', 60);
    await cert('skyline', 'instructor@skyline.test', 'Instructor FI rating (20 days)', 20);
    await cert('skyline', 'dispatch@skyline.test', 'Dispatcher licence (200 days)', 200);
    await cert('skyline', 'mechanic@skyline.test', 'Deleted certificate', 5, 1);
    await cert('harbor', 'pilot@harbor.test', 'Harbor licence (5 days)', 5);
    // An aircraft certificate (fleet source): company-wide, managers only.
    await s.ctx.db
      .updateTable('aircraft')
      .set({ insurance_expiration: day(15) })
      .where('id', '=', s.refs.aircraft['EC-ABC'])
      .execute();
  });
  afterAll(() => s?.close());

  it('needs credentials', async () => {
    expect((await s.api('GET', '/companies/alerts.json')).status).toBe(401);
  });

  it('managers (< 150) get every alert of the company in the default window, by date, with urgency classes', async () => {
    const list = await alerts('headtraining@skyline.test');
    expect(names(list)).toEqual([
      'Pilot medical (expired)',
      'Pilot licence (10 days)',
      'Instructor FI rating (20 days)',
      'Student medical (60 days)',
    ]);
    const dates = list.map((a) => a.date);
    expect([...dates].sort((a, b) => a - b)).toEqual(dates);
    const byName = Object.fromEntries(list.map((a) => [a.name, a]));
    expect(byName['Pilot medical (expired)']).toMatchObject({
      type: 'UserCertificate',
      class: 'text-danger',
      details: 'Paula Pilot',
      link: `/pilots/view/${s.userId('pilot@skyline.test')}`,
      icon: expect.any(String),
    });
    expect(byName['Pilot licence (10 days)'].class).toBe('text-warning');
    expect(byName['Student medical (60 days)']).toMatchObject({ class: 'text-muted', details: 'Stefan Student' });
    // Valid through its expiry day: the alert date is the next midnight in the company zone.
    expect(byName['Pilot licence (10 days)'].date).toBe(today().plus({ days: 11 }).toUnixInteger());
    const aircraft = list.find((a) => a.type === 'Aircraft');
    expect(aircraft).toMatchObject({ class: 'text-warning', details: 'Cessna Cessna 172S' });
  });

  it('`types` queries only those sources; an unknown type is 400', async () => {
    expect((await alerts('admin@skyline.test', '?types=Aircraft')).every((a) => a.type === 'Aircraft')).toBe(true);
    expect((await alerts('admin@skyline.test', '?types=Aircraft')).length).toBeGreaterThan(0);
    expect(
      (await alerts('admin@skyline.test', '?types=UserCertificate,Maintenance')).some((a) => a.type === 'Aircraft'),
    ).toBe(false);
    expect((await alerts('admin@skyline.test', '?types=')).some((a) => a.type === 'Aircraft')).toBe(true);
    const bad = await s.api('GET', '/companies/alerts.json?types=Aircraft,Weather', {
      token: await s.login('admin@skyline.test'),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.result).toBe(false);
  });

  it('an explicit range replaces the default window (unix or YYYY-MM-DD); from after to is 400', async () => {
    const wide = await alerts('admin@skyline.test', `?types=UserCertificate&from=${day(-90)}&to=${day(365)}`);
    expect(names(wide)).toEqual([
      'Pilot old rating (60 days ago)',
      'Pilot medical (expired)',
      'Pilot licence (10 days)',
      'Instructor FI rating (20 days)',
      'Student medical (60 days)',
      'Dispatcher licence (200 days)',
    ]);
    const from = today().plus({ days: 15 }).toUnixInteger();
    const to = today().plus({ days: 70 }).toUnixInteger();
    expect(names(await alerts('admin@skyline.test', `?from=${from}&to=${to}`))).toEqual([
      'Instructor FI rating (20 days)',
      'Student medical (60 days)',
    ]);
    const bad = await s.api('GET', `/companies/alerts.json?from=${to}&to=${from}`, {
      token: await s.login('admin@skyline.test'),
    });
    expect(bad.status).toBe(400);
    expect(
      (await s.api('GET', '/companies/alerts.json?from=yesterday', { token: await s.login('admin@skyline.test') }))
        .status,
    ).toBe(400);
  });

  it('one bound replaces only its side of the default window; a date `to` covers that whole day', async () => {
    // `from` alone: back to 90 days ago, still capped at about 3 months ahead.
    expect(names(await alerts('admin@skyline.test', `?types=UserCertificate&from=${day(-90)}`))).toEqual([
      'Pilot old rating (60 days ago)',
      'Pilot medical (expired)',
      'Pilot licence (10 days)',
      'Instructor FI rating (20 days)',
      'Student medical (60 days)',
    ]);
    // `to` alone: the 30-day look-back stays, the 3-month cap is lifted.
    expect(names(await alerts('admin@skyline.test', `?types=UserCertificate&to=${day(365)}`))).toEqual([
      'Pilot medical (expired)',
      'Pilot licence (10 days)',
      'Instructor FI rating (20 days)',
      'Student medical (60 days)',
      'Dispatcher licence (200 days)',
    ]);
    // A certificate valid through day 10 lapses at the start of day 11: `to` = day 11 includes it, `to` = day 10 not.
    expect(names(await alerts('admin@skyline.test', `?types=UserCertificate&from=${day(1)}&to=${day(11)}`))).toEqual([
      'Pilot licence (10 days)',
    ]);
    expect(names(await alerts('admin@skyline.test', `?types=UserCertificate&from=${day(1)}&to=${day(10)}`))).toEqual(
      [],
    );
    // Beyond a month ahead the class is muted, also inside an explicit range.
    const far = await alerts('admin@skyline.test', `?types=UserCertificate&to=${day(365)}`);
    expect(far.find((a) => a.name === 'Dispatcher licence (200 days)').class).toBe('text-muted');
    expect(
      (await s.api('GET', '/companies/alerts.json?to=2026-13-01', { token: await s.login('admin@skyline.test') }))
        .status,
    ).toBe(400);
  });

  it('instructors get their own and their students’ certificates, nothing company-wide', async () => {
    const list = await alerts('instructor@skyline.test');
    expect(names(list)).toEqual(['Instructor FI rating (20 days)', 'Student medical (60 days)']);
    expect(list.some((a) => a.type === 'Aircraft' || a.type === 'Maintenance')).toBe(false);
  });

  it('others get only their own; a user_id outside their set is clamped to themselves', async () => {
    expect(names(await alerts('pilot@skyline.test'))).toEqual(['Pilot medical (expired)', 'Pilot licence (10 days)']);
    expect(names(await alerts('student@skyline.test'))).toEqual(['Student medical (60 days)']);
    expect(names(await alerts('student@skyline.test', `?user_id=${s.userId('pilot@skyline.test')}`))).toEqual([
      'Student medical (60 days)',
    ]);
    expect(names(await alerts('instructor@skyline.test', `?user_id=${s.userId('pilot@skyline.test')}`))).toEqual([
      'Instructor FI rating (20 days)',
    ]);
    expect(names(await alerts('instructor@skyline.test', `?user_id=${s.userId('student@skyline.test')}`))).toEqual([
      'Student medical (60 days)',
    ]);
    expect(await alerts('mechanic@skyline.test')).toEqual([]);
  });

  it('a manager’s user_id narrows to that person and drops aircraft alerts; another company’s user is 404', async () => {
    const list = await alerts('admin@skyline.test', `?user_id=${s.userId('pilot@skyline.test')}`);
    expect(names(list)).toEqual(['Pilot medical (expired)', 'Pilot licence (10 days)']);
    expect(list.some((a) => a.type !== 'UserCertificate')).toBe(false);
    const foreign = await s.api('GET', `/companies/alerts.json?user_id=${s.userId('pilot@harbor.test', 'harbor')}`, {
      token: await s.login('admin@skyline.test'),
    });
    expect(foreign.status).toBe(404);
  });

  it('never crosses companies', async () => {
    const harbor = await alerts('admin@harbor.test', '?types=UserCertificate');
    expect(names(harbor)).toEqual(['Harbor licence (5 days)']);
    expect(names(await alerts('admin@skyline.test', `?from=${day(-365)}&to=${day(365)}`))).not.toContain(
      'Harbor licence (5 days)',
    );
  });
});
