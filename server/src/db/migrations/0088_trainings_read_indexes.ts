import type { Kysely } from 'kysely';

/**
 * Reads of a student's trainings (docs/areas/trainings.md, Performance).
 * - GET /trainings.json pages a user's enrollments newest first: with the sort
 *   key in the index the page is one ordered range (30 rows), not a sort of
 *   every enrollment of the user.
 * - Progress of an enrollment (summary, trainings list, students list): SQLite
 *   picked (company_id, activity_id) and read the company's progress; this one
 *   answers from the index alone on both databases.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s
    .createIndex('training_enrollments_company_user_created')
    .on('training_enrollments')
    .columns(['company_id', 'user_id', 'deleted', 'created', 'id'])
    .execute();
  await s
    .createIndex('training_progress_company_enrollment')
    .on('training_progress')
    .columns(['company_id', 'enrollment_id', 'deleted', 'activity_id', 'value', 'reset_at'])
    .execute();
}

export async function down(): Promise<void> {}
