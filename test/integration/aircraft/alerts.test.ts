import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { tokens } from '../aircraft-reports/fleet-helpers.ts';

/** The fleet's alert sources through GET /companies/alerts.json: `Aircraft` certificates and `Maintenance` jobs. */
describe.each(DIALECTS)('fleet alerts on %s', (dialect) => {
  let s: TestServer;
  const t = tokens(() => s);
  let plane: string;
  const zone = 'Europe/Madrid';
  const date = (days: number) => DateTime.now().setZone(zone).plus({ days }).toISODate() as string;
  const lapse = (d: string) => DateTime.fromISO(d, { zone }).plus({ days: 1 }).toUnixInteger();
  const alerts = async (query = '', email = 'admin@skyline.test') => {
    const r = await s.api('GET', `/companies/alerts.json${query}`, { token: await t(email) });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body as any[];
  };
  const mine = (list: any[]) => list.filter((a) => a.link === `/aircraft/view/${plane}`);

  beforeAll(async () => {
    s = await startTestServer(dialect);
    const add = await s.api('POST', '/manager/aircraft/add.json', {
      token: await t('admin@skyline.test'),
      body: {
        Aircraft: {
          registration: 'EC-ALR',
          model_name: 'Cessna 172S',
          insurance_expiration: date(10),
          airworthiness_expiration: date(60),
          radio_expiration: date(-5),
          avionics_expiration: date(200),
          weight_balance_expiration: date(-40),
        },
      },
    });
    plane = add.body.id;
  });
  afterAll(() => s?.close());

  it('lists certificate expiries in the default window with their urgency, as type Aircraft', async () => {
    const list = mine(await alerts('?types=Aircraft'));
    expect(list.map((a) => a.name)).toEqual([
      'EC-ALR: Radio licence',
      'EC-ALR: Insurance',
      'EC-ALR: Airworthiness certificate',
    ]);
    expect(list.map((a) => a.class)).toEqual(['text-danger', 'text-warning', 'text-muted']);
    expect(list[1]).toEqual({
      type: 'Aircraft',
      icon: 'fa fa-plane',
      class: 'text-warning',
      link: `/aircraft/view/${plane}`,
      name: 'EC-ALR: Insurance',
      date: lapse(date(10)),
      details: 'Cessna Cessna 172S',
    });
  });

  it('an explicit range replaces the default window', async () => {
    const from = DateTime.now().setZone(zone).minus({ days: 60 }).toUnixInteger();
    const to = DateTime.now().setZone(zone).plus({ days: 300 }).toUnixInteger();
    const list = mine(await alerts(`?types=Aircraft&from=${from}&to=${to}`));
    expect(list.map((a) => a.name)).toEqual([
      'EC-ALR: Weight and balance',
      'EC-ALR: Radio licence',
      'EC-ALR: Insurance',
      'EC-ALR: Airworthiness certificate',
      'EC-ALR: Avionics check',
    ]);
  });

  it('lists open jobs with a start date as type Maintenance, never Aircraft', async () => {
    const token = await t('mechanic@skyline.test');
    const now = Math.floor(Date.now() / 1000);
    const due = await s.api('POST', '/maintenance/jobs/create.json', {
      token,
      body: { Job: { aircraft_id: plane, name: '50 h inspection', start: now + 5 * 86400 } },
    });
    const overdue = await s.api('POST', '/maintenance/jobs/create.json', {
      token,
      body: { Job: { aircraft_id: plane, name: 'Overdue check', start: now - 2 * 86400 } },
    });
    await s.api('POST', '/maintenance/jobs/create.json', {
      token,
      body: { Job: { aircraft_id: plane, name: 'Undated' } },
    });
    const signed = await s.api('POST', '/maintenance/jobs/create.json', {
      token,
      body: { Job: { aircraft_id: plane, name: 'Signed', start: now + 86400 } },
    });
    await s.api('POST', `/maintenance/jobs/sign_crs/${signed.body.id}.json`, { token, body: { password: 'demo1234' } });
    const list = (await alerts('?types=Maintenance')).filter((a) => a.name.startsWith('EC-ALR'));
    expect(list).toEqual([
      {
        type: 'Maintenance',
        icon: 'fa fa-wrench',
        class: 'text-danger',
        link: `/maintenance/jobs/view/${overdue.body.id}`,
        name: 'EC-ALR: maintenance due',
        date: now - 2 * 86400,
        details: 'Overdue check',
      },
      {
        type: 'Maintenance',
        icon: 'fa fa-wrench',
        class: 'text-warning',
        link: `/maintenance/jobs/view/${due.body.id}`,
        name: 'EC-ALR: maintenance due',
        date: now + 5 * 86400,
        details: '50 h inspection',
      },
    ]);
    expect((await alerts('?types=Aircraft')).some((a) => a.link.startsWith('/maintenance/'))).toBe(false);
  });

  it('words the certificate and maintenance names in the caller’s language; registrations and job names stay', async () => {
    const es = await s.api('GET', '/companies/alerts.json?types=Aircraft,Maintenance', {
      token: await t('admin@skyline.test'),
      headers: { 'Accept-Language': 'es' },
    });
    expect(es.status).toBe(200);
    const names = (es.body as any[]).filter((a) => a.name.startsWith('EC-ALR')).map((a) => a.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'EC-ALR: Licencia de radio',
        'EC-ALR: Seguro',
        'EC-ALR: Certificado de aeronavegabilidad',
        'EC-ALR: mantenimiento pendiente',
      ]),
    );
    expect(names.join()).not.toMatch(/Insurance|licence|maintenance due/);
    const de = await s.api('GET', '/companies/alerts.json?types=Maintenance', {
      token: await t('admin@skyline.test'),
      headers: { 'Accept-Language': 'de-DE' },
    });
    const job = (de.body as any[]).find((a) => a.details === 'Overdue check');
    expect(job).toMatchObject({ name: 'EC-ALR: Wartung fällig', details: 'Overdue check' });
  });

  it('leaves out inactive aircraft, other companies and callers who are not managers', async () => {
    expect(mine(await alerts('?types=Aircraft', 'pilot@skyline.test'))).toEqual([]);
    expect(
      (await alerts('?types=Maintenance', 'mechanic@skyline.test')).filter((a) => a.name.startsWith('EC-ALR')),
    ).toEqual([]);
    expect(mine(await alerts('', 'admin@harbor.test'))).toEqual([]);
    await s.api('POST', `/manager/aircraft/deactivate/${plane}.json`, { token: await t('admin@skyline.test') });
    expect(mine(await alerts('?types=Aircraft'))).toEqual([]);
  });
});
