import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';

describe.each(DIALECTS)('company settings and permissions on %s', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(dialect);
  });
  afterAll(() => s?.close());

  it('need credentials', async () => {
    expect((await s.api('GET', '/companies/settings.json')).status).toBe(401);
    expect((await s.api('GET', '/companies/permissions.json')).status).toBe(401);
  });

  it('settings are the caller’s company only, with the flight time zone when set', async () => {
    const sky = await s.api('GET', '/companies/settings.json', { token: await s.login('pilot@skyline.test') });
    expect(sky.status).toBe(200);
    expect(sky.body.Company).toMatchObject({
      id: s.refs.companies.skyline,
      name: 'Skyline Flight Academy',
      plan: 'premium',
    });
    expect(sky.body.CompanyDetail).toMatchObject({ currency: 'EUR', timezone_id: 'Europe/Madrid' });
    expect(sky.body.CompanyDetail.Timezone.offset).toMatch(/^\+0[12]:00$/);
    // Part A 2.2 Country: the name and the ISO alpha-2 code.
    expect(sky.body.CompanyDetail.Country).toEqual({ name: 'Spain', iso2: 'ES' });
    expect(sky.body.CompanyDetail.Timezone).toMatchObject({ id: 'Europe/Madrid', name: 'Europe/Madrid' });
    expect(sky.body.CompanySetting).toMatchObject({
      flight_timezone_id: 'UTC',
      date_format: 'YYYY-MM-DD',
      time_format: '24',
    });
    expect(sky.body.CompanySetting.FlightTimezone.name).toBe('UTC');
    expect(sky.body.CompanyBillingSetting.enabled).toBe(true);
    const harbor = await s.api('GET', '/companies/settings.json', { token: await s.login('admin@harbor.test') });
    expect(harbor.body.Company).toMatchObject({ name: 'Harbor Aero Club', plan: 'free' });
    expect(harbor.body.CompanySetting.flight_timezone_id).toBeNull();
    expect(harbor.body.CompanyDetail.Country).toEqual({ name: 'United States of America', iso2: 'US' });
    expect(harbor.body.CompanySetting.FlightTimezone).toBeUndefined();
    expect(harbor.body.CompanyBillingSetting.enabled).toBe(false);
  });

  it('permissions follow the CONTRACT 3 defaults by role, and company overrides', async () => {
    const perms = async (email: string) =>
      (await s.api('GET', '/companies/permissions.json', { token: await s.login(email) })).body;
    expect(await perms('dispatch@skyline.test')).toEqual({
      'Flight.create': true,
      'Flight.edit': true,
      'Flight.confirm': true,
    });
    expect(await perms('pilot@skyline.test')).toEqual({
      'Flight.create': true,
      'Flight.edit': false,
      'Flight.confirm': false,
    });
    expect(await perms('student@skyline.test')).toEqual({
      'Flight.create': false,
      'Flight.edit': false,
      'Flight.confirm': false,
    });
    expect(await perms('mechanic@skyline.test')).toEqual({
      'Flight.create': false,
      'Flight.edit': false,
      'Flight.confirm': false,
    });
    await s.ctx.db
      .insertInto('company_permissions')
      .values({ company_id: s.refs.companies.skyline, role: 190, key: 'Flight.confirm', allowed: 1 })
      .execute();
    expect((await perms('pilot@skyline.test'))['Flight.confirm']).toBe(true);
    // An override of one company leaves the other alone.
    expect((await perms('pilot@harbor.test'))['Flight.confirm']).toBe(false);
  });
});
