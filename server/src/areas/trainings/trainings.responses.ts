import { z } from 'zod';
import { ZPaginate } from '../../http/responses.ts';

/**
 * Response schemas of the trainings routes: the 200 bodies as the handlers return them (each route's
 * `response`). The handler's return type is checked against these at compile time and every answer
 * of the integration suite against the document they produce (the contract test).
 */

/** One enrollment (TrainingsUser row). */
const zEnrollment = z.object({
  notes: z.string().nullable().optional(),
  id: z.string(),
  training_id: z.string(),
  user_id: z.string(),
  supervisor_id: z.string().nullable(),
  finish_before: z.number().nullable(),
  finished: z.boolean(),
  status: z.string(),
  status_reason: z.string().nullable(),
  created: z.number(),
});

/** An exam as the manager configured it (the question settings only where set). */
const zExam = z.object({
  questions: z.number().optional(),
  attempts: z.number().optional(),
  score: z.number().optional(),
  instructions: z.string().nullable().optional(),
  show_answers: z.boolean().optional(),
  expiration: z.number().optional(),
  id: z.string(),
  training_subject_id: z.string().nullable(),
  training_subject_lesson_id: z.string().nullable(),
  type: z.string(),
  name: z.string(),
  reference: z.string().nullable(),
  description: z.string().nullable(),
  minutes: z.number(),
  mandatory: z.boolean(),
  caa_exam: z.boolean(),
  access_mode: z.string(),
  access_window_days: z.number().nullable(),
});

/** One attempt with its tally. */
const zExamAttempt = z.object({
  id: z.string(),
  start: z.number(),
  finished: z.number().nullable(),
  correct: z.number(),
  total: z.number(),
  score: z.number().nullable(),
  passed: z.boolean(),
});

const zIdName = z.object({
  id: z.string(),
  name: z.string(),
});

/** The enrolled student. */
const zUserBrief = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  surname: z.string(),
});

/** The training record without its per-training defaults (the list rows). */
const zTrainingSummary = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  active: z.boolean(),
  theory: z.boolean(),
  flights: z.boolean(),
  flights_count: z.number(),
  competencies: z.boolean(),
  metrics: z.boolean(),
  announcement: z.string().nullable(),
  start: z.string().nullable(),
  end: z.string().nullable(),
  color: z.string().nullable(),
  created: z.number(),
});

const zTraining = zTrainingSummary.extend({
  require_debriefing_signature: z.boolean(),
  classwork_deadline_default_days: z.number(),
  justification_deadline_default_days: z.number(),
});

/** A subject with its lesson outline. */
const zSubjectOutline = z.object({
  id: z.string(),
  name: z.string(),
  teacher_id: z.string().nullable(),
  Lesson: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      minutes: z.number(),
    }),
  ),
});

/** A subject with its ordered activities (each as the student's progress presents it). */
const zSubjectActivities = z.object({
  id: z.string(),
  training_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  teacher_id: z.string().nullable(),
  TrainingActivity: z.array(z.record(z.string(), z.unknown())),
});

/** GET /trainings.json */
export const ZTrainings = z.strictObject({
  trainings: z.array(
    z.union([
      z.object({
        role: z.string(),
        TrainingsUser: zEnrollment,
        Training: z.record(z.string(), z.unknown()),
      }),
      z.object({
        role: z.string(),
        TrainingsUser: z.null(),
        Training: z.record(z.string(), z.unknown()),
      }),
    ]),
  ),
  upcoming: z.array(
    z.object({
      Session: z.object({
        id: z.string(),
        datetime: z.number(),
        minutes: z.number(),
        training_id: z.string(),
        subject_id: z.string(),
        lesson_id: z.string().nullable(),
        exam_id: z.string().nullable(),
        teacher_id: z.string().nullable(),
        location_id: z.string().nullable(),
      }),
      Subject: zIdName,
      Training: zIdName,
      role: z.string(),
    }),
  ),
  pagination: ZPaginate,
});

/** GET /manager/trainings.json */
export const ZManagerTrainings = z.strictObject({
  trainings: z.array(
    z.object({
      Training: zTrainingSummary.extend({
        students_count: z.number(),
        subjects_count: z.number(),
      }),
    }),
  ),
  pagination: ZPaginate,
});

/** POST /manager/trainings/trainings/create.json */
export const ZManagerTrainingsTrainingsCreate = z.strictObject({
  result: z.boolean(),
  message: z.string(),
  id: z.string(),
  Training: zTraining,
});

/** GET /manager/trainings/trainings/templates.json */
export const ZManagerTrainingsTrainingsTemplates = z.strictObject({
  templates: z.array(
    z.object({
      Training: zTraining.extend({ subjects_count: z.number() }),
    }),
  ),
});

/** POST /manager/trainings/trainings/teaching_report.json */
export const ZManagerTrainingsTrainingsTeachingReport = z.strictObject({
  result: z.boolean(),
  training: zIdName,
  from: z.number(),
  to: z.number(),
  report: z.array(
    z.object({
      teacher_id: z.string().nullable(),
      name: z.string(),
      surname: z.string(),
      sessions: z.number(),
      minutes: z.number(),
      hours: z.number(),
    }),
  ),
  totals: z.object({
    sessions: z.number(),
    minutes: z.number(),
  }),
});

/** GET /trainings/trainings/schema{/:id}.json */
export const ZTrainingsTrainingsSchema = z.strictObject({
  result: z.boolean(),
  training_id: z.string(),
  ground_hours_total: z.number(),
  flight_hours_total: z.number(),
  flights_per_flight_type: z.array(
    z.object({
      flight_type_id: z.string().nullable(),
      missions: z.number(),
      hours: z.number(),
    }),
  ),
});

/** GET /trainings/trainings/view/:id.json */
export const ZTrainingsTrainingsView = z.strictObject({
  TrainingsUser: zEnrollment,
  User: zUserBrief.nullable(),
  Training: zTraining.extend({ Subject: z.array(zSubjectOutline) }),
  ExamAttempt: z.array(
    z.object({
      id: z.string(),
      exam_id: z.string(),
      start: z.number(),
      finished: z.number().nullable(),
      score: z.number().nullable(),
      passed: z.boolean(),
      Exam: z.object({
        id: z.string(),
        name: z.string(),
        type: z.string(),
        training_subject_id: z.string().nullable(),
      }),
    }),
  ),
});

/** GET /trainings/students/summary{/:id}.json */
export const ZTrainingsStudentsSummary = z.strictObject({
  result: z.boolean(),
  enrollment_id: z.string(),
  training: z.object({
    id: z.string(),
    name: z.string(),
    type: z.string(),
  }),
  theory: z.object({
    progress: z.object({
      completed: z.number(),
      total: z.number(),
      percentage: z.number(),
    }),
    attendance: z.object({
      given: z.number(),
      taken: z.number(),
    }),
  }),
  flight: z.record(z.string(), z.unknown()).nullable(),
  status: z.string(),
  status_reason: z.string().nullable(),
});

/** POST /manager/trainings/students/enroll.json */
export const ZManagerTrainingsStudentsEnroll = z.strictObject({
  result: z.boolean(),
  results: z.record(z.string(), z.unknown()),
  skipped: z.array(z.string()),
  from_groups: z.array(z.string()),
});

/** GET /manager/trainings/students/list{/*named}.json */
export const ZManagerTrainingsStudentsList = z.strictObject({
  students: z.array(
    z.object({
      TrainingsUser: zEnrollment,
      Training: zIdName,
      User: z.object({
        id: z.string(),
        name: z.string(),
        surname: z.string(),
        email: z.string().nullable(),
        user_group_id: z.number(),
      }),
      Progress: z.object({
        theory: z
          .object({
            total: z.number(),
            completed: z.number(),
            percentage: z.number(),
          })
          .nullable(),
        flight: z
          .object({
            total: z.number(),
            completed: z.number(),
          })
          .nullable(),
      }),
    }),
  ),
  pagination: ZPaginate,
});

/** GET /manager/trainings/students/view/:id.json */
export const ZManagerTrainingsStudentsView = ZTrainingsTrainingsView.extend({
  subjects: z.array(zSubjectActivities),
});

/** POST /manager/trainings/students/notes.json */
export const ZManagerTrainingsStudentsNotes = z.strictObject({
  result: z.boolean(),
  message: z.string(),
  id: z.string(),
  notes: z.string().nullable(),
});

/** POST /manager/trainings/students/status.json */
export const ZManagerTrainingsStudentsStatus = z.strictObject({
  result: z.boolean(),
  message: z.string(),
  TrainingsUser: zEnrollment,
});

/** GET /trainings/subjects/mine.json */
export const ZTrainingsSubjectsMine = z.strictObject({
  subjects: z.array(
    z.object({
      Subject: z.object({
        id: z.string(),
        name: z.string(),
        description: z.string().nullable(),
        teacher_id: z.string().nullable(),
        position: z.number(),
      }),
      Training: zIdName,
      enrollment_id: z.string(),
    }),
  ),
});

/** POST /manager/trainings/subjects/edit.json */
export const ZManagerTrainingsSubjectsEdit = z.strictObject({
  result: z.boolean(),
  id: z.string(),
  TrainingSubject: z.object({
    name: z.string(),
    description: z.string().nullable(),
    teacher_id: z.string().nullable(),
    position: z.number(),
    id: z.string(),
    training_id: z.string(),
  }),
});

/** POST /manager/trainings/lessons/edit.json */
export const ZManagerTrainingsLessonsEdit = z.strictObject({
  result: z.boolean(),
  id: z.string(),
  Lesson: z.object({
    mandatory: z.boolean(),
    name: z.string(),
    minutes: z.number(),
    description: z.string().nullable(),
    id: z.string(),
    training_subject_id: z.string(),
  }),
});

/** POST /manager/trainings/missions/edit.json */
export const ZManagerTrainingsMissionsEdit = z.strictObject({
  result: z.boolean(),
  id: z.string(),
  Mission: z.object({
    name: z.string(),
    flight_type_id: z.string().nullable(),
    minutes: z.number(),
    id: z.string(),
    training_id: z.string(),
  }),
});

/** GET /manager/trainings/subjects/view/:id.json */
export const ZManagerTrainingsSubjectsView = z.strictObject({
  subject: z.object({
    id: z.string(),
    training_id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    teacher_id: z.string().nullable(),
    Lesson: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        description: z.string().nullable(),
        minutes: z.number(),
        mandatory: z.boolean(),
        training_subject_id: z.string(),
      }),
    ),
    Exam: z.array(zExam),
    TrainingActivity: z.array(
      z.object({
        id: z.string(),
        kind: z.string(),
        order: z.number(),
        lesson_id: z.string().nullable(),
        exam_id: z.string().nullable(),
      }),
    ),
    total_minutes: z.number(),
  }),
});

/** GET /manager/trainings/subjects/teachers.json */
export const ZManagerTrainingsSubjectsTeachers = z.strictObject({
  teachers: z.record(z.string(), z.record(z.string(), z.string())),
});

/** POST /manager/trainings/subjects/reorder_activities.json */
export const ZManagerTrainingsSubjectsReorderActivities = z.strictObject({
  result: z.boolean(),
  items: z.array(z.string()),
});

/** POST /manager/trainings/subjects/activity_impact.json */
export const ZManagerTrainingsSubjectsActivityImpact = z.strictObject({
  result: z.boolean(),
  studentsCompleted: z.number(),
  studentsTouched: z.number(),
  examAttempts: z.number(),
  sessions: z.number(),
});

/** POST /manager/trainings/subjects/add_exam.json */
export const ZManagerTrainingsSubjectsAddExam = z.strictObject({
  result: z.boolean(),
  id: z.string(),
  Exam: zExam,
});

/** GET /manager/trainings/exams/list/:subjectId.json */
export const ZManagerTrainingsExamsList = z.strictObject({
  exams: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      type: z.string(),
      access_mode: z.string(),
      access_window_days: z.number(),
      training_subject_lesson_id: z.string().nullable(),
    }),
  ),
});

/** GET /trainings/subjects/view/:enrollmentId/:subjectId.json */
export const ZTrainingsSubjectsView = z.strictObject({
  TrainingsUser: zEnrollment,
  subject: zSubjectActivities,
});

/** GET /trainings/lessons/view/:lessonId/:enrollmentId.json */
export const ZTrainingsLessonsView = z.strictObject({
  Lesson: z.object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    minutes: z.number(),
    mandatory: z.boolean(),
    training_subject_id: z.string(),
    subject_name: z.string(),
    slides_count: z.number(),
  }),
  TrainingsUser: z.object({
    id: z.string(),
    user_id: z.string(),
    status: z.string(),
  }),
  Progress: z
    .object({
      value: z.number(),
      time_spent: z.number(),
      session_id: z.string().nullable(),
      reset_at: z.number().nullable(),
    })
    .nullable(),
  Attendance: z.array(
    z.object({
      Session: z.object({
        id: z.string(),
        datetime: z.number(),
        minutes: z.number(),
        teacher_id: z.string().nullable(),
      }),
      SessionStudent: z
        .object({
          id: z.string(),
          invited: z.boolean(),
          attended: z.boolean(),
          attendance_status: z.string().nullable(),
        })
        .nullable(),
    }),
  ),
});

/** GET /trainings/lessons/slides/:lessonId.json */
export const ZTrainingsLessonsSlides = z.strictObject({
  Lesson: zIdName,
  slides: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      position: z.number(),
    }),
  ),
});

/** GET /trainings/lessons/slide/:slideId.json */
export const ZTrainingsLessonsSlide = z.strictObject({
  Slide: z.object({
    id: z.string(),
    title: z.string(),
    content: z.string().nullable(),
    position: z.number(),
    lesson_id: z.string(),
  }),
  navigation: z.object({
    index: z.number(),
    total: z.number(),
    previous: z.string().nullable(),
    next: z.string().nullable(),
  }),
});

/** POST /trainings/lessons/complete.json */
export const ZTrainingsLessonsComplete = z.strictObject({
  result: z.boolean(),
  message: z.string(),
  lessonId: z.string(),
  enrollmentId: z.string(),
  activityId: z.string(),
});

/** GET /trainings/lessons/attendance/:subjectId.json */
export const ZTrainingsLessonsAttendance = z.strictObject({
  Subject: zIdName,
  attendance: z.array(
    z.object({
      Session: z.object({
        id: z.string(),
        datetime: z.number(),
        minutes: z.number(),
        lesson_id: z.string().nullable(),
        exam_id: z.string().nullable(),
      }),
      SessionStudent: z.object({
        id: z.string(),
        user_id: z.string(),
        invited: z.boolean(),
        attended: z.boolean(),
        attendance_status: z.string().nullable(),
      }),
      User: z.object({
        id: z.string(),
        name: z.string(),
        surname: z.string(),
      }),
    }),
  ),
});

/** GET /trainings/exams/index/:spec.json */
export const ZTrainingsExamsIndex = z.strictObject({
  exams: z.array(
    z.object({
      Exam: zExam,
    }),
  ),
});

/** GET /trainings/exams/start/:enrollmentId/:examId.json */
export const ZTrainingsExamsStart = z.strictObject({
  Exam: zExam,
  ExamAttempt: z.array(zExamAttempt),
  can_start: z.boolean(),
  reason: z.enum(['PASSED', 'NO_ATTEMPTS_LEFT', 'NOT_SCHEDULED', 'WINDOW_CLOSED', 'NOT_YET_OPEN']).nullable(),
  open_attempt_id: z.string().nullable(),
});

/** POST /trainings/exams/start/:enrollmentId/:examId.json */
export const ZTrainingsExamsStartPost = z.union([
  z.object({
    result: z.boolean(),
    message: z.string(),
    attempt_id: z.string(),
    reason: z.undefined().optional(),
  }),
  z.object({
    result: z.boolean(),
    message: z.string(),
    reason: z.enum(['PASSED', 'NO_ATTEMPTS_LEFT', 'NOT_SCHEDULED', 'WINDOW_CLOSED', 'NOT_YET_OPEN']),
    attempt_id: z.undefined().optional(),
  }),
]);

/** GET /trainings/exams/do/:attemptId.json */
export const ZTrainingsExamsDo = z.strictObject({
  Exam: z.object({
    id: z.string(),
    name: z.string(),
    instructions: z.string().nullable(),
    minutes: z.number(),
  }),
  ExamAttempt: zExamAttempt,
  questions: z.array(
    z.object({
      attemptDetailId: z.string(),
      position: z.number(),
      text: z.string(),
      chosen: z.string().nullable(),
      options: z.array(
        z.object({
          id: z.string(),
          text: z.string(),
        }),
      ),
    }),
  ),
});

/** POST /trainings/exams/answer.json */
export const ZTrainingsExamsAnswer = z.strictObject({
  result: z.boolean(),
  attemptDetailId: z.string(),
  questionOptionId: z.string(),
});

/** GET /trainings/exams/finish/:attemptId.json */
export const ZTrainingsExamsFinish = z.strictObject({
  result: z.boolean(),
  message: z.string(),
  ExamAttempt: zExamAttempt,
});

/** GET /trainings/exams/view/:attemptId.json */
export const ZTrainingsExamsView = z.strictObject({
  Exam: z.object({
    id: z.string(),
    name: z.string(),
    score: z.number(),
    show_answers: z.boolean(),
  }),
  ExamAttempt: zExamAttempt,
  questions: z.array(
    z.object({
      options: z.array(
        z.object({
          id: z.string(),
          text: z.string(),
        }),
      ),
      correct_option_id: z.string().nullable().optional(),
      is_correct: z.boolean().optional(),
      attemptDetailId: z.string(),
      text: z.string(),
      chosen: z.string().nullable(),
    }),
  ),
});
