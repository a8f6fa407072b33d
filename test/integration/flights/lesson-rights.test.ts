import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { createFlight, flightRow, tokenCache, typeIds } from './helpers.ts';

/**
 * Issue 28 item 8: a student flying a lesson under an instructor PIC is shown no
 * Edit, Dispatch or Cancel, and the server refuses them the same way (the shared
 * policy's `actsForFlight`).
 */
describe.each(DIALECTS)('lesson rights of a student on %s', (dialect) => {
  let s: TestServer;
  const t = tokenCache(() => s);
  let lesson: Record<string, unknown>;
  beforeAll(async () => {
    s = await startTestServer(dialect);
    const types = await typeIds(s, await t('admin@skyline.test'));
    lesson = {
      date: new Date(Date.now() + 3 * 86400 * 1000).toISOString().slice(0, 10),
      status: 'SCHEDULED',
      aircraft_id: s.refs.aircraft['EC-ABC'],
      flight_type_id: types['Dual training'],
      pic_id: s.userId('instructor@skyline.test'),
      sic_id: s.userId('student@skyline.test'),
      departure_airport: 'LECU',
      landing_airport: 'LECU',
      offblocks_time: '09:00',
      onblocks_time: '10:30',
    };
  });
  afterAll(() => s?.close());

  it('the student SIC cannot dispatch or cancel the lesson (400 Not authorized), and nothing changes', async () => {
    const id = await createFlight(s, await t('dispatch@skyline.test'), lesson);
    const student = await t('student@skyline.test');
    const d = await s.api('POST', `/flights/dispatch/${id}.json`, { token: student });
    expect(d.status).toBe(400);
    expect(d.body.message).toBe('Not authorized');
    const c = await s.api('POST', '/flights/cancel.json', { token: student, body: { id, reason: 'Sick' } });
    expect(c.body).toEqual({ result: false, message: 'Not authorized' });
    expect((await flightRow(s, id)).status).toBe('SCHEDULED');
    const view = await s.api('GET', `/flights/view/${id}.json`, { token: student });
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ canEdit: false, canConfirm: false, canDelete: false });
    // The instructor, PIC of the lesson, may.
    const byInstructor = await s.api('POST', `/flights/dispatch/${id}.json`, {
      token: await t('instructor@skyline.test'),
    });
    expect(byInstructor.body.result).toBe(true);
  });

  it('a student who created the flight, or is its PIC, keeps the crew rights', async () => {
    const solo = await createFlight(s, await t('dispatch@skyline.test'), {
      ...lesson,
      pic_id: s.userId('student@skyline.test'),
      sic_id: null,
      supervisor_id: s.userId('instructor@skyline.test'),
    });
    const r = await s.api('POST', '/flights/cancel.json', {
      token: await t('student@skyline.test'),
      body: { id: solo, reason: 'Weather' },
    });
    expect(r.body).toMatchObject({ result: true, status: 'CANCELED' });
  });
});
