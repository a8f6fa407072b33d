import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { statusOf, tokens } from './fleet-helpers.ts';

/** `SEED=demo` adds fleet sample data through the services; `fixtures` adds none. */
describe.each(DIALECTS)('fleet demo data on %s', (dialect) => {
  let s: TestServer;
  const t = tokens(() => s);
  beforeAll(async () => {
    s = await startTestServer(dialect, { seed: 'demo' });
  });
  afterAll(() => s?.close());

  it('has parts, a programme with two actions, a job with a report, and MEL and CDL items', async () => {
    const token = await t('mechanic@skyline.test');
    const parts = await s.api('POST', '/maintenance/inventory/index.json', { token, body: {} });
    expect(parts.body.items.map((i: any) => i.Inventory.part_number).sort()).toEqual([
      'A-1285-14',
      'CH48110-1',
      'REM38E',
    ]);
    const plans = await s.api('POST', '/maintenance/plans/index.json', {
      token,
      body: { aircraft: s.refs.aircraft['EC-ABC'] },
    });
    expect(
      plans.body.plans.map((p: any) => [p.MaintenancePlan.name, p.MaintenanceProgramme.name, p.PlanWorkOrder.length]),
    ).toEqual([
      ['50 h inspection', 'Piston fleet AMP', 2],
      ['100 h / annual inspection', 'Piston fleet AMP', 2],
    ]);
    const jobs = await s.api('GET', '/maintenance/jobs/index.json', { token });
    expect(jobs.body.jobs).toHaveLength(1);
    expect(jobs.body.jobs[0]).toMatchObject({
      Job: { name: '50 h inspection', status: 'OPEN' },
      report_count: 1,
      work_order_count: 3,
    });
    const jet = await statusOf(s, token, s.refs.aircraft['EC-JET']);
    expect(jet.items.map((i: any) => [i.type, i.category, i.extended])).toEqual([
      ['MEL', 'B', true],
      ['CDL', null, false],
    ]);
    expect(jet.blocked).toBe(false);
    const summary = await s.api('GET', '/maintenance/aircraft_reports/mel_summary.json', { token });
    expect(summary.body).toMatchObject({ open: 3, MEL: { open: 2 }, CDL: { open: 1 } });
  });
});
