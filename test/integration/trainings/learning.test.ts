import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoTodayClassStart } from '../../../server/src/areas/trainings/trainings.seed.ts';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';

/** Subjects and the activity order, lessons and slides, online exams (Part B 4.7 items 6-14, 17). */
describe.each(DIALECTS)('trainings subjects, lessons and exams on %s', (dialect) => {
  let s: TestServer;
  let admin: string;
  let ground: string;
  let instructor: string;
  let student: string;
  let pilot: string;
  let harbor: string;
  let training: string;
  let subject: string;
  let lesson: string;
  let quiz: string;
  let enrollment: string;
  let harborSubject: string;
  let studentId: string;

  const post = (path: string, body: unknown, token = admin) => s.api('POST', path, { token, body });
  const get = (path: string, token = admin) => s.api('GET', path, { token });
  const ok = async (p: Promise<{ status: number; body: any }>) => {
    const r = await p;
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };

  beforeAll(async () => {
    s = await startTestServer(dialect);
    [admin, ground, instructor, student, pilot, harbor] = await Promise.all(
      [
        'admin@skyline.test',
        'ground@skyline.test',
        'instructor@skyline.test',
        'student@skyline.test',
        'pilot@skyline.test',
        'admin@harbor.test',
      ].map((e) => s.login(e)),
    );
    studentId = s.userId('student@skyline.test');
    training = (
      await ok(post('/manager/trainings/trainings/create.json', { name: 'PPL theory', type: 'ONSITE', theory: true }))
    ).id;
    subject = (
      await ok(
        post('/manager/trainings/subjects/edit.json', {
          training_id: training,
          name: 'Navigation',
          teacher_id: s.userId('instructor@skyline.test'),
        }),
      )
    ).id;
    lesson = (
      await ok(
        post('/manager/trainings/lessons/edit.json', {
          training_subject_id: subject,
          name: 'Charts',
          minutes: 50,
          slides: [
            { title: 'Projections', content: 'Lambert' },
            { title: 'Symbols', content: 'VOR' },
            { title: 'Scale' },
          ],
        }),
      )
    ).id;
    quiz = (
      await ok(
        post('/manager/trainings/subjects/add_exam.json', {
          training_subject_id: subject,
          name: 'Nav quiz',
          type: 'ONLINE',
          attempts: 2,
          score: 50,
          show_answers: true,
          question_list: [
            { text: '1 NM in metres?', options: [{ text: '1852', correct: true }, { text: '1609' }] },
            { text: 'True north is…', options: [{ text: 'Geographic', correct: true }, { text: 'Magnetic' }] },
          ],
        }),
      )
    ).id;
    enrollment = (
      await ok(post('/manager/trainings/students/enroll.json', { training_id: training, students: [studentId] }))
    ).results[studentId].TrainingsUser.id;
    const ht = (
      await ok(post('/manager/trainings/trainings/create.json', { name: 'Harbor course', type: 'ONSITE' }, harbor))
    ).id;
    harborSubject = (
      await ok(post('/manager/trainings/subjects/edit.json', { training_id: ht, name: 'Club rules' }, harbor))
    ).id;
  });
  afterAll(() => s?.close());

  it('add_exam: ONSITE forced FREE, window default 10, validation, teacher-only above 135', async () => {
    const onsite = await ok(
      post('/manager/trainings/subjects/add_exam.json', {
        training_subject_id: subject,
        name: 'Plotting test',
        type: 'ONSITE',
        access_mode: 'SCHEDULED',
        access_window_days: 3,
      }),
    );
    expect(onsite.Exam).toMatchObject({ type: 'ONSITE', access_mode: 'FREE', access_window_days: null });
    expect(onsite.Exam.questions).toBeUndefined();
    const sched = await ok(
      post(
        '/manager/trainings/subjects/add_exam.json',
        {
          training_subject_id: subject,
          name: 'Scheduled test',
          type: 'ONLINE',
          access_mode: 'SCHEDULED',
          access_window_days: 0,
        },
        instructor,
      ),
    );
    expect(sched.Exam).toMatchObject({ access_mode: 'SCHEDULED', access_window_days: 10 });
    const edited = await ok(
      post(
        '/manager/trainings/subjects/add_exam.json',
        { id: sched.id, training_subject_id: subject, name: 'Scheduled test', access_window_days: 4 },
        instructor,
      ),
    );
    expect(edited.Exam.access_window_days).toBe(4);
    expect(
      (await post('/manager/trainings/subjects/add_exam.json', { training_subject_id: subject, name: 'X' }, student))
        .status,
    ).toBe(403);
    expect(
      (await post('/manager/trainings/subjects/add_exam.json', { training_subject_id: subject, name: '' })).status,
    ).toBe(400);
    expect(
      (
        await post('/manager/trainings/subjects/add_exam.json', {
          training_subject_id: subject,
          name: 'X',
          type: 'ORAL',
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await post('/manager/trainings/subjects/add_exam.json', {
          training_subject_id: subject,
          name: 'X',
          type: 'ONLINE',
          question_list: [{ text: 'Q', options: [{ text: 'a' }, { text: 'b' }] }],
        })
      ).status,
    ).toBe(400);
    expect(
      (await post('/manager/trainings/subjects/add_exam.json', { training_subject_id: harborSubject, name: 'X' }))
        .status,
    ).toBe(404);
    const list = await ok(get(`/manager/trainings/exams/list/${subject}.json`, ground));
    expect(list.exams.map((x: any) => [x.name, x.type, x.access_mode]).sort()).toEqual([
      ['Plotting test', 'ONSITE', 'FREE'],
      ['Scheduled test', 'ONLINE', 'SCHEDULED'],
    ]);
    expect((await get(`/manager/trainings/exams/list/${harborSubject}.json`)).status).toBe(404);
    expect((await get(`/manager/trainings/exams/list/${subject}.json`, instructor)).status).toBe(403);
  });

  it('subject view repairs activities; reorder drops foreign ids; teachers by role; impact preview', async () => {
    // A lesson from before the unified order: no activity row.
    const legacy = (
      await ok(
        post('/manager/trainings/lessons/edit.json', {
          training_subject_id: subject,
          name: 'Old lesson',
          minutes: 20,
          mandatory: false,
        }),
      )
    ).id;
    await s.ctx.db.deleteFrom('training_activities').where('entity_id', '=', legacy).execute();
    await s.ctx.db.updateTable('training_activities').set({ deleted: 1 }).where('entity_id', '=', quiz).execute();
    const view = await ok(get(`/manager/trainings/subjects/view/${subject}.json`, ground));
    expect(view.subject.total_minutes).toBe(50);
    expect(view.subject.TrainingActivity.length).toBe(5);
    expect(view.subject.TrainingActivity.some((a: any) => a.lesson_id === legacy)).toBe(true);
    expect(view.subject.TrainingActivity.some((a: any) => a.exam_id === quiz)).toBe(true);
    const ids = view.subject.TrainingActivity.map((a: any) => a.id).reverse();
    const harborActivity = 'not-in-subject';
    const re = await ok(
      post(
        '/manager/trainings/subjects/reorder_activities.json',
        { id: subject, items: [harborActivity, ...ids] },
        instructor,
      ),
    );
    expect(re.items).toEqual(ids);
    const after = await ok(get(`/manager/trainings/subjects/view/${subject}.json`));
    expect(after.subject.TrainingActivity.map((a: any) => a.id)).toEqual(ids);
    expect(
      (await post('/manager/trainings/subjects/reorder_activities.json', { id: subject, items: ids }, pilot)).status,
    ).toBe(403);
    expect(
      (await post('/manager/trainings/subjects/reorder_activities.json', { id: harborSubject, items: [] })).status,
    ).toBe(404);
    expect(
      (await post('/manager/trainings/subjects/reorder_activities.json', { id: subject, items: 'x' })).status,
    ).toBe(400);
    expect((await get(`/manager/trainings/subjects/view/${harborSubject}.json`)).status).toBe(404);
    // Restore the intended order: lesson, quiz first.
    const lessonAct = after.subject.TrainingActivity.find((a: any) => a.lesson_id === lesson).id;
    const quizAct = after.subject.TrainingActivity.find((a: any) => a.exam_id === quiz).id;
    await ok(post('/manager/trainings/subjects/reorder_activities.json', { id: subject, items: [lessonAct, quizAct] }));
    const teachers = await ok(get('/manager/trainings/subjects/teachers.json', ground));
    expect(teachers.teachers['Flight instructor']).toEqual({
      [s.userId('instructor@skyline.test')]: 'Ivan Instructor',
    });
    expect(teachers.teachers['Ground instructor']).toEqual({ [s.userId('ground@skyline.test')]: 'Greta Ground' });
    expect(JSON.stringify(teachers)).not.toContain('Harbor');
    const impact = await ok(post('/manager/trainings/subjects/activity_impact.json', { lesson_id: lesson }));
    expect(impact).toMatchObject({ studentsCompleted: 0, studentsTouched: 0, examAttempts: 0, sessions: 0 });
    expect(
      (await post('/manager/trainings/subjects/activity_impact.json', { lesson_id: lesson, exam_id: quiz })).status,
    ).toBe(400);
    expect((await post('/manager/trainings/subjects/activity_impact.json', {})).status).toBe(400);
    expect((await post('/manager/trainings/subjects/activity_impact.json', { exam_id: 'nope' })).status).toBe(404);
  });

  it('lessons: view, slides with navigation, completion, attendance; strangers get 404', async () => {
    const slides = await ok(get(`/trainings/lessons/slides/${lesson}.json`, student));
    expect(slides.slides.map((x: any) => x.title)).toEqual(['Projections', 'Symbols', 'Scale']);
    const second = await ok(get(`/trainings/lessons/slide/${slides.slides[1].id}.json`, student));
    expect(second.Slide.content).toBe('VOR');
    expect(second.navigation).toEqual({ index: 2, total: 3, previous: slides.slides[0].id, next: slides.slides[2].id });
    expect((await get(`/trainings/lessons/slides/${lesson}.json`, pilot)).status).toBe(404);
    expect((await get(`/trainings/lessons/slide/${slides.slides[0].id}.json`, harbor)).status).toBe(404);
    await ok(
      s.api('POST', '/trainings/lessons/complete.json', {
        token: student,
        form: { lessonId: lesson, timeSpent: '300', enrollmentId: enrollment },
      }),
    );
    await ok(
      s.api('POST', '/trainings/lessons/complete.json', {
        token: student,
        form: { lessonId: lesson, timeSpent: '120', enrollmentId: enrollment },
      }),
    );
    expect(
      (
        await s.api('POST', '/trainings/lessons/complete.json', {
          token: student,
          form: { lessonId: lesson, timeSpent: '-1', enrollmentId: enrollment },
        })
      ).status,
    ).toBe(400);
    const view = await ok(get(`/trainings/lessons/view/${lesson}/${enrollment}.json`, student));
    expect(view.Lesson).toMatchObject({ name: 'Charts', minutes: 50, slides_count: 3 });
    expect(view.Progress).toMatchObject({ value: 1, time_spent: 420 });
    expect(view.Attendance).toEqual([]);
    expect((await get(`/trainings/lessons/view/${lesson}/${enrollment}.json`, pilot)).status).toBe(403);
    expect((await get(`/trainings/lessons/view/${lesson}/${enrollment}.json`, harbor)).status).toBe(404);
    const att = await ok(get(`/trainings/lessons/attendance/${subject}.json`, student));
    expect(att.attendance).toEqual([]);
    expect((await get(`/trainings/lessons/attendance/${subject}.json`, pilot)).status).toBe(404);
    expect((await get(`/trainings/lessons/attendance/${harborSubject}.json`, instructor)).status).toBe(404);
  });

  it('online exam: start, questions without answers, answer, finish, result; limits and strangers', async () => {
    const index = await ok(get(`/trainings/exams/index/subject:${subject}.json`, student));
    expect(index.exams.map((x: any) => x.Exam.name).sort()).toEqual(['Nav quiz', 'Scheduled test']);
    expect((await get(`/trainings/exams/index/course:${subject}.json`, student)).status).toBe(400);
    expect((await get(`/trainings/exams/index/lesson:${lesson}.json`, student)).body.exams).toEqual([]);
    expect((await get(`/trainings/exams/index/subject:${harborSubject}.json`, student)).status).toBe(404);
    const preview = await ok(get(`/trainings/exams/start/${enrollment}/${quiz}.json`, student));
    expect(preview).toMatchObject({ can_start: true, ExamAttempt: [] });
    expect((await post(`/trainings/exams/start/${enrollment}/${quiz}.json`, {}, instructor)).status).toBe(403);
    const started = await ok(post(`/trainings/exams/start/${enrollment}/${quiz}.json`, {}, student));
    const again = await ok(post(`/trainings/exams/start/${enrollment}/${quiz}.json`, {}, student));
    expect(again.attempt_id).toBe(started.attempt_id);
    const paper = await ok(get(`/trainings/exams/do/${started.attempt_id}.json`, student));
    expect(paper.questions.length).toBe(2);
    expect(JSON.stringify(paper.questions)).not.toContain('correct');
    expect((await get(`/trainings/exams/do/${started.attempt_id}.json`, pilot)).status).toBe(404);
    const [q1, q2] = paper.questions;
    expect(
      (
        await post(
          '/trainings/exams/answer.json',
          { attemptDetailId: q1.attemptDetailId, questionOptionId: q2.options[0].id },
          student,
        )
      ).status,
    ).toBe(400);
    expect(
      (
        await post(
          '/trainings/exams/answer.json',
          { attemptDetailId: q1.attemptDetailId, questionOptionId: q1.options[0].id },
          pilot,
        )
      ).status,
    ).toBe(404);
    expect((await post('/trainings/exams/answer.json', { attemptDetailId: q1.attemptDetailId }, student)).status).toBe(
      400,
    );
    await ok(
      post(
        '/trainings/exams/answer.json',
        { attemptDetailId: q1.attemptDetailId, questionOptionId: q1.options[1].id },
        student,
      ),
    );
    await ok(
      post(
        '/trainings/exams/answer.json',
        { attemptDetailId: q2.attemptDetailId, questionOptionId: q2.options[1].id },
        student,
      ),
    );
    const failed = await ok(get(`/trainings/exams/finish/${started.attempt_id}.json`, student));
    expect(failed.ExamAttempt).toMatchObject({ correct: 0, total: 2, score: 0, passed: false });
    expect(
      (
        await post(
          '/trainings/exams/answer.json',
          { attemptDetailId: q1.attemptDetailId, questionOptionId: q1.options[0].id },
          student,
        )
      ).status,
    ).toBe(400);
    expect((await get(`/trainings/exams/do/${started.attempt_id}.json`, student)).status).toBe(400);
    const result = await ok(get(`/trainings/exams/view/${started.attempt_id}.json`, student));
    expect(result.questions[0]).toMatchObject({ correct_option_id: q1.options[0].id, is_correct: false });
    expect((await get(`/trainings/exams/view/${started.attempt_id}.json`, pilot)).status).toBe(404);
    // Second attempt passes; the limit (2) is then reached.
    const second = await ok(post(`/trainings/exams/start/${enrollment}/${quiz}.json`, {}, student));
    const p2 = await ok(get(`/trainings/exams/do/${second.attempt_id}.json`, student));
    await ok(
      post(
        '/trainings/exams/answer.json',
        { attemptDetailId: p2.questions[0].attemptDetailId, questionOptionId: p2.questions[0].options[0].id },
        student,
      ),
    );
    const passed = await ok(get(`/trainings/exams/finish/${second.attempt_id}.json`, student));
    expect(passed.ExamAttempt).toMatchObject({ correct: 1, score: 50, passed: true });
    const blocked = await ok(post(`/trainings/exams/start/${enrollment}/${quiz}.json`, {}, student));
    expect(blocked).toMatchObject({ result: false, reason: 'PASSED' });
    const summary = await ok(get(`/trainings/students/summary/${enrollment}.json`, student));
    expect(summary.theory.progress).toMatchObject({ completed: 2 });
  });

  it('student subject view: ordered activities, attempts newest first, pre-reset attempts only for managers', async () => {
    const view = await ok(get(`/trainings/subjects/view/${enrollment}/${subject}.json`, student));
    const kinds = view.subject.TrainingActivity.map((a: any) => a.kind);
    expect(kinds[0]).toBe('LESSON');
    expect(kinds[1]).toBe('EXAM');
    expect(view.subject.Lesson).toBeUndefined();
    const exam = view.subject.TrainingActivity[1];
    expect(exam.Exam.name).toBe('Nav quiz');
    expect(exam.ExamAttempt.map((a: any) => a.passed)).toEqual([true, false]);
    // Reset the quiz: the student sees no attempts, managers see them marked.
    await s.ctx.db
      .updateTable('training_progress')
      .set({ reset_at: Math.floor(Date.now() / 1000) + 5, value: 0 })
      .where('activity_id', '=', exam.id)
      .execute();
    const afterReset = await ok(get(`/trainings/subjects/view/${enrollment}/${subject}.json`, student));
    expect(afterReset.subject.TrainingActivity[1].ExamAttempt).toEqual([]);
    const manager = await ok(get(`/manager/trainings/students/view/${enrollment}.json`, ground));
    const mExam = manager.subjects[0].TrainingActivity.find((a: any) => a.kind === 'EXAM' && a.Exam.id === quiz);
    expect(mExam.ExamAttempt.map((a: any) => a.reset)).toEqual([true, true]);
    expect(manager.TrainingsUser.notes).toBeNull();
    expect((await get(`/manager/trainings/students/view/${enrollment}.json`, harbor)).status).toBe(404);
    expect((await get(`/manager/trainings/students/view/${enrollment}.json`, student)).status).toBe(403);
    expect((await get(`/trainings/subjects/view/${enrollment}/${subject}.json`, instructor)).status).toBe(200);
    expect((await get(`/trainings/subjects/view/${enrollment}/${subject}.json`, pilot)).status).toBe(403);
    expect((await get(`/trainings/subjects/view/${enrollment}/${harborSubject}.json`, admin)).status).toBe(404);
    const full = await ok(get(`/trainings/trainings/view/${enrollment}.json`, student));
    expect(full.ExamAttempt.map((a: any) => a.passed)).toEqual([false, true]);
    expect(full.ExamAttempt[0].Exam).toMatchObject({ name: 'Nav quiz', type: 'ONLINE' });
    expect(full.Training.Subject[0].Lesson[0]).toEqual(expect.objectContaining({ name: 'Charts', minutes: 50 }));
    expect((await get(`/trainings/trainings/view/${enrollment}.json`, pilot)).status).toBe(403);
    expect((await get(`/trainings/trainings/view/${enrollment}.json`, harbor)).status).toBe(404);
    const mine = await ok(get('/trainings/subjects/mine.json', student));
    expect(mine.subjects.map((x: any) => [x.Subject.name, x.enrollment_id])).toEqual([['Navigation', enrollment]]);
    expect((await ok(get('/trainings/subjects/mine.json', pilot))).subjects).toEqual([]);
  });
});

describe.each(DIALECTS)('trainings demo data on %s', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(dialect, { seed: 'demo' });
  });
  afterAll(() => s?.close());

  it('the demo student is enrolled in a real course with progress, a passed test, a class today and one tomorrow', async () => {
    const token = await s.login('student@skyline.test');
    const mine = await s.api('GET', '/trainings.json', { token });
    expect(mine.status).toBe(200);
    const row = mine.body.trainings[0];
    expect(row.Training).toMatchObject({
      name: 'PPL(A) Integrated course',
      subjects_count: 3,
      Lessons: { total: 10, completed: 5, finished: false },
      FlightProgress: { completed: 2, total: 5 },
    });
    // Today's class starts half an hour after seeding (before, late in the school's evening).
    const todayClassAhead = demoTodayClassStart(Math.floor(Date.now() / 1000)) > Date.now() / 1000;
    expect(mine.body.upcoming.length).toBe(todayClassAhead ? 2 : 1);
    const summary = await s.api('GET', `/trainings/students/summary/${row.TrainingsUser.id}.json`, { token });
    expect(summary.body.theory).toEqual({
      progress: { completed: 5, total: 10, percentage: 50 },
      attendance: { given: todayClassAhead ? 2 : 3, taken: 1 },
    });
    // Part 2 demo: locations, classes in the calendar, a pending justification, one debriefing to sign.
    expect(
      (await s.api('GET', '/trainings/locations.json', { token })).body.locations.map((l: any) => l.Location.name),
    ).toEqual(['Briefing room 1', 'Classroom A']);
    const now = Math.floor(Date.now() / 1000);
    const cal = await s.api(
      'GET',
      `/trainings/trainings/calendar.json?start=${now - 10 * 86400}&end=${now + 10 * 86400}&timeZone=Europe/Madrid`,
      { token },
    );
    expect(cal.body.events.map((e: any) => [e.signed, e.attendance_status])).toEqual([
      [true, 'attended'],
      [true, 'absent'],
      [false, null],
      [false, null],
    ]);
    expect(
      (await s.api('GET', `/trainings/onsite/justifications/${cal.body.events[1].id}.json`, { token })).body
        .justifications[0].status,
    ).toBe('pending');
    // Meteorology's class work is graded (the offline "My training" shows it, test/e2e/trainings.test.ts).
    expect(
      (await s.api('GET', `/trainings/onsite/classwork/${cal.body.events[0].id}.json`, { token })).body.students[0]
        .Grade,
    ).toMatchObject({ score: 8.5, feedback: expect.stringContaining('Good sketches') });
    expect(
      (await s.api('GET', '/trainings/missions/unsigned.json', { token })).body.missions.map(
        (m: any) => m.mission_name,
      ),
    ).toEqual(['Circuits']);
    const manager = await s.api('GET', '/manager/trainings.json', {
      token: await s.login('headtraining@skyline.test'),
    });
    expect(manager.body.trainings.map((t: any) => [t.Training.name, t.Training.students_count])).toEqual([
      ['PPL(A) Integrated course', 1],
    ]);
  });
});
