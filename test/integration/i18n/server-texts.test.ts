/**
 * Issue 33: a sample of the services' own texts that stayed English before they were catalogued
 * (success messages, refusals, a counted message that was once concatenated, a rare field text).
 * Each answers in Spanish with `Content-Language: es` and the English caller reads the same bytes
 * as before with `Content-Language: en`.
 */
import { uuidv7 } from '@ops/shared';
import { type MessageId, type MessageValues, translator } from '@ops/shared/i18n/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { tokenCache } from '../flights/helpers.ts';

interface Sample {
  name: string;
  method: 'GET' | 'POST';
  /** Called once per language, so a creating request makes its own record each time. */
  path: (language: string) => string;
  email: string | null;
  body?: (language: string) => unknown;
  status: number;
  /** The English text, and its catalogue id and values in each language. */
  english: (language: string) => string;
  id: MessageId;
  values?: (language: string) => MessageValues;
  /** A field error rather than the message. */
  field?: string;
}

describe.each(DIALECTS)('services’ own texts in Spanish on %s', (dialect) => {
  let s: TestServer;
  const t = tokenCache(() => s);
  const groups: Record<string, string> = {};

  beforeAll(async () => {
    s = await startTestServer(dialect);
    for (const language of ['en', 'es']) {
      const r = await s.api('POST', '/pilot_groups/manager_add.json', {
        token: await t('admin@skyline.test'),
        body: { PilotGroup: { name: `Delete me ${language}`, User: [{ id: s.userId('ground@skyline.test') }] } },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      groups[language] = r.body.id;
    }
  });
  afterAll(() => s?.close());

  const samples: Sample[] = [
    {
      name: 'a success message: pilot group created',
      method: 'POST',
      path: () => '/pilot_groups/manager_add.json',
      email: 'admin@skyline.test',
      body: (language) => ({ PilotGroup: { name: `Crew ${language}` } }),
      status: 200,
      english: () => 'Pilot group created',
      id: 'errors.pilotGroupCreated',
    },
    {
      name: 'a counted message, once concatenated: members deactivated (1, then 0)',
      method: 'GET',
      path: () => `/pilot_groups/manager_do/${groups.en}/0.json`,
      email: 'admin@skyline.test',
      status: 200,
      english: () => '1 member deactivated',
      id: 'errors.membersDeactivated',
      values: (language) => ({ count: language === 'en' ? 1 : 0 }),
    },
    {
      name: 'a success message: pilot group deleted',
      method: 'POST',
      path: (language) => `/pilot_groups/manager_delete/${groups[language]}.json`,
      email: 'admin@skyline.test',
      status: 200,
      english: () => 'Pilot group deleted',
      id: 'errors.pilotGroupDeleted',
    },
    {
      name: 'a 404 of an area: pilot group not found',
      method: 'POST',
      path: () => `/pilot_groups/manager_delete/${uuidv7()}.json`,
      email: 'admin@skyline.test',
      status: 404,
      english: () => 'Pilot group not found',
      id: 'errors.pilotGroupNotFound',
    },
    {
      name: 'a refusal: deleting one’s own account',
      method: 'POST',
      path: () => `/manager/users/delete/${s.userId('admin@skyline.test')}.json`,
      email: 'admin@skyline.test',
      body: () => ({ confirm: true }),
      status: 400,
      english: () => 'You cannot delete your own account',
      id: 'errors.deleteOwnAccount',
    },
    {
      name: 'the local file store’s link without a credential',
      method: 'GET',
      path: () => '/files/object/not-a-signed-token',
      email: null,
      status: 403,
      english: () => 'This link is invalid or has expired',
      id: 'errors.linkInvalid',
    },
    {
      name: 'a text with a value, once a template string: unknown airport',
      method: 'GET',
      path: () => '/airports/view/ZZZZ.json',
      email: 'pilot@skyline.test',
      status: 404,
      english: () => 'Unknown airport ZZZZ',
      id: 'errors.unknownAirportCode',
      values: () => ({ icao: 'ZZZZ' }),
    },
    {
      name: 'a refusal: another person’s certificates',
      method: 'GET',
      path: () => `/pilots/certificates/${s.userId('dispatch@skyline.test')}.json`,
      email: 'pilot@skyline.test',
      status: 403,
      english: () => 'You can only see your own certificates',
      id: 'errors.certificatesOwnSee',
    },
    {
      name: 'a rare field text of a schema: at most 500 students',
      method: 'POST',
      path: () => '/manager/trainings/onsite/class.json',
      email: 'admin@skyline.test',
      body: () => ({ students: Array.from({ length: 501 }, () => uuidv7()) }),
      status: 400,
      english: () => 'At most 500 students',
      id: 'forms.atMostStudents',
      values: () => ({ max: '500' }),
      field: 'students',
    },
    {
      name: 'a 404 with a value, once a template string: a pilot’s unknown flight type',
      method: 'POST',
      path: () => '/pilots/edit.json',
      email: 'admin@skyline.test',
      body: () => ({ User: { id: s.userId('pilot@skyline.test') }, FlightType: { [uuidv7()]: 1 } }),
      status: 404,
      english: () => 'Flight type not found',
      id: 'errors.flightTypeNotFound',
    },
    {
      name: 'the weather provider is unreachable (the test servers point at a closed port)',
      method: 'GET',
      path: () => '/reports/metar/LEZL.json',
      email: 'pilot@skyline.test',
      status: 503,
      english: () => 'The aviation weather provider is unavailable, try again later',
      id: 'errors.weatherUnavailable',
      values: () => ({ provider: 'aviation' }),
    },
    {
      name: 'the weather archive is unreachable',
      method: 'GET',
      path: () => `/reports/metar/LEZL/${Math.floor(Date.now() / 1000) - 2 * 86_400}.json`,
      email: 'pilot@skyline.test',
      status: 503,
      english: () => 'The weather archive is unavailable, try again later',
      id: 'errors.weatherUnavailable',
      values: () => ({ provider: 'archive' }),
    },
    {
      name: 'a flight field text with two numbers: the callsign too long',
      method: 'POST',
      path: () => '/flights/edit.json',
      email: 'pilot@skyline.test',
      body: () => ({ Flight: { callsign: 'C'.repeat(21) } }),
      status: 400,
      english: () => 'A callsign has at most 20 characters; this text has 21.',
      id: 'flights.vCallsignLong',
      values: () => ({ max: '20', length: '21' }),
      field: 'Flight.callsign',
    },
    {
      name: 'a flight field text without a subject of its own: pilot flying too long',
      method: 'POST',
      path: () => '/flights/edit.json',
      email: 'pilot@skyline.test',
      body: () => ({ Flight: { pf: 'p'.repeat(21) } }),
      status: 400,
      english: () => 'This field has at most 20 characters; this text has 21.',
      id: 'flights.vTextLong',
      values: () => ({ max: '20', length: '21' }),
      field: 'Flight.pf',
    },
  ];

  it.each(samples)('$name', async (sample) => {
    const send = async (language: string) =>
      s.api(sample.method, sample.path(language), {
        ...(sample.email ? { token: await t(sample.email) } : {}),
        ...(sample.body ? { body: sample.body(language) } : {}),
        headers: { 'Accept-Language': language },
      });
    const read = (body: { message?: string; errors?: Record<string, string[]> }) =>
      sample.field ? (body.errors?.[sample.field] ?? []).join(' | ') : body.message;
    const en = await send('en');
    expect(en.status, JSON.stringify(en.body)).toBe(sample.status);
    expect(read(en.body)).toBe(sample.english('en'));
    if (!sample.field) expect(en.headers.get('content-language')).toBe('en');
    const es = await send('es');
    expect(es.status, JSON.stringify(es.body)).toBe(sample.status);
    const spanish = translator('es')(sample.id, sample.values?.('es'));
    expect(spanish).not.toBe(translator('en')(sample.id, sample.values?.('es')));
    expect(read(es.body)).toBe(spanish);
    expect(es.headers.get('content-language')).toBe('es');
    expect(es.body.code).toBe(en.body.code);
    expect(es.body.result).toBe(en.body.result);
  });
});
