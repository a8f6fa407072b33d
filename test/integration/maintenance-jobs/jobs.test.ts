import { uuidv7 } from '@ops/shared';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { pullAll, push } from '../../setup/sync.ts';
import { countQueries, createReport, melBody, setPlan, statusOf, tokens } from '../aircraft-reports/fleet-helpers.ts';

/** CONTRACT 4 jobs, Part B 4.2 grouping and 4.3 automatic scheduling, designed index and work orders. */
describe.each(DIALECTS)('maintenance jobs on %s', (dialect) => {
  let s: TestServer;
  const t = tokens(() => s);
  let mech: string;
  let n = 0;
  beforeAll(async () => {
    s = await startTestServer(dialect);
    mech = s.userId('mechanic@skyline.test');
  });
  afterAll(() => s?.close());

  const plane = async () => {
    n += 1;
    const r = await s.api('POST', '/manager/aircraft/add.json', {
      token: await t('admin@skyline.test'),
      body: { Aircraft: { registration: `EC-J${String(n).padStart(2, '0')}`, model_name: 'Piper PA-34 Seneca' } },
    });
    return r.body.id as string;
  };
  const report = async (aircraftId: string, title = 'Defect') =>
    (
      await createReport(s, await t('mechanic@skyline.test'), {
        AircraftReport: { aircraft_id: aircraftId, type: 'DEFECT', title },
      })
    ).body.id as string;
  const create = async (job: Record<string, unknown>, email = 'mechanic@skyline.test') =>
    s.api('POST', '/maintenance/jobs/create.json', { token: await t(email), body: { Job: job } });
  const view = async (id: string) =>
    (await s.api('GET', `/maintenance/jobs/view/${id}.json`, { token: await t('pilot@skyline.test') })).body;
  const sign = async (
    id: string,
    body: Record<string, unknown> = { password: 'demo1234' },
    email = 'mechanic@skyline.test',
  ) => s.api('POST', `/maintenance/jobs/sign_crs/${id}.json`, { token: await t(email), body });
  const plan = async (data: Record<string, unknown>) => {
    const r = await s.api('POST', '/maintenance/plans/edit.json', { token: await t('ops@skyline.test'), body: data });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.plan.MaintenancePlan.id as string;
  };
  const reportRow = (id: string) =>
    s.ctx.db
      .selectFrom('aircraft_reports')
      .select(['status', 'closed', 'closed_by', 'maintenance_job_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  it('needs credentials', async () => {
    for (const [m, p] of [
      ['GET', '/maintenance/jobs/index.json'],
      ['GET', '/maintenance/jobs/view/x.json'],
      ['POST', '/maintenance/jobs/create.json'],
      ['POST', '/maintenance/jobs/edit/x.json'],
      ['POST', '/maintenance/jobs/delete/x.json'],
      ['POST', '/maintenance/jobs/link_reports.json'],
      ['POST', '/maintenance/jobs/unlink_report.json'],
      ['POST', '/maintenance/jobs/sign_crs/x.json'],
      ['POST', '/maintenance/jobs/work_orders/edit.json'],
    ] as const) {
      expect((await s.api(m, p, { body: m === 'POST' ? {} : undefined })).status, p).toBe(401);
    }
  });

  it('lets managers and mechanics write; others read only; a free plan is refused', async () => {
    const a = await plane();
    for (const email of [
      'pilot@skyline.test',
      'student@skyline.test',
      'dispatch@skyline.test',
      'instructor@skyline.test',
    ]) {
      expect((await create({ aircraft_id: a, name: 'x' }, email)).status, email).toBe(403);
    }
    for (const email of [
      'mechanic@skyline.test',
      'ops@skyline.test',
      'safety@skyline.test',
      'admin@skyline.test',
      'root@skyline.test',
    ]) {
      expect((await create({ aircraft_id: a, name: email }, email)).status, email).toBe(200);
    }
    expect(
      (await s.api('GET', `/maintenance/jobs/index.json?aircraft_id=${a}`, { token: await t('pilot@skyline.test') }))
        .body.jobs,
    ).toHaveLength(5);
    const harbor = await t('admin@harbor.test');
    expect((await s.api('GET', '/maintenance/jobs/index.json', { token: harbor })).status).toBe(403);
    expect((await create({ aircraft_id: s.refs.aircraft.N123HA, name: 'x' }, 'admin@harbor.test')).status).toBe(403);
  });

  it('keeps companies apart: another company’s job, aircraft and reports are 404', async () => {
    const a = await plane();
    const rep = await report(a);
    const job = (await create({ aircraft_id: a, name: 'Skyline job' })).body.id;
    await setPlan(s, 'harbor', 'premium');
    try {
      const harbor = await t('admin@harbor.test');
      expect((await s.api('GET', `/maintenance/jobs/view/${job}.json`, { token: harbor })).status).toBe(404);
      expect((await create({ aircraft_id: a, name: 'x' }, 'admin@harbor.test')).status).toBe(404);
      expect(
        (
          await s.api('POST', '/maintenance/jobs/link_reports.json', {
            token: harbor,
            body: { job_id: job, aircraft_report_ids: [rep] },
          })
        ).status,
      ).toBe(404);
      expect(
        (
          await s.api('POST', `/maintenance/jobs/sign_crs/${job}.json`, {
            token: harbor,
            body: { password: 'demo1234' },
          })
        ).status,
      ).toBe(404);
      expect((await s.api('GET', '/maintenance/jobs/index.json', { token: harbor })).body.jobs).toEqual([]);
      const hjob = (await create({ aircraft_id: s.refs.aircraft.N123HA, name: 'Harbor job' }, 'admin@harbor.test')).body
        .id;
      const cross = await s.api('POST', '/maintenance/jobs/link_reports.json', {
        token: harbor,
        body: { job_id: hjob, aircraft_report_ids: [rep] },
      });
      expect(cross.status).toBe(404);
      expect((await reportRow(rep)).maintenance_job_id).toBeNull();
      expect((await view(job)).Job.crs_signed).toBe(false);
    } finally {
      await setPlan(s, 'harbor', 'free');
    }
  });

  describe('create', () => {
    it('validates the body and the aircraft', async () => {
      const missing = await create({ name: 'x' });
      expect(missing.status).toBe(400);
      expect(missing.body.result).toBe(false);
      expect(missing.body.errors.aircraft_id).toBeDefined();
      const bad = await create({ aircraft_id: await plane(), name: 'x', start: 'soon' });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toContain('start');
      expect((await create({ aircraft_id: 'nope', name: 'x' })).status).toBe(404);
      const noName = await create({ aircraft_id: await plane() });
      expect(noName.status).toBe(400);
      expect(noName.body.errors.name).toBeDefined();
    });

    it('creates a job with reports and answers the CONTRACT view', async () => {
      const a = await plane();
      const r1 = await report(a, 'Brake wear');
      const r2 = await report(a, 'Tyre cut');
      const start = Math.floor(Date.now() / 1000) + 86400;
      const c = await create({ aircraft_id: a, name: 'Wheel and brake', start, aircraft_report_ids: [r1, r2] });
      expect(c.status).toBe(200);
      expect(c.body).toMatchObject({ result: true });
      const v = await view(c.body.id);
      expect(v.Job).toMatchObject({
        id: c.body.id,
        aircraft_id: a,
        name: 'Wheel and brake',
        status: 'OPEN',
        start,
        finish: null,
        crs_signed: false,
        crs_signed_by: null,
        maintenance_plan_id: null,
      });
      expect(v.AircraftReport.map((r: any) => r.title).sort()).toEqual(['Brake wear', 'Tyre cut']);
      expect(v.WorkOrder).toEqual([]);
    });

    it('from a plan action: needs the action linked to the job’s aircraft (else 404) and copies its templates as pending', async () => {
      const a = await plane();
      const other = await plane();
      const p = await plan({
        MaintenancePlan: { name: '50 h', programme_name: 'Jobs AMP', repeat: 'NEVER' },
        Aircraft: { Aircraft: [a] },
        PlanWorkOrder: [
          { name: 'Oil change', ata: '79', time: '1.5' },
          { name: 'Plugs', time: 1 },
        ],
      });
      const refused = await create({ aircraft_id: other, maintenance_plan_id: p });
      expect(refused.status).toBe(404);
      expect((await create({ aircraft_id: a, maintenance_plan_id: uuidv7() })).status).toBe(404);
      const c = await create({ aircraft_id: a, maintenance_plan_id: p });
      expect(c.status).toBe(200);
      const v = await view(c.body.id);
      expect(v.Job).toMatchObject({ name: '50 h', maintenance_plan_id: p });
      expect(v.WorkOrder.map((w: any) => [w.name, w.ata, w.time, w.status])).toEqual([
        ['Oil change', '79', 1.5, 'pending'],
        ['Plugs', null, 1, 'pending'],
      ]);
      const jobRow = await s.ctx.db
        .selectFrom('maintenance_jobs')
        .select('repeat')
        .where('id', '=', c.body.id)
        .executeTakeFirstOrThrow();
      expect(jobRow.repeat).toBe('NEVER');
    });
  });

  describe('linking reports', () => {
    it('links reports of the same aircraft only, each to one job, and unlinks', async () => {
      const a = await plane();
      const b = await plane();
      const job = (await create({ aircraft_id: a, name: 'J' })).body.id;
      const other = (await create({ aircraft_id: a, name: 'K' })).body.id;
      const mine = await report(a);
      const foreign = await report(b);
      const token = await t('mechanic@skyline.test');
      const wrong = await s.api('POST', '/maintenance/jobs/link_reports.json', {
        token,
        body: { job_id: job, aircraft_report_ids: [mine, foreign] },
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body.message).toMatch(/another aircraft/);
      expect((await reportRow(mine)).maintenance_job_id).toBeNull();
      expect(
        (
          await s.api('POST', '/maintenance/jobs/link_reports.json', {
            token,
            body: { job_id: job, aircraft_report_ids: [mine] },
          })
        ).status,
      ).toBe(200);
      expect((await reportRow(mine)).maintenance_job_id).toBe(job);
      const twice = await s.api('POST', '/maintenance/jobs/link_reports.json', {
        token,
        body: { job_id: other, aircraft_report_ids: [mine] },
      });
      expect(twice.status).toBe(400);
      expect(twice.body.message).toMatch(/another job/);
      expect(
        (
          await s.api('POST', '/maintenance/jobs/link_reports.json', {
            token,
            body: { job_id: job, aircraft_report_ids: [uuidv7()] },
          })
        ).status,
      ).toBe(404);
      expect(
        (await s.api('POST', '/maintenance/jobs/link_reports.json', { token, body: { job_id: job } })).status,
      ).toBe(400);
      const list = await s.api('POST', '/maintenance/aircraft_reports/index.json', { token, body: { job } });
      expect(list.body.reports.map((r: any) => r.AircraftReport.id)).toEqual([mine]);
      // Form encoding works too.
      const un = await s.api('POST', '/maintenance/jobs/unlink_report.json', {
        token,
        form: { job_id: job, aircraft_report_id: mine },
      });
      expect(un.status).toBe(200);
      expect((await reportRow(mine)).maintenance_job_id).toBeNull();
      expect(
        (
          await s.api('POST', '/maintenance/jobs/unlink_report.json', {
            token,
            body: { job_id: job, aircraft_report_id: mine },
          })
        ).status,
      ).toBe(404);
    });

    it('refuses linking and unlinking once the CRS is signed', async () => {
      const a = await plane();
      const r1 = await report(a);
      const job = (await create({ aircraft_id: a, name: 'J', aircraft_report_ids: [r1] })).body.id;
      expect((await sign(job)).status).toBe(200);
      const token = await t('mechanic@skyline.test');
      const late = await report(a);
      const link = await s.api('POST', '/maintenance/jobs/link_reports.json', {
        token,
        body: { job_id: job, aircraft_report_ids: [late] },
      });
      expect(link.status).toBe(400);
      expect(link.body.message).toMatch(/CRS/);
      expect((await reportRow(late)).maintenance_job_id).toBeNull();
      const unlink = await s.api('POST', '/maintenance/jobs/unlink_report.json', {
        token,
        body: { job_id: job, aircraft_report_id: r1 },
      });
      expect(unlink.status).toBe(400);
      expect((await reportRow(r1)).maintenance_job_id).toBe(job);
      // A report of a signed job stays in the record.
      expect((await s.api('GET', `/maintenance/aircraft_reports/delete/${r1}.json`, { token })).status).toBe(400);
    });
  });

  describe('CRS', () => {
    it('checks the signer’s password and changes nothing when it is wrong', async () => {
      const a = await plane();
      const r1 = await report(a);
      const job = (await create({ aircraft_id: a, name: 'J', aircraft_report_ids: [r1] })).body.id;
      const wrong = await sign(job, { password: 'not-it' });
      expect(wrong.status).toBe(400);
      expect(wrong.body).toMatchObject({ result: false });
      expect(wrong.body.message).toMatch(/password/i);
      expect((await sign(job, {})).status).toBe(400);
      expect((await view(job)).Job).toMatchObject({ crs_signed: false, status: 'OPEN' });
      expect((await reportRow(r1)).status).toBe('OPEN');
      // Each signer signs with their own password.
      const pwOfOther = await sign(job, { password: 'demo1234' }, 'ops@skyline.test');
      expect(pwOfOther.status).toBe(200);
      expect((await view(job)).Job.crs_signed_by).toBe(s.userId('ops@skyline.test'));
    });

    it('closes every attached report (a MEL item with it) and completes the job; a second signing is refused', async () => {
      const a = await plane();
      const defect = await report(a);
      const mel = (await createReport(s, await t('mechanic@skyline.test'), melBody(a, mech, { category: 'A' }))).body
        .id;
      const closedBefore = await report(a);
      await s.api('POST', `/maintenance/aircraft_reports/edit/${closedBefore}.json`, {
        token: await t('mechanic@skyline.test'),
        body: { AircraftReport: { status: 'CLOSED' } },
      });
      await s.ctx.db.updateTable('aircraft_reports').set({ closed: 1000 }).where('id', '=', closedBefore).execute();
      const job = (await create({ aircraft_id: a, name: 'Fix all', aircraft_report_ids: [defect, mel, closedBefore] }))
        .body.id;
      await s.api('POST', '/maintenance/jobs/work_orders/edit.json', {
        token: await t('mechanic@skyline.test'),
        body: { WorkOrder: { maintenance_job_id: job, name: 'Replace valve' } },
      });
      const finish = Math.floor(Date.now() / 1000) - 600;
      const r = await sign(job, { password: 'demo1234', finish });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ result: true, closed_reports: 2, next_job_id: null });
      const v = await view(job);
      expect(v.Job).toMatchObject({ status: 'COMPLETED', crs_signed: true, crs_signed_by: mech, finish });
      expect(v.WorkOrder.map((w: any) => w.status)).toEqual(['done']);
      for (const id of [defect, mel]) expect(await reportRow(id)).toMatchObject({ status: 'CLOSED', closed_by: mech });
      expect(await reportRow(closedBefore)).toMatchObject({ status: 'CLOSED', closed: 1000 });
      const st = await statusOf(s, await t('pilot@skyline.test'), a);
      expect(st.items).toEqual([]);
      expect(v.AircraftReport.find((x: any) => x.id === mel).MelItem.status).toBe('CLOSED');
      const again = await sign(job);
      expect(again.status).toBe(400);
      expect(again.body.message).toMatch(/already signed/);
      const bad = await sign((await create({ aircraft_id: a, name: 'x' })).body.id, {
        password: 'demo1234',
        finish,
        expiration: finish - 1,
      });
      expect(bad.status).toBe(400);
      expect(bad.body.errors.expiration).toBeDefined();
    });

    it('a plan-linked CRS creates the next action’s job: start from the CRS expiration, else the periodicity; wraps; never twice', async () => {
      const a = await plane();
      const p1 = await plan({
        MaintenancePlan: { name: 'Check 1', programme_name: 'Cycle AMP', repeat: 'MONTH' },
        Aircraft: { Aircraft: [a] },
        PlanWorkOrder: [{ name: 'T1' }],
      });
      const p2 = await plan({
        MaintenancePlan: { name: 'Check 2', programme_name: 'Cycle AMP', repeat: 'QUARTER' },
        Aircraft: { Aircraft: [a] },
        PlanWorkOrder: [{ name: 'T2a' }, { name: 'T2b' }],
      });
      const p3 = await plan({
        MaintenancePlan: { name: 'Check 3', programme_name: 'Cycle AMP', repeat: 'NEVER' },
        Aircraft: { Aircraft: [a] },
      });
      const finish = Math.floor(new Date('2026-01-31T10:00:00Z').getTime() / 1000);

      // 1 → 2, with an explicit CRS expiration.
      const j1 = (await create({ aircraft_id: a, maintenance_plan_id: p1 })).body.id;
      const expiration = finish + 40 * 86400;
      const s1 = await sign(j1, { password: 'demo1234', finish, expiration });
      expect(s1.body.next_job_id).toBeTruthy();
      const j2 = await view(s1.body.next_job_id);
      expect(j2.Job).toMatchObject({
        name: 'Check 2',
        maintenance_plan_id: p2,
        start: expiration,
        status: 'OPEN',
        crs_signed: false,
      });
      expect(j2.WorkOrder.map((w: any) => [w.name, w.status])).toEqual([
        ['T2a', 'pending'],
        ['T2b', 'pending'],
      ]);

      // 2 → 3 (NEVER: due by hours or landings, no date).
      const s2 = await sign(s1.body.next_job_id, { password: 'demo1234', finish });
      const j3 = await view(s2.body.next_job_id);
      expect(j3.Job).toMatchObject({ name: 'Check 3', maintenance_plan_id: p3, start: null });

      // 3 → wraps to 1; its periodicity (MONTH) counts from the finish in the company zone.
      const s3 = await sign(s2.body.next_job_id, { password: 'demo1234', finish });
      const j4 = await view(s3.body.next_job_id);
      const expected = DateTime.fromSeconds(finish, { zone: 'Europe/Madrid' }).plus({ months: 1 }).toUnixInteger();
      expect(j4.Job).toMatchObject({ name: 'Check 1', maintenance_plan_id: p1, start: expected });
      expect(new Date(expected * 1000).toISOString().slice(0, 10)).toBe('2026-02-28');

      // An open job already exists for the next action (2): nothing new.
      const open2 = (await create({ aircraft_id: a, maintenance_plan_id: p2 })).body.id;
      const s4 = await sign(s3.body.next_job_id, { password: 'demo1234', finish });
      expect(s4.body.next_job_id).toBeNull();
      const jobs = await s.api(
        'GET',
        `/maintenance/jobs/index.json?aircraft_id=${a}&maintenance_plan_id=${p2}&status=open`,
        { token: await t('pilot@skyline.test') },
      );
      expect(jobs.body.jobs.map((j: any) => j.Job.id)).toEqual([open2]);

      // A deleted action keeps its jobs; signing one continues after its old place.
      await s.api('GET', `/maintenance/plans/delete/${p2}.json`, { token: await t('ops@skyline.test') });
      expect((await view(open2)).Job.maintenance_plan_id).toBe(p2);
      const s5 = await sign(open2, { password: 'demo1234', finish });
      expect((await view(s5.body.next_job_id)).Job.maintenance_plan_id).toBe(p3);
    });
  });

  describe('work orders and the designed list', () => {
    it('creates and moves work orders on; the job starts with the first one under way; parts taken leave the stock', async () => {
      const a = await plane();
      const job = (await create({ aircraft_id: a, name: 'Beacon' })).body.id;
      const token = await t('mechanic@skyline.test');
      const part = await s.api('POST', '/maintenance/inventory/edit.json', {
        token,
        body: {
          Inventory: {
            part_number: `WO-${a.slice(-6)}`,
            name: 'Beacon lamp',
            mfr_name: 'Whelen',
            category: 'Lighting',
          },
          InventoryUnit: { serial_number: 'B-1' },
        },
      });
      const unitId = (await s.api('GET', `/maintenance/inventory/view/${part.body.id}.json`, { token })).body
        .InventoryUnit[0].id;
      const wo = await s.api('POST', '/maintenance/jobs/work_orders/edit.json', {
        token,
        body: {
          WorkOrder: {
            maintenance_job_id: job,
            name: 'Replace lamp',
            ata: '33',
            time: '0.5',
            inventory_unit_ids: [unitId],
          },
        },
      });
      expect(wo.status).toBe(200);
      let v = await view(job);
      expect(v.Job.status).toBe('OPEN');
      expect(v.WorkOrder[0]).toMatchObject({
        name: 'Replace lamp',
        status: 'pending',
        time: 0.5,
        InventoryUnit: [{ id: unitId, serial_number: 'B-1', part_number: `WO-${a.slice(-6)}` }],
      });
      const available = await s.api('GET', '/maintenance/inventory/available.json', { token });
      expect(available.body.items.some((i: any) => i.id === part.body.id)).toBe(false);

      const bad = await s.api('POST', '/maintenance/jobs/work_orders/edit.json', {
        token,
        body: { WorkOrder: { id: wo.body.id, status: 'finished' } },
      });
      expect(bad.status).toBe(400);
      const started = await s.api('POST', '/maintenance/jobs/work_orders/edit.json', {
        token,
        body: { WorkOrder: { id: wo.body.id, status: 'in_progress' } },
      });
      expect(started.status).toBe(200);
      expect((await view(job)).Job.status).toBe('IN_PROGRESS');
      await s.api('POST', '/maintenance/jobs/work_orders/edit.json', {
        token,
        body: { WorkOrder: { id: wo.body.id, status: 'done', remarks: 'Tested OK' } },
      });
      v = await view(job);
      expect(v.WorkOrder[0]).toMatchObject({ status: 'done', remarks: 'Tested OK', completed_by: mech });
      expect(
        (
          await s.api('POST', '/maintenance/jobs/work_orders/edit.json', {
            token: await t('pilot@skyline.test'),
            body: { WorkOrder: { id: wo.body.id, status: 'pending' } },
          })
        ).status,
      ).toBe(403);

      // Deleting the job puts the unit back and detaches its reports.
      const r1 = await report(a);
      await s.api('POST', '/maintenance/jobs/link_reports.json', {
        token,
        body: { job_id: job, aircraft_report_ids: [r1] },
      });
      expect((await s.api('POST', `/maintenance/jobs/delete/${job}.json`, { token })).status).toBe(200);
      expect((await reportRow(r1)).maintenance_job_id).toBeNull();
      expect(
        (await s.api('GET', '/maintenance/inventory/available.json', { token })).body.items.some(
          (i: any) => i.id === part.body.id,
        ),
      ).toBe(true);
      expect((await s.api('GET', `/maintenance/jobs/view/${job}.json`, { token })).status).toBe(404);
    });

    it('edits an open job and lists jobs with filters and pagination in SQL', async () => {
      const a = await plane();
      const token = await t('mechanic@skyline.test');
      const now = Math.floor(Date.now() / 1000);
      const ids: string[] = [];
      for (let i = 0; i < 5; i++)
        ids.push((await create({ aircraft_id: a, name: `Job ${i}`, start: now + (5 - i) * 86400 })).body.id);
      const edit = await s.api('POST', `/maintenance/jobs/edit/${ids[0]}.json`, {
        token,
        body: { Job: { name: 'Job zero', start: now + 100 * 86400 } },
      });
      expect(edit.status).toBe(200);
      await sign(ids[4]);
      expect(
        (await s.api('POST', `/maintenance/jobs/edit/${ids[4]}.json`, { token, body: { Job: { name: 'late' } } }))
          .status,
      ).toBe(400);
      const open = await s.api('GET', `/maintenance/jobs/index.json?aircraft_id=${a}&status=open&limit=2`, { token });
      expect(open.body.jobs.map((j: any) => j.Job.name)).toEqual(['Job 3', 'Job 2']);
      expect(open.body.paginate).toMatchObject({ count: 4, limit: 2, pageCount: 2, nextPage: true });
      const page2 = await s.api('GET', `/maintenance/jobs/index.json?aircraft_id=${a}&status=open&limit=2&page=2`, {
        token,
      });
      expect(page2.body.jobs.map((j: any) => j.Job.name)).toEqual(['Job 1', 'Job zero']);
      const done = await s.api('GET', `/maintenance/jobs/index.json?aircraft_id=${a}&status=completed`, { token });
      expect(done.body.jobs.map((j: any) => j.Job.id)).toEqual([ids[4]]);
      expect(done.body.jobs[0]).toMatchObject({ Aircraft: { id: a }, report_count: 0, work_order_count: 0 });
      expect((await s.api('GET', '/maintenance/jobs/index.json?status=maybe', { token })).status).toBe(400);
      const q1 = await countQueries(s, () =>
        s.api('GET', `/maintenance/jobs/index.json?aircraft_id=${a}&limit=1`, { token }),
      );
      const q5 = await countQueries(s, () =>
        s.api('GET', `/maintenance/jobs/index.json?aircraft_id=${a}&limit=5`, { token }),
      );
      expect(q1).toBeGreaterThanOrEqual(3);
      expect(q5).toBe(q1);
    });
  });

  describe('offline', () => {
    it('replicates jobs with their work orders; a mechanic moves a work order on from a device', async () => {
      const a = await plane();
      const p = await plan({
        MaintenancePlan: { name: 'Sync check', programme_name: 'Sync AMP' },
        Aircraft: { Aircraft: [a] },
        PlanWorkOrder: [{ name: 'Step 1' }, { name: 'Step 2' }],
      });
      const job = (await create({ aircraft_id: a, maintenance_plan_id: p })).body.id;
      const token = await t('mechanic@skyline.test');
      const { docs } = await pullAll(s, token, 'maintenance_jobs');
      const doc = docs.find((d) => d.id === job);
      expect(doc.WorkOrder.map((w: any) => w.name)).toEqual(['Step 1', 'Step 2']);
      const next = {
        ...doc,
        WorkOrder: doc.WorkOrder.map((w: any, i: number) => (i === 0 ? { ...w, status: 'done' } : w)),
      };
      const r = await push(s, token, 'maintenance_jobs', [{ assumedMasterState: doc, newDocumentState: next }]);
      expect(r.status).toBe(200);
      const v = await view(job);
      expect(v.WorkOrder.map((w: any) => w.status)).toEqual(['done', 'pending']);
      expect(v.Job.status).toBe('IN_PROGRESS');
      // A pilot's device cannot change jobs.
      const pilot = await t('pilot@skyline.test');
      const fresh = (await pullAll(s, pilot, 'maintenance_jobs')).docs.find((d) => d.id === job);
      await push(s, pilot, 'maintenance_jobs', [
        { assumedMasterState: fresh, newDocumentState: { ...fresh, name: 'hijack' } },
      ]);
      expect((await view(job)).Job.name).toBe('Sync check');
      // A device may create a job for an aircraft; the server decides the rest.
      const id = uuidv7();
      await push(s, token, 'maintenance_jobs', [
        {
          assumedMasterState: null,
          newDocumentState: {
            id,
            aircraft_id: a,
            name: 'Found on walkaround',
            status: 'OPEN',
            crs_signed: false,
            WorkOrder: [],
            created: 0,
            modified: 0,
            repeat: 'NEVER',
          },
        },
      ]);
      expect((await view(id)).Job).toMatchObject({ name: 'Found on walkaround', user_id: mech });
    });
  });
});
