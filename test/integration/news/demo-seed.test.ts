import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';

describe.each(DIALECTS)('demo seed of news and operating hours on %s', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(dialect, { seed: 'demo' });
  });
  afterAll(() => s?.close());

  it('has the public feed, company news by recipient, and Skyline’s week', async () => {
    expect((await s.api('GET', '/news.json')).body.news.map((n: any) => n.News.name)).toEqual([
      'Offline mode for hangar tablets',
      'Welcome to the operations platform',
    ]);
    const pilot = await s.api('GET', '/news.json', { token: await s.login('pilot@skyline.test') });
    expect(pilot.body.news.map((n: any) => n.News.name)).toEqual([
      'Updated operations manual, revision 12',
      'Sabadell apron works',
    ]);
    const student = await s.api('GET', '/news.json', { token: await s.login('student@skyline.test') });
    expect(student.body.news.length).toBe(3);
    const harbor = await s.api('GET', '/news.json', { token: await s.login('admin@harbor.test') });
    expect(harbor.body.news.map((n: any) => n.News.name)).toEqual(['Club barbecue on Saturday']);
    const hours = await s.api('GET', '/manager/companies/operating_hours.json', {
      token: await s.login('admin@skyline.test'),
    });
    const rows = hours.body.OperatingHours.rows;
    expect(rows.filter((r: any) => r.base_id === null && r.weekday !== null).length).toBe(7);
    expect(rows.filter((r: any) => r.base_id === s.refs.bases.Sabadell).length).toBe(5);
  });
});
