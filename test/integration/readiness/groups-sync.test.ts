/**
 * Readiness (issue 31): student weather minimums per pilot group (the stricter
 * of the group's and the flight type's), validated against the company's
 * groups, and the policy replicated read-only to devices as the `readiness`
 * reference document, with the members of groups that have minimums.
 */
import { uuidv7 } from '@ops/shared';
import { DEFAULT_READINESS_SETTINGS, type ReadinessSettings } from '@ops/shared/rules/readiness/settings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { type Checkpoint, pullAll } from '../../setup/sync.ts';
import { startWeatherFake, type WeatherFake } from '../../setup/weather-fake.ts';
import { tokenCache, typeIds } from '../flights/helpers.ts';

const H = 3600;
const now = () => Math.floor(Date.now() / 1000);
const pad = (n: number) => String(n).padStart(2, '0');
const ddhh = (t: number) => `${pad(new Date(t * 1000).getUTCDate())}${pad(new Date(t * 1000).getUTCHours())}`;
const tag = (t: number) => `${ddhh(t)}${pad(new Date(t * 1000).getUTCMinutes())}Z`;

describe.each(DIALECTS)('Readiness pilot groups and policy sync on %s', (dialect) => {
  let s: TestServer;
  let fake: WeatherFake;
  const t = tokenCache(() => s);
  let types: Record<string, string>;
  let student: string;
  let group: string;

  beforeAll(async () => {
    fake = await startWeatherFake();
    s = await startTestServer(dialect, {
      env: { WEATHER_AVIATION_URL: fake.aviationUrl, WEATHER_ARCHIVE_URL: fake.archiveUrl, WEATHER_TIMEOUT_MS: '400' },
    });
    types = await typeIds(s, await t('admin@skyline.test'));
    student = s.userId('student@skyline.test');
    const g = await s.api('POST', '/pilot_groups/manager_add.json', {
      token: await t('admin@skyline.test'),
      body: { PilotGroup: { name: 'First solo', User: [{ id: student }] } },
    });
    expect(g.body.result, JSON.stringify(g.body)).toBe(true);
    group = g.body.id;
  });
  afterAll(async () => {
    await s?.close();
    await fake?.close();
  });

  const save = async (settings: ReadinessSettings, email = 'admin@skyline.test') =>
    s.api('POST', '/readiness/settings.json', { token: await t(email), body: settings });
  const strict = { ceiling_ft: 1500, visibility_m: 5000, wind_kt: 12, crosswind_kt: 10 };
  const policy = (pilot_groups: ReadinessSettings['weather']['pilot_groups']): ReadinessSettings => ({
    ...DEFAULT_READINESS_SETTINGS,
    checks: { ...DEFAULT_READINESS_SETTINGS.checks, WEATHER: 'block' },
    weather: { ...DEFAULT_READINESS_SETTINGS.weather, pilot_groups, runways: { LECU: [100, 280] } },
  });
  const readinessDoc = async (email: string, cp: Checkpoint | null = null) => {
    const r = await pullAll(s, await t(email), 'reference', cp);
    return { doc: r.docs.find((d) => d.type === 'readiness'), checkpoint: r.checkpoint };
  };

  it('a policy naming a pilot group of another company (or none) is a 400 and nothing is saved', async () => {
    const harbor = await s.api('POST', '/pilot_groups/manager_add.json', {
      token: await t('admin@harbor.test'),
      body: { PilotGroup: { name: 'Harbor students' } },
    });
    for (const id of [harbor.body.id as string, uuidv7()]) {
      const r = await save(policy({ [id]: strict }));
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ result: false });
      expect(JSON.stringify(r.body.errors)).toContain('Unknown pilot group');
    }
    const after = await s.api('GET', '/readiness/settings.json', { token: await t('admin@skyline.test') });
    expect(after.body.settings.checks.WEATHER).toBe('ignore');
    expect(after.body.settings.weather.pilot_groups).toEqual({});
    // Out of range minimums: 400 too.
    expect((await save(policy({ [group]: { ...strict, wind_kt: -1 } }))).status).toBe(400);
  });

  it('a student in a group with stricter minimums is blocked where the default lets them go', async () => {
    const start = Math.floor(now() / 300) * 300 + 6 * H;
    // 16 kt straight down runway 28: within the default 20 kt and the 10 kt crosswind, above the group's 12.
    const issued = now() - H;
    fake.tafs.push({
      station: 'LECU',
      time: issued,
      raw: `TAF LECU ${tag(issued)} ${ddhh(issued)}/${ddhh(issued + 30 * H)} 28016KT 9999 SCT040`,
    });
    try {
      const plan = {
        aircraft_id: s.refs.aircraft['EC-ABC'],
        pilot_id: student,
        flight_type_id: types.Solo,
        start,
        end: start + H,
      };
      const ask = async () =>
        (await s.api('POST', '/schedules/readiness.json', { token: await t('dispatch@skyline.test'), body: plan })).body
          .lines[0];
      expect((await save(policy({}))).status).toBe(200);
      expect(await ask()).toMatchObject({ code: 'WEATHER', level: 'ok' });
      expect((await save(policy({ [group]: strict }))).status).toBe(200);
      const line = await ask();
      expect(line).toMatchObject({ code: 'WEATHER', level: 'block' });
      expect(line.message).toContain('minimums of the pilot group');
      expect(line.message).toContain('wind 16 kt above 12 kt');
      // With flight type minimums too, the stricter number wins: the type's 10 kt wind.
      const both = policy({ [group]: strict });
      both.weather.flight_types = { [types.Solo]: { ...strict, wind_kt: 10, ceiling_ft: 500 } };
      expect((await save(both)).status).toBe(200);
      expect((await ask()).message).toContain('wind 16 kt above 10 kt');
      // Out of the group: the flight type's minimums only.
      await s.api('POST', `/pilot_groups/manager_edit/${group}.json`, {
        token: await t('admin@skyline.test'),
        body: { PilotGroup: { name: 'First solo', User: [] } },
      });
      const alone = await ask();
      expect(alone.message).toContain('minimums of the flight type)');
      await s.api('POST', `/pilot_groups/manager_edit/${group}.json`, {
        token: await t('admin@skyline.test'),
        body: { PilotGroup: { name: 'First solo', User: [{ id: student }] } },
      });
    } finally {
      fake.tafs.length = 0;
      await s.ctx.db.deleteFrom('weather_cache').execute();
    }
  });

  it('devices pull the policy read-only as the readiness reference document, again after a change', async () => {
    // Harbor never chose: its devices hold the defaults (every check ignored) from the first pull.
    const harbor = await readinessDoc('pilot@harbor.test');
    expect(harbor.doc).toMatchObject({ type: 'readiness', data: { settings: { checks: { WEATHER: 'ignore' } } } });
    expect(harbor.doc.data.pilot_groups).toEqual({});

    expect((await save(policy({ [group]: strict }))).status).toBe(200);
    const first = await readinessDoc('student@skyline.test');
    expect(first.doc.data.settings.checks.WEATHER).toBe('block');
    expect(first.doc.data.settings.weather.pilot_groups[group]).toEqual(strict);
    expect(first.doc.data.pilot_groups).toEqual({ [group]: [student] });
    // Nothing changed: the next pull does not send it again.
    expect((await readinessDoc('student@skyline.test', first.checkpoint)).doc).toBeUndefined();

    // A member added to the group: the document comes again with the new member.
    const paula = s.userId('pilot@skyline.test');
    await s.api('POST', `/pilot_groups/manager_edit/${group}.json`, {
      token: await t('admin@skyline.test'),
      body: { PilotGroup: { name: 'First solo', User: [{ id: student }, { id: paula }] } },
    });
    const members = await readinessDoc('student@skyline.test', first.checkpoint);
    expect(members.doc.data.pilot_groups[group].sort()).toEqual([student, paula].sort());

    // A manager's change of the policy: sent again.
    const next = policy({});
    next.checks.MEL = 'warn';
    expect((await save(next)).status).toBe(200);
    const changed = await readinessDoc('student@skyline.test', members.checkpoint);
    expect(changed.doc.data.settings.checks.MEL).toBe('warn');
    expect(changed.doc.data.pilot_groups).toEqual({});
    // Read-only: a device cannot push it.
    const pushed = await s.api('POST', '/sync/reference/push.json', {
      token: await t('admin@skyline.test'),
      body: [{ assumedMasterState: changed.doc, newDocumentState: { ...changed.doc, name: 'Mine' } }],
    });
    expect(pushed.status).toBeGreaterThanOrEqual(400);
    expect(pushed.status).toBeLessThan(500);
    const stored = await s.api('GET', '/readiness/settings.json', { token: await t('admin@skyline.test') });
    expect(stored.body.settings.checks.MEL).toBe('warn');
    // The other company's document never carries this one's policy.
    expect((await readinessDoc('pilot@harbor.test')).doc.data.settings.checks.MEL).toBe('ignore');
  });
  it('a deleted account leaves its pilot groups: devices get the document again without it (membership stamp)', async () => {
    // A member who is only here to be deleted, added to the group with its own minimums.
    const made = await s.api('POST', '/manager/users/create.json', {
      token: await t('admin@skyline.test'),
      body: { UserDetail: { name: 'Gone', surname: 'Soon' } },
    });
    expect(made.body.result, JSON.stringify(made.body)).toBe(true);
    const gone = made.body.id as string;
    expect((await save(policy({ [group]: strict }))).status).toBe(200);
    await s.api('POST', `/pilot_groups/manager_edit/${group}.json`, {
      token: await t('admin@skyline.test'),
      body: { PilotGroup: { name: 'First solo', User: [{ id: student }, { id: gone }] } },
    });
    const before = await readinessDoc('student@skyline.test');
    expect(before.doc.data.pilot_groups[group].sort()).toEqual([student, gone].sort());

    const del = await s.api('POST', `/manager/users/delete/${gone}.json`, {
      token: await t('admin@skyline.test'),
      body: { confirm: true },
    });
    expect(del.body.result, JSON.stringify(del.body)).toBe(true);
    const after = await readinessDoc('student@skyline.test', before.checkpoint);
    expect(after.doc, 'the document is sent again after the deletion').toBeDefined();
    expect(after.doc.data.pilot_groups).toEqual({ [group]: [student] });
    const rows = await s.ctx.db
      .selectFrom('pilot_group_members')
      .select('user_id')
      .where('user_id', '=', gone)
      .execute();
    expect(rows).toEqual([]);
    // Deleting an account in no group stamps nothing: the next pull does not send the document again.
    const loner = await s.api('POST', '/manager/users/create.json', {
      token: await t('admin@skyline.test'),
      body: { UserDetail: { name: 'No', surname: 'Group' } },
    });
    await s.api('POST', `/manager/users/delete/${loner.body.id}.json`, {
      token: await t('admin@skyline.test'),
      body: { confirm: true },
    });
    expect((await readinessDoc('student@skyline.test', after.checkpoint)).doc).toBeUndefined();
  });
});
