import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { recountDuty } from './recount.ts';

describe.each(DIALECTS)('Duty demo data on %s', (dialect) => {
  let demo: TestServer;
  let fixtures: TestServer;
  beforeAll(async () => {
    [demo, fixtures] = await Promise.all([startTestServer(dialect, { seed: 'demo' }), startTestServer(dialect)]);
  });
  afterAll(async () => {
    // The demo's flights went through the flights area: the running totals match a recount.
    if (demo) expect(await recountDuty(demo)).toEqual([]);
    if (fixtures) expect(await recountDuty(fixtures)).toEqual([]);
    await Promise.all([demo?.close(), fixtures?.close()]);
  });

  it('the fixed data keeps both limits null (CONTRACT 7)', async () => {
    const r = await fixtures.api('GET', '/companies/settings.json', {
      token: await fixtures.login('admin@skyline.test'),
    });
    expect(JSON.stringify(r.body)).toMatch(/"max_duty_hours":null/);
    expect(JSON.stringify(r.body)).toMatch(/"max_flight_hours_year":null/);
  });

  it('the demo shows Ivan Instructor near the daily limit today on the crew board, and his own duty says so', async () => {
    const today = DateTime.now().setZone('Europe/Madrid').toISODate() as string;
    const board = await demo.api('GET', `/duty/board.json?from=${today}`, {
      token: await demo.login('ops@skyline.test'),
    });
    expect(board.status).toBe(200);
    expect(board.body.limits).toEqual({ duty_seconds: 36000, year_flight_seconds: 900 * 3600 });
    const ivan = board.body.people.find((p: { name: string }) => p.name === 'Ivan Instructor');
    expect(ivan.days[0]).toMatchObject({ date: today, duty_seconds: 9.25 * 3600, level: 'near' });
    const own = await demo.api(
      'GET',
      `/duty/${demo.userId('instructor@skyline.test')}.json?from=${today}&to=${today}`,
      { token: await demo.login('instructor@skyline.test') },
    );
    expect(own.body.days[0]).toMatchObject({
      date: today,
      duty_seconds: 9.25 * 3600,
      limit_seconds: 36000,
      exceeded: false,
    });
  });
});
