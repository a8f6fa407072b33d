import { mayReviewSafetyReport } from '@ops/shared/rules/safety-reports/policy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { categoryId, createSR, reportBody, tokens } from './safety-helpers.ts';

/**
 * Review, classify and close (issue 28, missing actions) through the edit
 * endpoint, for exactly the actors `mayReviewSafetyReport` names: the screen
 * offers the buttons by the same function.
 */
describe.each(DIALECTS)('safety report review on %s', (dialect) => {
  let s: TestServer;
  const t = tokens(() => s);
  let bird: string;
  let airprox: string;
  beforeAll(async () => {
    s = await startTestServer(dialect);
    bird = await categoryId(s, 'Bird strike');
    airprox = await categoryId(s, 'Airprox');
  });
  afterAll(() => s?.close());

  const edit = async (who: string, id: string, fields: Record<string, unknown>) =>
    s.api('POST', `/safety_reports/edit/${id}.json`, {
      token: await t(`${who}@skyline.test`),
      body: { SafetyReport: fields },
    });
  const row = (id: string) =>
    s.ctx.db.selectFrom('safety_reports').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const actor = (who: string, role: number) => ({ userId: s.userId(`${who}@skyline.test`), role });

  it('the safety manager classifies and assigns; the reviewer reviews and closes; others are refused and change nothing', async () => {
    const filed = await createSR(s, await t('pilot@skyline.test'), reportBody(bird));
    expect(filed.status).toBe(200);
    const id = filed.body.id as string;

    const classify = await edit('safety', id, {
      type: 'INFORMATION',
      severity: 'hazard',
      safety_report_category_id: airprox,
      risk_probability: 'probable',
      risk_severity: 'hazardous',
      mitigated_risk_probability: 'improbable',
      mitigated_risk_severity: 'marginal',
      reviewer_id: s.userId('instructor@skyline.test'),
    });
    expect(classify.status, JSON.stringify(classify.body)).toBe(200);
    expect(await row(id)).toMatchObject({
      type: 'INFORMATION',
      severity: 'hazard',
      safety_report_category_id: airprox,
      reviewer_id: s.userId('instructor@skyline.test'),
    });

    // The author (190) and an instructor who is not the reviewer (ground, 135) may not close it.
    const before = await row(id);
    expect(mayReviewSafetyReport(actor('pilot', 190), before)).toBe(false);
    expect(mayReviewSafetyReport(actor('ground', 135), before)).toBe(false);
    for (const who of ['pilot', 'ground']) {
      const r = await edit(who, id, { status: 'closed' });
      expect(r.status, who).toBe(403);
      expect(r.body.message).toMatch(/not authorized to edit/);
    }
    expect((await row(id)).status).toBe('open');

    // The assigned reviewer reviews and closes, and cannot hand the review to someone else.
    expect(mayReviewSafetyReport(actor('instructor', 150), before)).toBe(true);
    expect((await edit('instructor', id, { status: 'reviewed', reviewer_outcome: 'Seen.' })).status).toBe(200);
    expect(
      (await edit('instructor', id, { status: 'closed', reviewer_id: s.userId('ground@skyline.test') })).status,
    ).toBe(200);
    expect(await row(id)).toMatchObject({
      status: 'closed',
      reviewer_outcome: 'Seen.',
      reviewer_id: s.userId('instructor@skyline.test'),
    });
    // Nobody returns a submitted report to draft.
    const draft = await edit('safety', id, { status: 'draft' });
    expect(draft.status).toBe(400);
    expect((await row(id)).status).toBe('closed');
  });

  it('another company (Harbor, whose plan lacks safety reports) cannot touch the report', async () => {
    const filed = await createSR(s, await t('pilot@skyline.test'), reportBody(bird));
    const harbor = await s.login('admin@harbor.test');
    const r = await s.api('POST', `/safety_reports/edit/${filed.body.id}.json`, {
      token: harbor,
      body: { SafetyReport: { status: 'closed' } },
    });
    expect([403, 404]).toContain(r.status);
    expect((await row(filed.body.id)).status).toBe('open');
  });
});
