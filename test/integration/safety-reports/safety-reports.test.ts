import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { rebuildStats } from '../../../server/src/areas/safety-reports/safety-stats.repository.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import {
  auditorToken,
  categoryId,
  countRows,
  createSR,
  crewedFlight,
  notified,
  reportBody,
  setPlan,
  tokens,
} from './safety-helpers.ts';

/** Part B 2.5, 3.3, 4.4, 6, 7: endpoints, access table, numbering, trail, notifications. */
describe.each(DIALECTS)('safety reports on %s', (dialect) => {
  let s: TestServer;
  const t = tokens(() => s);
  let bird: string;
  let airprox: string;
  const uid = (email: string) => s.userId(`${email}@skyline.test`);
  beforeAll(async () => {
    s = await startTestServer(dialect);
    bird = await categoryId(s, 'Bird strike');
    airprox = await categoryId(s, 'Airprox');
  });
  afterAll(() => s?.close());

  const create = async (who: string, over: Record<string, unknown> = {}, flightId?: string) => {
    const r = await createSR(s, await t(`${who}@skyline.test`), reportBody(bird, over), flightId);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body as { id: string; idn: string | null; status: string };
  };
  const view = async (who: string, id: string) =>
    s.api('GET', `/safety_reports/view/${id}.json`, { token: await t(`${who}@skyline.test`) });
  const edit = async (who: string, id: string, fields: Record<string, unknown>, method = 'POST') =>
    s.api(method, `/safety_reports/edit/${id}.json`, {
      token: await t(`${who}@skyline.test`),
      body: { SafetyReport: fields },
    });
  const listIds = async (who: string, named = '') => {
    const r = await s.api('GET', `/safety_reports/index${named}.json`, { token: await t(`${who}@skyline.test`) });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return (r.body.reports as { SafetyReport: { id: string } }[]).map((x) => x.SafetyReport.id);
  };

  describe('gates', () => {
    it('needs credentials on every endpoint', async () => {
      for (const [m, p] of [
        ['GET', '/safety_reports/index.json'],
        ['GET', '/safety_reports/index/excel:true'],
        ['GET', '/safety_reports/view/x.json'],
        ['GET', '/safety_reports/view/x/pdf:true'],
        ['POST', '/safety_reports/create.json'],
        ['POST', '/safety_reports/create/x.json'],
        ['POST', '/safety_reports/edit/x.json'],
        ['PUT', '/safety_reports/edit.json'],
        ['GET', '/safety_reports/delete/x.json'],
        ['GET', '/safety_reports/stats.json'],
        ['GET', '/safety_reports/reports_by_month/6.json'],
        ['GET', '/safety_reports/reports_by_flight_type.json'],
        ['GET', '/safety_reports/reports_by_category.json'],
        ['GET', '/safety_reports/reports_by_severity/year:2026.json'],
        ['GET', '/safety_reports/reports_by_flight_phase.json'],
        ['GET', '/safety_reports/reports_by_department.json'],
        ['GET', '/safety_reports/form_options.json'],
      ] as const) {
        const r = await s.api(m, p, { body: m === 'GET' ? undefined : {} });
        expect(r.status, `${m} ${p}`).toBe(401);
        expect(r.body.result).toBe(false);
      }
      expect((await s.api('GET', '/safety_reports/index/excel:true?token=bogus')).status).toBe(401);
    });

    it('refuses a free-plan company (Harbor) with 403 and writes nothing', async () => {
      const harbor = await t('admin@harbor.test');
      const before = await countRows(s, 'safety_reports');
      for (const p of [
        '/safety_reports/index.json',
        '/safety_reports/stats.json',
        '/safety_reports/form_options.json',
        '/safety_reports/reports_by_category.json',
      ]) {
        const r = await s.api('GET', p, { token: harbor });
        expect(r.status, p).toBe(403);
        expect(r.body.message).toMatch(/plan/);
      }
      expect((await createSR(s, harbor, reportBody(bird))).status).toBe(403);
      expect(await countRows(s, 'safety_reports')).toBe(before);
    });

    it('lets only roles <= 110 delete', async () => {
      const r = await create('pilot');
      for (const who of ['headtraining', 'instructor', 'pilot']) {
        const d = await s.api('GET', `/safety_reports/delete/${r.id}.json`, { token: await t(`${who}@skyline.test`) });
        expect(d.status, who).toBe(403);
      }
      expect((await view('pilot', r.id)).status).toBe(200);
    });
  });

  describe('create', () => {
    it('files as open with a number, the caller as reporter, severity derived, ignored fields ignored', async () => {
      const r = await createSR(
        s,
        await t('pilot@skyline.test'),
        reportBody(bird, {
          user_id: uid('admin'),
          idn: '1999/99999',
          company_id: s.refs.companies.harbor,
          created: 5,
          reported: 7,
          damages: 'important',
          severity: 'incident',
          date: '2026-03-01',
          datetime: undefined,
        }),
      );
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.idn).toMatch(/^\d{4}\/\d{5}$/);
      const v = (await view('pilot', r.body.id)).body;
      const sr = v.report.SafetyReport;
      expect(sr).toMatchObject({
        status: 'open',
        type: 'OCCURRENCE',
        severity: 'accident',
        user_id: uid('pilot'),
        company_id: s.refs.companies.skyline,
        datetime: '2026-03-01 00:00:00',
      });
      expect(sr.idn).toBe(r.body.idn);
      expect(sr.created).toBeGreaterThan(1000);
      expect(sr.reported).toBeGreaterThan(1000);
      expect(v.report.User).toMatchObject({ id: uid('pilot'), name: 'Paula' });
      expect(v.report.SafetyReportCategory.name).toBe('Bird strike');
      expect(v.report.SafetyReportDepartment.name).toBe('Flight Operations');
      expect(v.allowEdit).toBe(true);
      expect(v.report.SafetyReportChange).toBeUndefined();
    });

    it('derives severity: personal damages make an accident; INFORMATION takes hazard or information', async () => {
      const a = await create('pilot', { personal_damages: 'serious' });
      const b = await create('pilot', { type: 'INFORMATION', severity: 'hazard', damages: 'catastrophic' });
      const c = await create('pilot', { type: 'INFORMATION', damages: 'catastrophic' });
      const d = await create('pilot', { damages: 'minimal', personal_damages: 'injuries' });
      const sev = async (id: string) => (await view('pilot', id)).body.report.SafetyReport.severity;
      expect([await sev(a.id), await sev(b.id), await sev(c.id), await sev(d.id)]).toEqual([
        'accident',
        'hazard',
        'information',
        'incident',
      ]);
    });

    it('files anonymously with an empty user_id; the reporter stays hidden in the trail too', async () => {
      const r = await create('pilot', { user_id: '' });
      const v = (await view('safety', r.id)).body;
      expect(v.report.SafetyReport.user_id).toBeNull();
      expect(v.report.User).toBeNull();
      expect(v.report.SafetyReportChange[0]).toMatchObject({ action: 'create', user: null });
      expect(JSON.stringify(v)).not.toContain(uid('pilot'));
      // Still the author's own report: listed and editable for them.
      expect(await listIds('pilot')).toContain(r.id);
      expect((await view('pilot', r.id)).body.allowEdit).toBe(true);
    });

    it('creates on a flight from the path, linking its aircraft and flight crew', async () => {
      const flight = await crewedFlight(s, { pic: uid('student'), supervisor: uid('instructor') });
      const r = await create('student', {}, flight);
      const v = (await view('student', r.id)).body;
      expect(v.report.SafetyReport.flight_id).toBe(flight);
      expect(v.report.Flight).toMatchObject({ id: flight, registration: 'EC-ABC' });
      expect(v.report.Aircraft).toEqual([{ id: s.refs.aircraft['EC-ABC'], registration: 'EC-ABC' }]);
      expect(await listIds('student', `/${flight}`)).toEqual([r.id]);
    });

    it('refuses bad input with a clear 400 and writes nothing', async () => {
      const token = await t('pilot@skyline.test');
      const harborCat = await (s.ctx.db as any)
        .insertInto('safety_report_categories')
        .values({
          id: 'harbor-cat',
          company_id: s.refs.companies.harbor,
          safety_report_department_id: 'x',
          name: 'Theirs',
          deleted: 0,
          created: 1,
          modified: 1,
        })
        .execute();
      expect(harborCat).toBeDefined();
      const before = await countRows(s, 'safety_reports');
      const trail = await countRows(s, 'safety_report_changes');
      const cases: [Record<string, unknown>, string][] = [
        [{ safety_report_category_id: 'nope' }, 'safety_report_category_id'],
        [{ safety_report_category_id: 'harbor-cat' }, 'safety_report_category_id'],
        [{ datetime: '2026-13-40 25:00' }, 'datetime'],
        [{ datetime: 'yesterday' }, 'datetime'],
        [{ events: 'x'.repeat(20001) }, 'events'],
        [{ corrective_measures: 'x'.repeat(20001) }, 'corrective_measures'],
        [{ name: 'x'.repeat(256) }, 'name'],
        [{ flight_phase: 'XXX' }, 'flight_phase'],
        [{ severity: 'catastrophe' }, 'severity'],
        [{ damages: 'some' }, 'damages'],
        [{ risk_probability: 'often' }, 'risk_probability'],
        [{ status: 'closed' }, 'status'],
        [{ type: 'RUMOUR' }, 'type'],
        [{ name: '' }, 'name'],
        [{ location: undefined }, 'location'],
        [{ flight_id: 'no-such-flight' }, 'flight_id'],
        [{ parent_id: 'no-such-report' }, 'parent_id'],
        [{ Aircraft: [{ id: s.refs.aircraft.N123HA }] }, 'Aircraft'],
        [{ crew: [s.userId('pilot@harbor.test', 'harbor')] }, 'crew'],
      ];
      for (const [over, field] of cases) {
        const r = await createSR(s, token, reportBody(bird, over));
        expect(r.status, JSON.stringify(over).slice(0, 80)).toBe(400);
        expect(r.body.result).toBe(false);
        expect(Object.keys(r.body.errors), JSON.stringify(r.body)).toContain(field);
        expect(r.body.message).toContain(field);
      }
      expect(await countRows(s, 'safety_reports')).toBe(before);
      expect(await countRows(s, 'safety_report_changes')).toBe(trail);
    });
  });

  describe('access table', () => {
    let other: { id: string };
    let crewed: { id: string };
    let published: { id: string };
    let reviewed: { id: string };
    beforeAll(async () => {
      other = await create('mechanic');
      const flight = await crewedFlight(s, { pic: uid('ops'), sic: uid('dispatch') });
      crewed = await create('ops', {}, flight);
      published = await create('mechanic');
      expect((await edit('safety', published.id, { status: 'published' })).status).toBe(200);
      reviewed = await create('mechanic');
      expect((await edit('safety', reviewed.id, { reviewer_id: uid('ground') })).status).toBe(200);
      const rv = await edit('safety', reviewed.id, { reviewer_id: uid('dispatch') });
      expect(rv.status).toBe(200);
    });

    it('roles <= 150 view all non-drafts; above 150 own, crewed, reviewed and published only', async () => {
      for (const who of ['admin', 'safety', 'headtraining', 'ground', 'instructor']) {
        const ids = await listIds(who, '/limit:100');
        expect(ids, who).toEqual(expect.arrayContaining([other.id, crewed.id, published.id, reviewed.id]));
        expect((await view(who, other.id)).status).toBe(200);
      }
      const dispatch = await listIds('dispatch', '/limit:100');
      expect(dispatch).toEqual(expect.arrayContaining([crewed.id, published.id, reviewed.id]));
      expect(dispatch).not.toContain(other.id);
      expect((await view('dispatch', other.id)).status).toBe(404);
      const student = await listIds('student', '/limit:100');
      expect(student).toContain(published.id);
      expect(student).not.toContain(crewed.id);
      expect((await view('student', crewed.id)).status).toBe(404);
      const auditor = await auditorToken(s);
      const a = await s.api('GET', '/safety_reports/index/limit:100.json', { token: auditor });
      expect(a.body.reports.map((x: any) => x.SafetyReport.id)).toEqual([published.id]);
    });

    it('crew views without edit; the assigned reviewer and managers edit; 111-150 edit only their own', async () => {
      const dispatchView = (await view('dispatch', crewed.id)).body;
      expect(dispatchView.allowEdit).toBe(false);
      const refused = await edit('dispatch', crewed.id, { name: 'Mine now' });
      expect(refused.status).toBe(403);
      expect(refused.body.message).toMatch(/not authorized to edit/);
      const ground = await edit('ground', other.id, { name: 'Renamed' });
      expect(ground.status).toBe(403);
      expect(ground.body.message).toMatch(/not authorized to edit/);
      expect((await view('ground', other.id)).body.allowEdit).toBe(false);
      expect((await view('dispatch', reviewed.id)).body.allowEdit).toBe(true);
      expect((await edit('dispatch', reviewed.id, { reviewer_outcome: 'Checked with the tower' })).status).toBe(200);
      expect((await view('mechanic', reviewed.id)).body.report.SafetyReport.reviewer_outcome).toBe(
        'Checked with the tower',
      );
      // A non-manager author cannot publish or assign a reviewer.
      const pub = await edit('mechanic', other.id, { status: 'published' });
      expect(pub.status).toBe(403);
      await edit('mechanic', other.id, { reviewer_id: uid('mechanic') });
      expect((await view('mechanic', other.id)).body.report.SafetyReport.reviewer_id).toBeNull();
    });

    it('a non-creator editor cannot change events or actions', async () => {
      const r = await create('pilot', { actions: 'Went around' });
      const e = await edit('safety', r.id, { events: 'Rewritten', actions: 'Rewritten', location: 'LELL' });
      expect(e.status).toBe(200);
      const sr = (await view('safety', r.id)).body.report.SafetyReport;
      expect(sr).toMatchObject({
        events: 'A flock of birds crossed the approach path.',
        actions: 'Went around',
        location: 'LELL',
      });
      expect((await edit('pilot', r.id, { events: 'Birds, then more birds' })).status).toBe(200);
      expect((await view('safety', r.id)).body.report.SafetyReport.events).toBe('Birds, then more birds');
    });

    it('edit takes PUT, SafetyReport.id, `date`, and ignores user_id, idn, company_id, created, deleted, reported', async () => {
      const r = await create('pilot');
      const before = (await view('pilot', r.id)).body.report.SafetyReport;
      const put = await s.api('PUT', '/safety_reports/edit.json', {
        token: await t('pilot@skyline.test'),
        body: {
          SafetyReport: {
            id: r.id,
            date: '2026-02-02T08:00:00+01:00',
            user_id: uid('admin'),
            idn: 'X',
            company_id: 'y',
            created: 1,
            deleted: 1,
            reported: 2,
          },
        },
      });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      const after = (await view('pilot', r.id)).body.report.SafetyReport;
      expect(after).toMatchObject({
        datetime: '2026-02-02 07:00:00',
        user_id: uid('pilot'),
        idn: before.idn,
        company_id: before.company_id,
        created: before.created,
        deleted: false,
        reported: before.reported,
      });
      expect(
        (
          await s.api('POST', '/safety_reports/edit.json', {
            token: await t('pilot@skyline.test'),
            body: { SafetyReport: { name: 'x' } },
          })
        ).status,
      ).toBe(400);
    });
  });

  describe('drafts', () => {
    it('are private to their author everywhere and notify nobody', async () => {
      const d = await create('instructor', { status: 'draft', crew: [uid('pilot')] });
      expect(d.idn).toBeNull();
      expect(d.status).toBe('draft');
      expect(await notified(s, d.id)).toEqual([]);
      for (const who of ['admin', 'safety', 'pilot']) {
        expect((await view(who, d.id)).status, who).toBe(404);
        expect(await listIds(who, '/limit:100')).not.toContain(d.id);
        expect((await edit(who, d.id, { name: 'x' })).status).toBe(404);
      }
      expect(
        (await s.api('GET', `/safety_reports/delete/${d.id}.json`, { token: await t('admin@skyline.test') })).status,
      ).toBe(404);
      expect(await listIds('instructor', '/limit:100/status:draft')).toEqual([d.id]);
      // Edited and still a draft: silent.
      expect((await edit('instructor', d.id, { name: 'Still drafting' })).status).toBe(200);
      expect(await notified(s, d.id)).toEqual([]);
    });

    it('draft to open assigns the number, notifies crew and managers once, logs submit', async () => {
      const d = await create('instructor', { status: 'draft', crew: [uid('pilot')] });
      const e = await edit('instructor', d.id, { status: 'open' });
      expect(e.status).toBe(200);
      expect(e.body.idn).toMatch(/^\d{4}\/\d{5}$/);
      const first = await notified(s, d.id);
      const recipients = first.map((n) => n.user_id).sort();
      expect(recipients).toEqual(
        [uid('pilot'), uid('admin'), uid('ops'), uid('safety'), s.userId('root@skyline.test')].sort(),
      );
      expect(first[0].title).toContain(e.body.idn);
      const v = (await view('safety', d.id)).body;
      expect(v.report.SafetyReportChange.map((c: any) => c.action)).toEqual(['submit', 'create']);
      expect(v.report.SafetyReportChange[0].fields.find((f: any) => f.field === 'status')).toMatchObject({
        from: 'draft',
        to: 'open',
        from_label: 'Draft',
        to_label: 'Open',
      });
      // Submitting again is not possible, and a later edit sends edit notifications, not creation ones.
      expect((await edit('instructor', d.id, { status: 'draft' })).status).toBe(400);
      await edit('instructor', d.id, { location: 'LELL' });
      const all = await notified(s, d.id);
      expect(all.filter((n) => n.title.startsWith(`Safety report ${e.body.idn}:`))).toHaveLength(first.length);
    });

    it('a manager cannot submit someone else’s draft (it is invisible to them)', async () => {
      const d = await create('pilot', { status: 'draft' });
      expect((await edit('admin', d.id, { status: 'open' })).status).toBe(404);
      expect((await view('pilot', d.id)).body.report.SafetyReport.status).toBe('draft');
    });
  });

  describe('notifications', () => {
    it('create as open notifies the crew and all managers, not the reporter', async () => {
      const r = await create('safety', { crew: [uid('student'), uid('instructor')] });
      const to = (await notified(s, r.id)).map((n) => n.user_id).sort();
      expect(to).toEqual(
        [uid('student'), uid('instructor'), uid('admin'), uid('ops'), s.userId('root@skyline.test')].sort(),
      );
    });

    it('an edit of a non-draft notifies managers and the owner with old and new status', async () => {
      const r = await create('pilot');
      expect((await edit('safety', r.id, { status: 'reviewed' })).status).toBe(200);
      const news = (await notified(s, r.id)).filter((n) => n.title.includes('updated'));
      expect(news.map((n) => n.user_id).sort()).toEqual(
        [uid('pilot'), uid('admin'), uid('ops'), s.userId('root@skyline.test')].sort(),
      );
      expect(news[0].title).toContain('Open → Reviewed');
      expect(news[0].body).toMatch(/from Open to Reviewed/);
    });
  });

  describe('numbering', () => {
    it('assigns YYYY/NNNNN without gaps or repeats under parallel submissions', async () => {
      const token = await t('pilot@skyline.test');
      const drafts = await Promise.all(
        Array.from({ length: 6 }, () => createSR(s, token, reportBody(bird, { status: 'draft' }))),
      );
      const results = await Promise.all([
        ...Array.from({ length: 14 }, () => createSR(s, token, reportBody(bird))),
        ...drafts.map((d) =>
          s.api('POST', `/safety_reports/edit/${d.body.id}.json`, {
            token,
            body: { SafetyReport: { status: 'open' } },
          }),
        ),
        // Failing submissions in the same burst take no number.
        ...Array.from({ length: 4 }, () => createSR(s, token, reportBody('nope'))),
      ]);
      expect(results.filter((r) => r.status === 200)).toHaveLength(20);
      const rows = await (s.ctx.db as any)
        .selectFrom('safety_reports')
        .select(['idn', 'idn_year', 'idn_seq'])
        .where('company_id', '=', s.refs.companies.skyline)
        .where('idn_seq', 'is not', null)
        .execute();
      const year = new Date().getUTCFullYear();
      const seqs = rows.map((r: any) => Number(r.idn_seq)).sort((a: number, b: number) => a - b);
      expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
      for (const r of rows) expect(r.idn).toBe(`${year}/${String(r.idn_seq).padStart(5, '0')}`);
    });

    it('numbers children parentIdn-N, lists only top level, deletes children with the parent', async () => {
      const parent = await create('pilot');
      const token = await t('pilot@skyline.test');
      const kids = await Promise.all(
        [1, 2, 3].map(() => createSR(s, token, reportBody(bird, { parent_id: parent.id }))),
      );
      expect(kids.map((k) => k.body.idn).sort()).toEqual([`${parent.idn}-1`, `${parent.idn}-2`, `${parent.idn}-3`]);
      const ids = await listIds('safety', '/limit:100');
      expect(ids).toContain(parent.id);
      for (const k of kids) expect(ids).not.toContain(k.body.id);
      const v = (await view('safety', parent.id)).body;
      expect(v.report.Children.map((c: any) => c.idn)).toEqual([
        `${parent.idn}-1`,
        `${parent.idn}-2`,
        `${parent.idn}-3`,
      ]);
      const grandchild = await createSR(s, token, reportBody(bird, { parent_id: kids[0].body.id }));
      expect(grandchild.status).toBe(400);
      const del = await s.api('GET', `/safety_reports/delete/${parent.id}.json`, {
        token: await t('safety@skyline.test'),
      });
      expect(del.status).toBe(200);
      expect(del.body.deleted).toBe(4);
      for (const id of [parent.id, ...kids.map((k) => k.body.id)]) {
        expect((await view('safety', id)).status).toBe(404);
        const trail = await (s.ctx.db as any)
          .selectFrom('safety_report_changes')
          .select('action')
          .where('safety_report_id', '=', id)
          .where('action', '=', 'delete')
          .execute();
        expect(trail).toHaveLength(1);
      }
      expect(await listIds('safety', '/limit:100')).not.toContain(parent.id);
    });
  });

  describe('audit trail', () => {
    it('logs tracked fields with labels, narratives as sizes, sets as id arrays; nothing for markup or untracked moves', async () => {
      const r = await create('safety', { events: '<p>Short</p>', crew: [uid('pilot')] });
      const trail = async () => (await view('safety', r.id)).body.report.SafetyReportChange as any[];
      expect(await trail()).toHaveLength(1);
      await edit('safety', r.id, { events: '<b>Short</b>' });
      await edit('safety', r.id, { name: 'Bird strike on short final' });
      expect(await trail()).toHaveLength(1);
      await edit('safety', r.id, {
        events: 'Much longer than before',
        safety_report_category_id: airprox,
        Aircraft: [{ id: s.refs.aircraft['EC-JET'] }, { id: s.refs.aircraft['EC-ABC'] }],
        crew: [uid('pilot'), uid('student')],
        reviewer_id: uid('ground'),
        risk_probability: 'probable',
        risk_severity: 'hazardous',
      });
      const rows = await trail();
      expect(rows).toHaveLength(2);
      const byField = Object.fromEntries(rows[0].fields.map((f: any) => [f.field, f]));
      expect(rows[0].action).toBe('edit');
      expect(rows[0].user).toMatchObject({ id: uid('safety'), name: 'Sara Safety' });
      expect(byField.events).toEqual({ field: 'events', label: 'Events', kind: 'text', from: 5, to: 23 });
      expect(byField.safety_report_category_id).toMatchObject({
        from: bird,
        to: airprox,
        from_label: 'Bird strike',
        to_label: 'Airprox',
      });
      expect(byField.aircraft).toEqual({
        field: 'aircraft',
        label: 'Aircraft',
        kind: 'set',
        from: [],
        to: [s.refs.aircraft['EC-ABC'], s.refs.aircraft['EC-JET']].sort(),
      });
      expect(byField.involved_users.to).toEqual([uid('pilot'), uid('student')].sort());
      expect(byField.reviewer_id).toMatchObject({ from: null, to: uid('ground'), to_label: 'Greta Ground' });
      expect(byField.risk_probability.to_label).toBe('4 Occasional');
      // Labels are stored, not re-resolved.
      await (s.ctx.db as any)
        .updateTable('safety_report_categories')
        .set({ name: 'Renamed' })
        .where('id', '=', airprox)
        .execute();
      expect((await trail())[0].fields.find((f: any) => f.field === 'safety_report_category_id').to_label).toBe(
        'Airprox',
      );
      await (s.ctx.db as any)
        .updateTable('safety_report_categories')
        .set({ name: 'Airprox' })
        .where('id', '=', airprox)
        .execute();
      // Visible only to roles < 111.
      expect((await view('headtraining', r.id)).body.report.SafetyReportChange).toBeUndefined();
      expect((await view('admin', r.id)).body.report.SafetyReportChange).toHaveLength(2);
    });

    it('the database refuses to change or remove trail rows', async () => {
      const db = s.ctx.db as any;
      await expect(db.updateTable('safety_report_changes').set({ action: 'edit' }).execute()).rejects.toThrow(
        /read-only/,
      );
      await expect(db.deleteFrom('safety_report_changes').execute()).rejects.toThrow(/read-only/);
      expect(await countRows(s, 'safety_report_changes')).toBeGreaterThan(0);
    });
  });

  describe('risk', () => {
    it('shows index and tolerability before and after mitigation on the company matrix', async () => {
      const r = await create('pilot', {
        risk_probability: 'likely',
        risk_severity: 'hazardous',
        mitigated_risk_probability: 'improbable',
        mitigated_risk_severity: 'marginal',
      });
      expect((await view('pilot', r.id)).body.report.Risk).toEqual({
        before: { index: '5B', tolerability: 'intolerable' },
        after: { index: '2D', tolerability: 'acceptable' },
      });
      const opts = (await s.api('GET', '/safety_reports/form_options.json', { token: await t('pilot@skyline.test') }))
        .body;
      expect(opts.riskMatrix.cells['5B']).toBe('intolerable');
      const cells = { ...opts.riskMatrix.cells, '2D': 'tolerable' };
      await (s.ctx.db as any)
        .insertInto('safety_risk_matrices')
        .values({ company_id: s.refs.companies.skyline, cells: JSON.stringify(cells), modified: 1 })
        .execute();
      expect((await view('pilot', r.id)).body.report.Risk.after).toEqual({ index: '2D', tolerability: 'tolerable' });
      await (s.ctx.db as any).deleteFrom('safety_risk_matrices').execute();
    });
  });

  describe('lists, statistics, options', () => {
    it('filters and paginates', async () => {
      const token = await t('safety@skyline.test');
      const a = await create('safety', { datetime: '2024-05-10 12:00', safety_report_category_id: airprox });
      const b = await create('safety', { datetime: '2024-05-11 12:00', damages: 'catastrophic' });
      const r = await s.api('GET', '/safety_reports/index/from:2024-05-10/to:2024-05-11/limit:1/page:2.json', {
        token,
      });
      expect(r.status).toBe(200);
      expect(r.body.paginate).toMatchObject({
        page: 2,
        limit: 1,
        count: 2,
        pageCount: 2,
        prevPage: true,
        nextPage: false,
      });
      expect(r.body.reports.map((x: any) => x.SafetyReport.id)).toEqual([a.id]);
      expect(await listIds('safety', `/from:2024-05-01/to:2024-05-31/report_category:${airprox}`)).toEqual([a.id]);
      expect(await listIds('safety', '/from:2024-05-01/to:2024-05-31/severity:accident')).toEqual([b.id]);
      const dep = (await s.api('GET', '/safety_reports/form_options.json', { token })).body.departments.find(
        (d: any) => d.SafetyReportDepartment.name === 'Flight Operations',
      ).SafetyReportDepartment.id;
      expect((await listIds('safety', `/from:2024-05-01/to:2024-05-31/department:${dep}/status:open`)).sort()).toEqual(
        [a.id, b.id].sort(),
      );
      for (const bad of ['/limit:101', '/page:0', '/status:lost', '/from:May', '/colour:red']) {
        const x = await s.api('GET', `/safety_reports/index${bad}.json`, { token });
        expect(x.status, bad).toBe(400);
        expect(x.body.result).toBe(false);
      }
      expect((await s.api('GET', '/safety_reports/index.json', { token })).body.paginate.limit).toBe(25);
    });

    it('form options nest categories in departments; stats lists the enumerations', async () => {
      const token = await t('student@skyline.test');
      const o = (await s.api('GET', '/safety_reports/form_options.json', { token })).body;
      expect(
        o.departments.map((d: any) => [d.SafetyReportDepartment.name, d.SafetyReportCategory.map((c: any) => c.name)]),
      ).toEqual([
        ['Flight Operations', ['Airprox', 'Bird strike', 'Runway incursion']],
        ['Maintenance', ['Ground damage', 'Technical defect']],
      ]);
      const st = (await s.api('GET', '/safety_reports/stats.json', { token })).body;
      expect(st.status.map((x: any) => x.key)).toEqual(['draft', 'open', 'reviewed', 'closed', 'published']);
      expect(st.severity.find((x: any) => x.key === 'accident').color).toBe('#ff260a');
      expect(st.flight_phase).toHaveLength(13);
      expect(st.damages.map((x: any) => x.key)).toEqual(['none', 'minimal', 'important', 'catastrophic']);
      expect(st.personal_damages.map((x: any) => x.key)).toEqual(['none', 'injuries', 'serious', 'casualties']);
    });

    it('statistics count visible non-draft top-level reports, by year, never another company’s', async () => {
      const token = await t('safety@skyline.test');
      const get = async (p: string, tk = token) => {
        const r = await s.api('GET', p, { token: tk });
        expect(r.status, `${p} ${JSON.stringify(r.body)}`).toBe(200);
        return r.body;
      };
      await create('safety', { datetime: '2023-07-01 10:00', flight_phase: 'TOF' });
      await create('safety', {
        datetime: '2023-07-02 10:00',
        flight_phase: 'TOF',
        damages: 'important',
        safety_report_category_id: airprox,
      });
      await create('pilot', { datetime: '2023-07-03 10:00', flight_phase: 'LDG', status: 'draft' });
      const sev = await get('/safety_reports/reports_by_severity/year:2023.json');
      expect(sev.data).toEqual([
        { key: 'accident', label: 'Accident', count: 1 },
        { key: 'incident', label: 'Incident', count: 1 },
      ]);
      expect((await get('/safety_reports/reports_by_flight_phase/year:2023.json')).data).toEqual([
        { key: 'TOF', label: 'Takeoff', count: 2 },
      ]);
      expect(
        (await get('/safety_reports/reports_by_category/year:2023.json')).data.map((x: any) => [x.label, x.count]),
      ).toEqual([
        ['Airprox', 1],
        ['Bird strike', 1],
      ]);
      expect(
        (await get('/safety_reports/reports_by_department/year:2023.json')).data.map((x: any) => [x.label, x.count]),
      ).toEqual([['Flight Operations', 2]]);
      expect((await get('/safety_reports/reports_by_flight_type/year:2023.json')).data).toEqual([
        { key: null, label: 'No flight type', count: 2 },
      ]);
      const all = await get('/safety_reports/reports_by_severity.json');
      expect(all.total).toBeGreaterThan(2);
      // The draft's author does not see it counted either.
      expect(
        (await get('/safety_reports/reports_by_flight_phase/year:2023.json', await t('pilot@skyline.test'))).data,
      ).toEqual([]);
      const month = await get('/safety_reports/reports_by_month.json');
      expect(month.data).toHaveLength(6);
      const now = new Date().toISOString().slice(0, 7);
      expect(month.data[5].month).toBe(now);
      expect(month.data[5].incident + month.data[5].accident + month.data[5].information + month.data[5].hazard).toBe(
        0,
      );
      expect((await get('/safety_reports/reports_by_month/24.json')).data).toHaveLength(24);
      expect((await s.api('GET', '/safety_reports/reports_by_month/0.json', { token })).status).toBe(400);
      expect((await s.api('GET', '/safety_reports/reports_by_severity/year:abc.json', { token })).status).toBe(400);
      // Harbor on a paid plan: its own numbers only, and Skyline's reports are 404.
      await setPlan(s, 'harbor', 'premium');
      try {
        const harbor = await t('admin@harbor.test');
        expect((await get('/safety_reports/reports_by_severity.json', harbor)).data).toEqual([]);
        expect((await get('/safety_reports/index.json', harbor)).reports).toEqual([]);
        const sky = await create('pilot');
        expect((await s.api('GET', `/safety_reports/view/${sky.id}.json`, { token: harbor })).status).toBe(404);
        expect(
          (
            await s.api('POST', `/safety_reports/edit/${sky.id}.json`, {
              token: harbor,
              body: { SafetyReport: { name: 'Hijack' } },
            })
          ).status,
        ).toBe(404);
        expect((await s.api('GET', `/safety_reports/delete/${sky.id}.json`, { token: harbor })).status).toBe(404);
        expect((await s.api('GET', `/safety_reports/view/${sky.id}/pdf:true?token=${harbor}`)).status).toBe(404);
        expect((await view('pilot', sky.id)).body.report.SafetyReport.name).toBe('Bird strike on short final');
        expect((await createSR(s, harbor, reportBody(bird))).status).toBe(400);
      } finally {
        await setPlan(s, 'harbor', 'free');
      }
    });
  });

  describe('statistics aggregate', () => {
    it('after every write of this suite equals a recount from the reports (both companies)', async () => {
      const read = async () =>
        (
          await s.ctx.db
            .selectFrom('safety_report_stats')
            .select(['company_id', 'dimension', 'month', 'status', 'key', 'count'])
            .where('count', '!=', 0)
            .execute()
        )
          .map((r) => ({ ...r, count: Number(r.count) }))
          .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
      const kept = await read();
      expect(kept.length).toBeGreaterThan(0);
      for (const company of Object.values(s.refs.companies)) await rebuildStats(s.ctx.db, company);
      expect(await read()).toEqual(kept);
    });
  });
});
