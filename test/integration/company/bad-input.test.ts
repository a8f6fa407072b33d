import { accountsRoutes } from '@ops/server/areas/accounts/accounts.routes';
import { apiKeysRoutes } from '@ops/server/areas/accounts/api-keys.routes';
import { companyRoutes } from '@ops/server/areas/company/company.routes';
import { newsRoutes } from '@ops/server/areas/news/news.routes';
import { notificationsRoutes } from '@ops/server/areas/notifications/notifications.routes';
import { profileRoutes } from '@ops/server/areas/profile/profile.routes';
import { usersRoutes } from '@ops/server/areas/users/users.routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';

/** Every route of company, news, users, profile, notifications and accounts. */
const ROUTES = [
  ...companyRoutes,
  ...newsRoutes,
  ...usersRoutes,
  ...profileRoutes,
  ...notificationsRoutes,
  ...accountsRoutes,
  ...apiKeysRoutes,
].flatMap((r) =>
  (Array.isArray(r.method) ? r.method : [r.method]).map((method: string) => ({ method, path: r.path as string })),
);

const PARAM_VALUES = ['x', 'a'.repeat(300), "1' or '1'='1", '0', '-1', 'company', '2026-02-30', '%E2%82%AC'];

/** Fills `:name` and `{/:name}` with a value. */
const fill = (path: string, value: string) => path.replace(/\{\/:(\w+)\}/g, `/${value}`).replace(/:(\w+)/g, value);

const JSON_BODIES: unknown[] = [
  [],
  'text',
  42,
  { data: 'x' },
  { data: [] },
  { User: 'x', UserDetail: 5, News: [], NewsRecipient: 'x', Company: 1, CompanySetting: [], rows: 'x' },
  {
    User: { id: ['x'], user_group_id: 'admin', email: { a: 1 }, expiration: 'soon', active: 'maybe' },
    UserDetail: { name: ['a'], dob: 12, country_id: 5 },
  },
  {
    News: {
      id: 'nope',
      name: 'x'.repeat(100_000),
      created: 'yesterday',
      time: '99:99',
      base_id: 5,
      sign: 'z',
      notification: {},
    },
    NewsRecipient: { user_group_id: ['x', -1, 1e20] },
  },
  { base_id: ['x'], rows: [{ weekday: 'Monday', closed: 'perhaps', start_minute: 1e20, end_minute: -5 }, null, 'x'] },
  { data: { base_id: {}, rows: { 0: { override_date: '2026-13-45', closed: 0 } } } },
  { role: 'x', permissions: 'all' },
  { role: 190, permissions: { 'Flight.edit': 'yes', '': true } },
  { ids: 'x' },
  { ids: [{}, null, 'a'.repeat(500)] },
  { all: 'yes' },
  { password: ['x'], confirm: 'sure', user: { id: 1 } },
  { new_email: 5, new_email_repeat: null, password: {} },
  { token: ['x'], newpassword: 1, newpasswordrepeat: 2 },
  { phone: { n: 1 }, code: [1] },
  {
    Company: { name: '' },
    CompanyDetail: { timezone_id: 'Mars/Base', currency: 'ZZZ', icao: 'x', country_id: 'QQ' },
    CompanySetting: { max_duty_hours: 'lots', date_format: 'DD/MM' },
    CompanyBillingSetting: { tax: 1e308 },
  },
];

const FORMS: Array<Record<string, string>> = [
  { 'data[rows][x][weekday]': 'abc', 'data[base_id]': '' },
  { 'data[User][id]': '', 'data[UserDetail][name]': '', 'data[User][user_group_id]': '1e3' },
  { 'data[News][name]': '', 'data[NewsRecipient][user_group_id][]': 'x' },
  { 'data[permissions][Flight.edit]': 'maybe', 'data[role]': 'x' },
  { 'data[[[': 'x', ']]]': 'y' },
];

const QUERIES = [
  '?page=-1&limit=abc',
  '?page=1e9&limit=1e9',
  '?from=xyz&to=',
  '?from=2026-02-30&to=1',
  '?types=,,Nope&user_id=x',
  '?user_id[]=1&user_id[]=2',
  '?unread=zz&search=%25%27&active=maybe&user_group_id=x',
];

describe.each(DIALECTS)(
  'bad input on every company, news, users, profile, notifications and accounts route on %s',
  (dialect) => {
    let s: TestServer;
    let tokens: string[];

    beforeAll(async () => {
      s = await startTestServer(dialect);
      tokens = [await s.login('root@skyline.test'), await s.login('pilot@skyline.test')];
    });
    afterAll(() => s?.close());

    it('a POST-only route answers another method with 400 (Part A 7), and does nothing', async () => {
      const only = [...companyRoutes, ...newsRoutes, ...usersRoutes, ...profileRoutes, ...notificationsRoutes].filter(
        (r) => r.method === 'POST' && !ROUTES.some((o) => o.path === r.path && o.method !== 'POST'),
      );
      expect(only.length).toBeGreaterThan(15);
      for (const route of only) {
        const path = fill(route.path, 'x');
        for (const method of ['GET', 'PUT', 'DELETE'] as const) {
          const r = await s.api(method, path, { token: tokens[1] });
          expect(r.status, `${method} ${path}`).toBe(400);
          expect(r.body.result, `${method} ${path}`).toBe(false);
        }
      }
      // The one path with both methods keeps its GET.
      expect((await s.api('GET', '/manager/companies/permissions.json', { token: tokens[0] })).status).toBe(200);
    });

    it('is answered with a 4xx JSON error and the spec’s envelope, never a 500', async () => {
      const failures: string[] = [];
      const check = (label: string, r: { status: number; body: unknown }) => {
        if (r.status >= 500) failures.push(`${label} → ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
        else if (
          r.status >= 400 &&
          (typeof r.body !== 'object' || r.body === null || (r.body as { result?: unknown }).result !== false)
        )
          failures.push(`${label} → ${r.status} without result: false`);
      };
      for (const token of tokens) {
        for (const route of ROUTES) {
          // Closing sessions or signing out would end the callers used here.
          if (route.path.includes('closesession') || route.path.includes('logout')) continue;
          for (const value of route.path.includes(':') ? PARAM_VALUES : ['-']) {
            const path = fill(route.path, value);
            if (route.method === 'GET') {
              for (const q of QUERIES) check(`GET ${path}${q}`, await s.api('GET', `${path}${q}`, { token }));
            } else {
              for (const body of JSON_BODIES)
                check(
                  `${route.method} ${path} ${JSON.stringify(body).slice(0, 80)}`,
                  await s.api(route.method, path, { token, body: JSON.stringify(body) }),
                );
              for (const form of FORMS)
                check(
                  `${route.method} ${path} form ${JSON.stringify(form)}`,
                  await s.api(route.method, path, { token, form }),
                );
              check(
                `${route.method} ${path} broken JSON`,
                await s.api(route.method, path, { token, body: '{"User": ', headers: {} }),
              );
            }
          }
        }
      }
      expect(failures).toEqual([]);
      // The callers are still who they were: nothing above changed a role or ended a session.
      expect((await s.api('GET', '/users/view.json', { token: tokens[1] })).body.User.user_group_id).toBe(190);
    }, 600_000);
  },
);
