import { uuidv7 } from '@ops/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { push } from '../../setup/sync.ts';
import { categoryId, countRows, createSR, reportBody, tokens } from './safety-helpers.ts';

/**
 * Issue 28 item 3: a second press of "File report" filed a duplicate
 * (2026/00001 and 2026/00002) and an event in 2090 was accepted. The form's id
 * makes filing idempotent (REST and the offline command); the event date may
 * not be in the future.
 */
describe.each(DIALECTS)('safety reports filed once on %s', (dialect) => {
  let s: TestServer;
  const t = tokens(() => s);
  let bird: string;
  beforeAll(async () => {
    s = await startTestServer(dialect);
    bird = await categoryId(s, 'Bird strike');
  });
  afterAll(() => s?.close());

  const command = (name: string, args: Record<string, unknown>) => ({
    id: uuidv7(),
    name,
    args,
    client_time: Date.now(),
    status: 'pending',
  });
  const send = async (email: string, cmd: ReturnType<typeof command>) => {
    const r = await push(s, await t(email), 'commands', [{ assumedMasterState: null, newDocumentState: cmd }]);
    expect(r.status).toBe(200);
    return r.body.conflicts.find((c: { id: string }) => c.id === cmd.id);
  };

  it('answers a repeated REST submission with the first report, never a second number', async () => {
    const token = await t('pilot@skyline.test');
    const client_id = uuidv7();
    const before = await countRows(s, 'safety_reports');
    const first = await createSR(s, token, reportBody(bird, { client_id }));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.idn).toMatch(/^\d{4}\/\d{5}$/);
    const second = await createSR(s, token, reportBody(bird, { client_id }));
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ id: first.body.id, idn: first.body.idn });
    // Two presses at the same moment meet at the unique index: still one report.
    const racing = uuidv7();
    const both = await Promise.all([
      createSR(s, token, reportBody(bird, { client_id: racing })),
      createSR(s, token, reportBody(bird, { client_id: racing })),
    ]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(both[0].body.idn).toBe(both[1].body.idn);
    expect(await countRows(s, 'safety_reports')).toBe(before + 2);
    // The id is the author's: another person's form with the same id files its own report.
    const other = await createSR(s, await t('student@skyline.test'), reportBody(bird, { client_id }));
    expect(other.status).toBe(200);
    expect(other.body.id).not.toBe(first.body.id);
    // Without an id, each submission is a report (API clients that never sent one keep their behaviour).
    const a = await createSR(s, token, reportBody(bird));
    const b = await createSR(s, token, reportBody(bird));
    expect(a.body.idn).not.toBe(b.body.idn);
  });

  it('answers a repeated offline filing (same form, two commands) with the first report', async () => {
    const id = uuidv7();
    const args = { id, client_id: id, SafetyReport: reportBody(bird).SafetyReport };
    const one = await send('student@skyline.test', command('safety.file', args));
    expect(one.status, JSON.stringify(one)).toBe('accepted');
    const two = await send('student@skyline.test', command('safety.file', args));
    expect(two).toMatchObject({ status: 'accepted', result: { id, idn: one.result.idn } });
    const rows = await s.ctx.db.selectFrom('safety_reports').select('id').where('client_id', '=', id).execute();
    expect(rows).toHaveLength(1);
  });

  it('refuses an event date in the future, with the sentence beside the field, and writes nothing', async () => {
    const token = await t('pilot@skyline.test');
    const before = await countRows(s, 'safety_reports');
    const r = await createSR(s, token, reportBody(bird, { datetime: '2090-06-01' }));
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body.errors ?? r.body.validation)).toContain('The event date cannot be in the future');
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 16);
    expect((await createSR(s, token, reportBody(bird, { datetime: tomorrow }))).status).toBe(400);
    const off = await send(
      'pilot@skyline.test',
      command('safety.file', { id: uuidv7(), SafetyReport: reportBody(bird, { datetime: '2090-06-01' }).SafetyReport }),
    );
    expect(off.status).toBe('rejected');
    expect(await countRows(s, 'safety_reports')).toBe(before);
    // An edit cannot move the event into the future either.
    const ok = await createSR(s, token, reportBody(bird));
    const moved = await s.api('POST', `/safety_reports/edit/${ok.body.id}.json`, {
      token,
      body: { SafetyReport: { datetime: '2090-06-01 10:00:00' } },
    });
    expect(moved.status).toBe(400);
    const now = new Date(Date.now() - 60_000).toISOString();
    expect((await createSR(s, token, reportBody(bird, { datetime: now }))).status).toBe(200);
  });
});
