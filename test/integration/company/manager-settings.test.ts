import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { pullAll } from '../../setup/sync.ts';

describe.each(DIALECTS)('company manager settings on %s', (dialect) => {
  let s: TestServer;
  let admin: string;
  const edit = (body: unknown, token = admin) => s.api('POST', '/manager/companies/edit.json', { token, body });
  const publicSettings = async (token = admin) => (await s.api('GET', '/companies/settings.json', { token })).body;

  beforeAll(async () => {
    s = await startTestServer(dialect);
    admin = await s.login('admin@skyline.test');
  });
  afterAll(() => s?.close());

  it('need credentials and a company manager (roles <= 105)', async () => {
    expect((await s.api('GET', '/manager/companies/settings.json')).status).toBe(401);
    expect((await s.api('POST', '/manager/companies/edit.json', { body: {} })).status).toBe(401);
    for (const email of ['safety@skyline.test', 'dispatch@skyline.test', 'mechanic@skyline.test']) {
      const t = await s.login(email);
      expect((await s.api('GET', '/manager/companies/settings.json', { token: t })).status).toBe(403);
      expect((await edit({ Company: { name: 'Hijacked' } }, t)).status).toBe(403);
    }
    expect((await publicSettings()).Company.name).toBe('Skyline Flight Academy');
  });

  it('answers the public payload plus administrative figures of the caller’s company', async () => {
    const r = await s.api('GET', '/manager/companies/settings.json', { token: await s.login('ops@skyline.test') });
    expect(r.status).toBe(200);
    const pub = await publicSettings();
    for (const k of ['Company', 'CompanyTheme', 'CompanyDetail', 'CompanySetting', 'CompanyBillingSetting'])
      expect(r.body[k]).toEqual(pub[k]);
    // 13 Skyline accounts; the admin, platform admin, auditor and mechanic are not pilots.
    expect(r.body.Admin).toMatchObject({
      user_count: 13,
      active_user_count: 13,
      base_count: 2,
      pilot_limit: null,
      active_api_keys: 0,
      operating_hours: { company: false, bases: 0 },
    });
    expect(r.body.Admin.pilot_count).toBe(10);
    const harbor = await s.api('GET', '/manager/companies/settings.json', {
      token: await s.login('admin@harbor.test'),
    });
    expect(harbor.body.Company.name).toBe('Harbor Aero Club');
    expect(harbor.body.Admin).toMatchObject({ user_count: 3, base_count: 1, pilot_limit: 100 });
  });

  it('rejects values outside the allowed ones with field errors and changes nothing', async () => {
    const before = await publicSettings();
    const cases: Array<[unknown, string]> = [
      [{ CompanySetting: { date_format: 'DD/MM/YYYY' } }, 'CompanySetting.date_format'],
      [{ CompanySetting: { time_format: '13' } }, 'CompanySetting.time_format'],
      [{ CompanySetting: { duration_format: 'minutes' } }, 'CompanySetting.duration_format'],
      [{ CompanySetting: { flight_timezone_id: 'Mars/Olympus' } }, 'CompanySetting.flight_timezone_id'],
      [{ CompanySetting: { aoc: 'maybe' } }, 'CompanySetting.aoc'],
      [{ CompanySetting: { self_schedule: 'sometimes' } }, 'CompanySetting.self_schedule'],
      [{ CompanySetting: { max_duty_hours: 30 } }, 'CompanySetting.max_duty_hours'],
      [{ CompanyDetail: { timezone_id: 'Europe/Atlantis' } }, 'CompanyDetail.timezone_id'],
      [{ CompanyDetail: { currency: 'XYZW' } }, 'CompanyDetail.currency'],
      [{ CompanyDetail: { country_id: 'QQ' } }, 'CompanyDetail.country_id'],
      [{ CompanyDetail: { icao: 'LE' } }, 'CompanyDetail.icao'],
      [{ CompanyTheme: { color: 'blue' } }, 'CompanyTheme.color'],
      [{ CompanyTheme: { logo: 'javascript:alert(1)' } }, 'CompanyTheme.logo'],
      [{ Company: { name: '' } }, 'Company.name'],
      [{ CompanyBillingSetting: { tax: 150 } }, 'CompanyBillingSetting.tax'],
    ];
    for (const [body, field] of cases) {
      // A valid change next to the broken one: nothing of the request is applied.
      const r = await edit({ ...(body as object), Company: { name: 'Renamed', ...((body as any).Company ?? {}) } });
      expect(r.status, field).toBe(400);
      expect(r.body.result, field).toBe(false);
      expect(Object.keys(r.body.errors), field).toContain(field);
    }
    expect(await publicSettings()).toEqual(before);
  });

  it('changes profile, theme, formats, zones and flags partially; canonical IANA names are stored', async () => {
    const r = await edit({
      Company: { name: 'Skyline Aviation Academy' },
      CompanyTheme: { color: '#1F6FEB', logo: 'https://cdn.example.com/logo.png' },
      CompanyDetail: { timezone_id: 'Atlantic/Canary', zip: '28044', icao: 'lecu' },
      CompanySetting: {
        date_format: 'DD-MM-YYYY',
        time_format: 12,
        duration_format: 'decimal',
        flight_timezone_id: 'US/Eastern',
        aoc: true,
        self_schedule: '1',
        require_flight_password: true,
        max_duty_hours: 13.5,
      },
    });
    expect(r.status).toBe(200);
    expect(r.body.result).toBe(true);
    expect(r.body.Admin).toBeDefined();
    const pub = await publicSettings(await s.login('pilot@skyline.test'));
    expect(pub.Company.name).toBe('Skyline Aviation Academy');
    expect(pub.CompanyTheme).toMatchObject({ color: '#1f6feb', logo: 'https://cdn.example.com/logo.png' });
    expect(pub.CompanyDetail).toMatchObject({
      timezone_id: 'Atlantic/Canary',
      zip: '28044',
      icao: 'LECU',
      currency: 'EUR',
    });
    expect(pub.CompanySetting).toMatchObject({
      date_format: 'DD-MM-YYYY',
      time_format: '12',
      duration_format: 'decimal',
      flight_timezone_id: 'America/New_York',
      aoc: true,
      extracrew: false,
      self_schedule: true,
      require_flight_password: true,
      block_pic_without_docs: false,
      max_duty_hours: 13.5,
    });
    expect(pub.CompanySetting.FlightTimezone.name).toBe('America/New_York');
    // Clearing the flight zone falls back to the company zone; flags stay unless posted.
    const back = await edit({
      CompanySetting: { flight_timezone_id: '', self_schedule: false },
      CompanyDetail: { timezone_id: 'Europe/Madrid' },
    });
    expect(back.status).toBe(200);
    const after = await publicSettings();
    expect(after.CompanySetting.flight_timezone_id).toBeNull();
    expect(after.CompanySetting.FlightTimezone).toBeUndefined();
    expect(after.CompanySetting).toMatchObject({ self_schedule: false, require_flight_password: true });
    // Read-only fields posted back from GET are ignored.
    expect((await edit({ Company: { plan: 'unlimited', disabled: true } })).status).toBe(200);
    expect((await publicSettings()).Company).toMatchObject({ plan: 'premium', disabled: false });
  });

  it('accepts form names data[Model][field]', async () => {
    const r = await s.api('POST', '/manager/companies/edit.json', {
      token: admin,
      form: { 'data[CompanySetting][cabincrew]': '1', 'data[CompanyBillingSetting][tax]': '10' },
    });
    expect(r.status).toBe(200);
    const pub = await publicSettings();
    expect(pub.CompanySetting.cabincrew).toBe(true);
    expect(pub.CompanyBillingSetting.tax).toBe(10);
  });

  it('billing cannot be enabled on the free plan; edits stay in the caller’s company', async () => {
    const harbor = await s.login('admin@harbor.test');
    const r = await edit({ CompanyBillingSetting: { enabled: true }, Company: { name: 'Harbor Renamed' } }, harbor);
    expect(r.status).toBe(400);
    expect(r.body.errors['CompanyBillingSetting.enabled']).toBeDefined();
    expect((await publicSettings(harbor)).Company.name).toBe('Harbor Aero Club');
    expect((await edit({ Company: { name: 'Harbor Flying Club' } }, harbor)).status).toBe(200);
    expect((await publicSettings(harbor)).Company.name).toBe('Harbor Flying Club');
    expect((await publicSettings()).Company.name).toBe('Skyline Aviation Academy');
  });

  it('a saved change replicates as the `company` reference document', async () => {
    const token = await s.login('pilot@skyline.test');
    const first = await pullAll(s, token, 'reference');
    expect(first.docs.find((d) => d.type === 'company').data.CompanySetting.cabincrew).toBe(true);
    expect((await edit({ CompanySetting: { extracrew: true } })).status).toBe(200);
    const next = await pullAll(s, token, 'reference', first.checkpoint);
    const doc = next.docs.find((d) => d.type === 'company');
    expect(doc.data.CompanySetting.extracrew).toBe(true);
    // A zone change also re-sends the operating-hours document, which names the zone of its minutes.
    expect(next.docs.some((d) => d.type === 'operating_hours')).toBe(false);
    expect((await edit({ CompanyDetail: { timezone_id: 'Europe/Lisbon' } })).status).toBe(200);
    const moved = await pullAll(s, token, 'reference', next.checkpoint);
    expect(moved.docs.find((d) => d.type === 'company').data.CompanyDetail.timezone_id).toBe('Europe/Lisbon');
    expect(moved.docs.find((d) => d.type === 'operating_hours').data.timezone).toBe('Europe/Lisbon');
    expect((await edit({ CompanyDetail: { timezone_id: 'Europe/Madrid' } })).status).toBe(200);
  });
});
