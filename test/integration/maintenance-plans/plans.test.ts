import { uuidv7 } from '@ops/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { countQueries, setPlan, tokens } from '../aircraft-reports/fleet-helpers.ts';

/** Part B 2.4 and 4.3: plan actions, programmes, aircraft links, templates, order, scheduling views. */
describe.each(DIALECTS)('maintenance plans on %s', (dialect) => {
  let s: TestServer;
  const t = tokens(() => s);
  let n = 0;
  beforeAll(async () => {
    s = await startTestServer(dialect);
  });
  afterAll(() => s?.close());

  const plane = async () => {
    n += 1;
    const r = await s.api('POST', '/manager/aircraft/add.json', {
      token: await t('admin@skyline.test'),
      body: { Aircraft: { registration: `EC-P${String(n).padStart(2, '0')}`, model_name: 'Cessna 172S' } },
    });
    return r.body.id as string;
  };
  const edit = async (body: unknown, email = 'ops@skyline.test') =>
    s.api('POST', '/maintenance/plans/edit.json', { token: await t(email), body });
  const view = async (id: string) =>
    s.api('GET', `/maintenance/plans/view/${id}.json`, { token: await t('pilot@skyline.test') });
  const counts = async () => ({
    plans: Number(
      (
        await s.ctx.db
          .selectFrom('maintenance_plans')
          .select((eb) => eb.fn.countAll<number>().as('c'))
          .executeTakeFirstOrThrow()
      ).c,
    ),
    programmes: Number(
      (
        await s.ctx.db
          .selectFrom('maintenance_programmes')
          .select((eb) => eb.fn.countAll<number>().as('c'))
          .executeTakeFirstOrThrow()
      ).c,
    ),
    templates: Number(
      (
        await s.ctx.db
          .selectFrom('plan_work_orders')
          .select((eb) => eb.fn.countAll<number>().as('c'))
          .executeTakeFirstOrThrow()
      ).c,
    ),
  });

  it('needs credentials and a premium or unlimited plan', async () => {
    for (const [m, p] of [
      ['POST', '/maintenance/plans/index.json'],
      ['GET', '/maintenance/plans/view/x.json'],
      ['POST', '/maintenance/plans/edit.json'],
      ['GET', '/maintenance/plans/delete/x.json'],
      ['POST', '/maintenance/plans/reorder.json'],
      ['GET', '/maintenance/plans/for_aircraft/x.json'],
      ['GET', '/maintenance/plans/assigned/x.json'],
      ['GET', '/maintenance/plans/programmes.json'],
    ] as const) {
      expect((await s.api(m, p, { body: m === 'POST' ? {} : undefined })).status, p).toBe(401);
      expect(
        (await s.api(m, p, { token: await t('admin@harbor.test'), body: m === 'POST' ? {} : undefined })).status,
        p,
      ).toBe(403);
    }
    await setPlan(s, 'harbor', 'unlimited');
    try {
      expect(
        (await s.api('GET', '/maintenance/plans/programmes.json', { token: await t('admin@harbor.test') })).status,
      ).toBe(200);
    } finally {
      await setPlan(s, 'harbor', 'free');
    }
  });

  it('lets roles 1, 100, 105, 110 and 300 edit, delete and reorder; other roles read', async () => {
    const before = await counts();
    for (const email of [
      'pilot@skyline.test',
      'dispatch@skyline.test',
      'headtraining@skyline.test',
      'student@skyline.test',
    ]) {
      expect((await edit({ MaintenancePlan: { name: 'x', programme_name: 'P' } }, email)).status, email).toBe(403);
      expect(
        (await s.api('POST', '/maintenance/plans/reorder.json', { token: await t(email), body: { order: [uuidv7()] } }))
          .status,
      ).toBe(403);
      expect((await s.api('GET', `/maintenance/plans/delete/${uuidv7()}.json`, { token: await t(email) })).status).toBe(
        403,
      );
      expect((await s.api('POST', '/maintenance/plans/index.json', { token: await t(email), body: {} })).status).toBe(
        200,
      );
    }
    expect(await counts()).toEqual(before);
    for (const email of [
      'root@skyline.test',
      'admin@skyline.test',
      'ops@skyline.test',
      'safety@skyline.test',
      'mechanic@skyline.test',
    ]) {
      expect(
        (await edit({ MaintenancePlan: { name: `By ${email}`, programme_name: 'Roles AMP' } }, email)).status,
        email,
      ).toBe(200);
    }
  });

  describe('edit', () => {
    it('creates an action with a new programme, aircraft and templates in submitted order (form fields)', async () => {
      const a = await plane();
      const b = await plane();
      const r = await s.api('POST', '/maintenance/plans/edit.json', {
        token: await t('ops@skyline.test'),
        form: {
          'data[MaintenancePlan][name]': '100 h inspection',
          'data[MaintenancePlan][description]': 'Annual or 100 h',
          'data[MaintenancePlan][hours_interval]': '100.5',
          'data[MaintenancePlan][landings_interval]': '300',
          'data[MaintenancePlan][repeat]': 'YEAR',
          'data[MaintenancePlan][programme_name]': 'Form AMP',
          'data[Aircraft][Aircraft][0]': a,
          'data[Aircraft][Aircraft][1]': b,
          'data[PlanWorkOrder][0][name]': 'Airframe',
          'data[PlanWorkOrder][0][ata]': '05',
          'data[PlanWorkOrder][0][time]': '6.5',
          'data[PlanWorkOrder][1][name]': '',
          'data[PlanWorkOrder][1][description]': 'no name: skipped',
          'data[PlanWorkOrder][2][name]': 'Engine',
          'data[PlanWorkOrder][2][time]': '2',
        },
      });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ result: true, message: expect.any(String) });
      const p = r.body.plan;
      expect(p.MaintenancePlan).toMatchObject({
        name: '100 h inspection',
        description: 'Annual or 100 h',
        hours_interval: 100.5,
        landings_interval: 300,
        repeat: 'YEAR',
        user_id: s.userId('ops@skyline.test'),
      });
      expect(p.MaintenanceProgramme).toMatchObject({ name: 'Form AMP' });
      expect(p.Aircraft.map((x: any) => x.id).sort()).toEqual([a, b].sort());
      expect(p.PlanWorkOrder.map((w: any) => [w.name, w.ata, w.time, w.sort_order])).toEqual([
        ['Airframe', '05', 6.5, 0],
        ['Engine', null, 2, 1],
      ]);
      expect((await view(p.MaintenancePlan.id)).body.MaintenancePlan.id).toBe(p.MaintenancePlan.id);
    });

    it('reuses a same-named programme (case-insensitive) and a valid programme id', async () => {
      const first = await edit({ MaintenancePlan: { name: 'A1', programme_name: 'Reuse AMP' } });
      const second = await edit({ MaintenancePlan: { name: 'A2', programme_name: '  reuse amp ' } });
      const pid = first.body.plan.MaintenanceProgramme.id;
      expect(second.body.plan.MaintenanceProgramme.id).toBe(pid);
      const third = await edit({ MaintenancePlan: { name: 'A3', maintenance_programme_id: pid } });
      expect(third.body.plan.MaintenanceProgramme.id).toBe(pid);
      const progs = await s.api('GET', '/maintenance/plans/programmes.json', { token: await t('pilot@skyline.test') });
      expect(progs.body.programmes.find((p: any) => p.id === pid)).toMatchObject({ name: 'Reuse AMP', plan_count: 3 });
    });

    it('fails with a maintenance_programme_id error when neither the id nor a name resolves; an invalid or foreign id counts as empty', async () => {
      await setPlan(s, 'harbor', 'premium');
      let foreign = '';
      try {
        const h = await s.api('POST', '/maintenance/plans/edit.json', {
          token: await t('admin@harbor.test'),
          body: { MaintenancePlan: { name: 'Harbor', programme_name: 'Harbor AMP' } },
        });
        foreign = h.body.plan.MaintenanceProgramme.id;
      } finally {
        await setPlan(s, 'harbor', 'free');
      }
      const before = await counts();
      for (const mp of [
        {},
        { maintenance_programme_id: 'nope' },
        { maintenance_programme_id: foreign },
        { programme_name: '   ' },
      ]) {
        const r = await edit({ MaintenancePlan: { name: 'No programme', ...mp }, PlanWorkOrder: [{ name: 'T' }] });
        expect(r.status).toBe(400);
        expect(r.body.result).toBe(false);
        expect(r.body.errors.maintenance_programme_id).toBeDefined();
      }
      // A foreign id with a name falls back to the name (in this company).
      const named = await edit({
        MaintenancePlan: { name: 'Fallback', maintenance_programme_id: foreign, programme_name: 'Own AMP' },
      });
      expect(named.status).toBe(200);
      expect(named.body.plan.MaintenanceProgramme.name).toBe('Own AMP');
      expect(named.body.plan.MaintenanceProgramme.id).not.toBe(foreign);
      const after = await counts();
      expect(after.plans).toBe(before.plans + 1);
      expect(after.programmes).toBe(before.programmes + 1);
    });

    it('validates the whole save before writing anything', async () => {
      const a = await plane();
      const before = await counts();
      const r = await edit({
        MaintenancePlan: { name: 'Bad', programme_name: 'Never created AMP', repeat: 'HOURLY', hours_interval: '-1' },
        Aircraft: { Aircraft: [a, uuidv7()] },
        PlanWorkOrder: [{ name: 'x', time: 'long' }],
      });
      expect(r.status).toBe(400);
      expect(Object.keys(r.body.errors).sort()).toEqual([
        'Aircraft',
        'PlanWorkOrder.0.time',
        'hours_interval',
        'repeat',
      ]);
      expect(await counts()).toEqual(before);
      expect((await edit({ MaintenancePlan: { programme_name: 'X' } })).body.errors.name).toBeDefined();
    });

    it('replaces the aircraft set only when posted, and an empty set unassigns', async () => {
      const a = await plane();
      const b = await plane();
      const id = (
        await edit({ MaintenancePlan: { name: 'Links', programme_name: 'Links AMP' }, Aircraft: { Aircraft: [a] } })
      ).body.plan.MaintenancePlan.id;
      const ids = async () => (await view(id)).body.Aircraft.map((x: any) => x.id).sort();
      await edit({ MaintenancePlan: { id, description: 'no aircraft key' } });
      expect(await ids()).toEqual([a]);
      await edit({ MaintenancePlan: { id }, Aircraft: { Aircraft: [b] } });
      expect(await ids()).toEqual([b]);
      const r = await s.api('POST', '/maintenance/plans/edit.json', {
        token: await t('ops@skyline.test'),
        form: { 'data[MaintenancePlan][id]': id, 'data[Aircraft][Aircraft]': '' },
      });
      expect(r.status).toBe(200);
      expect(await ids()).toEqual([]);
      expect((await view(id)).body.MaintenancePlan.description).toBe('no aircraft key');
    });

    it('saves templates in submitted order, updates rows by id and deletes rows not sent', async () => {
      const id = (
        await edit({
          MaintenancePlan: { name: 'Tpl', programme_name: 'Tpl AMP' },
          PlanWorkOrder: [{ name: 'One' }, { name: 'Two' }, { name: 'Three' }],
        })
      ).body.plan.MaintenancePlan.id;
      const rows = (await view(id)).body.PlanWorkOrder;
      const [one, two, three] = rows;
      const r = await edit({
        MaintenancePlan: { id },
        PlanWorkOrder: [
          { id: three.id, name: 'Three (first now)', time: 1 },
          { name: 'New' },
          { id: one.id, name: 'One' },
          { id: uuidv7(), name: 'Foreign id' },
        ],
      });
      expect(r.status).toBe(200);
      const after = (await view(id)).body.PlanWorkOrder;
      expect(after.map((w: any) => w.name)).toEqual(['Three (first now)', 'New', 'One', 'Foreign id']);
      expect(after[0].id).toBe(three.id);
      expect(after[2].id).toBe(one.id);
      expect(after.some((w: any) => w.id === two.id)).toBe(false);
      await edit({ MaintenancePlan: { id, name: 'Tpl renamed' } });
      expect((await view(id)).body.PlanWorkOrder).toHaveLength(4);
    });

    it('answers 404 for editing, viewing or deleting another company’s action', async () => {
      await setPlan(s, 'harbor', 'premium');
      try {
        const id = (await edit({ MaintenancePlan: { name: 'Skyline action', programme_name: 'Iso AMP' } })).body.plan
          .MaintenancePlan.id;
        const harbor = await t('admin@harbor.test');
        expect((await s.api('GET', `/maintenance/plans/view/${id}.json`, { token: harbor })).status).toBe(404);
        expect(
          (
            await s.api('POST', '/maintenance/plans/edit.json', {
              token: harbor,
              body: { MaintenancePlan: { id, name: 'hacked', programme_name: 'x' } },
            })
          ).status,
        ).toBe(404);
        expect((await s.api('GET', `/maintenance/plans/delete/${id}.json`, { token: harbor })).status).toBe(404);
        expect(
          (await s.api('GET', `/maintenance/plans/for_aircraft/${s.refs.aircraft['EC-ABC']}.json`, { token: harbor }))
            .status,
        ).toBe(404);
        expect(
          (await s.api('GET', `/maintenance/plans/assigned/${s.refs.aircraft['EC-ABC']}.json`, { token: harbor }))
            .status,
        ).toBe(404);
        const linkForeign = await s.api('POST', '/maintenance/plans/edit.json', {
          token: harbor,
          body: {
            MaintenancePlan: { name: 'x', programme_name: 'x' },
            Aircraft: { Aircraft: [s.refs.aircraft['EC-ABC']] },
          },
        });
        expect(linkForeign.status).toBe(400);
        expect(
          (await s.api('POST', '/maintenance/plans/reorder.json', { token: harbor, body: { order: [id] } })).body.count,
        ).toBe(0);
        expect((await view(id)).body.MaintenancePlan.name).toBe('Skyline action');
      } finally {
        await setPlan(s, 'harbor', 'free');
      }
    });
  });

  describe('order, delete and per-aircraft views', () => {
    it('reorders, soft-deletes keeping jobs, and derives next_plan_id and open_plan_ids', async () => {
      const a = await plane();
      const mk = async (name: string, repeat = 'NEVER') =>
        (
          await edit({
            MaintenancePlan: { name, repeat, programme_name: 'Order AMP', hours_interval: 50 },
            Aircraft: { Aircraft: [a] },
          })
        ).body.plan.MaintenancePlan.id as string;
      const p1 = await mk('P1');
      const p2 = await mk('P2', 'MONTH');
      const p3 = await mk('P3');
      const unlinked = (await edit({ MaintenancePlan: { name: 'Elsewhere', programme_name: 'Order AMP' } })).body.plan
        .MaintenancePlan.id;
      const pilot = await t('pilot@skyline.test');
      const forA = async () => (await s.api('GET', `/maintenance/plans/for_aircraft/${a}.json`, { token: pilot })).body;

      let fa = await forA();
      expect(fa.plans.map((p: any) => p.MaintenancePlan.name)).toEqual(['P1', 'P2', 'P3']);
      expect(fa).toMatchObject({ next_plan_id: p1, open_plan_ids: [] });

      const ro = await s.api('POST', '/maintenance/plans/reorder.json', {
        token: await t('mechanic@skyline.test'),
        body: { order: [p3, p1, p2, uuidv7()] },
      });
      expect(ro.body).toMatchObject({ result: true, count: 3 });
      expect((await forA()).plans.map((p: any) => p.MaintenancePlan.name)).toEqual(['P3', 'P1', 'P2']);
      const idx = await s.api('POST', '/maintenance/plans/index.json', { token: pilot, body: { aircraft: a } });
      expect(idx.body.plans.map((p: any) => p.MaintenancePlan.id)).toEqual([p3, p1, p2]);
      expect(idx.body.plans[0]).toMatchObject({
        Aircraft: [{ id: a }],
        MaintenanceProgramme: { name: 'Order AMP' },
        PlanWorkOrder: [],
      });
      // One query each for actions, aircraft links, programmes and templates, whatever the number of actions.
      const few = await countQueries(s, () =>
        s.api('POST', '/maintenance/plans/index.json', { token: pilot, body: { aircraft: a } }),
      );
      const many = await countQueries(s, () =>
        s.api('POST', '/maintenance/plans/index.json', { token: pilot, body: {} }),
      );
      expect(few).toBeGreaterThanOrEqual(4);
      expect(many).toBe(few);
      const all = await s.api('POST', '/maintenance/plans/index.json', { token: pilot, body: {} });
      expect(all.body.plans.map((p: any) => p.MaintenancePlan.id)).toContain(unlinked);

      const mech = await t('mechanic@skyline.test');
      const job1 = (
        await s.api('POST', '/maintenance/jobs/create.json', {
          token: mech,
          body: { Job: { aircraft_id: a, maintenance_plan_id: p1 } },
        })
      ).body.id;
      fa = await forA();
      expect(fa.open_plan_ids).toEqual([p1]);
      expect(fa.next_plan_id).toBe(p3);
      await s.api('POST', `/maintenance/jobs/sign_crs/${job1}.json`, { token: mech, body: { password: 'demo1234' } });
      fa = await forA();
      // After P1 (order P3, P1, P2) comes P2, which now has the job the CRS created.
      expect(fa.next_plan_id).toBe(p2);
      expect(fa.open_plan_ids).toEqual([p2]);

      const assigned = await s.api('GET', `/maintenance/plans/assigned/${a}.json`, { token: pilot });
      expect(assigned.body.count).toBe(3);
      expect(assigned.body.plans[0]).toEqual({
        id: p3,
        name: 'P3',
        hours_interval: 50,
        landings_interval: null,
        repeat: 'NEVER',
        maintenance_programme_id: expect.any(String),
        programme_name: 'Order AMP',
      });

      const del = await s.api('GET', `/maintenance/plans/delete/${p1}.json`, { token: mech });
      expect(del.body.result).toBe(true);
      expect((await view(p1)).status).toBe(404);
      expect((await s.api('GET', `/maintenance/plans/delete/${p1}.json`, { token: mech })).status).toBe(404);
      expect((await forA()).plans.map((p: any) => p.MaintenancePlan.name)).toEqual(['P3', 'P2']);
      const job = await s.api('GET', `/maintenance/jobs/view/${job1}.json`, { token: pilot });
      expect(job.body.Job.maintenance_plan_id).toBe(p1);
      const progs = await s.api('GET', '/maintenance/plans/programmes.json', { token: pilot });
      expect(progs.body.programmes.find((p: any) => p.name === 'Order AMP').plan_count).toBe(3);
    });

    it('lists programmes by sort order then name, including empty ones', async () => {
      const now = Math.floor(Date.now() / 1000);
      await s.ctx.db
        .insertInto('maintenance_programmes')
        .values([
          {
            id: uuidv7(),
            company_id: s.refs.companies.skyline,
            name: 'Zz empty',
            sort_order: -1,
            deleted: 0,
            created: now,
            modified: now,
          },
          {
            id: uuidv7(),
            company_id: s.refs.companies.skyline,
            name: 'Aa empty',
            sort_order: -1,
            deleted: 0,
            created: now,
            modified: now,
          },
          {
            id: uuidv7(),
            company_id: s.refs.companies.skyline,
            name: 'Gone',
            sort_order: -1,
            deleted: 1,
            created: now,
            modified: now,
          },
        ])
        .execute();
      const r = await s.api('GET', '/maintenance/plans/programmes.json', { token: await t('pilot@skyline.test') });
      expect(r.body.programmes.slice(0, 2)).toEqual([
        { id: expect.any(String), name: 'Aa empty', plan_count: 0 },
        { id: expect.any(String), name: 'Zz empty', plan_count: 0 },
      ]);
      expect(r.body.programmes.some((p: any) => p.name === 'Gone')).toBe(false);
    });
  });
});
