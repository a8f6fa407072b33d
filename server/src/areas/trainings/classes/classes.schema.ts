import { ATTENDANCE_STATUSES, isValidGrade, JUSTIFICATION_STATUSES } from '@ops/shared/rules/trainings/attendance';
import { canonicalTimeZone, isCountryCode } from '@ops/shared/reference/index';
import { z } from 'zod';
import { zBoolish, zId, zIntish, zUnix } from '../../../http/zod.ts';

/** Request and response schemas of trainings part 2 (classes, attendance, locations, missions...). */

const zText = (max: number) => z.string().trim().max(max, `At most ${max} characters`);
const zOptText = (max: number) =>
  z
    .union([zText(max), z.null()])
    .transform((v) => (v === '' ? null : v))
    .optional();
/** Unix seconds, or an ISO 8601 date-time with its offset (`2026-11-24T09:00:00+01:00`). */
export const zInstant = z.union([
  zUnix,
  z
    .string()
    .trim()
    .regex(
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/,
      'Expected unix seconds or an ISO date-time with offset',
    )
    .transform((s) => Math.floor(Date.parse(s) / 1000)),
]);
const zOptInstant = z
  .union([zInstant, z.literal(''), z.null()])
  .transform((v) => (v === '' || v === null ? null : v))
  .optional();
const zOptId = z
  .union([zId, z.literal(''), z.null()])
  .transform((v) => (v === '' || v === null ? null : v))
  .optional();

/** `students`: a comma list (form) or an array of user ids. */
const zStudentList = z
  .union([z.string(), z.array(z.union([z.string(), z.number()]))], { error: 'students is a comma list of user ids' })
  .transform((v) => (Array.isArray(v) ? v.map(String) : v.split(',')).map((s) => s.trim()).filter(Boolean))
  .pipe(z.array(zId).min(1, 'At least one student').max(500, 'At most 500 students'));

export const ZClassBody = z.object({
  id: zId.optional(),
  training_subject_id: zId,
  training_subject_lesson_id: zOptId,
  training_subject_exam_id: zOptId,
  start: zInstant,
  minutes: zIntish
    .pipe(
      z
        .number()
        .int()
        .min(1, 'At least 1 minute')
        .max(24 * 60, 'At most a day'),
    )
    .optional(),
  teacher_id: zId,
  location_id: zOptId,
  remarks: zOptText(5000),
  notify: zBoolish.optional(),
  students: zStudentList,
  allow_classwork_upload: zBoolish.optional(),
  classwork_deadline: zOptInstant,
  classwork_description: zOptText(5000),
  justification_deadline: zOptInstant,
});

const zStatus = z
  .union([z.enum(ATTENDANCE_STATUSES), z.literal(''), z.null()], {
    error: `attendance_status is one of ${ATTENDANCE_STATUSES.join(', ')} or null`,
  })
  .transform((v) => (v === '' ? null : v));

/** `students`: an array of `{user_id, attendance_status}` or a map of user id to status. */
export const ZStoreAttendance = z.object({
  classId: zId,
  students: z
    .union([z.array(z.object({ user_id: zId, attendance_status: zStatus })), z.record(zId, zStatus)], {
      error: 'students is an array of {user_id, attendance_status} or a map',
    })
    .transform((v) =>
      Array.isArray(v) ? v : Object.entries(v).map(([user_id, attendance_status]) => ({ user_id, attendance_status })),
    )
    .pipe(
      z
        .array(z.object({ user_id: zId, attendance_status: z.enum(ATTENDANCE_STATUSES).nullable() }))
        .min(1, 'At least one student')
        .max(500),
    ),
});

export const ZSign = z.object({
  classId: zId,
  password: z.string({ error: 'Your password is required' }).min(1, 'Your password is required').max(1024),
});
export const ZUnsign = z.object({ classId: zId });

export const ZEvaluationBody = z.object({
  class_id: zId,
  student_id: zId,
  remarks: zOptText(10_000),
  measures: zOptText(10_000),
  objectives: zOptText(10_000),
});

export const ZLocationBody = z.object({
  id: zId.optional(),
  name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(200),
  type: z.string({ error: 'Type is required' }).trim().min(1, 'Type is required').max(60),
  country_id: z
    .string({ error: 'Country is required' })
    .trim()
    .toUpperCase()
    .refine(isCountryCode, 'Unknown country; expected an ISO 3166 code such as ES'),
  timezone_id: z
    .string({ error: 'Time zone is required' })
    .trim()
    .transform((v, ctx) => {
      const tz = canonicalTimeZone(v);
      if (!tz) {
        ctx.addIssue({ code: 'custom', message: 'Unknown time zone; expected an IANA name such as Europe/Madrid' });
        return z.NEVER;
      }
      return tz;
    }),
  phone: zOptText(60),
  address: zOptText(1000),
  description: zOptText(5000),
});

export const ZMissionSign = z.object({
  user_training_flight_id: zId,
  pass: z.string({ error: 'Your password is required' }).min(1, 'Your password is required').max(1024),
});

export const ZJustifySubmit = z.object({
  class_id: zId,
  text: z.string({ error: 'Text is required' }).trim().min(1, 'Text is required').max(10_000),
  upload_id: zOptId,
});
export const ZJustifyReview = z.object({
  id: zId,
  status: z.enum(['approved', 'rejected'], { error: 'status is approved or rejected' }),
  review_note: zOptText(5000),
});
export const ZClassworkRequest = z.object({
  class_id: zId,
  classwork_description: zOptText(5000),
  classwork_deadline: zOptInstant,
  notify: zBoolish.optional(),
});
export const ZClassworkSubmit = z.object({ class_id: zId, upload_id: zId });
export const ZClassworkGrade = z.object({
  class_id: zId,
  user_id: zId,
  score: z
    .union([
      z.number(),
      z
        .string()
        .trim()
        .regex(/^\d{1,3}(\.\d)?$/, 'A score between 0 and 100 with at most one decimal'),
    ])
    .transform(Number)
    .pipe(z.number().min(0, 'Between 0 and 100').max(100, 'Between 0 and 100'))
    .refine(isValidGrade, 'At most one decimal'),
  feedback: zOptText(10_000),
  upload_id: zOptId,
});

const zBound = (name: string) =>
  z
    .string({ error: `${name} is required` })
    .trim()
    .min(1, `${name} is required`)
    .max(40);
export const ZCalendarQuery = z.object({
  start: zBound('start'),
  end: zBound('end'),
  timeZone: z
    .string({ error: 'timeZone is required (an IANA name)' })
    .trim()
    .transform((v, ctx) => {
      const tz = canonicalTimeZone(v);
      if (!tz) {
        ctx.addIssue({ code: 'custom', message: 'Unknown time zone; expected an IANA name such as Europe/Madrid' });
        return z.NEVER;
      }
      return tz;
    }),
  training: zId.optional(),
});

// ---- Responses (OpenAPI) ----

const ts = z.number().nullable();
export const ZSessionStudentOut = z.object({
  id: z.string(),
  user_id: z.string(),
  enrollment_id: z.string().nullable(),
  name: z.string().nullable(),
  invited: z.boolean(),
  attended: z.boolean(),
  attendance_status: z.enum(ATTENDANCE_STATUSES).nullable(),
  missed_email_sent_at: ts,
  attendance_notified_at: ts,
});
const named = z.object({ id: z.string(), name: z.string() }).nullable();
export const ZClassOut = z.object({
  id: z.string(),
  training_id: z.string(),
  training_subject_id: z.string(),
  training_subject_lesson_id: z.string().nullable(),
  training_subject_exam_id: z.string().nullable(),
  activity_id: z.string().nullable(),
  datetime: z.number(),
  minutes: z.number(),
  teacher_id: z.string().nullable(),
  teacher_name: z.string().nullable(),
  location_id: z.string().nullable(),
  remarks: z.string().nullable(),
  allow_classwork_upload: z.boolean(),
  classwork_deadline: ts,
  classwork_description: z.string().nullable(),
  classwork_notified_at: ts,
  justification_deadline: ts,
  signed_at: ts,
  signed_by: z.string().nullable(),
  signed_by_name: z.string().nullable(),
  Training: z.object({ id: z.string(), name: z.string(), color: z.string().nullable() }).nullable(),
  Subject: named,
  Lesson: named,
  Exam: z.object({ id: z.string(), name: z.string(), type: z.string() }).nullable(),
  Location: z.object({ id: z.string(), name: z.string(), type: z.string(), timezone_id: z.string() }).nullable(),
  SessionStudent: z.array(ZSessionStudentOut),
});
export const ZClassView = z.object({ Class: ZClassOut });
export const ZClassSaved = z.object({ result: z.literal(true), id: z.string(), invited: z.number(), Class: ZClassOut });
export const ZResultId = z.object({ result: z.literal(true), id: z.string() });
export const ZClassResult = z.object({ result: z.literal(true), Class: ZClassOut });
export const ZSigned = z.object({
  result: z.literal(true),
  signed_at: z.number(),
  missed_mails: z.number(),
  Class: ZClassOut,
});

export const ZEvaluationOut = z.object({
  Evaluation: z.object({
    id: z.string().nullable(),
    class_id: z.string(),
    student_id: z.string(),
    remarks: z.string().nullable(),
    measures: z.string().nullable(),
    objectives: z.string().nullable(),
    evaluated_by: z.string().nullable(),
    modified: ts,
  }),
});
export const ZEvaluationSaved = ZEvaluationOut.extend({ result: z.literal(true) });

export const ZLocationOut = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  country_id: z.string(),
  timezone_id: z.string(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  description: z.string().nullable(),
  created: z.number(),
  modified: z.number(),
});
export const ZLocationList = z.object({ locations: z.array(z.object({ Location: ZLocationOut })) });
export const ZLocationView = z.object({ Location: ZLocationOut });
export const ZLocationSaved = z.object({ result: z.literal(true), id: z.string(), Location: ZLocationOut });

export const ZMissionOut = z.object({
  id: z.string(),
  enrollment_id: z.string(),
  training_id: z.string(),
  training_name: z.string(),
  mission_id: z.string(),
  mission_name: z.string().nullable(),
  minutes: z.number(),
  flight_id: z.string().nullable(),
  flight_date: z.string().nullable(),
  completed: z.boolean(),
  debrief_signed_at: ts,
});
export const ZMissionsUnsigned = z.object({ missions: z.array(ZMissionOut) });
export const ZMissionSigned = z.object({ result: z.boolean(), message: z.string().optional(), Mission: ZMissionOut });

export const ZUploadRef = z.object({
  id: z.string(),
  filename: z.string(),
  mime: z.string(),
  created: z.number(),
  deadline: ts,
  late: z.boolean(),
});
export const ZJustificationOut = z.object({
  id: z.string(),
  class_id: z.string(),
  session_student_id: z.string(),
  user_id: z.string(),
  text: z.string(),
  upload_id: z.string().nullable(),
  Upload: ZUploadRef.nullable(),
  status: z.enum(JUSTIFICATION_STATUSES),
  reviewed_by: z.string().nullable(),
  reviewed_at: ts,
  review_note: z.string().nullable(),
  deadline: ts,
  late: z.boolean(),
  created: z.number(),
  modified: z.number(),
});
export const ZJustificationSaved = z.object({
  result: z.literal(true),
  Justification: ZJustificationOut,
  attendance_status: z.enum(ATTENDANCE_STATUSES).nullable(),
});
export const ZJustificationList = z.object({ justifications: z.array(ZJustificationOut) });
export const ZGradeOut = z.object({
  id: z.string(),
  session_student_id: z.string(),
  user_id: z.string(),
  upload_id: z.string().nullable(),
  score: z.number(),
  feedback: z.string().nullable(),
  graded_by: z.string(),
  graded_at: z.number(),
  created: z.number(),
  modified: z.number(),
});
export const ZClassworkList = z.object({
  allow_classwork_upload: z.boolean(),
  classwork_deadline: ts,
  classwork_description: z.string().nullable(),
  students: z.array(
    z.object({
      session_student_id: z.string(),
      user_id: z.string(),
      name: z.string().nullable(),
      uploads: z.array(ZUploadRef),
      late: z.boolean(),
      Grade: ZGradeOut.nullable(),
    }),
  ),
});
export const ZClassworkSubmitted = z.object({ result: z.literal(true), Upload: ZUploadRef });
export const ZGradeSaved = z.object({ result: z.literal(true), Grade: ZGradeOut });
export const ZClassworkRequested = z.object({ result: z.literal(true), notified: z.number(), Class: ZClassOut });

export const ZCalendarEvent = z.object({
  id: z.string(),
  title: z.string(),
  start: z.string(),
  end: z.string(),
  allDay: z.literal(false),
  color: z.string().nullable(),
  training_id: z.string(),
  training_name: z.string(),
  subject_name: z.string().nullable(),
  location_name: z.string().nullable(),
  teacher_id: z.string().nullable(),
  role: z.enum(['teacher', 'student', 'staff']),
  signed: z.boolean(),
  attendance_status: z.enum(ATTENDANCE_STATUSES).nullable(),
});
export const ZCalendar = z.object({ timeZone: z.string(), events: z.array(ZCalendarEvent) });
export const ZFeedCreated = z.object({ result: z.literal(true), token: z.string(), path: z.string(), url: z.string() });
export const ZFeedState = z.object({ active: z.boolean(), created: ts });
export const ZOk = z.object({ result: z.literal(true) });
