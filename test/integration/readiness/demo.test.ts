import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';

describe.each(DIALECTS)('Readiness demo data on %s', (dialect) => {
  let demo: TestServer;
  beforeAll(async () => {
    demo = await startTestServer(dialect, { seed: 'demo' });
  });
  afterAll(() => demo?.close());

  it('the demo companies warn on most checks and block on MEL, and some planned flight shows an amber line', async () => {
    const token = await demo.login('ops@skyline.test');
    const settings = await demo.api('GET', '/readiness/settings.json', { token });
    expect(settings.body.settings.checks).toMatchObject({ MEL: 'block', MAINTENANCE: 'warn', WEATHER: 'warn' });
    const harbor = await demo.api('GET', '/readiness/settings.json', { token: await demo.login('admin@harbor.test') });
    expect(harbor.body.settings.checks.MEL).toBe('block');
    const planned = await demo.ctx.db
      .selectFrom('flights')
      .select('id')
      .where('company_id', '=', demo.refs.companies.skyline)
      .where('status', 'in', ['SCHEDULED', 'DRAFT'])
      .where('deleted', '=', 0)
      .limit(20)
      .execute();
    expect(planned.length).toBeGreaterThan(0);
    const levels: string[] = [];
    for (const f of planned) {
      const r = await demo.api('GET', `/flights/readiness/${f.id}.json`, { token });
      expect(r.status).toBe(200);
      levels.push(...r.body.lines.map((l: { level: string }) => l.level));
    }
    expect(levels).toContain('warn');
  });
});
