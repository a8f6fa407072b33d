import { uuidv7 } from '@ops/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { pullAll, push } from '../../setup/sync.ts';
import { categoryId, createSR, crewedFlight, notified, reportBody, tokens } from './safety-helpers.ts';

/** The `safety` collection and the offline filing commands. */
describe.each(DIALECTS)('safety reports offline on %s', (dialect) => {
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
    return r.body.conflicts.find((c: any) => c.id === cmd.id);
  };
  const ids = async (email: string) =>
    (await pullAll(s, await t(email), 'safety')).docs.filter((d: any) => !d._deleted).map((d: any) => d.id);

  it('replicates by the REST rule: drafts to their author, roles <= 150 all others, others own, crewed and published', async () => {
    const draft = (await createSR(s, await t('pilot@skyline.test'), reportBody(bird, { status: 'draft' }))).body.id;
    const mech = (await createSR(s, await t('mechanic@skyline.test'), reportBody(bird))).body.id;
    const flight = await crewedFlight(s, { pic: s.userId('student@skyline.test') });
    const crewed = (await createSR(s, await t('ops@skyline.test'), reportBody(bird), flight)).body.id;
    const pilot = await ids('pilot@skyline.test');
    expect(pilot).toContain(draft);
    expect(pilot).not.toContain(mech);
    const admin = await ids('admin@skyline.test');
    expect(admin).toEqual(expect.arrayContaining([mech, crewed]));
    expect(admin).not.toContain(draft);
    expect(await ids('instructor@skyline.test')).toEqual(expect.arrayContaining([mech, crewed]));
    const student = await ids('student@skyline.test');
    expect(student).toContain(crewed);
    expect(student).not.toContain(mech);
    const doc = (await pullAll(s, await t('admin@skyline.test'), 'safety')).docs.find((d: any) => d.id === mech);
    expect(doc).not.toHaveProperty('author_id');
  });

  it('files offline with safety.file: the server assigns the number on arrival and notifies once', async () => {
    const id = uuidv7();
    const r = await send(
      'student@skyline.test',
      command('safety.file', { id, SafetyReport: reportBody(bird, { status: 'draft' }).SafetyReport }),
    );
    expect(r).toMatchObject({ status: 'accepted', result: { id, idn: null, status: 'draft' } });
    expect(await notified(s, id)).toEqual([]);
    const sub = await send('student@skyline.test', command('safety.submit', { id }));
    expect(sub.status).toBe('accepted');
    expect(sub.result.idn).toMatch(/^\d{4}\/\d{5}$/);
    expect((await notified(s, id)).length).toBeGreaterThan(0);
    const again = await send('student@skyline.test', command('safety.submit', { id }));
    expect(again.status).toBe('rejected');
    const direct = uuidv7();
    const open = await send(
      'pilot@skyline.test',
      command('safety.file', { id: direct, SafetyReport: reportBody(bird).SafetyReport }),
    );
    expect(open.result.idn).toMatch(/^\d{4}\/\d{5}$/);
    const docs = (await pullAll(s, await t('pilot@skyline.test'), 'safety')).docs;
    expect(docs.find((d: any) => d.id === direct)).toMatchObject({ idn: open.result.idn, status: 'open' });
  });

  it('rejects bad offline filings with the REST message and writes nothing', async () => {
    const id = uuidv7();
    const r = await send(
      'pilot@skyline.test',
      command('safety.file', { id, SafetyReport: reportBody('nope').SafetyReport }),
    );
    expect(r.status).toBe('rejected');
    expect(r.reason).toMatch(/safety_report_category_id/);
    expect(
      await s.ctx.db.selectFrom('safety_reports').select('id').where('id', '=', id).executeTakeFirst(),
    ).toBeUndefined();
    // Someone else's draft cannot be submitted.
    const draft = uuidv7();
    await send(
      'pilot@skyline.test',
      command('safety.file', { id: draft, SafetyReport: reportBody(bird, { status: 'draft' }).SafetyReport }),
    );
    expect((await send('admin@skyline.test', command('safety.submit', { id: draft }))).status).toBe('rejected');
  });
});
