import { describe, expect, it } from 'vitest';
import { addDays, completion, enrollmentProgress, groupTraining, myClasses, weekOf } from './training-data.ts';

const docs = [
  {
    type: 'lesson',
    id: 'l1',
    training_id: 't',
    subject_id: 's',
    name: 'Charts',
    minutes: 60,
    mandatory: true,
    modified: 0,
  },
  {
    type: 'lesson',
    id: 'l2',
    training_id: 't',
    subject_id: 's',
    name: 'DR',
    minutes: 60,
    mandatory: true,
    modified: 0,
  },
  {
    type: 'exam',
    id: 'x1',
    training_id: 't',
    subject_id: 's',
    lesson_id: null,
    exam_type: 'ONLINE',
    name: 'Quiz',
    minutes: 30,
    mandatory: true,
    pass_score: 75,
    modified: 0,
  },
  {
    type: 'activity',
    id: 'a1',
    training_id: 't',
    subject_id: 's',
    kind: 'LESSON',
    entity_id: 'l1',
    position: 1,
    modified: 0,
  },
  {
    type: 'activity',
    id: 'a2',
    training_id: 't',
    subject_id: 's',
    kind: 'LESSON',
    entity_id: 'l2',
    position: 2,
    modified: 0,
  },
  {
    type: 'activity',
    id: 'a3',
    training_id: 't',
    subject_id: 's',
    kind: 'EXAM',
    entity_id: 'x1',
    position: 3,
    modified: 0,
  },
  {
    type: 'enrollment',
    id: 'e',
    training_id: 't',
    user_id: 'u',
    supervisor_id: null,
    finish_before: null,
    finished: false,
    status: 'ACTIVE',
    created: 0,
    modified: 0,
  },
  { type: 'progress', id: 'p1', enrollment_id: 'e', activity_id: 'a1', value: 1, user_id: 'u', modified: 0 },
  {
    type: 'attempt',
    id: 'at',
    enrollment_id: 'e',
    exam_id: 'x1',
    user_id: 'u',
    start: 10,
    finished_at: 20,
    score: 80,
    passed: true,
    modified: 0,
  },
];

describe('training data on the device', () => {
  it('computes an enrollment’s progress with the shared rules', () => {
    const data = groupTraining(docs);
    expect(enrollmentProgress(data, { id: 'e', training_id: 't' })).toEqual({
      total: 3,
      completed: 2,
      percentage: 66,
      finished: false,
    });
  });

  it('completes a lesson on a new row or on the pulled one', () => {
    const data = groupTraining(docs);
    expect(completion(data, 'e', 'a2', 'u', 'new', 5)).toEqual({
      id: 'new',
      type: 'progress',
      enrollment_id: 'e',
      activity_id: 'a2',
      user_id: 'u',
      value: 1,
      modified: 5,
    });
    expect(completion(data, 'e', 'a1', 'u', 'new', 5).id).toBe('p1');
  });

  it('lists a student’s classes with their grade and latest justification', () => {
    const cls = (id: string, datetime: number) => ({
      type: 'class',
      id,
      training_id: 't',
      subject_id: 's',
      activity_id: null,
      lesson_id: null,
      exam_id: null,
      datetime,
      minutes: 60,
      teacher_id: 'i',
      remarks: null,
      classwork_deadline: datetime + 70,
      justification_deadline: datetime + 50,
      signed_at: null,
      signed_by: null,
      modified: 0,
    });
    const ss = (id: string, session: string, user: string) => ({
      type: 'class_student',
      id,
      session_id: session,
      user_id: user,
      enrollment_id: 'e',
      invited: true,
      attended: false,
      attendance_status: null,
      class_teacher_id: 'i',
      modified: 0,
    });
    const just = (id: string, status: string, created: number) => ({
      type: 'justification',
      id,
      class_id: 'c2',
      session_student_id: 'r2',
      user_id: 'u',
      text: 'sick',
      upload_id: null,
      status,
      reviewed_by: null,
      reviewed_at: null,
      review_note: null,
      class_teacher_id: 'i',
      created,
      modified: created,
    });
    const data = groupTraining([
      cls('c1', 100),
      cls('c2', 200),
      ss('r1', 'c1', 'u'),
      ss('r2', 'c2', 'u'),
      ss('r3', 'c1', 'other'),
      {
        type: 'grade',
        id: 'g1',
        class_id: 'c1',
        session_student_id: 'r1',
        user_id: 'u',
        upload_id: null,
        score: 8.5,
        feedback: 'ok',
        graded_by: 'i',
        graded_at: 1,
        class_teacher_id: 'i',
        created: 1,
        modified: 1,
      },
      just('j1', 'rejected', 10),
      just('j2', 'pending', 20),
    ]);
    const mine = myClasses(data, 'u');
    expect(mine.map((m) => [m.class.id, m.grade?.score ?? null, m.justification?.status ?? null])).toEqual([
      ['c2', null, 'pending'],
      ['c1', 8.5, null],
    ]);
  });

  it('weeks run Monday to Sunday', () => {
    expect(weekOf('2026-11-26')).toEqual([
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
      '2026-11-27',
      '2026-11-28',
      '2026-11-29',
    ]);
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });
});
