/**
 * Issue 33: a walk over the refusals a Spanish reader meets most (404, 403, a 400
 * with field errors, domain refusals of flights, MEL, bookings, billing and duty).
 * Each answers in Spanish with `Content-Language: es`; status and code are the
 * English caller's.
 */
import { uuidv7 } from '@ops/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { createReport, melBody } from '../aircraft-reports/fleet-helpers.ts';
import { createFlight, soloFlight, tokenCache, typeIds } from '../flights/helpers.ts';

interface Ask {
  name: string;
  method: 'GET' | 'POST';
  path: () => string;
  email: string;
  body?: () => unknown;
  status: number;
}

describe.each(DIALECTS)('refusals in Spanish on %s', (dialect) => {
  let s: TestServer;
  const t = tokenCache(() => s);
  let types: Record<string, string>;
  let landed: string;
  let report: string;

  beforeAll(async () => {
    s = await startTestServer(dialect);
    types = await typeIds(s, await t('admin@skyline.test'));
    const dispatcher = await t('dispatch@skyline.test');
    landed = await createFlight(s, dispatcher, soloFlight(s, types, '2023-02-01'));
    const confirmed = await s.api('POST', `/flights/confirm/${landed}.json`, { token: dispatcher, body: {} });
    expect(confirmed.body.result, JSON.stringify(confirmed.body)).toBe(true);
    const mechanic = await t('mechanic@skyline.test');
    const created = await createReport(
      s,
      mechanic,
      melBody(s.refs.aircraft['EC-DEF'], s.userId('mechanic@skyline.test')),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    report = created.body.id;
  });
  afterAll(() => s?.close());

  const far = Math.ceil((Date.now() / 1000 + 400 * 86400) / 300) * 300;
  const walk: Ask[] = [
    {
      name: 'unknown flight (404)',
      method: 'POST',
      path: () => `/flights/confirm/${uuidv7()}.json`,
      email: 'dispatch@skyline.test',
      body: () => ({}),
      status: 404,
    },
    {
      name: 'flight confirm without the permission (403)',
      method: 'POST',
      path: () => `/flights/confirm/${landed}.json`,
      email: 'pilot@skyline.test',
      body: () => ({}),
      status: 403,
    },
    {
      name: 'bad base fields (400)',
      method: 'POST',
      path: () => '/bases/add.json',
      email: 'admin@skyline.test',
      body: () => ({ Base: { name: 42 } }),
      status: 400,
    },
    {
      name: 'flight confirmed twice',
      method: 'POST',
      path: () => `/flights/confirm/${landed}.json`,
      email: 'dispatch@skyline.test',
      body: () => ({}),
      status: 400,
    },
    {
      name: 'MEL item changed by a pilot',
      method: 'POST',
      path: () => `/maintenance/aircraft_reports/edit/${report}.json`,
      email: 'pilot@skyline.test',
      body: () => ({ AircraftReport: { title: 'Changed' } }),
      status: 403,
    },
    {
      name: 'unknown aircraft report (404)',
      method: 'GET',
      path: () => `/maintenance/aircraft_reports/view/${uuidv7()}.json`,
      email: 'mechanic@skyline.test',
      status: 404,
    },
    {
      name: 'booking beyond the horizon',
      method: 'POST',
      path: () => '/schedules/edit.json',
      email: 'dispatch@skyline.test',
      body: () => ({
        Schedule: {
          aircraft_id: s.refs.aircraft['EC-DEF'],
          pilot_id: s.userId('pilot@skyline.test'),
          flight_type_id: types.Solo,
          start: far,
          end: far + 3600,
        },
      }),
      status: 200,
    },
    {
      name: 'another pilot’s billing account',
      method: 'GET',
      path: () => `/billing/account/${s.userId('dispatch@skyline.test')}.json`,
      email: 'pilot@skyline.test',
      status: 403,
    },
    {
      name: 'unknown billing entry',
      method: 'POST',
      path: () => `/manager/billing/entries/reverse/${uuidv7()}.json`,
      email: 'dispatch@skyline.test',
      body: () => ({}),
      status: 404,
    },
    {
      name: 'another pilot’s duty',
      method: 'GET',
      path: () => `/duty/${s.userId('dispatch@skyline.test')}.json?from=2026-01-01&to=2026-01-31`,
      email: 'pilot@skyline.test',
      status: 403,
    },
  ];

  it.each(walk)('$name', async (ask) => {
    const send = async (language: string) =>
      s.api(ask.method, ask.path(), {
        token: await t(ask.email),
        ...(ask.body ? { body: ask.body() } : {}),
        headers: { 'Accept-Language': language },
      });
    const en = await send('en');
    const es = await send('es');
    expect(en.status, JSON.stringify(en.body)).toBe(ask.status);
    expect(en.body.result).toBe(false);
    expect(es.status).toBe(en.status);
    expect(es.body.code).toBe(en.body.code);
    expect({ en: en.body.message, es: es.headers.get('content-language') }).toEqual({ en: en.body.message, es: 'es' });
    expect(es.body.message).not.toBe(en.body.message);
  });
});
