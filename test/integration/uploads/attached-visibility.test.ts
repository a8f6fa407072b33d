import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { pullAll } from '../../setup/sync.ts';
import { categoryId, createSR, reportBody } from '../safety-reports/safety-helpers.ts';
import { createMultipart, directUpload } from './helpers.ts';
import { pdfSample } from './samples.ts';

/**
 * Uploads attached to records that not everyone sees (docs/areas/uploads.md):
 * class work and justifications of a student's row, safety reports. Whoever
 * cannot see the record gets a 404 for its files, everywhere.
 */
describe.each(DIALECTS)('visibility of uploads attached to restricted records on %s', (dialect) => {
  let s: TestServer;
  const tokens: Record<string, string> = {};
  let studentRow: string;
  let classwork: string;
  let report: string;
  let reportFile: string;
  let draft: string;
  let draftFile: string;
  let pilotOwn: string;

  const tok = (who: string) => tokens[who]!;
  const get = (path: string, who: string) => s.api('GET', path, { token: tok(who) });
  const ok = async (p: Promise<{ status: number; body: any }>) => {
    const r = await p;
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };
  const now = () => Math.floor(Date.now() / 1000);
  /** Index, view and download of one upload of a record, by one user. */
  const reach = async (who: string, model: string, fk: string, id: string) => ({
    index: (await get(`/uploads/index/${model}/${fk}.json`, who)).status,
    view: (await get(`/uploads/view/${id}.json`, who)).status,
    download: (await get(`/uploads/download/${id}.json`, who)).status,
  });
  const hidden = { index: 404, view: 404, download: 404 };
  // s.api follows the download's redirect to the signed URL.
  const shown = { index: 200, view: 200, download: 200 };

  beforeAll(async () => {
    s = await startTestServer(dialect);
    const people = ['admin', 'safety', 'instructor', 'dispatch', 'pilot', 'student'];
    await Promise.all(people.map(async (p) => (tokens[p] = await s.login(`${p}@skyline.test`))));
    tokens.harbor = await s.login('admin@harbor.test');
    const post = (path: string, body: unknown) => s.api('POST', path, { token: tok('admin'), body });
    const studentId = s.userId('student@skyline.test');
    const pilotId = s.userId('pilot@skyline.test');
    const instructorId = s.userId('instructor@skyline.test');
    const ppl = (
      await ok(post('/manager/trainings/trainings/create.json', { name: 'PPL files', type: 'ONSITE', theory: true }))
    ).id;
    const subject = (
      await ok(
        post('/manager/trainings/subjects/edit.json', {
          training_id: ppl,
          name: 'Meteorology',
          teacher_id: instructorId,
        }),
      )
    ).id;
    await ok(post('/manager/trainings/students/enroll.json', { training_id: ppl, students: [studentId, pilotId] }));
    const made = await ok(
      post('/manager/trainings/onsite/class.json', {
        training_subject_id: subject,
        start: now() - 3600,
        teacher_id: instructorId,
        students: [studentId, pilotId],
      }),
    );
    studentRow = made.Class.SessionStudent.find((r: any) => r.user_id === studentId).id;

    const d = await directUpload(s, tok('student'), pdfSample(), {
      filename: 'essay.pdf',
      mime: 'application/pdf',
      model: 'SessionClasswork',
      foreign_key: studentRow,
    });
    expect(d.complete.status, JSON.stringify(d.complete.body)).toBe(200);
    classwork = d.sign.body.upload_id;

    // An open report by the student: the pilot (190, no link) cannot see it, the safety manager can.
    const bird = await categoryId(s, 'Bird strike');
    const r = await createSR(s, tok('student'), reportBody(bird));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    report = r.body.id;
    const up = await createMultipart(
      s,
      tok('student'),
      { bytes: pdfSample(), filename: 'photo-report.pdf', mime: 'application/pdf' },
      { active: '1', model: 'SafetyReport', id: report },
    );
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    reportFile = up.body.file.id;
    const dr = await createSR(s, tok('student'), reportBody(bird, { status: 'draft' }));
    expect(dr.status, JSON.stringify(dr.body)).toBe(200);
    draft = dr.body.id;
    const du = await createMultipart(
      s,
      tok('student'),
      { bytes: pdfSample(), filename: 'draft.pdf', mime: 'application/pdf' },
      { active: '1', model: 'SafetyReport', id: draft },
    );
    expect(du.status, JSON.stringify(du.body)).toBe(200);
    draftFile = du.body.file.id;

    const own = await createMultipart(s, tok('pilot'), {
      bytes: pdfSample(),
      filename: 'mine.pdf',
      mime: 'application/pdf',
    });
    expect(own.status).toBe(200);
    pilotOwn = own.body.file.id;
  });
  afterAll(() => s?.close());

  it('class work: the student and the teacher see it; another student, dispatch and another company get 404', async () => {
    expect(await reach('student', 'SessionClasswork', studentRow, classwork)).toEqual(shown);
    expect(await reach('instructor', 'SessionClasswork', studentRow, classwork)).toEqual(shown);
    expect(await reach('admin', 'SessionClasswork', studentRow, classwork)).toEqual(shown);
    expect(await reach('pilot', 'SessionClasswork', studentRow, classwork)).toEqual(hidden);
    expect(await reach('dispatch', 'SessionClasswork', studentRow, classwork)).toEqual(hidden);
    expect(await reach('harbor', 'SessionClasswork', studentRow, classwork)).toEqual(hidden);
    const listed = await ok(get(`/uploads/index/SessionClasswork/${studentRow}.json`, 'instructor'));
    expect(listed.uploads.map((u: any) => u.id)).toEqual([classwork]);
    // The justification model shares the rule.
    expect((await get(`/uploads/index/SessionJustification/${studentRow}.json`, 'pilot')).status).toBe(404);
    expect((await get(`/uploads/index/SessionJustification/${studentRow}.json`, 'instructor')).status).toBe(200);
  });

  it('class work: nobody who cannot see the row attaches to it, changes or deletes its files', async () => {
    const sign = await s.api('POST', '/uploads/sign.json', {
      token: tok('pilot'),
      body: {
        filename: 'x.pdf',
        mime: 'application/pdf',
        size: 10,
        model: 'SessionClasswork',
        foreign_key: studentRow,
      },
    });
    expect(sign.status).toBe(404);
    const confirm = await s.api('POST', `/uploads/confirm/${pilotOwn}.json`, {
      token: tok('pilot'),
      body: { model: 'SessionClasswork', foreign_key: studentRow },
    });
    expect(confirm.status).toBe(404);
    // Dispatch (170) manages the company's uploads, but not those of a row it cannot see.
    expect(
      (
        await s.api('POST', `/uploads/expiration/${classwork}.json`, {
          token: tok('dispatch'),
          body: { expiration: '2099-01-01' },
        })
      ).status,
    ).toBe(404);
    expect((await get(`/uploads/delete/${classwork}.json`, 'dispatch')).status).toBe(404);
    const row = await s.ctx.db.selectFrom('uploads').selectAll().where('id', '=', classwork).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ deleted: 0, active: 1, expiration: null });
    expect(
      (await s.ctx.db.selectFrom('uploads').selectAll().where('id', '=', pilotOwn).executeTakeFirstOrThrow()).model,
    ).toBeNull();
  });

  it('safety report: its files follow the report (pilot 404, safety manager and author see them)', async () => {
    expect(await reach('student', 'SafetyReport', report, reportFile)).toEqual(shown);
    expect(await reach('safety', 'SafetyReport', report, reportFile)).toEqual(shown);
    expect(await reach('pilot', 'SafetyReport', report, reportFile)).toEqual(hidden);
    expect(await reach('harbor', 'SafetyReport', report, reportFile)).toEqual(hidden);
    expect((await get(`/safety_reports/view/${report}.json`, 'pilot')).status).toBe(404);
    // A draft is its author's alone, files included.
    expect(await reach('student', 'SafetyReport', draft, draftFile)).toEqual(shown);
    expect(await reach('safety', 'SafetyReport', draft, draftFile)).toEqual(hidden);
    expect(await reach('admin', 'SafetyReport', draft, draftFile)).toEqual(hidden);
  });

  it('safety report: attaching needs a live, visible report of the company', async () => {
    const pdf = { bytes: pdfSample(), filename: 'x.pdf', mime: 'application/pdf' };
    expect(
      (await createMultipart(s, tok('pilot'), pdf, { active: '1', model: 'SafetyReport', id: report })).status,
    ).toBe(404);
    expect(
      (await createMultipart(s, tok('harbor'), pdf, { active: '1', model: 'SafetyReport', id: report })).status,
    ).toBe(404);
    expect(
      (await createMultipart(s, tok('safety'), pdf, { active: '1', model: 'SafetyReport', id: 'no-such-report' }))
        .status,
    ).toBe(404);
  });

  it('safety report view lists its Upload[]', async () => {
    const v = await ok(get(`/safety_reports/view/${report}.json`, 'safety'));
    expect(v.report.Upload).toEqual([
      expect.objectContaining({
        id: reportFile,
        filename: 'photo-report.pdf',
        type: 'document',
        mime: 'application/pdf',
        size: String(pdfSample().length),
      }),
    ]);
    const d = await ok(get(`/safety_reports/view/${draft}.json`, 'student'));
    expect(d.report.Upload.map((u: any) => u.id)).toEqual([draftFile]);
  });

  it('the files collection replicates these uploads to their uploader only', async () => {
    const ids = async (who: string) =>
      (await pullAll(s, tok(who), 'files')).docs.filter((d: any) => !d._deleted).map((d: any) => d.id);
    const pilot = await ids('pilot');
    expect(pilot).toContain(pilotOwn);
    for (const id of [classwork, reportFile, draftFile]) expect(pilot).not.toContain(id);
    const safety = await ids('safety');
    for (const id of [classwork, draftFile]) expect(safety).not.toContain(id);
    const student = await ids('student');
    for (const id of [classwork, reportFile, draftFile]) expect(student).toContain(id);
  });
});
