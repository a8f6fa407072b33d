import { uuidv7 } from '@ops/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Z from '../../../server/src/areas/trainings/classes/classes.schema.ts';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { directUpload } from '../uploads/helpers.ts';

/** Justifications, class work and grades (Part B 2.8, 3.4, 4.7 item 15) and flight mission signatures (item 21). */
describe.each(DIALECTS)('training justifications, class work and missions on %s', (dialect) => {
  let s: TestServer;
  let admin: string;
  let ground: string;
  let instructor: string;
  let dispatch: string;
  let student: string;
  let pilot: string;
  let harbor: string;
  let ppl: string;
  let subject: string;
  let studentId: string;
  let pilotId: string;
  let instructorId: string;
  let klass: string;
  let pastClass: string;
  let rows: Record<string, string>;

  const post = (path: string, body: unknown, token = admin) => s.api('POST', path, { token, body });
  const get = (path: string, token = admin) => s.api('GET', path, { token });
  const ok = async (p: Promise<{ status: number; body: any }>) => {
    const r = await p;
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };
  const now = () => Math.floor(Date.now() / 1000);
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
  const upload = async (token: string, model: string, fk: string) => {
    const d = await directUpload(s, token, pdf, {
      filename: 'note.pdf',
      mime: 'application/pdf',
      model,
      foreign_key: fk,
    });
    expect(d.complete.status, JSON.stringify(d.complete.body)).toBe(200);
    return d.sign.body.upload_id as string;
  };

  beforeAll(async () => {
    s = await startTestServer(dialect);
    [admin, ground, instructor, dispatch, student, pilot, harbor] = await Promise.all(
      [
        'admin@skyline.test',
        'ground@skyline.test',
        'instructor@skyline.test',
        'dispatch@skyline.test',
        'student@skyline.test',
        'pilot@skyline.test',
        'admin@harbor.test',
      ].map((e) => s.login(e)),
    );
    studentId = s.userId('student@skyline.test');
    pilotId = s.userId('pilot@skyline.test');
    instructorId = s.userId('instructor@skyline.test');
    ppl = (
      await ok(post('/manager/trainings/trainings/create.json', { name: 'PPL work', type: 'ONSITE', theory: true }))
    ).id;
    subject = (
      await ok(
        post('/manager/trainings/subjects/edit.json', {
          training_id: ppl,
          name: 'Principles of flight',
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
    klass = made.id;
    rows = Object.fromEntries(made.Class.SessionStudent.map((r: any) => [r.user_id, r.id]));
    pastClass = (
      await ok(
        post('/manager/trainings/onsite/class.json', {
          training_subject_id: subject,
          start: now() - 10 * 86400,
          teacher_id: instructorId,
          students: [studentId, pilotId],
          justification_deadline: now() - 86400,
          classwork_deadline: now() - 86400,
          allow_classwork_upload: true,
        }),
      )
    ).id;
    await ok(
      post(
        '/trainings/onsite/store_attendance.json',
        { classId: klass, students: { [studentId]: 'attended', [pilotId]: 'absent' } },
        instructor,
      ),
    );
    await ok(
      post(
        '/trainings/onsite/store_attendance.json',
        { classId: pastClass, students: { [studentId]: 'absent', [pilotId]: 'absent' } },
        instructor,
      ),
    );
  });
  afterAll(() => s?.close());

  it('justification: only an absent student of the class, before the deadline; upload tagged with deadline', async () => {
    const path = '/trainings/onsite/justifications/submit.json';
    expect((await post(path, { class_id: klass, text: 'I was there' }, student)).body.code).toBe('NOT_ABSENT');
    expect((await post(path, { class_id: klass, text: 'Sick' }, dispatch)).status).toBe(403);
    expect((await post(path, { class_id: klass, text: 'Sick' }, harbor)).status).toBe(404);
    expect((await post(path, { class_id: klass, text: '' }, pilot)).status).toBe(400);
    expect((await post(path, { class_id: pastClass, text: 'Late' }, pilot)).body.code).toBe('DEADLINE_PASSED');
    expect((await post(path, { class_id: klass, text: 'Sick', upload_id: 'nope' }, pilot)).status).toBe(400);
    expect(await s.ctx.db.selectFrom('training_justifications').select('id').execute()).toHaveLength(0);
    const up = await upload(pilot, 'SessionJustification', rows[pilotId]);
    const first = await ok(post(path, { class_id: klass, text: 'Sick', upload_id: up }, pilot));
    expect(first.Justification).toMatchObject({
      status: 'pending',
      text: 'Sick',
      upload_id: up,
      user_id: pilotId,
      late: false,
    });
    expect(first.Justification.Upload).toMatchObject({ id: up, late: false });
    expect(first.Justification.Upload.deadline).toBeGreaterThan(now());
    const again = await ok(s.api('POST', path, { token: pilot, form: { class_id: klass, text: 'Sick, with a note' } }));
    expect(again.Justification).toMatchObject({ id: first.Justification.id, text: 'Sick, with a note', upload_id: up });
    const listed = await ok(get(`/uploads/index/SessionJustification/${rows[pilotId]}.json`, pilot));
    expect(listed.uploads[0]).toMatchObject({ id: up, late: false });
    expect(listed.uploads[0].deadline).toBeGreaterThan(now());
  });

  it('justification review: teacher or managers; approval justifies the absence; listing by role', async () => {
    const list = await ok(get(`/trainings/onsite/justifications/${klass}.json`, instructor));
    expect(list.justifications).toHaveLength(1);
    const id = list.justifications[0].id;
    expect((await ok(get(`/trainings/onsite/justifications/${klass}.json`, student))).justifications).toEqual([]);
    expect((await ok(get(`/trainings/onsite/justifications/${klass}.json`, pilot))).justifications).toHaveLength(1);
    expect((await get(`/trainings/onsite/justifications/${klass}.json`, dispatch)).status).toBe(403);
    expect((await get(`/trainings/onsite/justifications/${klass}.json`, harbor)).status).toBe(404);
    const path = '/trainings/onsite/justifications/review.json';
    expect((await post(path, { id, status: 'approved' }, pilot)).status).toBe(403);
    expect((await post(path, { id, status: 'approved' }, harbor)).status).toBe(404);
    expect((await post(path, { id, status: 'maybe' }, instructor)).status).toBe(400);
    const approved = await ok(post(path, { id, status: 'approved', review_note: 'Doctor note seen' }, instructor));
    expect(approved.Justification).toMatchObject({
      status: 'approved',
      reviewed_by: instructorId,
      review_note: 'Doctor note seen',
    });
    expect(approved.attendance_status).toBe('absent_justified');
    const view = await ok(get(`/trainings/onsite/class/${klass}.json`, pilot));
    expect(view.Class.SessionStudent[0]).toMatchObject({ attendance_status: 'absent_justified', attended: false });
    expect((await post(path, { id, status: 'rejected' }, ground)).body.code).toBe('ALREADY_REVIEWED');
    expect(
      (await post('/trainings/onsite/justifications/submit.json', { class_id: klass, text: 'Again' }, pilot)).body.code,
    ).toBe('ALREADY_JUSTIFIED');
  });

  it('rejected justifications leave the absence and allow a new one', async () => {
    const c = await ok(
      post('/manager/trainings/onsite/class.json', {
        training_subject_id: subject,
        start: now() - 600,
        teacher_id: instructorId,
        students: [studentId],
      }),
    );
    await ok(
      post(
        '/trainings/onsite/store_attendance.json',
        { classId: c.id, students: { [studentId]: 'absent' } },
        instructor,
      ),
    );
    const j = await ok(
      post('/trainings/onsite/justifications/submit.json', { class_id: c.id, text: 'Traffic' }, student),
    );
    const r = await ok(
      post(
        '/trainings/onsite/justifications/review.json',
        { id: j.Justification.id, status: 'rejected', review_note: 'Not a reason' },
        ground,
      ),
    );
    expect(r.attendance_status).toBe('absent');
    const j2 = await ok(
      post('/trainings/onsite/justifications/submit.json', { class_id: c.id, text: 'Car broke down' }, student),
    );
    expect(j2.Justification.id).not.toBe(j.Justification.id);
    expect(
      (await ok(get(`/trainings/onsite/justifications/${c.id}.json`, student))).justifications.map(
        (x: any) => x.status,
      ),
    ).toEqual(['pending', 'rejected']);
  });

  it('class work: requested by the teacher (notified once), handed in with late flags, graded once per student', async () => {
    const up0 = await upload(student, 'SessionClasswork', rows[studentId]);
    expect(
      (await post('/trainings/onsite/classwork/submit.json', { class_id: klass, upload_id: up0 }, student)).body.code,
    ).toBe('CLASSWORK_CLOSED');
    expect(
      (await post('/trainings/onsite/classwork/request.json', { class_id: klass, notify: true }, student)).status,
    ).toBe(403);
    expect(
      (await post('/trainings/onsite/classwork/request.json', { class_id: klass, notify: true }, harbor)).status,
    ).toBe(404);
    const req = await ok(
      post(
        '/trainings/onsite/classwork/request.json',
        { class_id: klass, classwork_description: 'Solve sheet 3', notify: true },
        instructor,
      ),
    );
    expect(req.notified).toBe(2);
    expect(req.Class).toMatchObject({ allow_classwork_upload: true, classwork_description: 'Solve sheet 3' });
    expect(req.Class.classwork_deadline).toBeGreaterThan(now());
    expect(req.Class.classwork_notified_at).toBeGreaterThan(0);
    expect(
      (await ok(post('/trainings/onsite/classwork/request.json', { class_id: klass, notify: true }, instructor)))
        .notified,
    ).toBe(0);
    const done = await ok(
      post('/trainings/onsite/classwork/submit.json', { class_id: klass, upload_id: up0 }, student),
    );
    expect(done.Upload).toMatchObject({ id: up0, late: false });
    expect(
      (await post('/trainings/onsite/classwork/submit.json', { class_id: klass, upload_id: up0 }, dispatch)).status,
    ).toBe(403);
    const late = await upload(
      pilot,
      'SessionClasswork',
      (await ok(get(`/trainings/onsite/class/${pastClass}.json`, pilot))).Class.SessionStudent[0].id,
    );
    const lateDone = await ok(
      post('/trainings/onsite/classwork/submit.json', { class_id: pastClass, upload_id: late }, pilot),
    );
    expect(lateDone.Upload.late).toBe(true);

    const path = '/trainings/onsite/classwork/grade.json';
    expect((await post(path, { class_id: klass, user_id: studentId, score: 101 }, instructor)).status).toBe(400);
    expect((await post(path, { class_id: klass, user_id: studentId, score: '8.25' }, instructor)).status).toBe(400);
    expect((await post(path, { class_id: klass, user_id: studentId, score: 8.5 }, student)).status).toBe(403);
    expect((await post(path, { class_id: klass, user_id: studentId, score: 8.5 }, harbor)).status).toBe(404);
    expect(
      (await post(path, { class_id: klass, user_id: s.userId('dispatch@skyline.test'), score: 8.5 }, instructor))
        .status,
    ).toBe(400);
    expect(
      (await post(path, { class_id: klass, user_id: studentId, score: 8.5, upload_id: late }, instructor)).status,
    ).toBe(400);
    const g = await ok(
      s.api('POST', path, {
        token: instructor,
        form: { class_id: klass, user_id: studentId, score: '87.5', feedback: 'Neat', upload_id: up0 },
      }),
    );
    expect(g.Grade).toMatchObject({ score: 87.5, feedback: 'Neat', graded_by: instructorId, upload_id: up0 });
    const g2 = await ok(post(path, { class_id: klass, user_id: studentId, score: 90 }, ground));
    expect(g2.Grade.id).toBe(g.Grade.id);
    expect(g2.Grade.score).toBe(90);
    const all = await ok(get(`/trainings/onsite/classwork/${klass}.json`, instructor));
    expect(all.students).toHaveLength(2);
    const mine = await ok(get(`/trainings/onsite/classwork/${klass}.json`, student));
    expect(mine.students).toHaveLength(1);
    expect(mine.students[0]).toMatchObject({ user_id: studentId, late: false, Grade: { score: 90 } });
    expect(mine.students[0].uploads.map((u: any) => u.id)).toEqual([up0]);
    expect((await get(`/trainings/onsite/classwork/${klass}.json`, dispatch)).status).toBe(403);
    expect((await get(`/trainings/onsite/classwork/${klass}.json`, harbor)).status).toBe(404);
  });

  it('missions: unsigned list of the caller; only the student who flew signs, with their password, once', async () => {
    const company = s.refs.companies.skyline;
    const today = new Date().toISOString().slice(0, 10);
    const mk = async (name: string, fields: Record<string, unknown>) =>
      (
        await ok(
          post('/manager/trainings/trainings/create.json', {
            name,
            type: 'ONSITE',
            flights: true,
            require_debriefing_signature: true,
            start: '2020-01-01',
            end: '2099-12-31',
            ...fields,
          }),
        )
      ).id as string;
    const active = await mk('Flying active', {});
    const noSig = await mk('Flying nosig', { require_debriefing_signature: false });
    const ended = await mk('Flying ended', { start: '2020-01-01', end: '2021-01-01' });
    const rowsMade: Record<string, string> = {};
    for (const t of [active, noSig, ended]) {
      const m = (
        await ok(
          post('/manager/trainings/missions/edit.json', {
            training_id: t,
            name: `Circuits ${t.slice(-4)}`,
            minutes: 60,
          }),
        )
      ).id;
      const e = (await ok(post('/manager/trainings/students/enroll.json', { training_id: t, students: [studentId] })))
        .results[studentId].TrainingsUser.id;
      const id = uuidv7();
      const n = now();
      await s.ctx.db
        .insertInto('training_mission_flights')
        .values({
          id,
          company_id: company,
          change_no: 0,
          deleted: 0,
          created: n,
          modified: n,
          enrollment_id: e,
          mission_id: m,
          flight_id: null,
          user_id: studentId,
          completed: 1,
          debrief_signed_at: null,
        })
        .execute();
      rowsMade[t] = id;
    }
    const unsigned = await ok(get('/trainings/missions/unsigned.json', student));
    expect(unsigned.missions.map((m: any) => m.training_name).sort()).toEqual(['Flying active', 'Flying ended']);
    expect((await ok(get('/trainings/missions/unsigned.json', pilot))).missions).toEqual([]);
    expect((await ok(get('/trainings/missions/unsigned.json', harbor))).missions).toEqual([]);
    const path = '/trainings/missions/sign.json';
    expect((await post(path, { user_training_flight_id: rowsMade[active] }, student)).status).toBe(400);
    expect((await post(path, { user_training_flight_id: rowsMade[active], pass: 'wrong' }, student)).body.code).toBe(
      'WRONG_PASSWORD',
    );
    expect((await post(path, { user_training_flight_id: rowsMade[active], pass: 'demo1234' }, instructor)).status).toBe(
      403,
    );
    expect((await post(path, { user_training_flight_id: rowsMade[active], pass: 'demo1234' }, harbor)).status).toBe(
      404,
    );
    expect((await post(path, { user_training_flight_id: rowsMade[ended], pass: 'demo1234' }, student)).body.code).toBe(
      'TRAINING_NOT_ACTIVE',
    );
    await ok(post('/manager/trainings/trainings/edit.json', { id: active, active: false }));
    expect((await post(path, { user_training_flight_id: rowsMade[active], pass: 'demo1234' }, student)).body.code).toBe(
      'TRAINING_NOT_ACTIVE',
    );
    await ok(post('/manager/trainings/trainings/edit.json', { id: active, active: true }));
    const signed = await ok(
      s.api('POST', path, { token: student, form: { user_training_flight_id: rowsMade[active], pass: 'demo1234' } }),
    );
    expect(signed.result).toBe(true);
    expect(signed.Mission.debrief_signed_at).toBeGreaterThan(0);
    const twice = await ok(post(path, { user_training_flight_id: rowsMade[active], pass: 'demo1234' }, student));
    expect(twice.result).toBe(false);
    expect(
      (await ok(get('/trainings/missions/unsigned.json', student))).missions.map((m: any) => m.training_name),
    ).toEqual(['Flying ended']);
    expect(today).toMatch(/^\d{4}/);
  });
  it('answers match the response schemas of the OpenAPI document', async () => {
    const check = (schema: { safeParse(v: unknown): { success: boolean; error?: unknown } }, body: unknown) => {
      const r = schema.safeParse(body);
      expect(r.success, JSON.stringify(r.error)).toBe(true);
    };
    check(Z.ZClassView, await ok(get(`/trainings/onsite/class/${klass}.json`, instructor)));
    check(Z.ZClassView, await ok(get(`/trainings/onsite/class/${klass}.json`, student)));
    check(Z.ZJustificationList, await ok(get(`/trainings/onsite/justifications/${klass}.json`, instructor)));
    check(Z.ZClassworkList, await ok(get(`/trainings/onsite/classwork/${klass}.json`, instructor)));
    check(Z.ZMissionsUnsigned, await ok(get('/trainings/missions/unsigned.json', student)));
    check(Z.ZLocationList, await ok(get('/trainings/locations.json', student)));
    check(
      Z.ZEvaluationOut,
      await ok(get(`/trainings/onsite/get_student_evaluation/${klass}/${studentId}.json`, instructor)),
    );
    check(
      Z.ZEvaluationSaved,
      await ok(
        post(
          '/trainings/onsite/save_student_evaluation.json',
          { class_id: klass, student_id: studentId, remarks: 'ok' },
          instructor,
        ),
      ),
    );
    check(
      Z.ZClassResult,
      await ok(
        post(
          '/trainings/onsite/store_attendance.json',
          { classId: klass, students: { [studentId]: 'attended' } },
          instructor,
        ),
      ),
    );
    check(
      Z.ZSigned,
      await ok(post('/trainings/onsite/sign_class.json', { classId: klass, password: 'demo1234' }, instructor)),
    );
    check(Z.ZClassResult, await ok(post('/trainings/onsite/unsign_class.json', { classId: klass }, instructor)));
    check(
      Z.ZClassSaved,
      await ok(
        post('/manager/trainings/onsite/class.json', {
          training_subject_id: subject,
          start: now(),
          teacher_id: instructorId,
          students: studentId,
        }),
      ),
    );
    check(
      Z.ZCalendar,
      await ok(
        get(
          `/trainings/trainings/calendar.json?start=${now() - 30 * 86400}&end=${now() + 86400}&timeZone=Europe/Madrid`,
          instructor,
        ),
      ),
    );
    check(Z.ZFeedState, await ok(get('/trainings/calendar/feed.json', student)));
    check(Z.ZFeedCreated, await ok(post('/trainings/calendar/feed.json', {}, student)));
    expect(ppl).toBeTruthy();
  });
});
