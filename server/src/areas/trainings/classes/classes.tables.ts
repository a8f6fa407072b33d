import type { ReplicatedBase } from '../../../db/core-tables.ts';
import '../../uploads/uploads.tables.ts';

/** Row types of migration 0081 (trainings part 2). */
export interface TrainingLocationsTable extends ReplicatedBase {
  name: string;
  type: string;
  country_id: string;
  timezone_id: string;
  phone: string | null;
  address: string | null;
  description: string | null;
}
export interface TrainingJustificationsTable extends ReplicatedBase {
  session_student_id: string;
  session_id: string;
  user_id: string;
  upload_id: string | null;
  text: string;
  status: string;
  reviewed_by: string | null;
  reviewed_at: number | null;
  review_note: string | null;
}
export interface TrainingClassworkGradesTable extends ReplicatedBase {
  session_student_id: string;
  session_id: string;
  user_id: string;
  upload_id: string | null;
  score: number;
  feedback: string | null;
  graded_by: string;
  graded_at: number;
}
export interface TrainingEvaluationsTable extends ReplicatedBase {
  session_id: string;
  user_id: string;
  remarks: string | null;
  measures: string | null;
  objectives: string | null;
  evaluated_by: string;
}
export interface TrainingCalendarFeedsTable {
  token_hash: string;
  company_id: string;
  user_id: string;
  created: number;
}

declare module '../../uploads/uploads.tables.ts' {
  interface UploadsTable {
    /** Deadline of the class work or justification the upload answers (unix), Part A 2.11. */
    // Optional so the uploads area's own row literals stay valid (columns default to null and 0).
    deadline?: number | null;
    late?: number;
  }
}

declare module '../../../db/schema.ts' {
  interface DB {
    training_locations: TrainingLocationsTable;
    training_justifications: TrainingJustificationsTable;
    training_classwork_grades: TrainingClassworkGradesTable;
    training_evaluations: TrainingEvaluationsTable;
    training_calendar_feeds: TrainingCalendarFeedsTable;
  }
}
