import { uuidv7 } from '@ops/shared';
import { isComplete } from '@ops/shared/rules/trainings/progress';
import { useMemo } from 'react';
import { formatDate, formatDateTime } from '../../format.ts';
import { fullName, useCompany, useNow, useUsers, useWorkspace } from '../../hooks.ts';
import { Badge, Empty } from '../../ui.tsx';
import { Busy, ScreenHead } from '../office-kit.tsx';
import { Bar } from './Bar.tsx';
import { completion, enrollmentProgress, myClasses } from './training-data.ts';
import './trainings.css';
import { useTraining, useTrainingSave } from './use-training.ts';

/**
 * "My training" (issue 18 item 7, issue 19 item 9): the student's enrollments
 * with progress, subjects and lessons, next classes, deadlines and results,
 * and per class the class work and justification deadlines, the grade and the
 * justification status, all from the local database. Completing a lesson works offline: it is a
 * progress row pushed when online, which the server re-decides.
 */
export default function MyTraining() {
  const ws = useWorkspace();
  const me = ws.user.id;
  const data = useTraining();
  const { display } = useCompany();
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
            c.classwork_deadline && { what: `Classwork: ${subjectName(c.subject_id)}`, at: c.classwork_deadline },
            c.justification_deadline && {
              what: `Justification: ${subjectName(c.subject_id)}`,
              at: c.justification_deadline,
            },
          ]
        : [],
    )
    .filter((d): d is { what: string; at: number } => !!d && d.at >= now);
  for (const e of mine)
    if (e.finish_before && e.finish_before >= now)
      deadlines.push({
        what: `Finish ${data.trainings.find((t) => t.id === e.training_id)?.name ?? 'training'}`,
        at: e.finish_before,
      });
  deadlines.sort((a, b) => a.at - b.at);
  const classes = myClasses(data, me);

  if (!data.ready) return <Busy />;
  return (
    <section className="trainings" data-testid="my-training">
      <ScreenHead title="My training" />
      {mine.length === 0 && <Empty>You are not enrolled in a training.</Empty>}
      {mine.map((e) => {
        const t = data.trainings.find((x) => x.id === e.training_id);
        const p = enrollmentProgress(data, e);
        const subjects = data.subjects.filter((s) => s.training_id === e.training_id);
        const done = (activityId: string) =>
          isComplete(data.progress.find((r) => r.enrollment_id === e.id && r.activity_id === activityId)?.value);
        return (
          <article key={e.id} className="tr-card" data-testid="enrollment">
            <header>
              <h2>{t?.name ?? 'Training'}</h2>
              <Badge tone={e.status === 'ACTIVE' ? 'info' : e.status === 'COMPLETED' ? 'ok' : 'warn'}>{e.status}</Badge>
              <Bar value={p.percentage} label={`Progress of ${t?.name ?? 'training'}`} />
              <span className="tr-muted">
                {p.completed} of {p.total} done
                {e.finish_before ? ` · finish before ${formatDate(e.finish_before, display)}` : ''}
              </span>
            </header>
            {t?.announcement && <p className="tr-muted">{t.announcement}</p>}
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
                          {lesson && <span className="tr-muted"> {lesson.minutes} min</span>}
                          {lesson && done(a.id) && <Badge tone="ok">Done</Badge>}
                          {progressRow && pending.has(progressRow.id) && <Badge tone="pending">Waiting to sync</Badge>}
                          {lesson && !done(a.id) && e.status === 'ACTIVE' && (
                            <button
                              type="button"
                              className="tr-small"
                              onClick={() => void save(completion(data, e.id, a.id, me, uuidv7(), now))}
                            >
                              Mark complete
                            </button>
                          )}
                          {exam && (
                            <>
                              <span className="tr-muted">
                                {' '}
                                {exam.exam_type === 'ONLINE' ? 'online exam' : 'onsite exam'}
                              </span>
                              {passed ? (
                                <Badge tone="ok">Passed{best !== null ? ` ${best}%` : ''}</Badge>
                              ) : best !== null ? (
                                <Badge tone="warn">Best {best}%</Badge>
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
          <h2>Next classes</h2>
          {next.length === 0 && <Empty>No classes planned.</Empty>}
          <ul data-testid="next-classes">
            {next.map(({ row, c }) =>
              c ? (
                <li key={row.id}>
                  {formatDateTime(c.datetime, display)} · {subjectName(c.subject_id)}
                  {c.lesson_id ? ` · ${data.lessons.find((l) => l.id === c.lesson_id)?.name ?? ''}` : ''}{' '}
                  <span className="tr-muted">{fullName(users.get(c.teacher_id ?? ''))}</span>
                </li>
              ) : null,
            )}
          </ul>
        </article>
        <article className="tr-card">
          <h2>Deadlines</h2>
          {deadlines.length === 0 && <Empty>No deadlines.</Empty>}
          <ul data-testid="deadlines">
            {deadlines.map((d) => (
              <li key={`${d.what}-${d.at}`}>
                {formatDate(d.at, display)} · {d.what}
              </li>
            ))}
          </ul>
        </article>
      </div>
      <article className="tr-card">
        <h2>My classes</h2>
        {classes.length === 0 && <Empty>No classes yet.</Empty>}
        <table className="tr-my-classes" data-testid="my-classes">
          {classes.length > 0 && (
            <thead>
              <tr>
                <th>Class</th>
                <th>Class work due</th>
                <th>Justify before</th>
                <th>Grade</th>
                <th>Justification</th>
              </tr>
            </thead>
          )}
          <tbody>
            {classes.map(({ row, class: c, grade, justification }) => (
              <tr key={row.id} data-testid="my-class" data-class={c.id}>
                <td>
                  {formatDateTime(c.datetime, display)} · {subjectName(c.subject_id)}
                  {c.lesson_id ? ` · ${data.lessons.find((l) => l.id === c.lesson_id)?.name ?? ''}` : ''}
                </td>
                <td>{c.classwork_deadline ? formatDate(c.classwork_deadline, display) : '–'}</td>
                <td>{c.justification_deadline ? formatDate(c.justification_deadline, display) : '–'}</td>
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
                      <Badge tone={JUSTIFICATION_TONE[justification.status] ?? 'neutral'}>{justification.status}</Badge>
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
