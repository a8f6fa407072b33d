import type { ReplicatedBase } from '../../db/core-tables.ts';
import type { Bool } from '../../db/schema.ts';

/** Row types of migration 0080 (Part B 2.8). */
export interface TrainingsTable extends ReplicatedBase {
  name: string;
  type: string;
  active: Bool;
  theory: Bool;
  flights: Bool;
  flights_count: number;
  competencies: Bool;
  metrics: Bool;
  announcement: string | null;
  start_date: string | null;
  end_date: string | null;
  color: string | null;
  require_debriefing_signature: Bool;
  classwork_deadline_default_days: number;
  justification_deadline_default_days: number;
  template: Bool;
  created_by: string | null;
}
export interface TrainingSubjectsTable extends ReplicatedBase {
  training_id: string;
  name: string;
  description: string | null;
  teacher_id: string | null;
  position: number;
}
export interface TrainingLessonsTable extends ReplicatedBase {
  training_id: string;
  subject_id: string;
  name: string;
  description: string | null;
  minutes: number;
  mandatory: Bool;
}
export interface TrainingSlidesTable extends ReplicatedBase {
  lesson_id: string;
  position: number;
  title: string;
  content: string | null;
}
export interface TrainingExamsTable extends ReplicatedBase {
  training_id: string;
  subject_id: string | null;
  lesson_id: string | null;
  type: string;
  name: string;
  reference: string | null;
  description: string | null;
  minutes: number;
  mandatory: Bool;
  caa_exam: Bool;
  questions: number;
  attempts: number;
  score: number;
  instructions: string | null;
  show_answers: Bool;
  expiration: number;
  access_mode: string;
  access_window_days: number;
}
export interface TrainingQuestionsTable {
  id: string;
  company_id: string;
  exam_id: string;
  position: number;
  text: string;
  deleted: number;
}
export interface TrainingQuestionOptionsTable {
  id: string;
  company_id: string;
  question_id: string;
  position: number;
  text: string;
  correct: Bool;
}
export interface TrainingActivitiesTable extends ReplicatedBase {
  training_id: string;
  subject_id: string;
  kind: string;
  entity_id: string;
  position: number;
}
export interface TrainingEnrollmentsTable extends ReplicatedBase {
  training_id: string;
  user_id: string;
  supervisor_id: string | null;
  finish_before: number | null;
  finished: Bool;
  notes: string | null;
  status: string;
  status_reason: string | null;
  status_changed_at: number | null;
  status_changed_by: string | null;
}
export interface TrainingProgressTable extends ReplicatedBase {
  enrollment_id: string;
  activity_id: string;
  value: number;
  session_id: string | null;
  reset_at: number | null;
  time_spent: number;
}
export interface TrainingAttemptsTable extends ReplicatedBase {
  enrollment_id: string;
  exam_id: string;
  user_id: string;
  session_id: string | null;
  start: number;
  finished_at: number | null;
  correct: number;
  total: number;
  score: number | null;
  passed: Bool;
}
export interface TrainingAttemptDetailsTable {
  id: string;
  company_id: string;
  attempt_id: string;
  question_id: string;
  option_id: string | null;
  position: number;
}
export interface TrainingMissionsTable extends ReplicatedBase {
  training_id: string;
  name: string;
  flight_type_id: string | null;
  minutes: number;
  position: number;
}
export interface TrainingMissionFlightsTable extends ReplicatedBase {
  enrollment_id: string;
  mission_id: string;
  flight_id: string | null;
  user_id: string;
  completed: Bool;
  debrief_signed_at: number | null;
}
export interface TrainingSessionsTable extends ReplicatedBase {
  training_id: string;
  subject_id: string;
  activity_id: string | null;
  lesson_id: string | null;
  exam_id: string | null;
  datetime: number;
  minutes: number;
  teacher_id: string | null;
  location_id: string | null;
  remarks: string | null;
  allow_classwork_upload: Bool;
  classwork_deadline: number | null;
  classwork_description: string | null;
  classwork_notified_at: number | null;
  justification_deadline: number | null;
  signed_at: number | null;
  signed_by: string | null;
}
export interface TrainingSessionStudentsTable extends ReplicatedBase {
  session_id: string;
  user_id: string;
  enrollment_id: string | null;
  invited: Bool;
  attended: Bool;
  attendance_status: string | null;
  missed_email_sent_at: number | null;
  attendance_notified_at: number | null;
}

declare module '../../db/schema.ts' {
  interface DB {
    trainings: TrainingsTable;
    training_subjects: TrainingSubjectsTable;
    training_lessons: TrainingLessonsTable;
    training_slides: TrainingSlidesTable;
    training_exams: TrainingExamsTable;
    training_questions: TrainingQuestionsTable;
    training_question_options: TrainingQuestionOptionsTable;
    training_activities: TrainingActivitiesTable;
    training_enrollments: TrainingEnrollmentsTable;
    training_progress: TrainingProgressTable;
    training_attempts: TrainingAttemptsTable;
    training_attempt_details: TrainingAttemptDetailsTable;
    training_missions: TrainingMissionsTable;
    training_mission_flights: TrainingMissionFlightsTable;
    training_sessions: TrainingSessionsTable;
    training_session_students: TrainingSessionStudentsTable;
  }
}
