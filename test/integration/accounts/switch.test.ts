import { calendarDateIn } from '@ops/shared/rules/users/account-expiry';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';

/** A date of Harbor's calendar (America/New_York), `days` from today there. */
const harborDate = (days: number) => calendarDateIn('America/New_York', Date.now() + days * 86400_000);

describe.each(DIALECTS)('company switch on %s', (dialect) => {
  let s: TestServer;
  const harborDana = () => s.userId('dual@demo.test', 'harbor');
  const setHarborDana = (set: {
    expiration?: string | null;
    two_factor?: 'OFF' | 'EMAIL';
    user_group_id?: number;
    pilot?: 0 | 1;
  }) => s.ctx.db.updateTable('users').set(set).where('id', '=', harborDana()).execute();
  const skylineToken = async () =>
    (
      await s.api('POST', '/login.json', {
        body: { email: 'dual@demo.test', password: 'demo1234', company_id: s.refs.companies.skyline },
      })
    ).body.token as string;
  const lastCode = async () => {
    const mail = await s.ctx.db
      .selectFrom('mail_outbox')
      .select('body_text')
      .where('to_address', '=', 'dual@demo.test')
      .where('template', '=', 'two_factor_code')
      .orderBy('created', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    return /code is (\d{6})/.exec(mail.body_text)![1];
  };

  beforeAll(async () => {
    s = await startTestServer(dialect);
  });
  beforeEach(() => setHarborDana({ expiration: null, two_factor: 'OFF', user_group_id: 190, pilot: 1 }));
  afterAll(() => s?.close());

  it('an account past its expiration is not offered, not entered, and the presented token keeps working', async () => {
    await setHarborDana({ expiration: harborDate(-1) });
    const token = await skylineToken();
    const orgs = await s.api('GET', '/users/organizations.json', { token });
    expect(Object.keys(orgs.body)).toEqual([s.refs.companies.skyline]);
    const sw = await s.api('GET', `/users/switch/${s.refs.companies.harbor}.json`, { token });
    expect(sw.status).toBe(404);
    expect(sw.body.result).toBe(false);
    expect((await s.api('GET', '/users/view.json', { token })).status).toBe(200);
    // Sign-in refuses it too.
    expect(
      (
        await s.api('POST', '/login.json', {
          body: { email: 'dual@demo.test', password: 'demo1234', company_id: s.refs.companies.harbor },
        })
      ).status,
    ).toBe(401);
    // Expiring today is still usable.
    await setHarborDana({ expiration: harborDate(0) });
    expect((await s.api('GET', `/users/switch/${s.refs.companies.harbor}.json`, { token })).status).toBe(200);
  });

  it('expiry follows the company calendar: the same date is still valid west of UTC and past east of it', async () => {
    // UTC-12 and UTC+14 are 26 hours apart: today in UTC-12 is always yesterday in UTC+14.
    const westToday = calendarDateIn('Etc/GMT+12');
    const setZone = (timezone: string) =>
      s.ctx.db.updateTable('companies').set({ timezone }).where('id', '=', s.refs.companies.harbor).execute();
    try {
      await setHarborDana({ expiration: westToday });
      await setZone('Etc/GMT+12');
      const token = await skylineToken();
      const sw = await s.api('GET', `/users/switch/${s.refs.companies.harbor}.json`, { token });
      expect(sw.status).toBe(200);
      const harborToken = sw.body.token as string;
      expect((await s.api('GET', '/users/view.json', { token: harborToken })).status).toBe(200);
      await setZone('Etc/GMT-14');
      // The open session ends at the company's midnight, and the account is no longer offered or entered.
      const refused = await s.api('GET', '/users/view.json', { token: harborToken });
      expect(refused.status).toBe(401);
      expect(refused.body.message).toBe('Account expired');
      const again = await skylineToken();
      expect(Object.keys((await s.api('GET', '/users/organizations.json', { token: again })).body)).toEqual([
        s.refs.companies.skyline,
      ]);
      expect((await s.api('GET', `/users/switch/${s.refs.companies.harbor}.json`, { token: again })).status).toBe(404);
    } finally {
      await setZone('America/New_York');
    }
  });

  it('a target account with two-factor answers the challenge; the code finishes the switch', async () => {
    await setHarborDana({ two_factor: 'EMAIL' });
    const token = await skylineToken();
    const sw = await s.api('GET', `/users/switch/${s.refs.companies.harbor}.json`, { token });
    expect(sw.status).toBe(200);
    expect(sw.body).toEqual({ result: false, two_factor: 'EMAIL', challenge: expect.any(String) });
    // The previous token is invalidated at once (Part A 5.5).
    expect((await s.api('GET', '/users/view.json', { token })).status).toBe(401);
    const v = await s.api('POST', '/login/verify.json', {
      body: { challenge: sw.body.challenge, code: await lastCode() },
    });
    expect(v.status).toBe(200);
    expect(v.body.user).toMatchObject({ id: harborDana(), company_id: s.refs.companies.harbor });
    expect((await s.api('GET', '/users/view.json', { token: v.body.token })).body.User.id).toBe(harborDana());
  });

  it('an external auditor account always asks for the EMAIL code, whatever is stored', async () => {
    await setHarborDana({ user_group_id: 250, pilot: 0, expiration: harborDate(30), two_factor: 'OFF' });
    const token = await skylineToken();
    const sw = await s.api('GET', `/users/switch/${s.refs.companies.harbor}.json`, { token });
    expect(sw.body).toMatchObject({ result: false, two_factor: 'EMAIL' });
    expect(sw.body.token).toBeUndefined();
  });

  it('switching to the presented account’s own company needs no second code', async () => {
    await setHarborDana({ two_factor: 'EMAIL' });
    const token = await skylineToken();
    const sw = await s.api('GET', `/users/switch/${s.refs.companies.skyline}.json`, { token });
    expect(sw.body).toMatchObject({ result: true, user: { company_id: s.refs.companies.skyline } });
    expect((await s.api('GET', '/users/view.json', { token })).status).toBe(401);
  });
});
