import { uuidv7 } from '@ops/shared';
import { isComplete } from '@ops/shared/rules/trainings/progress';
import type { MessageId } from '@ops/shared/i18n/index';
import { useMemo } from 'react';
import { fullName, useNow, useUsers, useWorkspace } from '../../hooks.ts';
import { useT } from '../../i18n.tsx';
import { Badge, Empty } from '../../ui.tsx';
import { Busy, ScreenHead } from '../office-kit.tsx';
import { Bar } from './Bar.tsx';
import { completion, enrollmentProgress, myClasses } from './training-data.ts';
import './trainings.css';
import { ENROLLMENT_NAMES, useTraining, useTrainingFormats, useTrainingSave } from './use-training.ts';

// Display names of justification statuses (the codes stay in the data).
const JUSTIFICATION_NAMES: Record<string, MessageId> = {
  pending: 'trainings.justPending',
  approved: 'trainings.justApproved',
  rejected: 'trainings.justRejected',
};

/**
 * "My training" (issue 18 item 7, issue 19 item 9): the student's enrollments
 * with progress, subjects and lessons, next classes, deadlines and results,
 * and per class the class work and justification deadlines, the grade and the
 * justification status, all from the local database. Completing a lesson works offline: it is a
 * progress row pushed when online, which the server re-decides.
 */
export default function MyTraining() {
  const t = useT();
  const fmt = useTrainingFormats();
  const ws = useWorkspace();
  const me = ws.user.id;
  const data = useTraining();
  const users = useUsers();
  const now = useNow();
  const { save, pending } = useTrainingSave();
  const mine = useMemo(() => data.enrollments.filter((e) => e.user_id === me), [data.enrollments, me]);
  const myRows = data.classStudents.filter((r) => r.user_id === me);
  const classesById = new Map(data.classes.map((c) => [c.id, c]));
  const subjectName = (id: string) => data.subjects.find((s) => s.id === id)?.name ?? '';
  const next = myRows
    .map((r) => ({ row: r, c: classesById.get(r.session_id) }))
    .filter((x) => x.c && x.c.datetime + x.c.minutes * 60 >= now)
    .sort((a, b) => (a.c?.datetime ?? 0) - (b.c?.datetime ?? 0));
  const deadlines = myRows
    .map((r) => classesById.get(r.session_id))
    .flatMap((c) =>
      c
        ? [
            c.classwork_deadline && {
              what: t('trainings.deadlineClasswork', { subject: subjectName(c.subject_id) }),
              at: c.classwork_deadline,
            },
            c.justification_deadline && {
              what: t('trainings.deadlineJustification', { subject: subjectName(c.subject_id) }),
              at: c.justification_deadline,
            },
          ]
        : [],
    )
    .filter((d): d is { what: string; at: number } => !!d && d.at >= now);
  for (const e of mine)
    if (e.finish_before && e.finish_before >= now)
      deadlines.push({
        what: t('trainings.deadlineFinish', {
          training: data.trainings.find((x) => x.id === e.training_id)?.name ?? t('trainings.training'),
        }),
        at: e.finish_before,
      });
  deadlines.sort((a, b) => a.at - b.at);
  const classes = myClasses(data, me);

  if (!data.ready) return <Busy what={t('shell.loading')} />;
  return (
    <section className="trainings" data-testid="my-training">
      <ScreenHead title={t('trainings.myTitle')} />
      {mine.length === 0 && <Empty>{t('trainings.notEnrolled')}</Empty>}
      {mine.map((e) => {
        const tr = data.trainings.find((x) => x.id === e.training_id);
        const p = enrollmentProgress(data, e);
        const subjects = data.subjects.filter((s) => s.training_id === e.training_id);
        const done = (activityId: string) =>
          isComplete(data.progress.find((r) => r.enrollment_id === e.id && r.activity_id === activityId)?.value);
        return (
          <article key={e.id} className="tr-card" data-testid="enrollment">
            <header>
              <h2>{tr?.name ?? t('trainings.training')}</h2>
              <Badge tone={e.status === 'ACTIVE' ? 'info' : e.status === 'COMPLETED' ? 'ok' : 'warn'}>
                {ENROLLMENT_NAMES[e.status] ? t(ENROLLMENT_NAMES[e.status]) : e.status}
              </Badge>
              <Bar
                value={p.percentage}
                label={t('trainings.progressOf', { name: tr?.name ?? t('trainings.training') })}
              />
              <span className="tr-muted">
                {t('trainings.doneOf', { completed: p.completed, total: p.total })}
                {e.finish_before ? ` · ${t('trainings.finishBefore', { date: fmt.date(e.finish_before) })}` : ''}
              </span>
            </header>
            {tr?.announcement && <p className="tr-muted">{tr.announcement}</p>}
            {subjects.map((s) => (
              <details key={s.id} open>
                <summary>
                  {s.name} <span className="tr-muted">{fullName(users.get(s.teacher_id ?? ''))}</span>
                </summary>
                <ul className="tr-activities">
                  {data.activities
                    .filter((a) => a.subject_id === s.id)
                    .map((a) => {
                      const lesson = a.kind === 'LESSON' ? data.lessons.find((l) => l.id === a.entity_id) : undefined;
                      const exam = a.kind === 'EXAM' ? data.exams.find((x) => x.id === a.entity_id) : undefined;
                      const attempts = exam
                        ? data.attempts.filter((x) => x.exam_id === exam.id && x.enrollment_id === e.id)
                        : [];
                      const best = attempts.reduce<number | null>(
                        (m, x) => (x.score !== null && (m === null || x.score > m) ? x.score : m),
                        null,
                      );
                      const passed = attempts.some((x) => x.passed) || (exam?.exam_type === 'ONSITE' && done(a.id));
                      const progressRow = data.progress.find((r) => r.enrollment_id === e.id && r.activity_id === a.id);
                      return (
                        <li key={a.id} data-testid="activity" data-name={lesson?.name ?? exam?.name}>
                          {lesson?.name ?? exam?.name}
                          {lesson && (
                            <span className="tr-muted"> {t('trainings.minutes', { minutes: lesson.minutes })}</span>
                          )}
                          {lesson && done(a.id) && <Badge tone="ok">{t('trainings.done')}</Badge>}
                          {progressRow && pending.has(progressRow.id) && (
                            <Badge tone="pending">{t('trainings.waitingSync')}</Badge>
                          )}
                          {lesson && !done(a.id) && e.status === 'ACTIVE' && (
                            <button
                              type="button"
                              className="tr-small"
                              onClick={() => void save(completion(data, e.id, a.id, me, uuidv7(), now))}
                            >
                              {t('trainings.markComplete')}
                            </button>
                          )}
                          {exam && (
                            <>
                              <span className="tr-muted">
                                {' '}
                                {exam.exam_type === 'ONLINE' ? t('trainings.onlineExam') : t('trainings.onsiteExam')}
                              </span>
                              {passed ? (
                                <Badge tone="ok">
                                  {best !== null ? t('trainings.passedScore', { score: best }) : t('trainings.passed')}
                                </Badge>
                              ) : best !== null ? (
                                <Badge tone="warn">{t('trainings.bestScore', { score: best })}</Badge>
                              ) : null}
                            </>
                          )}
                        </li>
                      );
                    })}
                </ul>
              </details>
            ))}
          </article>
        );
      })}
      <div className="tr-columns">
        <article className="tr-card">
          <h2>{t('trainings.nextClasses')}</h2>
          {next.length === 0 && <Empty>{t('trainings.noClassesPlanned')}</Empty>}
          <ul data-testid="next-classes">
            {next.map(({ row, c }) =>
              c ? (
                <li key={row.id}>
                  {fmt.dateTime(c.datetime)} · {subjectName(c.subject_id)}
                  {c.lesson_id ? ` · ${data.lessons.find((l) => l.id === c.lesson_id)?.name ?? ''}` : ''}{' '}
                  <span className="tr-muted">{fullName(users.get(c.teacher_id ?? ''))}</span>
                </li>
              ) : null,
            )}
          </ul>
        </article>
        <article className="tr-card">
          <h2>{t('trainings.deadlines')}</h2>
          {deadlines.length === 0 && <Empty>{t('trainings.noDeadlines')}</Empty>}
          <ul data-testid="deadlines">
            {deadlines.map((d) => (
              <li key={`${d.what}-${d.at}`}>
                {fmt.date(d.at)} · {d.what}
              </li>
            ))}
          </ul>
        </article>
      </div>
      <article className="tr-card">
        <h2>{t('trainings.myClasses')}</h2>
        {classes.length === 0 && <Empty>{t('trainings.noClassesYet')}</Empty>}
        <table className="tr-my-classes" data-testid="my-classes">
          {classes.length > 0 && (
            <thead>
              <tr>
                <th>{t('trainings.colClass')}</th>
                <th>{t('trainings.colClassworkDue')}</th>
                <th>{t('trainings.colJustifyBefore')}</th>
                <th>{t('trainings.colGrade')}</th>
                <th>{t('trainings.colJustification')}</th>
              </tr>
            </thead>
          )}
          <tbody>
            {classes.map(({ row, class: c, grade, justification }) => (
              <tr key={row.id} data-testid="my-class" data-class={c.id}>
                <td>
                  {fmt.dateTime(c.datetime)} · {subjectName(c.subject_id)}
                  {c.lesson_id ? ` · ${data.lessons.find((l) => l.id === c.lesson_id)?.name ?? ''}` : ''}
                </td>
                <td>{c.classwork_deadline ? fmt.date(c.classwork_deadline) : '–'}</td>
                <td>{c.justification_deadline ? fmt.date(c.justification_deadline) : '–'}</td>
                <td data-testid="grade">
                  {grade ? (
                    <>
                      <strong>{grade.score}</strong>
                      {grade.feedback && <span className="tr-muted"> {grade.feedback}</span>}
                    </>
                  ) : (
                    '–'
                  )}
                </td>
                <td data-testid="justification">
                  {justification ? (
                    <>
                      <Badge tone={JUSTIFICATION_TONE[justification.status] ?? 'neutral'}>
                        {JUSTIFICATION_NAMES[justification.status]
                          ? t(JUSTIFICATION_NAMES[justification.status])
                          : justification.status}
                      </Badge>
                      {justification.review_note && <span className="tr-muted"> {justification.review_note}</span>}
                    </>
                  ) : (
                    '–'
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </article>
    </section>
  );
}

const JUSTIFICATION_TONE: Record<string, 'ok' | 'warn' | 'danger'> = {
  pending: 'warn',
  approved: 'ok',
  rejected: 'danger',
};
