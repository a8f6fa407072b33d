import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { startWeatherFake, type WeatherFake } from '../../setup/weather-fake.ts';

const now = () => Math.floor(Date.now() / 1000);
const MIN = 60;
const HOUR = 3600;
const DAY = 86400;

describe.each(DIALECTS)('Weather reports on %s', (dialect) => {
  let s: TestServer;
  let fake: WeatherFake;
  let token: string;
  const env = () => ({
    WEATHER_AVIATION_URL: fake.aviationUrl,
    WEATHER_ARCHIVE_URL: fake.archiveUrl,
    WEATHER_TIMEOUT_MS: '400',
  });
  const get = (path: string, t: string | null = token) => s.api('GET', path, { token: t });
  const t0 = now();

  beforeAll(async () => {
    fake = await startWeatherFake();
    s = await startTestServer(dialect, { env: env() });
    token = await s.login('pilot@skyline.test');
    // LEMD: METARs every 30 minutes over the last 3 days, TAFs every 6 hours over 40 days.
    for (let t = t0 - 3 * DAY; t <= t0 - 10 * MIN; t += 30 * MIN)
      fake.metars.push({ station: 'LEMD', time: t, raw: `LEMD M${t} 27008KT CAVOK 15/09 Q1015` });
    for (let t = t0 - 40 * DAY; t <= t0 - HOUR; t += 6 * HOUR)
      fake.tafs.push({ station: 'LEMD', time: t, raw: `TAF LEMD T${t} 27010KT CAVOK` });
    fake.metars.push({ station: 'KJFK', time: t0 - 20 * MIN, raw: 'KJFK 201251Z 31012KT 10SM FEW050 08/M03 A3012' });
  });
  afterAll(async () => {
    await s?.close();
    await fake?.close();
  });

  it('answers 401 without a token', async () => {
    expect((await get('/reports/metar/LEMD.json', null)).status).toBe(401);
    expect((await get('/reports/taf/LEMD.json', null)).status).toBe(401);
  });

  it('answers 404 for an empty or invalid airport code, without asking a provider', async () => {
    const before = fake.requests.length;
    for (const p of [
      '/reports/metar.json',
      '/reports/taf.json',
      '/reports/metar/LEM.json',
      '/reports/metar/L1MD.json',
      '/reports/taf/EGLLX.json',
      '/reports/metar/LE-D.json',
    ]) {
      const r = await get(p);
      expect(r.status, p).toBe(404);
      expect(r.body.result).toBe(false);
    }
    expect(fake.requests.length).toBe(before);
  });

  it('refuses a date that is not unix seconds (400)', async () => {
    const r = await get('/reports/metar/LEMD/yesterday.json');
    expect(r.status).toBe(400);
    expect(r.body.errors.date).toBeTruthy();
  });

  it('current METAR and TAF: the latest report, private cache 5 minutes', async () => {
    const m = await get('/reports/metar/LEMD.json');
    expect(m.status).toBe(200);
    const latest = fake.metars.filter((r) => r.station === 'LEMD').at(-1)!;
    expect(m.body).toEqual([latest.raw]);
    expect(m.headers.get('cache-control')).toBe('private, max-age=300');
    const t = await get('/reports/taf/LEMD.json');
    expect(t.body).toEqual([fake.tafs.at(-1)!.raw]);
    expect(t.headers.get('cache-control')).toBe('private, max-age=300');
    // A US airport goes to the data API by its ICAO code; lower case is accepted.
    expect((await get('/reports/metar/kjfk.json')).body).toEqual(['KJFK 201251Z 31012KT 10SM FEW050 08/M03 A3012']);
  });

  it('NIL when a station has no report', async () => {
    expect((await get('/reports/metar/LFPG.json')).body).toEqual(['NIL']);
    expect((await get('/reports/taf/LFPG.json')).body).toEqual(['NIL']);
  });

  it('a valid-shaped code with digits passes the pattern (^[A-Z]{2}[A-Z0-9]{2}$)', async () => {
    const r = await get('/reports/metar/LE1D.json');
    expect(r.status).toBe(200);
    expect(r.body).toEqual(['NIL']);
  });

  it('historical METAR: the closest observation within ±45 minutes, from the archive', async () => {
    const obs = fake.metars.filter((r) => r.station === 'LEMD');
    const target = obs[20]!;
    const before = fake.requests.length;
    const r = await get(`/reports/metar/LEMD/${target.time + 10 * MIN}.json`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual([target.raw]);
    expect(
      fake.requests
        .slice(before)
        .some(
          (p) => p.startsWith('/cgi-bin/request/asos.py?') && p.includes('station=LEMD') && p.includes('data=metar'),
        ),
    ).toBe(true);
    // 20 minutes after: the next one (10 min away) is closer.
    expect((await get(`/reports/metar/LEMD/${target.time + 20 * MIN}.json`)).body).toEqual([obs[21]!.raw]);
  });

  it('historical METAR: NIL when nothing lies within ±45 minutes', async () => {
    // Before the first observation: 46 minutes early is outside, 44 inside.
    const first = fake.metars.find((r) => r.station === 'LEMD')!;
    expect((await get(`/reports/metar/LEMD/${first.time - 46 * MIN}.json`)).body).toEqual(['NIL']);
    expect((await get(`/reports/metar/LEMD/${first.time - 44 * MIN}.json`)).body).toEqual([first.raw]);
  });

  it('a date in the future is ignored: the current report', async () => {
    const r = await get(`/reports/metar/LEMD/${now() + DAY}.json`);
    expect(r.body).toEqual([fake.metars.filter((m) => m.station === 'LEMD').at(-1)!.raw]);
  });

  it('historical TAF within the provider window: from the data API by issue time, within ±6 hours', async () => {
    const target = fake.tafs.find((r) => r.time >= t0 - 2 * DAY)!;
    const before = fake.requests.length;
    const r = await get(`/reports/taf/LEMD/${target.time + 2 * HOUR}.json`);
    expect(r.body).toEqual([target.raw]);
    const asked = fake.requests.slice(before);
    expect(asked.some((p) => p.startsWith('/api/data/taf?') && p.includes('time=issue'))).toBe(true);
    expect(asked.some((p) => p.startsWith('/cgi-bin/'))).toBe(false);
  });

  it('historical TAF beyond the provider window: from the archive; older than 30 days: NIL without asking', async () => {
    const target = fake.tafs.find((r) => r.time >= t0 - 12 * DAY)!;
    let before = fake.requests.length;
    expect((await get(`/reports/taf/LEMD/${target.time - HOUR}.json`)).body).toEqual([target.raw]);
    expect(
      fake.requests.slice(before).some((p) => p.startsWith('/cgi-bin/request/taf.py?') && p.includes('station=LEMD')),
    ).toBe(true);
    before = fake.requests.length;
    expect((await get(`/reports/taf/LEMD/${t0 - 35 * DAY}.json`)).body).toEqual(['NIL']);
    expect(fake.requests.length).toBe(before);
  });

  it('historical TAF: NIL when no issue lies within ±6 hours', async () => {
    fake.tafs.push({ station: 'LEBL', time: t0 - 5 * DAY, raw: 'TAF LEBL LONELY' });
    expect((await get(`/reports/taf/LEBL/${t0 - 5 * DAY + 6 * HOUR + 60}.json`)).body).toEqual(['NIL']);
    expect((await get(`/reports/taf/LEBL/${t0 - 5 * DAY + 5 * HOUR}.json`)).body).toEqual(['TAF LEBL LONELY']);
  });

  it('answers from the database cache: a second call and a second server process ask no provider', async () => {
    fake.metars.push({ station: 'LEVC', time: t0 - 15 * MIN, raw: 'LEVC CACHED' });
    expect((await get('/reports/metar/LEVC.json')).body).toEqual(['LEVC CACHED']);
    const before = fake.requests.length;
    expect((await get('/reports/metar/LEVC.json')).body).toEqual(['LEVC CACHED']);
    expect(fake.requests.length).toBe(before);
    const rows = await s.ctx.db
      .selectFrom('weather_cache')
      .select(['key', 'body'])
      .where('key', '=', 'metar:LEVC')
      .execute();
    expect(rows).toEqual([{ key: 'metar:LEVC', body: JSON.stringify(['LEVC CACHED']) }]);
    // Another process on the same database, with the provider down, still answers.
    fake.mode.aviation = 'down';
    const other = await startTestServer(dialect, { env: env(), reuse: s.where });
    try {
      const r = await other.api('GET', '/reports/metar/LEVC.json', { token: await other.login('pilot@skyline.test') });
      expect(r.status).toBe(200);
      expect(r.body).toEqual(['LEVC CACHED']);
    } finally {
      fake.mode.aviation = 'up';
      await other.close();
    }
  });

  describe('a provider that is down', () => {
    const cases: [string, 'down' | 'error' | 'slow' | 'garbage', number][] = [
      ['refuses connections', 'down', 503],
      ['does not answer in time', 'slow', 503],
      ['answers 500', 'error', 502],
      ['answers something not in its format', 'garbage', 502],
    ];
    const SPANISH: Record<(typeof cases)[number][1], string> = {
      down: 'El proveedor de meteorología aeronáutica no está disponible; inténtelo más tarde',
      slow: 'El proveedor de meteorología aeronáutica no está disponible; inténtelo más tarde',
      error: 'El proveedor de meteorología aeronáutica ha respondido con un error (HTTP 500)',
      garbage: 'El proveedor de meteorología aeronáutica ha respondido con un error (no es JSON)',
    };
    it.each(cases)('data API %s: %s with a message, nothing cached', async (_name, mode, status) => {
      fake.mode.aviation = mode;
      try {
        const r = await get('/reports/metar/LEZL.json');
        expect(r.status).toBe(status);
        expect(r.body.result).toBe(false);
        expect(r.body.message).toMatch(/aviation weather provider/);
        // In the caller's language (issue 33), the status and the reason worded too.
        const es = await s.api('GET', '/reports/metar/LEZL.json', { token, headers: { 'Accept-Language': 'es' } });
        expect(es.status).toBe(status);
        expect(es.headers.get('content-language')).toBe('es');
        expect(es.body.message).toBe(SPANISH[mode]);
      } finally {
        fake.mode.aviation = 'up';
      }
      const cached = await s.ctx.db.selectFrom('weather_cache').select('key').where('key', '=', 'metar:LEZL').execute();
      expect(cached).toEqual([]);
    });

    it.each(cases)('archive %s: %s with a message', async (_name, mode, status) => {
      fake.mode.archive = mode;
      try {
        const r = await get(`/reports/metar/LEZL/${t0 - 2 * DAY}.json`);
        expect(r.status).toBe(status);
        expect(r.body.message).toMatch(/weather archive/);
      } finally {
        fake.mode.archive = 'up';
      }
    });

    it('recovers once the provider is back', async () => {
      expect((await get('/reports/metar/LEZL.json')).body).toEqual(['NIL']);
    });
  });
});
