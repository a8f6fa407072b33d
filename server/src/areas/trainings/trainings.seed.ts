import { uuidv7 } from '@ops/shared';
import { DateTime } from 'luxon';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { SeedStep } from '../../seed/index.ts';
import type { SeedRefs } from '../../seed/refs.ts';
import './classes/classes.tables.ts';
import './trainings.tables.ts';

interface DemoLesson {
  name: string;
  minutes: number;
  slides?: [string, string][];
}
interface DemoSubject {
  name: string;
  teacher: string;
  lessons: DemoLesson[];
  exam?: { name: string; type: 'ONLINE' | 'ONSITE'; questions?: [string, string[], number][] };
}

/** A real PPL(A) course: subjects of the EASA syllabus, lessons with slides, an online exam, missions. */
const PPL: DemoSubject[] = [
  {
    name: 'Air Law',
    teacher: 'ground@skyline.test',
    lessons: [
      {
        name: 'ICAO and EASA',
        minutes: 90,
        slides: [
          ['Chicago Convention', 'The 1944 convention created ICAO and the freedoms of the air.'],
          ['EASA Part-FCL', 'Licences for pilots in the EU follow Part-FCL.'],
        ],
      },
      {
        name: 'Rules of the air (SERA)',
        minutes: 120,
        slides: [
          ['Right of way', 'An aircraft on the right has right of way when converging.'],
          ['VMC minima', 'In class G below 3000 ft: 1500 m visibility, clear of cloud.'],
        ],
      },
      { name: 'Airspace classes', minutes: 60 },
    ],
    exam: {
      name: 'Air Law progress test',
      type: 'ONLINE',
      questions: [
        ['Which organisation publishes the Annexes to the Chicago Convention?', ['ICAO', 'EASA', 'IATA'], 0],
        [
          'Two aircraft converge at the same altitude. Who gives way?',
          ['The one on the left', 'The one on the right', 'The faster one'],
          0,
        ],
        ['Minimum flight visibility in class G below 3000 ft AMSL for VFR?', ['5 km', '1500 m', '8 km'], 1],
      ],
    },
  },
  {
    name: 'Meteorology',
    teacher: 'ground@skyline.test',
    lessons: [
      { name: 'The atmosphere', minutes: 60 },
      { name: 'Clouds and fog', minutes: 90 },
      {
        name: 'METAR and TAF',
        minutes: 60,
        slides: [
          ['Reading a METAR', 'LECU 121030Z 27010KT 9999 FEW030 18/09 Q1017'],
          ['TAF groups', 'BECMG, TEMPO and PROB30 change groups.'],
        ],
      },
    ],
    exam: { name: 'Meteorology oral check', type: 'ONSITE' },
  },
  {
    name: 'Navigation',
    teacher: 'instructor@skyline.test',
    lessons: [
      { name: 'Charts and projections', minutes: 60 },
      { name: 'Dead reckoning', minutes: 120 },
    ],
  },
];

const MISSIONS: [string, string, number][] = [
  ['Effects of controls', 'Dual training', 60],
  ['Circuits', 'Dual training', 90],
  ['Stalls and slow flight', 'Dual training', 60],
  ['First solo', 'Supervised solo', 30],
  ['Solo cross-country', 'Solo', 120],
];

/**
 * The demo instructor's class of the day: half an hour after seeding, or half an hour before when that
 * would already be tomorrow in the school's zone (so "Classes today" is never empty after a late seed).
 */
export function demoTodayClassStart(now: number): number {
  const zone = 'Europe/Madrid';
  const soon = now + 1800;
  return DateTime.fromSeconds(soon, { zone }).hasSame(DateTime.fromSeconds(now, { zone }), 'day') ? soon : now - 1800;
}

async function demo(uow: UnitOfWork, refs: SeedRefs) {
  const trx = uow.trx;
  const companyId = refs.companies.skyline;
  const user = (email: string) => refs.users.skyline[email] ?? null;
  const now = refs.now;
  const row = async (table: string) => ({
    company_id: companyId,
    change_no: await uow.changeNo(companyId, table),
    deleted: 0,
    created: now,
    modified: now,
  });
  const trainingId = uuidv7();
  const year = new Date(now * 1000).getUTCFullYear();
  await trx
    .insertInto('trainings')
    .values({
      id: trainingId,
      ...(await row('trainings')),
      name: 'PPL(A) Integrated course',
      type: 'ONSITE',
      active: 1,
      theory: 1,
      flights: 1,
      flights_count: MISSIONS.length,
      competencies: 0,
      metrics: 0,
      announcement: 'Ground school runs Monday to Thursday, 18:00 to 20:00.',
      start_date: `${year}-01-01`,
      end_date: `${year + 1}-06-30`,
      color: '#1f6feb',
      require_debriefing_signature: 1,
      classwork_deadline_default_days: 7,
      justification_deadline_default_days: 5,
      template: 0,
      created_by: user('headtraining@skyline.test'),
    })
    .execute();
  const activities: { id: string; kind: string; entityId: string; subjectId: string; lessonName?: string }[] = [];
  let firstSubject = '';
  for (const [si, s] of PPL.entries()) {
    const subjectId = uuidv7();
    if (!firstSubject) firstSubject = subjectId;
    await trx
      .insertInto('training_subjects')
      .values({
        id: subjectId,
        ...(await row('training_subjects')),
        training_id: trainingId,
        name: s.name,
        description: null,
        teacher_id: user(s.teacher),
        position: si + 1,
      })
      .execute();
    let position = 0;
    for (const l of s.lessons) {
      const lessonId = uuidv7();
      await trx
        .insertInto('training_lessons')
        .values({
          id: lessonId,
          ...(await row('training_lessons')),
          training_id: trainingId,
          subject_id: subjectId,
          name: l.name,
          description: null,
          minutes: l.minutes,
          mandatory: 1,
        })
        .execute();
      for (const [i, [title, content]] of (l.slides ?? []).entries())
        await trx
          .insertInto('training_slides')
          .values({
            id: uuidv7(),
            ...(await row('training_slides')),
            lesson_id: lessonId,
            position: i + 1,
            title,
            content,
          })
          .execute();
      const activityId = uuidv7();
      await trx
        .insertInto('training_activities')
        .values({
          id: activityId,
          ...(await row('training_activities')),
          training_id: trainingId,
          subject_id: subjectId,
          kind: 'LESSON',
          entity_id: lessonId,
          position: ++position,
        })
        .execute();
      activities.push({ id: activityId, kind: 'LESSON', entityId: lessonId, subjectId, lessonName: l.name });
    }
    if (s.exam) {
      const examId = uuidv7();
      const online = s.exam.type === 'ONLINE';
      await trx
        .insertInto('training_exams')
        .values({
          id: examId,
          ...(await row('training_exams')),
          training_id: trainingId,
          subject_id: subjectId,
          lesson_id: null,
          type: s.exam.type,
          name: s.exam.name,
          reference: null,
          description: null,
          minutes: 30,
          mandatory: 1,
          caa_exam: 0,
          questions: online ? (s.exam.questions?.length ?? 0) : 0,
          attempts: online ? 3 : 0,
          score: online ? 75 : 0,
          instructions: online ? 'One answer per question. 75% to pass.' : null,
          show_answers: online ? 1 : 0,
          expiration: 0,
          access_mode: 'FREE',
          access_window_days: 10,
        })
        .execute();
      for (const [qi, [text, options, right]] of (s.exam.questions ?? []).entries()) {
        const qid = uuidv7();
        await trx
          .insertInto('training_questions')
          .values({ id: qid, company_id: companyId, exam_id: examId, position: qi + 1, text, deleted: 0 })
          .execute();
        await trx
          .insertInto('training_question_options')
          .values(
            options.map((o, oi) => ({
              id: uuidv7(),
              company_id: companyId,
              question_id: qid,
              position: oi + 1,
              text: o,
              correct: oi === right ? 1 : 0,
            })),
          )
          .execute();
      }
      const activityId = uuidv7();
      await trx
        .insertInto('training_activities')
        .values({
          id: activityId,
          ...(await row('training_activities')),
          training_id: trainingId,
          subject_id: subjectId,
          kind: 'EXAM',
          entity_id: examId,
          position: ++position,
        })
        .execute();
      activities.push({ id: activityId, kind: 'EXAM', entityId: examId, subjectId });
    }
  }
  const types = await trx
    .selectFrom('flight_types')
    .select(['id', 'name'])
    .where('company_id', '=', companyId)
    .execute();
  const missionIds: string[] = [];
  for (const [i, [name, type, minutes]] of MISSIONS.entries()) {
    const id = uuidv7();
    missionIds.push(id);
    await trx
      .insertInto('training_missions')
      .values({
        id,
        ...(await row('training_missions')),
        training_id: trainingId,
        name,
        flight_type_id: types.find((t) => t.name === type)?.id ?? null,
        minutes,
        position: i + 1,
      })
      .execute();
  }

  // The demo student: enrolled 60 days ago, Air Law lessons done, the online test passed, two missions flown.
  const studentId = user('student@skyline.test');
  if (!studentId) return;
  const enrollmentId = uuidv7();
  await trx
    .insertInto('training_enrollments')
    .values({
      id: enrollmentId,
      ...(await row('training_enrollments')),
      created: now - 60 * 86400,
      training_id: trainingId,
      user_id: studentId,
      supervisor_id: user('instructor@skyline.test'),
      finish_before: now + 300 * 86400,
      finished: 0,
      notes: null,
      status: 'ACTIVE',
      status_reason: null,
      status_changed_at: null,
      status_changed_by: null,
    })
    .execute();
  const airLaw = activities.filter((a) => a.subjectId === firstSubject);
  for (const a of airLaw)
    await trx
      .insertInto('training_progress')
      .values({
        id: uuidv7(),
        ...(await row('training_progress')),
        enrollment_id: enrollmentId,
        activity_id: a.id,
        value: 1,
        session_id: null,
        reset_at: null,
        time_spent: a.kind === 'LESSON' ? 3600 : 0,
      })
      .execute();
  const examAct = airLaw.find((a) => a.kind === 'EXAM');
  if (examAct)
    await trx
      .insertInto('training_attempts')
      .values({
        id: uuidv7(),
        ...(await row('training_attempts')),
        enrollment_id: enrollmentId,
        exam_id: examAct.entityId,
        user_id: studentId,
        session_id: null,
        start: now - 10 * 86400,
        finished_at: now - 10 * 86400 + 900,
        correct: 3,
        total: 3,
        score: 100,
        passed: 1,
      })
      .execute();
  // The second mission's debriefing is still to be signed (GET /trainings/missions/unsigned.json shows it).
  for (const [i, missionId] of missionIds.slice(0, 2).entries())
    await trx
      .insertInto('training_mission_flights')
      .values({
        id: uuidv7(),
        ...(await row('training_mission_flights')),
        enrollment_id: enrollmentId,
        mission_id: missionId,
        flight_id: null,
        user_id: studentId,
        completed: 1,
        debrief_signed_at: i === 0 ? now - 86400 : null,
      })
      .execute();

  // Locations, and classes: Meteorology last week (attended, signed, class work handed in and graded), Navigation three days ago
  // (absent, signed, a justification pending), METAR tomorrow (class work asked), and Charts half an hour after
  // seeding, taught by the demo flight instructor (their "Classes today" screen; attendance not taken yet).
  const location = async (name: string, type: string, description: string) => {
    const id = uuidv7();
    await trx
      .insertInto('training_locations')
      .values({
        id,
        ...(await row('training_locations')),
        name,
        type,
        country_id: 'ES',
        timezone_id: 'Europe/Madrid',
        phone: null,
        address: 'Aeródromo de Cuatro Vientos, Hangar 3',
        description,
      })
      .execute();
    return id;
  };
  const classroom = await location('Classroom A', 'CLASSROOM', 'Projector and 16 seats');
  const briefing = await location('Briefing room 1', 'BRIEFING_ROOM', 'Whiteboard and charts table');
  const lessonAct = (name: string) => activities.find((a) => a.lessonName === name);
  const ground = user('ground@skyline.test');
  const instructor = user('instructor@skyline.test');
  const day = 86400;
  const classes = [
    {
      a: lessonAct('Clouds and fog'),
      when: now - 7 * day,
      status: 'attended',
      teacher: ground,
      loc: classroom,
      signed: true,
      classwork: 'Sketch the cloud types of the photo sheet.',
    },
    {
      a: lessonAct('Dead reckoning'),
      when: now - 3 * day,
      status: 'absent',
      teacher: instructor,
      loc: briefing,
      signed: true,
      classwork: null,
    },
    {
      a: lessonAct('METAR and TAF'),
      when: now + day,
      status: null,
      teacher: ground,
      loc: classroom,
      signed: false,
      classwork: 'Decode the five METARs on the handout.',
    },
    {
      a: lessonAct('Charts and projections'),
      when: demoTodayClassStart(now),
      status: null,
      teacher: instructor,
      loc: briefing,
      signed: false,
      classwork: null,
    },
  ];
  for (const c of classes) {
    if (!c.a) continue;
    const sessionId = uuidv7();
    const signedAt = c.signed ? c.when + 2 * 3600 : null;
    await trx
      .insertInto('training_sessions')
      .values({
        id: sessionId,
        ...(await row('training_sessions')),
        training_id: trainingId,
        subject_id: c.a.subjectId,
        activity_id: c.a.id,
        lesson_id: c.a.entityId,
        exam_id: null,
        datetime: c.when,
        minutes: 90,
        teacher_id: c.teacher,
        location_id: c.loc,
        remarks: null,
        allow_classwork_upload: c.classwork ? 1 : 0,
        classwork_deadline: c.when + 7 * day,
        classwork_description: c.classwork,
        classwork_notified_at: c.classwork ? Math.min(now, c.when + 2 * 3600) : null,
        justification_deadline: c.when + 5 * day,
        signed_at: signedAt,
        signed_by: signedAt ? c.teacher : null,
      })
      .execute();
    const rowId = uuidv7();
    await trx
      .insertInto('training_session_students')
      .values({
        id: rowId,
        ...(await row('training_session_students')),
        session_id: sessionId,
        user_id: studentId,
        enrollment_id: enrollmentId,
        invited: 1,
        attended: c.status === 'attended' ? 1 : 0,
        attendance_status: c.status,
        missed_email_sent_at: signedAt && c.status === 'absent' ? signedAt : null,
        attendance_notified_at: signedAt,
      })
      .execute();
    if (c.status === 'attended')
      await trx
        .insertInto('training_progress')
        .values({
          id: uuidv7(),
          ...(await row('training_progress')),
          enrollment_id: enrollmentId,
          activity_id: c.a.id,
          value: 1,
          session_id: sessionId,
          reset_at: null,
          time_spent: 0,
        })
        .execute();
    if (c.classwork && c.status === 'attended') {
      // Graded class work: "My training" shows it offline (the `training` collection's `grade`).
      await trx
        .insertInto('training_classwork_grades')
        .values({
          id: uuidv7(),
          ...(await row('training_classwork_grades')),
          session_student_id: rowId,
          session_id: sessionId,
          user_id: studentId,
          upload_id: null,
          score: 8.5,
          feedback: 'Good sketches; cumulonimbus base too high.',
          graded_by: c.teacher,
          graded_at: c.when + day,
        })
        .execute();
    }
    if (c.status === 'absent') {
      await trx
        .insertInto('training_justifications')
        .values({
          id: uuidv7(),
          ...(await row('training_justifications')),
          session_student_id: rowId,
          session_id: sessionId,
          user_id: studentId,
          upload_id: null,
          text: 'I had a fever; the doctor’s note follows.',
          status: 'pending',
          reviewed_by: null,
          reviewed_at: null,
          review_note: null,
        })
        .execute();
    }
  }
}

export const trainingsSeedStep: SeedStep = { name: 'trainings', demo };
