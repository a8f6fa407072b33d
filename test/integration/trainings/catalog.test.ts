import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';

/** Catalog, schema, enrollments, states and the student summary (Part B 4.7 items 1-5, 18). */
describe.each(DIALECTS)('trainings catalog and enrollments on %s', (dialect) => {
  let s: TestServer;
  let admin: string;
  let head: string;
  let ground: string;
  let instructor: string;
  let dispatch: string;
  let student: string;
  let pilot: string;
  let harbor: string;
  let ppl: string;
  let harborTraining: string;
  let subjectA: string;
  let lesson1: string;
  let lesson2: string;
  let gate: string;
  let studentId: string;
  let pilotId: string;
  let enrollment: string;

  const post = (path: string, body: unknown, token = admin) => s.api('POST', path, { token, body });
  const ok = async (p: Promise<{ status: number; body: any }>) => {
    const r = await p;
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };
  const count = async (table: 'training_enrollments' | 'trainings') =>
    Number(
      (
        await s.ctx.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    s = await startTestServer(dialect);
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
    ppl = (
      await ok(
        post('/manager/trainings/trainings/create.json', {
          name: 'PPL(A) Integrated',
          type: 'ONSITE',
          theory: true,
          flights: true,
          start: '2026-01-01',
          end: '2027-12-31',
          color: '#2266aa',
        }),
      )
    ).id;
    harborTraining = (
      await ok(
        post(
          '/manager/trainings/trainings/create.json',
          { name: 'Club refresher', type: 'ONSITE', theory: true },
          harbor,
        ),
      )
    ).id;
    subjectA = (
      await ok(
        post('/manager/trainings/subjects/edit.json', {
          training_id: ppl,
          name: 'Air Law',
          teacher_id: s.userId('ground@skyline.test'),
        }),
      )
    ).id;
    lesson1 = (
      await ok(
        post('/manager/trainings/lessons/edit.json', {
          training_subject_id: subjectA,
          name: 'ICAO annexes',
          minutes: 90,
          slides: [{ title: 'Intro', content: '<p>Annexes</p>' }, { title: 'Annex 2' }],
        }),
      )
    ).id;
    lesson2 = (
      await ok(
        post('/manager/trainings/lessons/edit.json', {
          training_subject_id: subjectA,
          name: 'Rules of the air',
          minutes: 60,
        }),
      )
    ).id;
    await ok(
      post('/manager/trainings/lessons/edit.json', {
        training_subject_id: subjectA,
        name: 'Optional reading',
        minutes: 30,
        mandatory: false,
      }),
    );
    gate = (
      await ok(
        post('/manager/trainings/subjects/add_exam.json', {
          training_subject_id: subjectA,
          training_subject_lesson_id: lesson1,
          name: 'Annex check',
          type: 'ONSITE',
        }),
      )
    ).id;
    await ok(
      post('/manager/trainings/subjects/add_exam.json', {
        training_subject_id: subjectA,
        name: 'Air Law final',
        type: 'ONSITE',
      }),
    );
    const flightTypes = await s.ctx.db
      .selectFrom('flight_types')
      .select(['id', 'name'])
      .where('company_id', '=', s.refs.companies.skyline)
      .execute();
    const dual = flightTypes.find((f) => f.name === 'Dual training')?.id;
    const solo = flightTypes.find((f) => f.name === 'Solo')?.id;
    await ok(
      post('/manager/trainings/missions/edit.json', {
        training_id: ppl,
        name: 'Effects of controls',
        flight_type_id: dual,
        minutes: 60,
      }),
    );
    await ok(
      post('/manager/trainings/missions/edit.json', {
        training_id: ppl,
        name: 'Circuits',
        flight_type_id: dual,
        minutes: 90,
      }),
    );
    await ok(
      post('/manager/trainings/missions/edit.json', {
        training_id: ppl,
        name: 'First solo',
        flight_type_id: solo,
        minutes: 30,
      }),
    );
  });
  afterAll(() => s?.close());

  it('creates trainings with 400 on bad input and 403 below the manager roles', async () => {
    const before = await count('trainings');
    const bad = await post('/manager/trainings/trainings/create.json', { name: '', type: 'SPACE' });
    expect(bad.status).toBe(400);
    expect(bad.body.result).toBe(false);
    expect(Object.keys(bad.body.errors)).toEqual(expect.arrayContaining(['name', 'type']));
    expect(
      (
        await post('/manager/trainings/trainings/create.json', {
          name: 'X',
          type: 'ONSITE',
          start: '2026-05-01',
          end: '2026-01-01',
        })
      ).status,
    ).toBe(400);
    expect(
      (await post('/manager/trainings/trainings/create.json', { name: 'X', type: 'ONSITE' }, instructor)).status,
    ).toBe(403);
    expect(
      (await s.api('POST', '/manager/trainings/trainings/create.json', { body: { name: 'X', type: 'ONSITE' } })).status,
    ).toBe(401);
    expect(await count('trainings')).toBe(before);
  });

  it('templates copy the structure; edits save the deadline defaults', async () => {
    const tpl = await ok(
      post('/manager/trainings/trainings/create.json', {
        name: 'Template: ATPL theory',
        type: 'DISTANCE',
        theory: true,
        template: true,
      }),
    );
    const sub = await ok(post('/manager/trainings/subjects/edit.json', { training_id: tpl.id, name: 'Meteorology' }));
    await ok(
      post('/manager/trainings/lessons/edit.json', { training_subject_id: sub.id, name: 'Clouds', minutes: 45 }),
    );
    await ok(
      post('/manager/trainings/subjects/add_exam.json', {
        training_subject_id: sub.id,
        name: 'Met quiz',
        type: 'ONLINE',
        question_list: [{ text: 'Cb?', options: [{ text: 'Cumulonimbus', correct: true }, { text: 'Cirrus' }] }],
      }),
    );
    const templates = await ok(s.api('GET', '/manager/trainings/trainings/templates.json', { token: ground }));
    expect(templates.templates.map((t: any) => [t.Training.name, t.Training.subjects_count])).toEqual([
      ['Template: ATPL theory', 1],
    ]);
    expect(
      (await s.api('GET', '/manager/trainings/trainings/templates.json', { token: harbor })).body.templates,
    ).toEqual([]);
    const copy = await ok(
      post('/manager/trainings/trainings/create.json', { name: 'ATPL 2026', type: 'DISTANCE', template_id: tpl.id }),
    );
    expect(copy.Training).toMatchObject({ name: 'ATPL 2026', type: 'DISTANCE', theory: true });
    const schema = await ok(s.api('GET', `/trainings/trainings/schema/${copy.id}.json`, { token: admin }));
    expect(schema.ground_hours_total).toBe(0.75);
    expect(
      (
        await post('/manager/trainings/trainings/create.json', {
          name: 'Y',
          type: 'ONSITE',
          template_id: harborTraining,
        })
      ).status,
    ).toBe(404);
    const edited = await ok(
      post('/manager/trainings/trainings/edit.json', {
        id: copy.id,
        classwork_deadline_default_days: 3,
        justification_deadline_default_days: 5,
        active: false,
      }),
    );
    expect(edited.Training).toMatchObject({
      classwork_deadline_default_days: 3,
      justification_deadline_default_days: 5,
      active: false,
      name: 'ATPL 2026',
    });
    expect((await post('/manager/trainings/trainings/edit.json', { id: harborTraining, name: 'Hijack' })).status).toBe(
      404,
    );
  });

  it('schema: ground hours from live lessons of live subjects, missions per flight type; 400 without id, 404 elsewhere', async () => {
    const schema = await ok(s.api('GET', `/trainings/trainings/schema/${ppl}.json`, { token: student }));
    expect(schema.ground_hours_total).toBe(3);
    expect(schema.flight_hours_total).toBe(3);
    expect(schema.flights_per_flight_type.map((f: any) => [f.missions, f.hours]).sort()).toEqual([
      [1, 0.5],
      [2, 2.5],
    ]);
    const missing = await s.api('GET', '/trainings/trainings/schema.json', { token: admin });
    expect(missing.status).toBe(400);
    expect(missing.body.result).toBe(false);
    expect((await s.api('GET', `/trainings/trainings/schema/${harborTraining}.json`, { token: admin })).status).toBe(
      404,
    );
    expect((await s.api('GET', `/trainings/trainings/schema/${ppl}.json`)).status).toBe(401);
  });

  it('enroll: 400 and 404 exactly as item 18, nothing written', async () => {
    const before = await count('training_enrollments');
    const path = '/manager/trainings/students/enroll.json';
    expect((await post(path, {})).status).toBe(400);
    expect((await post(path, { students: [studentId] })).status).toBe(400);
    expect((await post(path, { training_id: ppl, students: studentId })).status).toBe(400);
    expect((await post(path, { training_id: ppl, students: [] })).status).toBe(404);
    expect((await post(path, { training_id: harborTraining, students: [studentId] })).status).toBe(404);
    expect((await post(path, { training_id: ppl, students: [studentId], finish_before: 'soon' })).status).toBe(400);
    expect((await s.api('GET', path, { token: admin })).status).toBe(400);
    expect((await post(path, { training_id: ppl, students: [studentId] }, instructor)).status).toBe(403);
    expect(await count('training_enrollments')).toBe(before);
  });

  it('enroll users and pilot groups; skips unfinished, re-enrolls finished, notifies on active trainings', async () => {
    const groupId = `g-${dialect}`;
    await s.ctx.db
      .insertInto('pilot_groups')
      .values({
        id: groupId,
        company_id: s.refs.companies.skyline,
        name: 'Spring intake',
        color: '#ff0000',
        created: 0,
        modified: 0,
      })
      .execute();
    const first = await ok(
      s.api('POST', '/manager/trainings/students/enroll.json', {
        token: head,
        form: { training_id: ppl, 'students[0]': studentId, finish_before: '0' },
      }),
    );
    expect(Object.keys(first.results)).toEqual([studentId]);
    enrollment = first.results[studentId].TrainingsUser.id;
    expect(first.results[studentId].TrainingsUser).toMatchObject({
      status: 'ACTIVE',
      finished: false,
      finish_before: null,
      status_reason: null,
    });
    const notes = await ok(s.api('GET', '/notifications.json', { token: student }));
    expect(notes.notifications.some((n: any) => n.title === 'Enrolled in PPL(A) Integrated')).toBe(true);
    {
      await s.ctx.db
        .insertInto('pilot_group_members')
        .values([
          {
            id: `m1-${dialect}`,
            company_id: s.refs.companies.skyline,
            pilot_group_id: groupId,
            user_id: studentId,
            created: 0,
          },
          {
            id: `m2-${dialect}`,
            company_id: s.refs.companies.skyline,
            pilot_group_id: groupId,
            user_id: pilotId,
            created: 0,
          },
        ])
        .execute();
      const again = await ok(
        post('/manager/trainings/students/enroll.json', {
          training_id: ppl,
          students: [studentId, groupId],
          supervisor_id: s.userId('instructor@skyline.test'),
          finish_before: 1900000000,
        }),
      );
      expect(Object.keys(again.results)).toEqual([pilotId]);
      expect(again.skipped).toEqual([studentId]);
      expect(again.results[pilotId].TrainingsUser).toMatchObject({
        finish_before: 1900000000,
        supervisor_id: s.userId('instructor@skyline.test'),
      });
    }
    expect(
      (
        await post('/manager/trainings/students/enroll.json', {
          training_id: ppl,
          students: [s.userId('pilot@harbor.test', 'harbor')],
        })
      ).body.results,
    ).toEqual({});
  });

  it('states: manager transitions with reasons; finished enrollments allow a new one', async () => {
    const path = '/manager/trainings/students/status.json';
    const other = (
      await ok(
        post(
          '/manager/trainings/students/enroll.json',
          { training_id: harborTraining, students: [s.userId('pilot@harbor.test', 'harbor')] },
          harbor,
        ),
      )
    ).results;
    const harborEnrollment = (Object.values(other)[0] as any).TrainingsUser.id;
    expect((await post(path, { id: harborEnrollment, status: 'STOPPED', status_reason: 'x' })).status).toBe(404);
    const stopped = await ok(post(path, { id: enrollment, status: 'STOPPED', status_reason: 'Medical' }));
    expect(stopped.TrainingsUser).toMatchObject({ status: 'STOPPED', status_reason: 'Medical', finished: false });
    expect((await post(path, { id: enrollment, status: 'FAILED' })).status).toBe(400);
    expect((await post(path, { id: enrollment, status: 'DONE' })).status).toBe(400);
    expect((await post(path, { id: enrollment, status: 'ACTIVE' }, instructor)).status).toBe(403);
    const resumed = await ok(post(path, { id: enrollment, status: 'ACTIVE' }));
    expect(resumed.TrainingsUser).toMatchObject({ status: 'ACTIVE', status_reason: null });
    expect((await ok(post(path, { id: enrollment, status: 'ACTIVE' }))).result).toBe(false);
    const pilotEnrollment = (
      await s.ctx.db.selectFrom('training_enrollments').select('id').where('user_id', '=', pilotId).executeTakeFirst()
    )?.id;
    if (pilotEnrollment) {
      const done = await ok(post(path, { id: pilotEnrollment, status: 'EXPELLED', status_reason: 'Conduct' }));
      expect(done.TrainingsUser.finished).toBe(true);
      expect((await post(path, { id: pilotEnrollment, status: 'ACTIVE' })).status).toBe(400);
      const re = await ok(post('/manager/trainings/students/enroll.json', { training_id: ppl, students: [pilotId] }));
      expect(Object.keys(re.results)).toEqual([pilotId]);
      expect(re.results[pilotId].TrainingsUser.id).not.toBe(pilotEnrollment);
    }
    const notes = await ok(
      post('/manager/trainings/students/notes.json', { id: enrollment, notes: 'Strong on theory' }),
    );
    expect(notes.notes).toBe('Strong on theory');
    expect((await post('/manager/trainings/students/notes.json', { id: harborEnrollment, notes: 'x' })).status).toBe(
      404,
    );
    expect((await post('/manager/trainings/students/notes.json', { id: enrollment }, admin)).status).toBe(400);
  });

  it('students list with filters; manager list with counts; isolation', async () => {
    const all = await ok(s.api('GET', `/manager/trainings/students/list/training:${ppl}.json`, { token: ground }));
    expect(all.students.length).toBe(3);
    expect(all.students[0].Progress.theory).toMatchObject({ total: 3 });
    const open = await ok(
      s.api('GET', `/manager/trainings/students/list/training:${ppl}/finished:0/username:stef.json`, { token: ground }),
    );
    expect(open.students.map((r: any) => r.User.email)).toEqual(['student@skyline.test']);
    expect(open.students[0].TrainingsUser.notes).toBe('Strong on theory');
    expect(
      (await ok(s.api('GET', '/manager/trainings/students/list/group:190/finished:1.json', { token: ground }))).students
        .length,
    ).toBe(1);
    expect((await s.api('GET', '/manager/trainings/students/list/bogus:1.json', { token: ground })).status).toBe(400);
    expect((await s.api('GET', '/manager/trainings/students/list/finished:maybe.json', { token: ground })).status).toBe(
      400,
    );
    expect(
      (await s.api('GET', `/manager/trainings/students/list/training:${harborTraining}.json`, { token: ground }))
        .status,
    ).toBe(404);
    expect((await s.api('GET', '/manager/trainings/students/list.json', { token: instructor })).status).toBe(403);
    const list = await ok(s.api('GET', '/manager/trainings.json', { token: ground }));
    const row = list.trainings.find((t: any) => t.Training.id === ppl).Training;
    expect(row).toMatchObject({ students_count: 3, subjects_count: 1, name: 'PPL(A) Integrated' });
    expect(row.TrainingSubject).toBeUndefined();
    expect(list.trainings.map((t: any) => t.Training.name)).toEqual(
      [...list.trainings.map((t: any) => t.Training.name)].sort(),
    );
    expect(list.trainings.some((t: any) => t.Training.id === harborTraining)).toBe(false);
    expect(list.pagination).toMatchObject({ page: 1, limit: 50 });
    expect((await s.api('GET', '/manager/trainings.json', { token: instructor })).status).toBe(403);
    expect((await s.api('GET', '/manager/trainings.json?page=0', { token: admin })).status).toBe(400);
  });

  it('GET /trainings.json: the student’s rows with Lessons and FlightProgress; teachers see what they teach', async () => {
    const mine = await ok(s.api('GET', '/trainings.json', { token: student }));
    expect(mine.trainings.length).toBe(1);
    const t = mine.trainings[0];
    expect(t.role).toBe('student');
    expect(t.Training).toMatchObject({
      id: ppl,
      subjects_count: 1,
      Lessons: { total: 3, completed: 0, finished: false },
      FlightProgress: { completed: 0, total: 3 },
    });
    for (const gone of ['TrainingSubject', 'LessonClass', 'Phase', 'LastFlight', 'Progress'])
      expect(t.Training[gone]).toBeUndefined();
    const teacher = await ok(s.api('GET', '/trainings.json', { token: ground }));
    expect(teacher.trainings.map((r: any) => [r.role, r.Training.id])).toEqual([['teacher', ppl]]);
    const noTheory = await ok(
      post('/manager/trainings/trainings/create.json', { name: 'Type rating sim', type: 'ONSITE' }),
    );
    await ok(post('/manager/trainings/students/enroll.json', { training_id: noTheory.id, students: [studentId] }));
    const both = await ok(s.api('GET', '/trainings.json', { token: student }));
    const sim = both.trainings.find((r: any) => r.Training.id === noTheory.id).Training;
    expect(sim.Lessons).toBeUndefined();
    expect(sim.FlightProgress).toBeUndefined();
    expect(sim.subjects_count).toBe(0);
    // user_id is honoured only for API users.
    const asOther = await ok(s.api('GET', `/trainings.json?user_id=${pilotId}`, { token: student }));
    expect(asOther.trainings.length).toBe(2);
    expect((await s.api('GET', '/trainings.json')).status).toBe(401);
  });

  it('progress: lesson completion with its gate, exams, and the summary (403/404/400)', async () => {
    const complete = (lessonId: string, token = student, e = enrollment) =>
      s.api('POST', '/trainings/lessons/complete.json', {
        token,
        form: { lessonId, timeSpent: '600', enrollmentId: e },
      });
    expect(
      (
        await s.api('POST', '/trainings/lessons/complete.json', {
          token: student,
          form: { lessonId: lesson1, enrollmentId: enrollment },
        })
      ).status,
    ).toBe(400);
    expect((await complete(lesson1, pilot)).status).toBe(403);
    expect((await ok(complete(lesson1))).result).toBe(true);
    let summary = await ok(s.api('GET', `/trainings/students/summary/${enrollment}.json`, { token: student }));
    // The lesson waits for its gate exam.
    expect(summary.theory.progress).toEqual({ completed: 0, total: 3, percentage: 0 });
    await ok(complete(lesson2));
    const gateActivity = await s.ctx.db
      .selectFrom('training_activities')
      .select('id')
      .where('entity_id', '=', gate)
      .executeTakeFirstOrThrow();
    await s.ctx.db
      .insertInto('training_progress')
      .values({
        id: `p-${dialect}`,
        company_id: s.refs.companies.skyline,
        change_no: 0,
        deleted: 0,
        created: 0,
        modified: 0,
        enrollment_id: enrollment,
        activity_id: gateActivity.id,
        value: 1,
        session_id: null,
        reset_at: null,
        time_spent: 0,
      })
      .execute();
    summary = await ok(s.api('GET', `/trainings/students/summary/${enrollment}.json`, { token: dispatch }));
    expect(summary.theory.progress).toEqual({ completed: 2, total: 3, percentage: 66 });
    expect(summary).toMatchObject({
      status: 'ACTIVE',
      status_reason: null,
      flight: {
        progress: { total: 3, completed: 0 },
        attendance: { attempts: 0, passed: 0 },
        hours: { planned: 3, flown: 0 },
      },
    });
    expect(summary.theory.attendance).toEqual({ given: 0, taken: 0 });
    const mine = await ok(s.api('GET', '/trainings.json', { token: student }));
    expect(mine.trainings.find((r: any) => r.Training.id === ppl).Training.Lessons).toEqual({
      total: 3,
      completed: 2,
      finished: false,
    });
    expect((await s.api('GET', `/trainings/students/summary/${enrollment}.json`, { token: pilot })).status).toBe(403);
    expect((await s.api('GET', '/trainings/students/summary.json', { token: admin })).status).toBe(400);
    expect((await s.api('GET', `/trainings/students/summary/${enrollment}.json`, { token: harbor })).status).toBe(404);
    expect((await s.api('GET', '/trainings/students/summary/nope.json', { token: admin })).status).toBe(404);
  });

  it('summary and GET /trainings.json follow structure edits at once (structure cached by company version)', async () => {
    const t = (
      await ok(post('/manager/trainings/trainings/create.json', { name: 'Cache check', type: 'ONSITE', theory: true }))
    ).id;
    const subject = (await ok(post('/manager/trainings/subjects/edit.json', { training_id: t, name: 'Meteorology' })))
      .id;
    await ok(
      post('/manager/trainings/lessons/edit.json', { training_subject_id: subject, name: 'Clouds', minutes: 30 }),
    );
    const enrolled = await ok(
      s.api('POST', '/manager/trainings/students/enroll.json', {
        token: head,
        form: { training_id: t, 'students[0]': studentId },
      }),
    );
    const e = enrolled.results[studentId].TrainingsUser.id;
    const totals = async () => [
      (await ok(s.api('GET', `/trainings/students/summary/${e}.json`, { token: student }))).theory.progress.total,
      (await ok(s.api('GET', '/trainings.json', { token: student }))).trainings.find((r: any) => r.Training.id === t)
        .Training.Lessons.total,
    ];
    expect(await totals()).toEqual([1, 1]);
    const fronts = (
      await ok(
        post('/manager/trainings/lessons/edit.json', { training_subject_id: subject, name: 'Fronts', minutes: 30 }),
      )
    ).id;
    expect(await totals()).toEqual([2, 2]);
    await ok(
      post('/manager/trainings/lessons/edit.json', {
        id: fronts,
        training_subject_id: subject,
        name: 'Fronts',
        minutes: 30,
        mandatory: false,
      }),
    );
    expect(await totals()).toEqual([1, 1]);
  });

  it('summary: attendance of past invited classes and landed block time of missions', async () => {
    const now = Math.floor(Date.now() / 1000);
    const company = s.refs.companies.skyline;
    const base = { company_id: company, change_no: 0, deleted: 0, created: 0, modified: 0 };
    const session = (id: string, datetime: number) => ({
      ...base,
      id,
      training_id: ppl,
      subject_id: subjectA,
      activity_id: null,
      lesson_id: lesson1,
      exam_id: null,
      datetime,
      minutes: 60,
      teacher_id: s.userId('ground@skyline.test'),
      location_id: null,
      remarks: null,
      allow_classwork_upload: 0,
      classwork_deadline: null,
      classwork_description: null,
      classwork_notified_at: null,
      justification_deadline: null,
      signed_at: null,
      signed_by: null,
    });
    await s.ctx.db
      .insertInto('training_sessions')
      .values([
        session(`c1-${dialect}`, now - 86400),
        session(`c2-${dialect}`, now - 3600),
        session(`c3-${dialect}`, now + 86400),
      ])
      .execute();
    const ss = (id: string, sessionId: string, status: string | null) => ({
      ...base,
      id,
      session_id: sessionId,
      user_id: studentId,
      enrollment_id: enrollment,
      invited: 1,
      attended: 0,
      attendance_status: status,
      missed_email_sent_at: null,
      attendance_notified_at: null,
    });
    await s.ctx.db
      .insertInto('training_session_students')
      .values([
        ss(`s1-${dialect}`, `c1-${dialect}`, 'attended'),
        ss(`s2-${dialect}`, `c2-${dialect}`, 'absent'),
        ss(`s3-${dialect}`, `c3-${dialect}`, null),
      ])
      .execute();
    const flight = await s.ctx.db
      .selectFrom('flights')
      .select('id')
      .where('company_id', '=', company)
      .where('status', '=', 'LANDED')
      .where('block_time', '>', 0)
      .executeTakeFirst();
    const missions = await s.ctx.db
      .selectFrom('training_missions')
      .select(['id'])
      .where('training_id', '=', ppl)
      .orderBy('position')
      .execute();
    await s.ctx.db
      .insertInto('training_mission_flights')
      .values([
        {
          ...base,
          id: `mf1-${dialect}`,
          enrollment_id: enrollment,
          mission_id: missions[0]?.id ?? '',
          flight_id: flight?.id ?? null,
          user_id: studentId,
          completed: 1,
          debrief_signed_at: null,
        },
        {
          ...base,
          id: `mf2-${dialect}`,
          enrollment_id: enrollment,
          mission_id: missions[1]?.id ?? '',
          flight_id: null,
          user_id: studentId,
          completed: 0,
          debrief_signed_at: null,
        },
      ])
      .execute();
    const summary = await ok(s.api('GET', `/trainings/students/summary/${enrollment}.json`, { token: student }));
    expect(summary.theory.attendance).toEqual({ given: 2, taken: 1 });
    expect(summary.flight.progress).toEqual({ total: 3, completed: 1 });
    expect(summary.flight.attendance).toEqual({ attempts: 2, passed: 1 });
    if (flight) {
      const bt = await s.ctx.db
        .selectFrom('flights')
        .select('block_time')
        .where('id', '=', flight.id)
        .executeTakeFirstOrThrow();
      expect(summary.flight.hours.flown).toBe(Math.round((Number(bt.block_time) / 3600) * 10) / 10);
    }
    const mine = await ok(s.api('GET', '/trainings.json', { token: student }));
    expect(mine.upcoming.map((u: any) => u.Session.id)).toEqual([`c3-${dialect}`]);
    expect(mine.trainings.find((r: any) => r.Training.id === ppl).Training.FlightProgress).toEqual({
      completed: 1,
      total: 3,
    });
  });

  it('teaching report per teacher between dates', async () => {
    const now = Math.floor(Date.now() / 1000);
    const r = await ok(
      post(
        '/manager/trainings/trainings/teaching_report.json',
        { training: ppl, from: now - 7 * 86400, to: now },
        head,
      ),
    );
    expect(r.report).toEqual([
      {
        teacher_id: s.userId('ground@skyline.test'),
        name: 'Greta',
        surname: 'Ground',
        sessions: 2,
        minutes: 120,
        hours: 2,
      },
    ]);
    expect(
      (
        await post(
          '/manager/trainings/trainings/teaching_report.json',
          { training: ppl, from: now, to: now - 10 },
          head,
        )
      ).status,
    ).toBe(400);
    expect((await post('/manager/trainings/trainings/teaching_report.json', { training: ppl }, head)).status).toBe(400);
    expect(
      (
        await post(
          '/manager/trainings/trainings/teaching_report.json',
          { training: harborTraining, from: 0, to: now },
          head,
        )
      ).status,
    ).toBe(404);
    expect(
      (await post('/manager/trainings/trainings/teaching_report.json', { training: ppl, from: 0, to: now }, student))
        .status,
    ).toBe(403);
  });
});
