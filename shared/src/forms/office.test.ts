import { describe, expect, it } from 'vitest';
import {
  apiKeyForm,
  emailChangeForm,
  scheduleForm,
  userForm,
  ZCompanySettingsForm,
  ZNewsForm,
  ZPasswordForm,
} from './office.ts';

const fields = (r: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
  Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.map(String).join('.'), i.message]));

const settings = {
  Company: { name: 'Skyline' },
  CompanyTheme: { logo: '', color: '#1f6feb' },
  CompanyDetail: { currency: 'eur', icao: 'LECU', timezone_id: 'Europe/Madrid', country_id: 'ES', zip: '' },
  CompanySetting: {
    flight_timezone_id: '',
    date_format: 'YYYY-MM-DD',
    time_format: '24',
    duration_format: 'time',
    aoc: false,
    extracrew: false,
    cabincrew: false,
    max_duty_hours: '13',
    max_flight_hours_year: '',
    booking_horizon_days: '90',
  },
  CompanyBillingSetting: { enabled: true, billed_person: '', tax: '21', send_notification: true },
} as const;

describe('office forms', () => {
  it('company settings: empty optional fields pass, bad values are named by field', () => {
    expect(ZCompanySettingsForm.safeParse(settings).success).toBe(true);
    const bad = ZCompanySettingsForm.safeParse({
      ...settings,
      CompanyTheme: { logo: 'ftp://x', color: 'blue' },
      CompanyDetail: { ...settings.CompanyDetail, timezone_id: 'Mars/Olympus', icao: 'L1' },
      CompanySetting: { ...settings.CompanySetting, max_duty_hours: '25', booking_horizon_days: '0' },
      CompanyBillingSetting: { ...settings.CompanyBillingSetting, tax: 'x' },
    });
    expect(fields(bad)).toMatchObject({
      'CompanyTheme.color': 'Expected a hex colour such as #1f6feb',
      'CompanyTheme.logo': 'Expected an http(s) URL or a path',
      'CompanyDetail.timezone_id': expect.stringContaining('Unknown time zone'),
      'CompanyDetail.icao': 'Expected a 4-letter ICAO code',
      'CompanySetting.max_duty_hours': 'At most 24 hours',
      'CompanySetting.booking_horizon_days': 'At least 1 day',
      'CompanyBillingSetting.tax': 'Expected a number',
    });
  });

  it('users: names required; an external auditor needs an expiry in the next 90 days', () => {
    const base = {
      User: { email: '', user_group_id: 190, active: true, pilot: true, expiration: '', send_email: true },
      UserDetail: { name: 'Nora', surname: 'New' },
    };
    const form = userForm('2026-11-23');
    expect(form.safeParse(base).success).toBe(true);
    expect(fields(form.safeParse({ ...base, UserDetail: { name: ' ', surname: '' } }))).toEqual({
      'UserDetail.name': 'Name is required',
      'UserDetail.surname': 'Surname is required',
    });
    const auditor = (expiration: string) =>
      fields(form.safeParse({ ...base, User: { ...base.User, user_group_id: 250, expiration } }))['User.expiration'];
    expect(auditor('')).toBe('An external auditor needs an expiration date');
    expect(auditor('2026-11-23')).toBe('The expiration date must be in the future');
    expect(auditor('2027-02-22')).toBe('An external auditor account lasts at most 90 days');
    expect(auditor('2027-02-21')).toBeUndefined();
    expect(fields(form.safeParse({ ...base, User: { ...base.User, email: 'nora@' } }))['User.email']).toContain(
      'email address',
    );
  });

  it('email change: different from the current address, equal to its repeat, password given', () => {
    const f = emailChangeForm('paula@skyline.test');
    expect(
      f.safeParse({ new_email: 'p@skyline.test', new_email_repeat: 'P@skyline.test', password: 'x' }).success,
    ).toBe(true);
    expect(
      fields(f.safeParse({ new_email: 'Paula@skyline.test', new_email_repeat: 'paula@skyline.test', password: '' })),
    ).toEqual({ new_email: 'This is already your address', password: 'Password is required' });
    expect(fields(f.safeParse({ new_email: 'a@b.co', new_email_repeat: 'a@b.com', password: 'x' }))).toEqual({
      new_email_repeat: 'The addresses do not match',
    });
  });

  it('password: at least 8 characters and repeated', () => {
    expect(
      fields(ZPasswordForm.safeParse({ password: 'a', newpassword: 'short', newpasswordrepeat: 'short' })),
    ).toEqual({ newpassword: 'At least 8 characters' });
    expect(
      fields(ZPasswordForm.safeParse({ password: 'a', newpassword: 'long enough', newpasswordrepeat: 'long enougH' })),
    ).toEqual({ newpasswordrepeat: 'The new passwords do not match' });
  });

  it('news: title, text and at least one recipient role', () => {
    const news = {
      News: { name: 'T', category: '', content: 'x', base_id: '', sign: true, notification: false },
      NewsRecipient: { user_group_id: [190] },
    };
    expect(ZNewsForm.safeParse(news).success).toBe(true);
    expect(fields(ZNewsForm.safeParse({ ...news, NewsRecipient: { user_group_id: [] } }))).toEqual({
      'NewsRecipient.user_group_id': 'Pick at least one role',
    });
    expect(fields(ZNewsForm.safeParse({ ...news, NewsRecipient: { user_group_id: [191] } }))).toEqual({
      'NewsRecipient.user_group_id.0': 'Unknown role',
    });
  });

  it('API keys and duty: expiry after today; end after start and not wholly past', () => {
    const key = apiKeyForm('2026-11-23');
    expect(fields(key.safeParse({ name: 'Sync', user_id: 'u', expires: '2026-11-23' }))).toEqual({
      expires: 'The expiry must be after today',
    });
    expect(key.safeParse({ name: 'Sync', user_id: 'u', expires: '' }).success).toBe(true);
    const duty = scheduleForm(1000);
    expect(fields(duty.safeParse({ pilot: 'p', start: 2000, end: 2000, type: 'DUTY' }))).toEqual({
      end: 'End must be after start',
    });
    expect(fields(duty.safeParse({ pilot: 'p', start: 100, end: 900, type: 'DUTY' }))).toEqual({
      end: 'An entry wholly in the past cannot be added',
    });
    expect(duty.safeParse({ pilot: 'p', start: 900, end: 2000, type: 'OFF' }).success).toBe(true);
  });
});
