/**
 * The data of the trainings benches (bench:trainings and its per-query profile): a training with 40
 * subjects, 400 activities and 2,000 progress rows for 5 students, plus 500 trainings with 20,000
 * enrollments for the manager list. Inserted straight into the database of a fixtures-seeded server.
 */
import { uuidv7 } from '@ops/shared';
import type { openDatabase } from '../../server/src/db/database.ts';
import '../../server/src/areas/trainings/trainings.tables.ts';
import type { TestDialect } from '../setup/dialects.ts';

type Db = ReturnType<typeof openDatabase>['db'];

export async function seedTrainingsBench(db: Db, dialect: TestDialect) {
  const company = (
    await db.selectFrom('companies').select('id').where('name', '=', 'Skyline Flight Academy').executeTakeFirstOrThrow()
  ).id;
  const users = (
    await db.selectFrom('users').select(['id', 'email']).where('company_id', '=', company).execute()
  ).filter((u) => u.email);
  const student = users.find((u) => u.email === 'student@skyline.test')?.id as string;
  const now = Math.floor(Date.now() / 1000);
  const base = { company_id: company, change_no: 1, deleted: 0, created: now, modified: now };
  const insert = async <T extends Record<string, unknown>>(table: string, rows: T[]) => {
    for (let i = 0; i < rows.length; i += 200)
      await db
        .insertInto(table as never)
        .values(rows.slice(i, i + 200) as never)
        .execute();
  };
  const training = (name: string) => ({
    ...base,
    id: uuidv7(),
    name,
    type: 'ONSITE',
    active: 1,
    theory: 1,
    flights: 1,
    flights_count: 10,
    competencies: 0,
    metrics: 0,
    announcement: null,
    start_date: null,
    end_date: null,
    color: null,
    require_debriefing_signature: 0,
    classwork_deadline_default_days: 7,
    justification_deadline_default_days: 7,
    template: 0,
    created_by: null,
  });
  const enrollment = (trainingId: string, userId: string) => ({
    ...base,
    id: uuidv7(),
    training_id: trainingId,
    user_id: userId,
    supervisor_id: null,
    finish_before: null,
    finished: 0,
    notes: null,
    status: 'ACTIVE',
    status_reason: null,
    status_changed_at: null,
    status_changed_by: null,
  });

  // The big training: 40 subjects x (8 lessons + 2 exams), 5 students with every activity in progress.
  const big = training('Big course');
  await insert('trainings', [big]);
  const subjects = Array.from({ length: 40 }, (_, i) => ({
    ...base,
    id: uuidv7(),
    training_id: big.id,
    name: `Subject ${i}`,
    description: null,
    teacher_id: null,
    position: i,
  }));
  await insert('training_subjects', subjects);
  const lessons: Record<string, unknown>[] = [];
  const exams: Record<string, unknown>[] = [];
  const activities: { id: string }[] = [];
  const acts: Record<string, unknown>[] = [];
  for (const s of subjects) {
    const ls = Array.from({ length: 8 }, (_, i) => ({
      ...base,
      id: uuidv7(),
      training_id: big.id,
      subject_id: s.id,
      name: `Lesson ${i}`,
      description: null,
      minutes: 45,
      mandatory: 1,
    }));
    lessons.push(...ls);
    const xs = [0, 1].map((i) => ({
      ...base,
      id: uuidv7(),
      training_id: big.id,
      subject_id: s.id,
      lesson_id: i === 0 ? ls[0]?.id : null,
      type: i === 0 ? 'ONSITE' : 'ONLINE',
      name: `Exam ${i}`,
      reference: null,
      description: null,
      minutes: 30,
      mandatory: 1,
      caa_exam: 0,
      questions: 10,
      attempts: 3,
      score: 75,
      instructions: null,
      show_answers: 0,
      expiration: 0,
      access_mode: 'FREE',
      access_window_days: 10,
    }));
    exams.push(...xs);
    for (const [i, e] of [
      ...ls.map((l) => ['LESSON', l.id] as const),
      ...xs.map((x) => ['EXAM', x.id] as const),
    ].entries()) {
      const a = {
        ...base,
        id: uuidv7(),
        training_id: big.id,
        subject_id: s.id,
        kind: e[0],
        entity_id: e[1],
        position: i + 1,
      };
      acts.push(a);
      activities.push(a);
    }
  }
  await insert('training_lessons', lessons);
  await insert('training_exams', exams);
  await insert('training_activities', acts);
  await insert(
    'training_missions',
    Array.from({ length: 10 }, (_, i) => ({
      ...base,
      id: uuidv7(),
      training_id: big.id,
      name: `Mission ${i}`,
      flight_type_id: null,
      minutes: 60,
      position: i,
    })),
  );
  const students = [
    student,
    ...users
      .filter((u) => u.id !== student)
      .slice(0, 4)
      .map((u) => u.id),
  ];
  const bigEnrollments = students.map((u) => enrollment(big.id, u));
  await insert('training_enrollments', bigEnrollments);
  const progress = bigEnrollments.flatMap((e) =>
    activities.map((a, i) => ({
      ...base,
      id: uuidv7(),
      enrollment_id: e.id,
      activity_id: a.id,
      value: i % 3 ? 1 : 0.5,
      session_id: null,
      reset_at: null,
      time_spent: 600,
    })),
  );
  await insert('training_progress', progress);
  const attempts = bigEnrollments.flatMap((e) =>
    exams
      .filter((x) => x.type === 'ONLINE')
      .map((x, i) => ({
        ...base,
        id: uuidv7(),
        enrollment_id: e.id,
        exam_id: x.id as string,
        user_id: e.user_id,
        session_id: null,
        start: now - i,
        finished_at: now,
        correct: 8,
        total: 10,
        score: 80,
        passed: i % 2,
      })),
  );
  await insert('training_attempts', attempts);

  // 500 trainings with 20,000 enrollments for the manager list (40 each).
  const many = Array.from({ length: 499 }, (_, i) => training(`Course ${String(i).padStart(3, '0')}`));
  await insert('trainings', many);
  const manyEnrollments = many.flatMap((t) =>
    Array.from({ length: 40 }, (_, i) => enrollment(t.id, users[i % users.length]?.id as string)),
  );
  await insert('training_enrollments', manyEnrollments.slice(0, 20_000 - bigEnrollments.length));
  await insert(
    'training_subjects',
    many.flatMap((t) =>
      [0, 1, 2].map((i) => ({
        ...base,
        id: uuidv7(),
        training_id: t.id,
        name: `S${i}`,
        description: null,
        teacher_id: null,
        position: i,
      })),
    ),
  );
  if (dialect === 'postgres')
    for (const t of [
      'trainings',
      'training_enrollments',
      'training_subjects',
      'training_progress',
      'training_activities',
      'training_lessons',
      'training_exams',
      'training_attempts',
    ])
      await db.executeQuery({ sql: `ANALYZE ${t}`, parameters: [], query: { kind: 'RawNode' } } as never);
  return { bigEnrollments, activities, progress };
}
