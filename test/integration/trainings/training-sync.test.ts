import { uuidv7 } from '@ops/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { pullAll, push } from '../../setup/sync.ts';

/**
 * The `training` sync collection (issue 18 item 7, issue 19 item 9): who
 * receives which rows, company isolation, and the two offline writes
 * (a student's lesson completion, a class's attendance) re-decided on push;
 * the read-only classwork grades and absence justifications.
 */
describe.each(DIALECTS)('training sync collection on %s', (dialect) => {
  let s: TestServer;
  const tokens = new Map<string, string>();
  const t = async (email: string) => {
    if (!tokens.has(email)) tokens.set(email, await s.login(email));
    return tokens.get(email) as string;
  };
  let training: string;
  let lesson: string;
  let lessonActivity: string;
  let examActivity: string;
  let studentEnrollment: string;
  let pilotEnrollment: string;
  let ownClass: string;
  let groundClass: string;
  let signedClass: string;
  let rows: Record<string, string>;
  let harborTraining: string;
  const grades: Record<string, string> = {};
  const justifications: Record<string, string> = {};

  const ok = async (p: Promise<{ status: number; body: any }>) => {
    const r = await p;
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };
  const post = async (path: string, body: unknown, email = 'admin@skyline.test') =>
    ok(s.api('POST', path, { token: await t(email), body }));
  const docs = async (email: string) =>
    (await pullAll(s, await t(email), 'training')).docs.filter((d: any) => !d._deleted);
  const ids = async (email: string, type: string) =>
    (await docs(email)).filter((d: any) => d.type === type).map((d: any) => d.id);
  const reasonOf = async (id: string) =>
    (await s.ctx.db
      .selectFrom('sync_outcomes')
      .select(['status', 'reason'])
      .where('document_id', '=', id)
      .orderBy('created', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst()) ?? null;
  const ssRow = (id: string) =>
    s.ctx.db
      .selectFrom('training_session_students')
      .select(['attendance_status', 'attended', 'change_no'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  /** A class and its students, written through the data layer with real change numbers (the class endpoints are REST, another part). */
  async function addClass(teacher: string, students: Array<[string, string]>, signed = false) {
    const company = s.refs.companies.skyline;
    const id = uuidv7();
    const now = Math.floor(Date.now() / 1000);
    const made: Record<string, string> = {};
    const { subject_id } = await s.ctx.db
      .selectFrom('training_lessons')
      .select('subject_id')
      .where('id', '=', lesson)
      .executeTakeFirstOrThrow();
    await s.ctx.tx(async (uow) => {
      const base = async (table: string) => ({
        company_id: company,
        change_no: await uow.changeNo(company, table),
        deleted: 0,
        created: now,
        modified: now,
      });
      await uow.trx
        .insertInto('training_sessions')
        .values({
          id,
          ...(await base('training_sessions')),
          training_id: training,
          subject_id,
          activity_id: lessonActivity,
          lesson_id: lesson,
          exam_id: null,
          datetime: now + 600,
          minutes: 60,
          teacher_id: s.userId(teacher),
          location_id: null,
          remarks: null,
          allow_classwork_upload: 0,
          classwork_deadline: null,
          classwork_description: null,
          classwork_notified_at: null,
          justification_deadline: null,
          signed_at: signed ? now : null,
          signed_by: signed ? s.userId(teacher) : null,
        })
        .execute();
      for (const [email, enrollment] of students) {
        const ssId = uuidv7();
        made[email] = ssId;
        await uow.trx
          .insertInto('training_session_students')
          .values({
            id: ssId,
            ...(await base('training_session_students')),
            session_id: id,
            user_id: s.userId(email),
            enrollment_id: enrollment,
            invited: 1,
            attended: 0,
            attendance_status: null,
            missed_email_sent_at: null,
            attendance_notified_at: null,
          })
          .execute();
      }
    });
    return { id, students: made };
  }

  /** A grade or a justification of a class student, written through the data layer (REST has its own tests). */
  async function addGrade(classId: string, rowId: string, email: string, score: number, grader: string) {
    const company = s.refs.companies.skyline;
    const id = uuidv7();
    const now = Math.floor(Date.now() / 1000);
    await s.ctx.tx(async (uow) => {
      const change_no = await uow.changeNo(company, 'training_classwork_grades');
      await uow.trx
        .insertInto('training_classwork_grades')
        .values({
          id,
          company_id: company,
          change_no,
          deleted: 0,
          created: now,
          modified: now,
          session_student_id: rowId,
          session_id: classId,
          user_id: s.userId(email),
          upload_id: null,
          score,
          feedback: 'Neat work',
          graded_by: s.userId(grader),
          graded_at: now,
        })
        .execute();
    });
    return id;
  }
  async function addJustification(classId: string, rowId: string, email: string, status: string) {
    const company = s.refs.companies.skyline;
    const id = uuidv7();
    const now = Math.floor(Date.now() / 1000);
    await s.ctx.tx(async (uow) => {
      const change_no = await uow.changeNo(company, 'training_justifications');
      await uow.trx
        .insertInto('training_justifications')
        .values({
          id,
          company_id: company,
          change_no,
          deleted: 0,
          created: now,
          modified: now,
          session_student_id: rowId,
          session_id: classId,
          user_id: s.userId(email),
          upload_id: null,
          text: 'I was sick',
          status,
          reviewed_by: status === 'pending' ? null : s.userId('ground@skyline.test'),
          reviewed_at: status === 'pending' ? null : now,
          review_note: status === 'rejected' ? 'No certificate' : null,
        })
        .execute();
    });
    return id;
  }

  beforeAll(async () => {
    s = await startTestServer(dialect);
    training = (
      await post('/manager/trainings/trainings/create.json', {
        name: 'PPL ground school',
        type: 'ONSITE',
        theory: true,
      })
    ).id;
    const subject = (
      await post('/manager/trainings/subjects/edit.json', {
        training_id: training,
        name: 'Navigation',
        teacher_id: s.userId('instructor@skyline.test'),
      })
    ).id;
    lesson = (
      await post('/manager/trainings/lessons/edit.json', { training_subject_id: subject, name: 'Charts', minutes: 50 })
    ).id;
    await post('/manager/trainings/subjects/add_exam.json', {
      training_subject_id: subject,
      name: 'Nav oral',
      type: 'ONSITE',
    });
    const enrolled = await post('/manager/trainings/students/enroll.json', {
      training_id: training,
      students: [s.userId('student@skyline.test'), s.userId('pilot@skyline.test')],
    });
    studentEnrollment = enrolled.results[s.userId('student@skyline.test')].TrainingsUser.id;
    pilotEnrollment = enrolled.results[s.userId('pilot@skyline.test')].TrainingsUser.id;
    const acts = await s.ctx.db
      .selectFrom('training_activities')
      .select(['id', 'kind'])
      .where('training_id', '=', training)
      .execute();
    lessonActivity = acts.find((a) => a.kind === 'LESSON')?.id as string;
    examActivity = acts.find((a) => a.kind === 'EXAM')?.id as string;
    const both: Array<[string, string]> = [
      ['student@skyline.test', studentEnrollment],
      ['pilot@skyline.test', pilotEnrollment],
    ];
    const own = await addClass('instructor@skyline.test', both);
    const ground = await addClass('ground@skyline.test', both);
    const signed = await addClass('instructor@skyline.test', [['student@skyline.test', studentEnrollment]], true);
    ownClass = own.id;
    groundClass = ground.id;
    signedClass = signed.id;
    rows = {
      ownStudent: own.students['student@skyline.test'],
      ownPilot: own.students['pilot@skyline.test'],
      groundStudent: ground.students['student@skyline.test'],
      groundPilot: ground.students['pilot@skyline.test'],
      signedStudent: signed.students['student@skyline.test'],
    };
    grades.ownStudent = await addGrade(
      ownClass,
      rows.ownStudent,
      'student@skyline.test',
      8.25,
      'instructor@skyline.test',
    );
    grades.groundPilot = await addGrade(groundClass, rows.groundPilot, 'pilot@skyline.test', 6, 'ground@skyline.test');
    justifications.groundStudent = await addJustification(
      groundClass,
      rows.groundStudent,
      'student@skyline.test',
      'pending',
    );
    justifications.ownPilot = await addJustification(ownClass, rows.ownPilot, 'pilot@skyline.test', 'rejected');
    harborTraining = (
      await post(
        '/manager/trainings/trainings/create.json',
        { name: 'Harbor course', type: 'ONSITE' },
        'admin@harbor.test',
      )
    ).id;
  });
  afterAll(() => s?.close());

  it('is one collection of the budget, writable', async () => {
    const r = await s.api('GET', '/sync/collections.json', { token: await t('student@skyline.test') });
    const c = r.body.collections.find((x: any) => x.name === 'training');
    expect(c).toBeTruthy();
    expect(c.writable).toBe(true);
  });

  it('a student receives the structure, the timetable and only their own enrollment, progress and class rows', async () => {
    const all = await docs('student@skyline.test');
    const of = (type: string) => all.filter((d: any) => d.type === type);
    expect(of('training').map((d: any) => d.id)).toContain(training);
    expect(of('training').find((d: any) => d.id === training)).toMatchObject({
      name: 'PPL ground school',
      training_type: 'ONSITE',
      active: true,
    });
    expect(of('lesson').map((d: any) => d.id)).toContain(lesson);
    expect(of('exam').find((d: any) => d.name === 'Nav oral')).toMatchObject({ exam_type: 'ONSITE' });
    expect(of('activity').map((d: any) => d.id)).toEqual(expect.arrayContaining([lessonActivity, examActivity]));
    expect(of('class').map((d: any) => d.id)).toEqual(expect.arrayContaining([ownClass, groundClass, signedClass]));
    expect(of('enrollment').map((d: any) => d.id)).toEqual([studentEnrollment]);
    expect(
      of('class_student')
        .map((d: any) => d.id)
        .sort(),
    ).toEqual([rows.ownStudent, rows.groundStudent, rows.signedStudent].sort());
    expect(all.every((d: any) => d.type !== 'class_student' || d.user_id === s.userId('student@skyline.test'))).toBe(
      true,
    );
  });

  it('a flight instructor receives the students of the classes they teach, not of the others; a ground instructor (135) every row', async () => {
    const mine = await ids('instructor@skyline.test', 'class_student');
    expect(mine.sort()).toEqual([rows.ownStudent, rows.ownPilot, rows.signedStudent].sort());
    expect(await ids('instructor@skyline.test', 'enrollment')).toEqual([]);
    const ground = await ids('ground@skyline.test', 'class_student');
    expect(ground).toEqual(expect.arrayContaining(Object.values(rows)));
    expect(await ids('ground@skyline.test', 'enrollment')).toEqual(
      expect.arrayContaining([studentEnrollment, pilotEnrollment]),
    );
    // The supervisor of an enrollment receives it.
    await s.ctx.db
      .updateTable('training_enrollments')
      .set({ supervisor_id: s.userId('instructor@skyline.test') })
      .where('id', '=', pilotEnrollment)
      .execute();
    expect(await ids('instructor@skyline.test', 'enrollment')).toEqual([pilotEnrollment]);
  });

  it('isolation: another company receives none of it and cannot write it', async () => {
    const harbor = await docs('admin@harbor.test');
    expect(harbor.map((d: any) => d.id)).toContain(harborTraining);
    const skyline = new Set([training, lesson, lessonActivity, studentEnrollment, ownClass, ...Object.values(rows)]);
    expect(harbor.filter((d: any) => skyline.has(d.id))).toEqual([]);
    const before = await ssRow(rows.ownStudent);
    const r = await push(s, await t('admin@harbor.test'), 'training', [
      {
        assumedMasterState: null,
        newDocumentState: {
          id: rows.ownStudent,
          type: 'class_student',
          session_id: ownClass,
          user_id: s.userId('student@skyline.test'),
          attendance_status: 'absent',
          invited: true,
          attended: false,
          modified: 0,
        },
      },
    ]);
    expect(r.status).toBe(200);
    expect(r.body.conflicts).toEqual([expect.objectContaining({ id: rows.ownStudent, _deleted: true })]);
    expect(r.body.conflicts[0].session_id ?? '').toBe('');
    expect(await ssRow(rows.ownStudent)).toEqual(before);
  });

  describe('grades and justifications (read-only)', () => {
    it('the student receives their own, with the REST field names', async () => {
      expect(await ids('student@skyline.test', 'grade')).toEqual([grades.ownStudent]);
      expect(await ids('student@skyline.test', 'justification')).toEqual([justifications.groundStudent]);
      const all = await docs('student@skyline.test');
      expect(all.find((d: any) => d.id === grades.ownStudent)).toMatchObject({
        class_id: ownClass,
        session_student_id: rows.ownStudent,
        user_id: s.userId('student@skyline.test'),
        score: 8.3,
        feedback: 'Neat work',
        graded_by: s.userId('instructor@skyline.test'),
        class_teacher_id: s.userId('instructor@skyline.test'),
      });
      expect(all.find((d: any) => d.id === justifications.groundStudent)).toMatchObject({
        class_id: groundClass,
        session_student_id: rows.groundStudent,
        status: 'pending',
        text: 'I was sick',
        reviewed_by: null,
        review_note: null,
      });
      expect(await ids('pilot@skyline.test', 'grade')).toEqual([grades.groundPilot]);
      const pilot = await docs('pilot@skyline.test');
      expect(pilot.filter((d: any) => d.type === 'justification')).toEqual([
        expect.objectContaining({ id: justifications.ownPilot, status: 'rejected', review_note: 'No certificate' }),
      ]);
    });

    it('the class teacher receives those of the classes they teach; a manager (135) all; an admin all', async () => {
      expect(await ids('instructor@skyline.test', 'grade')).toEqual([grades.ownStudent]);
      expect(await ids('instructor@skyline.test', 'justification')).toEqual([justifications.ownPilot]);
      for (const email of ['ground@skyline.test', 'admin@skyline.test']) {
        expect((await ids(email, 'grade')).sort()).toEqual(Object.values(grades).sort());
        expect((await ids(email, 'justification')).sort()).toEqual(Object.values(justifications).sort());
      }
      expect(await ids('dispatch@skyline.test', 'grade')).toEqual([]);
      expect(await ids('dispatch@skyline.test', 'justification')).toEqual([]);
    });

    it('isolation: another company receives none', async () => {
      const harbor = new Set((await docs('admin@harbor.test')).map((d: any) => d.id));
      for (const id of [...Object.values(grades), ...Object.values(justifications)]) expect(harbor.has(id)).toBe(false);
    });

    it('pushes are refused, nothing changed: the student changing their grade or justification, the teacher, a new grade', async () => {
      const gradeRow = () =>
        s.ctx.db
          .selectFrom('training_classwork_grades')
          .select(['score', 'change_no'])
          .where('id', '=', grades.ownStudent)
          .executeTakeFirstOrThrow();
      const justRow = () =>
        s.ctx.db
          .selectFrom('training_justifications')
          .select(['status', 'change_no'])
          .where('id', '=', justifications.groundStudent)
          .executeTakeFirstOrThrow();
      const beforeGrade = await gradeRow();
      const beforeJust = await justRow();
      const cases: Array<[string, string, Record<string, unknown>]> = [
        ['student@skyline.test', grades.ownStudent, { score: 10 }],
        ['instructor@skyline.test', grades.ownStudent, { score: 1 }],
        ['student@skyline.test', justifications.groundStudent, { status: 'approved' }],
        ['ground@skyline.test', justifications.groundStudent, { status: 'approved' }],
      ];
      for (const [email, id, change] of cases) {
        const master = (await docs(email)).find((d: any) => d.id === id);
        const r = await push(s, await t(email), 'training', [
          { assumedMasterState: master, newDocumentState: { ...master, ...change } },
        ]);
        expect(r.status).toBe(200);
        expect(r.body.conflicts.map((c: any) => c.id)).toEqual([id]);
        const key = Object.keys(change)[0] as string;
        expect(r.body.conflicts[0][key]).toBe(master[key]);
        expect((await reasonOf(id))?.reason).toMatch(/cannot change/);
      }
      const fresh = uuidv7();
      const r = await push(s, await t('instructor@skyline.test'), 'training', [
        {
          assumedMasterState: null,
          newDocumentState: {
            id: fresh,
            type: 'grade',
            class_id: ownClass,
            session_student_id: rows.ownPilot,
            user_id: s.userId('pilot@skyline.test'),
            score: 9,
            graded_by: s.userId('instructor@skyline.test'),
            graded_at: 0,
            created: 0,
            modified: 0,
          },
        },
      ]);
      expect(r.body.conflicts).toEqual([expect.objectContaining({ id: fresh, _deleted: true })]);
      expect(await gradeRow()).toEqual(beforeGrade);
      expect(await justRow()).toEqual(beforeJust);
      expect(
        await s.ctx.db.selectFrom('training_classwork_grades').select('id').where('id', '=', fresh).executeTakeFirst(),
      ).toBeUndefined();
    });
  });

  describe('attendance offline', () => {
    const mark = async (email: string, rowId: string, status: unknown) => {
      const master = (await docs(email)).find((d: any) => d.id === rowId) ?? null;
      const next = {
        ...(master ?? {
          id: rowId,
          type: 'class_student',
          session_id: ownClass,
          user_id: s.userId('student@skyline.test'),
          invited: true,
          attended: false,
          modified: 0,
        }),
        attendance_status: status,
      };
      const r = await push(s, await t(email), 'training', [{ assumedMasterState: master, newDocumentState: next }]);
      expect(r.status).toBe(200);
      return r.body.conflicts as any[];
    };

    it('the class teacher marks attendance: stored with the attended flag the status implies', async () => {
      await mark('instructor@skyline.test', rows.ownStudent, 'attended');
      await mark('instructor@skyline.test', rows.ownPilot, 'absent');
      expect(await ssRow(rows.ownStudent)).toMatchObject({ attendance_status: 'attended', attended: 1 });
      expect(await ssRow(rows.ownPilot)).toMatchObject({ attendance_status: 'absent', attended: 0 });
      const seen = (await docs('student@skyline.test')).find((d: any) => d.id === rows.ownStudent);
      expect(seen).toMatchObject({ attendance_status: 'attended', attended: true });
    });

    it('a training manager (135) marks attendance of a class they do not teach', async () => {
      await mark('ground@skyline.test', rows.ownPilot, 'attended_post_class');
      expect(await ssRow(rows.ownPilot)).toMatchObject({ attendance_status: 'attended_post_class', attended: 1 });
    });

    it('refused with the reason, nothing changed: a student, another instructor, a signed class, an unknown status', async () => {
      const cases: Array<[string, string, unknown, string]> = [
        [
          'student@skyline.test',
          rows.groundStudent,
          'attended',
          'Only the class teacher or a training manager may take attendance.',
        ],
        [
          'instructor@skyline.test',
          rows.signedStudent,
          'absent',
          'The attendance of this class is signed; unsign it before changing it.',
        ],
        [
          'ground@skyline.test',
          rows.signedStudent,
          'absent',
          'The attendance of this class is signed; unsign it before changing it.',
        ],
        ['instructor@skyline.test', rows.ownStudent, 'present', 'Unknown attendance status present'],
      ];
      for (const [email, rowId, status, reason] of cases) {
        const before = await ssRow(rowId);
        const conflicts = await mark(email, rowId, status);
        expect(conflicts.map((c) => c.id)).toEqual([rowId]);
        expect((await reasonOf(rowId))?.reason).toContain(reason);
        expect(await ssRow(rowId)).toEqual(before);
      }
      // A flight instructor pushing a row of a class they do not teach never sees its content, and changes nothing.
      const before = await ssRow(rows.groundPilot);
      const conflicts = await mark('instructor@skyline.test', rows.groundPilot, 'attended');
      expect(conflicts).toEqual([expect.objectContaining({ id: rows.groundPilot, _deleted: true })]);
      expect(await ssRow(rows.groundPilot)).toEqual(before);
    });

    it('a new class student from a device is refused (students are invited online)', async () => {
      const id = uuidv7();
      const conflicts = await mark('instructor@skyline.test', id, 'attended');
      expect(conflicts).toEqual([expect.objectContaining({ id, _deleted: true })]);
      expect((await reasonOf(id))?.reason).toContain('invited to a class online');
      expect(
        await s.ctx.db.selectFrom('training_session_students').select('id').where('id', '=', id).executeTakeFirst(),
      ).toBeUndefined();
    });
  });

  describe('lesson completion offline', () => {
    const progressDoc = (
      id: string,
      enrollment: string,
      activity: string,
      value: number,
      email = 'student@skyline.test',
    ) => ({
      id,
      type: 'progress',
      enrollment_id: enrollment,
      activity_id: activity,
      value,
      user_id: s.userId(email),
      modified: 0,
    });
    const progressRows = (enrollment: string) =>
      s.ctx.db
        .selectFrom('training_progress')
        .select(['id', 'activity_id', 'value'])
        .where('enrollment_id', '=', enrollment)
        .execute();

    it('refused with the reason, nothing stored: someone else’s enrollment, an exam, a fraction, a bad id, another company', async () => {
      const cases: Array<[string, ReturnType<typeof progressDoc>, string]> = [
        [
          'pilot@skyline.test',
          progressDoc(uuidv7(), studentEnrollment, lessonActivity, 1, 'pilot@skyline.test'),
          'Only the student completes their own lesson.',
        ],
        [
          'ground@skyline.test',
          progressDoc(uuidv7(), studentEnrollment, lessonActivity, 1, 'ground@skyline.test'),
          'Only the student completes their own lesson.',
        ],
        [
          'student@skyline.test',
          progressDoc(uuidv7(), studentEnrollment, examActivity, 1),
          'Exams are completed by passing them',
        ],
        [
          'student@skyline.test',
          progressDoc(uuidv7(), studentEnrollment, lessonActivity, 0.5),
          'can only be marked complete',
        ],
        ['student@skyline.test', progressDoc('not-a-uuid', studentEnrollment, lessonActivity, 1), 'needs a UUID'],
        [
          'admin@harbor.test',
          progressDoc(uuidv7(), studentEnrollment, lessonActivity, 1),
          'Only the student completes their own lesson.',
        ],
      ];
      for (const [email, doc, reason] of cases) {
        const r = await push(s, await t(email), 'training', [{ assumedMasterState: null, newDocumentState: doc }]);
        expect(r.status).toBe(200);
        expect(r.body.conflicts).toEqual([expect.objectContaining({ id: doc.id, _deleted: true })]);
        expect((await reasonOf(doc.id))?.reason).toContain(reason);
      }
      expect(await progressRows(studentEnrollment)).toEqual([]);
    });

    it('the student completes a lesson: stored with the device’s id, pulled back; a second device’s copy lands on the same row', async () => {
      const id = uuidv7();
      const r = await push(s, await t('student@skyline.test'), 'training', [
        { assumedMasterState: null, newDocumentState: progressDoc(id, studentEnrollment, lessonActivity, 1) },
      ]);
      expect(r.status).toBe(200);
      expect(r.body.conflicts.filter((c: any) => c._deleted)).toEqual([]);
      expect(await progressRows(studentEnrollment)).toEqual([{ id, activity_id: lessonActivity, value: 1 }]);
      expect((await docs('student@skyline.test')).find((d: any) => d.id === id)).toMatchObject({
        type: 'progress',
        value: 1,
        enrollment_id: studentEnrollment,
      });
      expect(await ids('pilot@skyline.test', 'progress')).not.toContain(id);
      expect(await ids('ground@skyline.test', 'progress')).toContain(id);
      const other = uuidv7();
      const again = await push(s, await t('student@skyline.test'), 'training', [
        { assumedMasterState: null, newDocumentState: progressDoc(other, studentEnrollment, lessonActivity, 1) },
      ]);
      expect(again.body.conflicts).toEqual([expect.objectContaining({ id: other, _deleted: true })]);
      expect((await progressRows(studentEnrollment)).map((p) => p.id)).toEqual([id]);
    });

    it('a stopped enrollment takes no completion', async () => {
      await s.ctx.db
        .updateTable('training_enrollments')
        .set({ status: 'STOPPED' })
        .where('id', '=', pilotEnrollment)
        .execute();
      const doc = progressDoc(uuidv7(), pilotEnrollment, lessonActivity, 1, 'pilot@skyline.test');
      const r = await push(s, await t('pilot@skyline.test'), 'training', [
        { assumedMasterState: null, newDocumentState: doc },
      ]);
      expect(r.body.conflicts).toEqual([expect.objectContaining({ id: doc.id, _deleted: true })]);
      expect((await reasonOf(doc.id))?.reason).toContain('STOPPED');
      expect(await progressRows(pilotEnrollment)).toEqual([]);
    });

    it('read-only record types refuse pushes', async () => {
      const before = await s.ctx.db
        .selectFrom('trainings')
        .select(['name', 'change_no'])
        .where('id', '=', training)
        .executeTakeFirstOrThrow();
      const master = (await docs('admin@skyline.test')).find((d: any) => d.id === training);
      const r = await push(s, await t('admin@skyline.test'), 'training', [
        { assumedMasterState: master, newDocumentState: { ...master, name: 'Renamed offline' } },
      ]);
      expect(r.body.conflicts).toEqual([expect.objectContaining({ id: training, name: 'PPL ground school' })]);
      expect((await reasonOf(training))?.reason).toContain('cannot change training');
      expect(
        await s.ctx.db
          .selectFrom('trainings')
          .select(['name', 'change_no'])
          .where('id', '=', training)
          .executeTakeFirstOrThrow(),
      ).toEqual(before);
    });
  });

  describe('a class changes teacher', () => {
    it('the new teacher’s next pull receives its class_student rows; the old teacher’s pull deletes them', async () => {
      const { subject_id } = await s.ctx.db
        .selectFrom('training_lessons')
        .select('subject_id')
        .where('id', '=', lesson)
        .executeTakeFirstOrThrow();
      const form = {
        training_subject_id: subject_id,
        training_subject_lesson_id: lesson,
        start: Math.floor(Date.now() / 1000) + 7200,
        students: [s.userId('student@skyline.test')],
      };
      const classId = (
        await post('/manager/trainings/onsite/class.json', { ...form, teacher_id: s.userId('instructor@skyline.test') })
      ).id;
      const { id: rowId } = await s.ctx.db
        .selectFrom('training_session_students')
        .select('id')
        .where('session_id', '=', classId)
        .executeTakeFirstOrThrow();
      const gradeId = await addGrade(classId, rowId, 'student@skyline.test', 7, 'instructor@skyline.test');
      // Both teachers are in sync before the change: the old one holds the row, the new one (170, not a manager) does not.
      const oldBefore = await pullAll(s, await t('instructor@skyline.test'), 'training');
      const newBefore = await pullAll(s, await t('dispatch@skyline.test'), 'training');
      expect(oldBefore.docs.find((d: any) => d.id === rowId)).toMatchObject({
        _deleted: false,
        class_teacher_id: s.userId('instructor@skyline.test'),
      });
      // (A row the caller may not see can come as a blank deletion, never with its content.)
      expect(newBefore.docs.filter((d: any) => !d._deleted).map((d: any) => d.id)).not.toContain(rowId);

      await post('/manager/trainings/onsite/class.json', {
        ...form,
        id: classId,
        teacher_id: s.userId('dispatch@skyline.test'),
      });

      const newAfter = await pullAll(s, await t('dispatch@skyline.test'), 'training', newBefore.checkpoint);
      expect(newAfter.docs.find((d: any) => d.id === rowId)).toMatchObject({
        _deleted: false,
        session_id: classId,
        user_id: s.userId('student@skyline.test'),
        class_teacher_id: s.userId('dispatch@skyline.test'),
      });
      expect(newAfter.docs.find((d: any) => d.id === classId)).toMatchObject({
        teacher_id: s.userId('dispatch@skyline.test'),
      });
      expect(newAfter.docs.find((d: any) => d.id === gradeId)).toMatchObject({
        _deleted: false,
        score: 7,
        class_teacher_id: s.userId('dispatch@skyline.test'),
      });
      // The kernel sends a changed row the caller may no longer see as a deletion (sync/pull.ts), content blanked.
      const oldAfter = await pullAll(s, await t('instructor@skyline.test'), 'training', oldBefore.checkpoint);
      const gone = oldAfter.docs.find((d: any) => d.id === rowId);
      expect(gone).toMatchObject({ _deleted: true });
      expect(gone.user_id ?? '').toBe('');
      expect(await ids('instructor@skyline.test', 'class_student')).not.toContain(rowId);
      expect(oldAfter.docs.find((d: any) => d.id === gradeId)).toMatchObject({ _deleted: true });
      // The student keeps their row throughout.
      expect(await ids('student@skyline.test', 'class_student')).toContain(rowId);
    });
  });
});
