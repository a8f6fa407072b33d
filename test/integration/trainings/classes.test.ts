import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink } from '../mail/smtp-sink.ts';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';

/** Locations, classes, attendance, signing with the mail-once guarantee, evaluations (Part B 4.7 items 15, 16, 20). */
describe.each(DIALECTS)('training classes and attendance on %s', (dialect) => {
  let s: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let admin: string;
  let head: string;
  let ground: string;
  let instructor: string;
  let dispatch: string;
  let student: string;
  let pilot: string;
  let harbor: string;
  let ppl: string;
  let subject: string;
  let lesson: string;
  let exam: string;
  let otherLesson: string;
  let studentId: string;
  let pilotId: string;
  let instructorId: string;
  let groundId: string;
  let location: string;
  let harborSubject: string;
  let harborLocation: string;
  let klass: string;

  const post = (path: string, body: unknown, token = admin) => s.api('POST', path, { token, body });
  const get = (path: string, token = admin) => s.api('GET', path, { token });
  const ok = async (p: Promise<{ status: number; body: any }>) => {
    const r = await p;
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };
  const count = async (
    table: 'training_sessions' | 'training_session_students' | 'training_locations' | 'training_evaluations',
  ) =>
    Number(
      (
        await s.ctx.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('deleted', '=', 0)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const start = Math.floor(Date.now() / 1000) - 3600;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    s = await startTestServer(dialect, { env: { SMTP_URL: smtp.smtpUrl } });
    [admin, head, ground, instructor, dispatch, student, pilot, harbor] = await Promise.all(
      [
        'admin@skyline.test',
        'headtraining@skyline.test',
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
    groundId = s.userId('ground@skyline.test');
    ppl = (
      await ok(
        post('/manager/trainings/trainings/create.json', {
          name: 'PPL classes',
          type: 'ONSITE',
          theory: true,
          classwork_deadline_default_days: 3,
          justification_deadline_default_days: 5,
        }),
      )
    ).id;
    subject = (
      await ok(
        post('/manager/trainings/subjects/edit.json', {
          training_id: ppl,
          name: 'Navigation',
          teacher_id: instructorId,
        }),
      )
    ).id;
    lesson = (
      await ok(
        post('/manager/trainings/lessons/edit.json', { training_subject_id: subject, name: 'Charts', minutes: 90 }),
      )
    ).id;
    exam = (
      await ok(
        post('/manager/trainings/subjects/add_exam.json', {
          training_subject_id: subject,
          name: 'Nav test',
          type: 'ONSITE',
          minutes: 45,
        }),
      )
    ).id;
    const other = (await ok(post('/manager/trainings/subjects/edit.json', { training_id: ppl, name: 'Meteorology' })))
      .id;
    otherLesson = (
      await ok(
        post('/manager/trainings/lessons/edit.json', { training_subject_id: other, name: 'Clouds', minutes: 60 }),
      )
    ).id;
    await ok(post('/manager/trainings/students/enroll.json', { training_id: ppl, students: [studentId, pilotId] }));
    const ht = (
      await ok(post('/manager/trainings/trainings/create.json', { name: 'Harbor course', type: 'ONSITE' }, harbor))
    ).id;
    harborSubject = (
      await ok(post('/manager/trainings/subjects/edit.json', { training_id: ht, name: 'Harbor subject' }, harbor))
    ).id;
    harborLocation = (
      await ok(
        post(
          '/manager/trainings/locations/edit.json',
          { name: 'Harbor room', type: 'CLASSROOM', country_id: 'US', timezone_id: 'America/New_York' },
          harbor,
        ),
      )
    ).id;
  });
  afterAll(async () => {
    await s?.close();
    await smtp?.close();
  });

  it('locations: required fields, manager roles, company isolation', async () => {
    const before = await count('training_locations');
    const bad = await post('/manager/trainings/locations/edit.json', {
      name: '',
      type: '',
      country_id: 'XX',
      timezone_id: 'Mars/Olympus',
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['country_id', 'name', 'timezone_id', 'type']);
    expect(
      (
        await post(
          '/manager/trainings/locations/edit.json',
          { name: 'Room', type: 'CLASSROOM', country_id: 'ES', timezone_id: 'Europe/Madrid' },
          instructor,
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await post('/manager/trainings/locations/edit.json', {
          id: harborLocation,
          name: 'Hijack',
          type: 'CLASSROOM',
          country_id: 'ES',
          timezone_id: 'Europe/Madrid',
        })
      ).status,
    ).toBe(404);
    expect(await count('training_locations')).toBe(before);
    const made = await ok(
      s.api('POST', '/manager/trainings/locations/edit.json', {
        token: ground,
        form: {
          name: 'Room 1',
          type: 'CLASSROOM',
          country_id: 'es',
          timezone_id: 'Europe/Madrid',
          phone: '+34 900 000 000',
        },
      }),
    );
    location = made.id;
    expect(made.Location).toMatchObject({
      name: 'Room 1',
      type: 'CLASSROOM',
      country_id: 'ES',
      timezone_id: 'Europe/Madrid',
      phone: '+34 900 000 000',
      address: null,
    });
    const edited = await ok(
      post('/manager/trainings/locations/edit.json', {
        id: location,
        name: 'Room 1A',
        type: 'CLASSROOM',
        country_id: 'ES',
        timezone_id: 'Europe/Madrid',
        address: 'Hangar 2',
      }),
    );
    expect(edited.Location).toMatchObject({ name: 'Room 1A', phone: '+34 900 000 000', address: 'Hangar 2' });
    const list = await ok(get('/trainings/locations.json', student));
    expect(list.locations.map((l: any) => l.Location.name)).toEqual(['Room 1A']);
    expect((await ok(get(`/trainings/locations/view/${location}.json`, student))).Location.id).toBe(location);
    expect((await get(`/trainings/locations/view/${harborLocation}.json`)).status).toBe(404);
    expect((await s.api('GET', '/trainings/locations.json')).status).toBe(401);
  });

  it('class create: bad input is 400 and writes nothing; roles; isolation', async () => {
    const before = [await count('training_sessions'), await count('training_session_students')];
    const path = '/manager/trainings/onsite/class.json';
    const bad = await post(path, { training_subject_id: subject, start: 'tomorrow', teacher_id: '', students: '' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(expect.arrayContaining(['start', 'teacher_id', 'students']));
    expect(
      (
        await post(path, {
          training_subject_id: subject,
          training_subject_lesson_id: otherLesson,
          start,
          teacher_id: instructorId,
          students: studentId,
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await post(path, {
          training_subject_id: subject,
          training_subject_lesson_id: lesson,
          training_subject_exam_id: exam,
          start,
          teacher_id: instructorId,
          students: studentId,
        })
      ).status,
    ).toBe(400);
    const notEnrolled = await post(path, {
      training_subject_id: subject,
      start,
      teacher_id: instructorId,
      students: `${studentId},${s.userId('dispatch@skyline.test')}`,
    });
    expect(notEnrolled.status).toBe(400);
    expect(notEnrolled.body.errors.students[0]).toContain('Not enrolled');
    expect(
      (
        await post(path, {
          training_subject_id: subject,
          start,
          teacher_id: instructorId,
          students: studentId,
          location_id: harborLocation,
        })
      ).status,
    ).toBe(400);
    expect(
      (await post(path, { training_subject_id: harborSubject, start, teacher_id: instructorId, students: studentId }))
        .status,
    ).toBe(404);
    expect(
      (
        await post(
          path,
          { training_subject_id: subject, start, teacher_id: instructorId, students: studentId },
          instructor,
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await post(
          path,
          { training_subject_id: subject, start, teacher_id: instructorId, students: studentId },
          student,
        )
      ).status,
    ).toBe(403);
    expect([await count('training_sessions'), await count('training_session_students')]).toEqual(before);
  });

  it('class create (form, notify): invitations by mail and notification, deadlines from the training defaults', async () => {
    const made = await ok(
      s.api('POST', '/manager/trainings/onsite/class.json', {
        token: head,
        form: {
          training_subject_id: subject,
          training_subject_lesson_id: lesson,
          start: String(start),
          teacher_id: instructorId,
          location_id: location,
          remarks: 'Bring a plotter',
          notify: 'true',
          students: `${studentId}, ${pilotId}`,
        },
      }),
    );
    klass = made.id;
    expect(made.invited).toBe(2);
    expect(made.Class).toMatchObject({
      minutes: 90,
      teacher_id: instructorId,
      location_id: location,
      classwork_deadline: start + 3 * 86400,
      justification_deadline: start + 5 * 86400,
      allow_classwork_upload: false,
      signed_at: null,
      Lesson: { id: lesson, name: 'Charts' },
      Location: { name: 'Room 1A' },
    });
    expect(made.Class.activity_id).toBeTruthy();
    expect(made.Class.SessionStudent.map((r: any) => [r.user_id, r.attendance_status, r.attended]).sort()).toEqual(
      [
        [pilotId, null, false],
        [studentId, null, false],
      ].sort(),
    );
    const mail = await smtp.waitFor(
      (m) => m.to.includes('student@skyline.test') && m.subject.startsWith('Class: Navigation'),
    );
    expect(mail.text).toContain('Charts');
    expect(mail.text).toContain('Room 1A');
    await smtp.waitFor((m) => m.to.includes('pilot@skyline.test') && m.subject.startsWith('Class: Navigation'));
    const notes = await ok(get('/notifications.json', student));
    expect(notes.notifications.some((n: any) => n.title === 'Class: Charts')).toBe(true);
    // Update: the student list replaces; explicit deadline kept; no invitations without notify.
    const upd = await ok(
      post('/manager/trainings/onsite/class.json', {
        id: klass,
        training_subject_id: subject,
        training_subject_exam_id: exam,
        start: start + 60,
        teacher_id: instructorId,
        students: [studentId],
        justification_deadline: start + 86400,
      }),
    );
    expect(upd.Class).toMatchObject({
      Exam: { id: exam },
      Lesson: null,
      datetime: start + 60,
      justification_deadline: start + 86400,
      classwork_deadline: start + 3 * 86400,
      location_id: null,
    });
    expect(upd.Class.SessionStudent.map((r: any) => r.user_id)).toEqual([studentId]);
    expect(upd.invited).toBe(0);
    const back = await ok(
      post('/manager/trainings/onsite/class.json', {
        id: klass,
        training_subject_id: subject,
        training_subject_lesson_id: lesson,
        start,
        teacher_id: instructorId,
        location_id: location,
        students: `${studentId},${pilotId}`,
      }),
    );
    expect(back.Class.SessionStudent).toHaveLength(2);
    expect(back.Class.justification_deadline).toBe(start + 86400);
  });

  it('class view: staff and teacher see everyone, a student their own row, others 403, another company 404', async () => {
    expect((await ok(get(`/trainings/onsite/class/${klass}.json`, instructor))).Class.SessionStudent).toHaveLength(2);
    expect((await ok(get(`/trainings/onsite/class/${klass}.json`, ground))).Class.SessionStudent).toHaveLength(2);
    const own = await ok(get(`/trainings/onsite/class/${klass}.json`, student));
    expect(own.Class.SessionStudent.map((r: any) => r.user_id)).toEqual([studentId]);
    expect((await get(`/trainings/onsite/class/${klass}.json`, dispatch)).status).toBe(403);
    expect((await get(`/trainings/onsite/class/${klass}.json`, harbor)).status).toBe(404);
    expect((await get('/trainings/onsite/class/nope.json')).status).toBe(404);
  });

  it('store attendance: the teacher or managers; bad input 400; others 403; another company 404', async () => {
    const path = '/trainings/onsite/store_attendance.json';
    expect(
      (
        await post(
          path,
          { classId: klass, students: [{ user_id: studentId, attendance_status: 'present' }] },
          instructor,
        )
      ).status,
    ).toBe(400);
    expect(
      (
        await post(
          path,
          { classId: klass, students: [{ user_id: s.userId('dispatch@skyline.test'), attendance_status: 'absent' }] },
          instructor,
        )
      ).status,
    ).toBe(400);
    expect((await post(path, { classId: klass }, instructor)).status).toBe(400);
    expect(
      (await post(path, { classId: klass, students: [{ user_id: studentId, attendance_status: 'attended' }] }, student))
        .status,
    ).toBe(403);
    expect(
      (
        await post(
          path,
          { classId: klass, students: [{ user_id: studentId, attendance_status: 'attended' }] },
          dispatch,
        )
      ).status,
    ).toBe(403);
    expect(
      (await post(path, { classId: klass, students: [{ user_id: studentId, attendance_status: 'attended' }] }, harbor))
        .status,
    ).toBe(404);
    const unchanged = await ok(get(`/trainings/onsite/class/${klass}.json`));
    expect(unchanged.Class.SessionStudent.every((r: any) => r.attendance_status === null)).toBe(true);
    const stored = await ok(
      post(path, { classId: klass, students: { [studentId]: 'attended_post_class', [pilotId]: 'absent' } }, instructor),
    );
    const by = Object.fromEntries(stored.Class.SessionStudent.map((r: any) => [r.user_id, r]));
    expect(by[studentId]).toMatchObject({ attendance_status: 'attended_post_class', attended: true });
    expect(by[pilotId]).toMatchObject({ attendance_status: 'absent', attended: false });
    // Managers may take attendance too; undecided is null.
    await ok(post(path, { classId: klass, students: [{ user_id: studentId, attendance_status: null }] }, ground));
    await ok(post(path, { classId: klass, students: [{ user_id: studentId, attendance_status: 'attended' }] }, ground));
  });

  it('sign: only the teacher, with their password; missed-class mail and notification once, never again after unsign and re-sign', async () => {
    const path = '/trainings/onsite/sign_class.json';
    const wrong = await post(path, { classId: klass, password: 'nope' }, instructor);
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('WRONG_PASSWORD');
    expect((await post(path, { classId: klass, password: 'demo1234' }, admin)).status).toBe(403);
    expect((await post(path, { classId: klass }, instructor)).status).toBe(400);
    expect((await post(path, { classId: klass, password: 'demo1234' }, harbor)).status).toBe(404);
    expect((await ok(get(`/trainings/onsite/class/${klass}.json`))).Class.signed_at).toBeNull();

    const signed = await ok(post(path, { classId: klass, password: 'demo1234' }, instructor));
    expect(signed.missed_mails).toBe(1);
    expect(signed.Class).toMatchObject({ signed_by: instructorId, signed_by_name: 'Ivan Instructor' });
    const missed = await smtp.waitFor((m) => m.to.includes('pilot@skyline.test') && m.subject.startsWith('You missed'));
    expect(missed.text).toContain('justification');
    const rows = Object.fromEntries(signed.Class.SessionStudent.map((r: any) => [r.user_id, r]));
    expect(rows[pilotId].missed_email_sent_at).toBeGreaterThan(0);
    expect(rows[studentId].missed_email_sent_at).toBeNull();
    expect(rows[studentId].attendance_notified_at).toBeGreaterThan(0);
    const notes = await ok(get('/notifications.json', pilot));
    expect(notes.notifications.filter((n: any) => n.title.startsWith('Attendance signed'))).toHaveLength(1);

    // Signed: no edits, no second signature, no delete.
    expect(
      (
        await post(
          '/trainings/onsite/store_attendance.json',
          { classId: klass, students: [{ user_id: pilotId, attendance_status: 'attended' }] },
          instructor,
        )
      ).body.code,
    ).toBe('CLASS_SIGNED');
    expect((await post(path, { classId: klass, password: 'demo1234' }, instructor)).body.code).toBe('CLASS_SIGNED');
    expect((await get(`/manager/trainings/onsite/delete_class/${klass}/true.json`)).status).toBe(400);
    expect(
      (
        await post('/manager/trainings/onsite/class.json', {
          id: klass,
          training_subject_id: subject,
          start,
          teacher_id: instructorId,
          students: studentId,
        })
      ).body.code,
    ).toBe('CLASS_SIGNED');

    // Unsign: teacher or managers only; then re-sign sends nothing twice.
    expect((await post('/trainings/onsite/unsign_class.json', { classId: klass }, student)).status).toBe(403);
    expect((await post('/trainings/onsite/unsign_class.json', { classId: klass }, harbor)).status).toBe(404);
    await ok(post('/trainings/onsite/unsign_class.json', { classId: klass }, instructor));
    expect((await post('/trainings/onsite/unsign_class.json', { classId: klass }, instructor)).body.code).toBe(
      'CLASS_NOT_SIGNED',
    );
    await ok(
      post(
        '/trainings/onsite/store_attendance.json',
        { classId: klass, students: [{ user_id: studentId, attendance_status: 'absent' }] },
        instructor,
      ),
    );
    const again = await ok(post(path, { classId: klass, password: 'demo1234' }, instructor));
    expect(again.missed_mails).toBe(1);
    await smtp.waitFor((m) => m.to.includes('student@skyline.test') && m.subject.startsWith('You missed'));
    await ok(post('/trainings/onsite/unsign_class.json', { classId: klass }, ground));
    const third = await ok(post(path, { classId: klass, password: 'demo1234' }, instructor));
    expect(third.missed_mails).toBe(0);
    expect(smtp.to('pilot@skyline.test').filter((m) => m.subject.startsWith('You missed'))).toHaveLength(1);
    expect(smtp.to('student@skyline.test').filter((m) => m.subject.startsWith('You missed'))).toHaveLength(1);
    expect(
      (await ok(get('/notifications.json', pilot))).notifications.filter((n: any) =>
        n.title.startsWith('Attendance signed'),
      ),
    ).toHaveLength(1);
    expect(
      (await ok(get('/notifications.json', student))).notifications.filter((n: any) =>
        n.title.startsWith('Attendance signed'),
      ),
    ).toHaveLength(1);
    const outbox = await s.ctx.db
      .selectFrom('mail_outbox')
      .select('to_address')
      .where('template', '=', 'class_missed')
      .execute();
    expect(outbox.map((o) => o.to_address).sort()).toEqual(['pilot@skyline.test', 'student@skyline.test']);
  });

  it('evaluations: the teacher or managers write; the student reads their own; isolation', async () => {
    const empty = await ok(get(`/trainings/onsite/get_student_evaluation/${klass}/${studentId}.json`, instructor));
    expect(empty.Evaluation).toMatchObject({ id: null, remarks: null });
    const path = '/trainings/onsite/save_student_evaluation.json';
    const before = await count('training_evaluations');
    expect((await post(path, { class_id: klass }, instructor)).status).toBe(400);
    expect((await post(path, { class_id: klass, student_id: studentId, remarks: 'x' }, student)).status).toBe(403);
    expect((await post(path, { class_id: klass, student_id: studentId, remarks: 'x' }, dispatch)).status).toBe(403);
    expect(
      (await post(path, { class_id: klass, student_id: s.userId('dispatch@skyline.test'), remarks: 'x' }, instructor))
        .status,
    ).toBe(404);
    expect((await post(path, { class_id: klass, student_id: studentId, remarks: 'x' }, harbor)).status).toBe(404);
    expect(await count('training_evaluations')).toBe(before);
    const saved = await ok(
      s.api('POST', path, {
        token: instructor,
        form: {
          class_id: klass,
          student_id: studentId,
          remarks: 'Good plotting',
          measures: 'More practice',
          objectives: 'Wind triangle',
        },
      }),
    );
    expect(saved.Evaluation).toMatchObject({
      remarks: 'Good plotting',
      measures: 'More practice',
      objectives: 'Wind triangle',
      evaluated_by: instructorId,
    });
    const partial = await ok(
      post(path, { class_id: klass, student_id: studentId, objectives: 'Wind triangle and drift' }, ground),
    );
    expect(partial.Evaluation).toMatchObject({
      remarks: 'Good plotting',
      objectives: 'Wind triangle and drift',
      evaluated_by: groundId,
    });
    expect(
      (await ok(get(`/trainings/onsite/get_student_evaluation/${klass}/${studentId}.json`, student))).Evaluation
        .remarks,
    ).toBe('Good plotting');
    expect((await get(`/trainings/onsite/get_student_evaluation/${klass}/${studentId}.json`, pilot)).status).toBe(403);
    expect((await get(`/trainings/onsite/get_student_evaluation/${klass}/${studentId}.json`, harbor)).status).toBe(404);
  });

  it('delete class: managers only, unsigned only, another company 404', async () => {
    const other = await ok(
      post('/manager/trainings/onsite/class.json', {
        training_subject_id: subject,
        start: start + 86400,
        teacher_id: groundId,
        students: pilotId,
      }),
    );
    expect((await get(`/manager/trainings/onsite/delete_class/${other.id}/true.json`, instructor)).status).toBe(403);
    expect((await get(`/manager/trainings/onsite/delete_class/${other.id}/true.json`, harbor)).status).toBe(404);
    // A class taught by someone else: the instructor cannot take its attendance.
    expect(
      (
        await post(
          '/trainings/onsite/store_attendance.json',
          { classId: other.id, students: [{ user_id: pilotId, attendance_status: 'absent' }] },
          instructor,
        )
      ).status,
    ).toBe(403);
    await ok(get(`/manager/trainings/onsite/delete_class/${other.id}/true.json`));
    expect((await get(`/trainings/onsite/class/${other.id}.json`)).status).toBe(404);
    const rows = await s.ctx.db
      .selectFrom('training_session_students')
      .select('deleted')
      .where('session_id', '=', other.id)
      .execute();
    expect(rows.every((r) => r.deleted === 1)).toBe(true);
  });
});
