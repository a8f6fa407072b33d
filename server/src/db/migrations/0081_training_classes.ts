import type { Kysely } from 'kysely';
import { replicated } from '../columns.ts';

/**
 * Trainings part 2 (Part B 2.8, 4.7 items 15-21; docs/areas/trainings.md
 * "Classes and attendance"): locations, justifications, classwork grades,
 * student evaluations of a class, per-user calendar feeds, and the
 * `deadline`/`late` fields of classwork and justification uploads (Part A 2.11).
 * The class tables of 0080 keep their columns (the offline app reads them).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;

  await replicated(s.createTable('training_locations'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('country_id', 'text', (c) => c.notNull())
    .addColumn('timezone_id', 'text', (c) => c.notNull())
    .addColumn('phone', 'text')
    .addColumn('address', 'text')
    .addColumn('description', 'text')
    .execute();
  await s
    .createIndex('training_locations_company_name')
    .on('training_locations')
    .columns(['company_id', 'deleted', 'name'])
    .execute();

  // Justification (2.8): one row per submission; a rejected one may be followed by a new one.
  await replicated(s.createTable('training_justifications'))
    .addColumn('session_student_id', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('upload_id', 'text')
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('reviewed_by', 'text')
    .addColumn('reviewed_at', 'bigint')
    .addColumn('review_note', 'text')
    .execute();
  await s
    .createIndex('training_justifications_session')
    .on('training_justifications')
    .columns(['company_id', 'session_id', 'user_id'])
    .execute();

  // Classwork grade (2.8): one per student session.
  await replicated(s.createTable('training_classwork_grades'))
    .addColumn('session_student_id', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('upload_id', 'text')
    .addColumn('score', 'double precision', (c) => c.notNull())
    .addColumn('feedback', 'text')
    .addColumn('graded_by', 'text', (c) => c.notNull())
    .addColumn('graded_at', 'bigint', (c) => c.notNull())
    .execute();
  await s
    .createIndex('training_classwork_grades_student')
    .on('training_classwork_grades')
    .columns(['session_student_id'])
    .unique()
    .execute();
  await s
    .createIndex('training_classwork_grades_session')
    .on('training_classwork_grades')
    .columns(['company_id', 'session_id'])
    .execute();

  // Evaluation of a student in a class (item 16): one per class and student.
  await replicated(s.createTable('training_evaluations'))
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('remarks', 'text')
    .addColumn('measures', 'text')
    .addColumn('objectives', 'text')
    .addColumn('evaluated_by', 'text', (c) => c.notNull())
    .execute();
  await s
    .createIndex('training_evaluations_session_user')
    .on('training_evaluations')
    .columns(['session_id', 'user_id'])
    .unique()
    .execute();

  // Calendar feed (item 19): the secret is stored as its SHA-256 only; revoking deletes the row.
  await s
    .createTable('training_calendar_feeds')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('created', 'bigint', (c) => c.notNull())
    .execute();
  await s
    .createIndex('training_calendar_feeds_user')
    .on('training_calendar_feeds')
    .columns(['company_id', 'user_id'])
    .unique()
    .execute();

  await s.alterTable('uploads').addColumn('deadline', 'bigint').execute();
  await s
    .alterTable('uploads')
    .addColumn('late', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(): Promise<void> {}
