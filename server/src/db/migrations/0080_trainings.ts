import type { Kysely } from 'kysely';
import { replicated } from '../columns.ts';

/**
 * Trainings (Part B 2.8, 4.7; docs/areas/trainings.md): courses, subjects,
 * lessons and slides, exams with questions, the unified activity order,
 * enrollments, activity progress, exam attempts, flight mission templates and
 * the class sessions with their students (part 2 adds the rest of the class
 * records). Everything a student reads offline is replicated.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;

  // Training (2.8). `start_date`/`end_date` are `YYYY-MM-DD` (presented as start/end); `template` marks a course template.
  await replicated(s.createTable('trainings'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('theory', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('flights', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('flights_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('competencies', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('metrics', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('announcement', 'text')
    .addColumn('start_date', 'text')
    .addColumn('end_date', 'text')
    .addColumn('color', 'text')
    .addColumn('require_debriefing_signature', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('classwork_deadline_default_days', 'integer', (c) => c.notNull().defaultTo(7))
    .addColumn('justification_deadline_default_days', 'integer', (c) => c.notNull().defaultTo(7))
    .addColumn('template', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'text')
    .execute();
  await s
    .createIndex('trainings_company_name')
    .on('trainings')
    .columns(['company_id', 'deleted', 'template', 'name', 'id'])
    .execute();
  await s.createIndex('trainings_company_change').on('trainings').columns(['company_id', 'change_no', 'id']).execute();

  await replicated(s.createTable('training_subjects'))
    .addColumn('training_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('teacher_id', 'text')
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await s
    .createIndex('training_subjects_company_training')
    .on('training_subjects')
    .columns(['company_id', 'training_id', 'position'])
    .execute();
  await s
    .createIndex('training_subjects_company_teacher')
    .on('training_subjects')
    .columns(['company_id', 'teacher_id', 'training_id'])
    .execute();
  await s
    .createIndex('training_subjects_company_change')
    .on('training_subjects')
    .columns(['company_id', 'change_no', 'id'])
    .execute();

  await replicated(s.createTable('training_lessons'))
    .addColumn('training_id', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('minutes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('mandatory', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await s
    .createIndex('training_lessons_company_subject')
    .on('training_lessons')
    .columns(['company_id', 'subject_id'])
    .execute();
  await s
    .createIndex('training_lessons_company_training')
    .on('training_lessons')
    .columns(['company_id', 'training_id'])
    .execute();
  await s
    .createIndex('training_lessons_company_change')
    .on('training_lessons')
    .columns(['company_id', 'change_no', 'id'])
    .execute();

  // E-learning slides of a lesson (fields not shown by the spec: title, content, position).
  await replicated(s.createTable('training_slides'))
    .addColumn('lesson_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('content', 'text')
    .execute();
  await s
    .createIndex('training_slides_company_lesson')
    .on('training_slides')
    .columns(['company_id', 'lesson_id', 'position'])
    .execute();

  // Exam (2.8). `subject_id` null: training level; `lesson_id` set: a gate exam of that lesson.
  await replicated(s.createTable('training_exams'))
    .addColumn('training_id', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text')
    .addColumn('lesson_id', 'text')
    .addColumn('type', 'text', (c) => c.notNull().defaultTo('ONSITE'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('reference', 'text')
    .addColumn('description', 'text')
    .addColumn('minutes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('mandatory', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('caa_exam', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('questions', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('score', 'integer', (c) => c.notNull().defaultTo(75))
    .addColumn('instructions', 'text')
    .addColumn('show_answers', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expiration', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('access_mode', 'text', (c) => c.notNull().defaultTo('FREE'))
    .addColumn('access_window_days', 'integer', (c) => c.notNull().defaultTo(10))
    .execute();
  await s
    .createIndex('training_exams_company_subject')
    .on('training_exams')
    .columns(['company_id', 'subject_id'])
    .execute();
  await s
    .createIndex('training_exams_company_training')
    .on('training_exams')
    .columns(['company_id', 'training_id'])
    .execute();
  await s
    .createIndex('training_exams_company_lesson')
    .on('training_exams')
    .columns(['company_id', 'lesson_id'])
    .execute();

  await s
    .createTable('training_questions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('exam_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await s
    .createIndex('training_questions_company_exam')
    .on('training_questions')
    .columns(['company_id', 'exam_id', 'position'])
    .execute();
  await s
    .createTable('training_question_options')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('question_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('correct', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await s
    .createIndex('training_question_options_question')
    .on('training_question_options')
    .columns(['question_id', 'position'])
    .execute();

  // TrainingActivity (2.8): the unified order of a subject. `entity_id` is the lesson or exam id.
  await replicated(s.createTable('training_activities'))
    .addColumn('training_id', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await s
    .createIndex('training_activities_subject_entity')
    .on('training_activities')
    .columns(['subject_id', 'entity_id'])
    .unique()
    .execute();
  await s
    .createIndex('training_activities_company_training')
    .on('training_activities')
    .columns(['company_id', 'training_id', 'subject_id', 'position'])
    .execute();

  // Enrollment (TrainingsUser, 2.8 and 3.4).
  await replicated(s.createTable('training_enrollments'))
    .addColumn('training_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('supervisor_id', 'text')
    .addColumn('finish_before', 'bigint')
    .addColumn('finished', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('notes', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('ACTIVE'))
    .addColumn('status_reason', 'text')
    .addColumn('status_changed_at', 'bigint')
    .addColumn('status_changed_by', 'text')
    .execute();
  await s
    .createIndex('training_enrollments_company_training')
    .on('training_enrollments')
    .columns(['company_id', 'training_id', 'user_id'])
    .execute();
  await s
    .createIndex('training_enrollments_company_user')
    .on('training_enrollments')
    .columns(['company_id', 'user_id', 'training_id'])
    .execute();
  await s
    .createIndex('training_enrollments_company_change')
    .on('training_enrollments')
    .columns(['company_id', 'change_no', 'id'])
    .execute();

  // ActivityProgress (2.8): unique per enrollment and activity.
  await replicated(s.createTable('training_progress'))
    .addColumn('enrollment_id', 'text', (c) => c.notNull())
    .addColumn('activity_id', 'text', (c) => c.notNull())
    .addColumn('value', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('session_id', 'text')
    .addColumn('reset_at', 'bigint')
    .addColumn('time_spent', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await s
    .createIndex('training_progress_enrollment_activity')
    .on('training_progress')
    .columns(['enrollment_id', 'activity_id'])
    .unique()
    .execute();
  await s
    .createIndex('training_progress_company_activity')
    .on('training_progress')
    .columns(['company_id', 'activity_id'])
    .execute();

  // ExamAttempt (2.8). `finished_at` null while open.
  await replicated(s.createTable('training_attempts'))
    .addColumn('enrollment_id', 'text', (c) => c.notNull())
    .addColumn('exam_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text')
    .addColumn('start', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .addColumn('correct', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('score', 'double precision')
    .addColumn('passed', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await s
    .createIndex('training_attempts_company_enrollment')
    .on('training_attempts')
    .columns(['company_id', 'enrollment_id', 'exam_id', 'start'])
    .execute();
  await s
    .createIndex('training_attempts_company_exam')
    .on('training_attempts')
    .columns(['company_id', 'exam_id'])
    .execute();

  // One row per question drawn into an attempt; `option_id` is the answer.
  await s
    .createTable('training_attempt_details')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('attempt_id', 'text', (c) => c.notNull())
    .addColumn('question_id', 'text', (c) => c.notNull())
    .addColumn('option_id', 'text')
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await s
    .createIndex('training_attempt_details_attempt')
    .on('training_attempt_details')
    .columns(['attempt_id', 'position'])
    .execute();

  // Flight mission templates of a training, and the missions flown by an enrollment.
  await replicated(s.createTable('training_missions'))
    .addColumn('training_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('flight_type_id', 'text')
    .addColumn('minutes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await s
    .createIndex('training_missions_company_training')
    .on('training_missions')
    .columns(['company_id', 'training_id', 'position'])
    .execute();
  await replicated(s.createTable('training_mission_flights'))
    .addColumn('enrollment_id', 'text', (c) => c.notNull())
    .addColumn('mission_id', 'text', (c) => c.notNull())
    .addColumn('flight_id', 'text')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('completed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('debrief_signed_at', 'bigint')
    .execute();
  await s
    .createIndex('training_mission_flights_company_enrollment')
    .on('training_mission_flights')
    .columns(['company_id', 'enrollment_id', 'mission_id'])
    .execute();

  // Session (class, 2.8) and SessionStudent; part 2 (issue 19) adds locations, signatures, justifications, classwork.
  await replicated(s.createTable('training_sessions'))
    .addColumn('training_id', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('activity_id', 'text')
    .addColumn('lesson_id', 'text')
    .addColumn('exam_id', 'text')
    .addColumn('datetime', 'bigint', (c) => c.notNull())
    .addColumn('minutes', 'integer', (c) => c.notNull().defaultTo(60))
    .addColumn('teacher_id', 'text')
    .addColumn('location_id', 'text')
    .addColumn('remarks', 'text')
    .addColumn('allow_classwork_upload', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('classwork_deadline', 'bigint')
    .addColumn('classwork_description', 'text')
    .addColumn('classwork_notified_at', 'bigint')
    .addColumn('justification_deadline', 'bigint')
    .addColumn('signed_at', 'bigint')
    .addColumn('signed_by', 'text')
    .execute();
  await s
    .createIndex('training_sessions_company_training')
    .on('training_sessions')
    .columns(['company_id', 'training_id', 'datetime'])
    .execute();
  await s
    .createIndex('training_sessions_company_subject')
    .on('training_sessions')
    .columns(['company_id', 'subject_id', 'datetime'])
    .execute();
  await s
    .createIndex('training_sessions_company_teacher')
    .on('training_sessions')
    .columns(['company_id', 'teacher_id', 'datetime'])
    .execute();
  await replicated(s.createTable('training_session_students'))
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('enrollment_id', 'text')
    .addColumn('invited', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('attended', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('attendance_status', 'text')
    .addColumn('missed_email_sent_at', 'bigint')
    .addColumn('attendance_notified_at', 'bigint')
    .execute();
  await s
    .createIndex('training_session_students_session_user')
    .on('training_session_students')
    .columns(['session_id', 'user_id'])
    .unique()
    .execute();
  await s
    .createIndex('training_session_students_company_user')
    .on('training_session_students')
    .columns(['company_id', 'user_id', 'session_id'])
    .execute();
}

export async function down(): Promise<void> {}
