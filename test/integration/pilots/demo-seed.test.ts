import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';

describe.each(DIALECTS)('People demo data on %s', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(dialect, { seed: 'demo' });
  });
  afterAll(() => s?.close());

  it('seeds pilot groups, certificates and a week of schedules, visible through the API', async () => {
    const admin = await s.login('admin@skyline.test');
    const groups = await s.api('GET', '/pilot_groups/manager_index.json', { token: admin });
    expect(groups.body.pilotGroups.map((g: any) => [g.PilotGroup.name, g.PilotGroup.pilot_count])).toEqual([
      ['Instructors', 3],
      ['Private pilots', 2],
      ['Students 2025', 1],
    ]);
    const paula = await s.login('pilot@skyline.test');
    const certs = await s.api('GET', '/pilots/certificates.json', { token: paula });
    expect(certs.body.certificates.map((c: any) => c.type).sort()).toEqual(['MED_CLASS2', 'PPL', 'SEP']);
    const schedule = await s.api('GET', `/bases/schedule/${s.refs.bases['Cuatro Vientos']}.json`, { token: paula });
    const types = new Set(schedule.body.schedules.map((e: any) => e.BaseSchedule.type));
    expect(types).toEqual(new Set(['DUTY', 'OFF', 'STANDBY']));
    // Today's duty of the duty demo may already be over (it ends 16:15 in Madrid); the week ahead is not.
    const dayAgo = Date.now() / 1000 - 86_400;
    expect(schedule.body.schedules.every((e: any) => e.BaseSchedule.end > dayAgo)).toBe(true);
    expect(schedule.body.schedules.filter((e: any) => e.BaseSchedule.start > Date.now() / 1000).length).toBeGreaterThan(
      5,
    );
    const personal = await s.api('POST', '/sync/people/pull.json', {
      token: paula,
      body: { checkpoint: null, limit: 1000 },
    });
    expect(personal.body.documents.filter((d: any) => d.type === 'certificate')).toHaveLength(3);
    expect(personal.body.documents.filter((d: any) => d.type === 'schedule').length).toBeGreaterThan(0);
    // Harbor gets its own certificates only.
    const harbor = await s.api('GET', `/pilots/certificates/${s.userId('pilot@harbor.test', 'harbor')}.json`, {
      token: await s.login('admin@harbor.test'),
    });
    expect(harbor.body.certificates.map((c: any) => c.type).sort()).toEqual(['FAA_MED_3', 'FAA_PRIVATE']);
  });
});
