import { humanRefusal } from '../../refusals.ts';
import type { OutcomeDoc, TrainingClassDoc, TrainingClassStudentDoc } from '@ops/shared';
import {
  ATTENDANCE_STATUSES,
  type AttendanceStatus,
  attendanceEditRefusal,
  attendedFlag,
  signRefusal,
  unsignRefusal,
} from '@ops/shared/rules/trainings/attendance';
import type { MessageId } from '@ops/shared/i18n/index';
import { type FormEvent, useState } from 'react';
import { isoDateIn } from '../../format.ts';
import { useT } from '../../i18n.tsx';
import { fullName, useCompany, useDocs, useNow, useUsers, useWorkspace } from '../../hooks.ts';
import { Badge, Empty } from '../../ui.tsx';
import { Busy, ScreenHead } from '../office-kit.tsx';
import { addDays, type TrainingData, weekOf } from './training-data.ts';
import './trainings.css';
import { ruleText, useTraining, useTrainingFormats, useTrainingSave } from './use-training.ts';

const STATUS_LABELS: Record<AttendanceStatus, MessageId> = {
  attended: 'trainings.attAttended',
  attended_post_class: 'trainings.attAttendedPost',
  absent: 'trainings.attAbsent',
  absent_justified: 'trainings.attAbsentJustified',
};

/**
 * The instructor's "Today" (issue 19 item 9): today's classes they teach (a
 * training manager: every class of the day) with their students. Attendance
 * is taken offline (the rows sync as edits; the server re-decides with
 * `attendanceEditRefusal`); signing needs the teacher's password, so it is an
 * online step. A week calendar of classes next to it.
 */
export default function TrainingToday() {
  const t = useT();
  const ws = useWorkspace();
  const data = useTraining();
  const { display } = useCompany();
  const now = useNow();
  const [tab, setTab] = useState<'today' | 'week'>('today');
  const zone = display.companyZone;
  const today = isoDateIn(now, zone);
  const actor = { id: ws.user.id, role: ws.user.user_group_id };
  // The classes a person may take attendance of (the same rule as the server's, signed or not).
  const mine = data.classes.filter(
    (c) => attendanceEditRefusal(actor, { teacher_id: c.teacher_id, signed_at: null }) === null,
  );
  const todays = mine.filter((c) => isoDateIn(c.datetime, zone) === today);
  if (!data.ready) return <Busy what={t('shell.loading')} />;
  return (
    <section className="trainings" data-testid="training-today">
      <ScreenHead title={t('trainings.classesTitle')}>
        {(['today', 'week'] as const).map((k) => (
          <button key={k} type="button" aria-pressed={tab === k} onClick={() => setTab(k)}>
            {k === 'today' ? t('trainings.today') : t('trainings.week')}
          </button>
        ))}
      </ScreenHead>
      {tab === 'today' && (
        <>
          {todays.length === 0 && <Empty>{t('trainings.noClassesToday')}</Empty>}
          {todays.map((c) => (
            <ClassCard key={c.id} data={data} session={c} />
          ))}
        </>
      )}
      {tab === 'week' && <WeekCalendar data={data} classes={mine} today={today} />}
    </section>
  );
}

function ClassCard({ data, session: stored }: { data: TrainingData; session: TrainingClassDoc }) {
  const t = useT();
  const fmt = useTrainingFormats();
  const ws = useWorkspace();
  // The signature (or unsigning) the server just accepted, shown before the pull brings the class back.
  const [signedNow, setSignedNow] = useState<{ from: number | null; to: number | null } | null>(null);
  const session = signedNow && signedNow.from === stored.signed_at ? { ...stored, signed_at: signedNow.to } : stored;
  const users = useUsers();
  const { save, pending, online } = useTrainingSave();
  const rows = data.classStudents.filter((r) => r.session_id === session.id);
  const { docs: outcomes } = useDocs<OutcomeDoc>('outcome', { sort: [{ created: 'desc' }] });
  const refusalOf = (id: string) => outcomes.find((o) => o.document_id === id && o.status === 'rejected');
  const actor = { id: ws.user.id, role: ws.user.user_group_id };
  const lockedRule = attendanceEditRefusal(actor, session);
  const locked = lockedRule && ruleText(lockedRule, t);
  const subject = data.subjects.find((s) => s.id === session.subject_id);
  const lesson = data.lessons.find((l) => l.id === session.lesson_id);
  const exam = data.exams.find((x) => x.id === session.exam_id);
  const mark = (row: TrainingClassStudentDoc, status: AttendanceStatus) =>
    save({ ...row, type: 'class_student', attendance_status: status, attended: attendedFlag(status) });
  return (
    <article
      className="tr-card"
      data-testid="class"
      data-class={session.id}
      data-signed-stored={stored.signed_at != null}
    >
      <header>
        <h2>
          {fmt.time(session.datetime)} · {subject?.name ?? t('trainings.colClass')}
          {lesson ? ` · ${lesson.name}` : exam ? ` · ${exam.name}` : ''}
        </h2>
        <span className="tr-muted">{t('trainings.minutes', { minutes: session.minutes })}</span>
        {session.signed_at ? (
          <Badge tone="ok">{t('trainings.signed')}</Badge>
        ) : (
          <Badge tone="info">{t('trainings.notSigned')}</Badge>
        )}
      </header>
      {session.remarks && <p className="tr-muted">{session.remarks}</p>}
      <table className="tr-table">
        <thead>
          <tr>
            <th>{t('trainings.colStudent')}</th>
            <th>{t('trainings.colAttendance')}</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const refused = refusalOf(r.id);
            return (
              <tr key={r.id} data-testid="class-student" data-student={r.user_id}>
                <td>{fullName(users.get(r.user_id)) || r.user_id}</td>
                <td>
                  <fieldset
                    className="tr-choices"
                    aria-label={t('trainings.attendanceOf', { name: fullName(users.get(r.user_id)) })}
                  >
                    {ATTENDANCE_STATUSES.map((st) => (
                      <button
                        key={st}
                        type="button"
                        aria-pressed={r.attendance_status === st}
                        disabled={!!locked}
                        title={locked ?? undefined}
                        data-status={st}
                        onClick={() => void mark(r, st)}
                      >
                        {t(STATUS_LABELS[st])}
                      </button>
                    ))}
                  </fieldset>
                </td>
                <td>
                  {pending.has(r.id) && <Badge tone="pending">{t('trainings.waitingSync')}</Badge>}
                  {refused && (
                    <span className="tr-refused" data-testid="attendance-refused">
                      {t('trainings.refused', { reason: ruleText(humanRefusal(refused.reason, null, t), t) })}
                    </span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {rows.length === 0 && <Empty>{t('trainings.noStudents')}</Empty>}
      {/* Why the marks are disabled (a signed class: unsign first), so nothing is marked only to be refused at sync. */}
      {locked && (
        <p className="tr-muted" data-testid="attendance-locked">
          {locked}
        </p>
      )}
      <SignClass
        session={session}
        online={online}
        waiting={pending.size > 0}
        onSigned={(to) => setSignedNow({ from: stored.signed_at, to })}
      />
    </article>
  );
}

/** Signing sends the teacher's password to the server: online only, after the marks reached it. */
function SignClass({
  session,
  online,
  waiting,
  onSigned,
}: {
  session: TrainingClassDoc;
  online: boolean;
  waiting: boolean;
  onSigned: (signedAt: number | null) => void;
}) {
  const t = useT();
  const fmt = useTrainingFormats();
  const ws = useWorkspace();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (session.signed_at != null) {
    // Unsign: only for whom the shared rule allows (the teacher or a training manager), and online.
    const mayUnsign = unsignRefusal({ id: ws.user.id, role: ws.user.user_group_id }, session) === null;
    const unsign = async () => {
      if (!window.confirm(t('trainings.unsignConfirm'))) return;
      setError(null);
      try {
        await ws.rest('POST', '/trainings/onsite/unsign_class.json', { classId: session.id });
        onSigned(null);
        ws.client.resync();
      } catch (err) {
        setError(humanRefusal(err instanceof Error ? err.message : String(err), null, t));
      }
    };
    return (
      <div className="tr-sign">
        <p role="status" data-testid="class-signed">
          {t('trainings.signedAt', { time: fmt.time(session.signed_at) })}
        </p>
        {mayUnsign && (
          <button type="button" disabled={!online} onClick={unsign} data-testid="unsign-class">
            {t('trainings.unsign')}
          </button>
        )}
        {mayUnsign && !online && <span className="tr-muted"> {t('trainings.unsignOffline')}</span>}
        {error && (
          <p role="alert" className="form-error">
            {error}
          </p>
        )}
      </div>
    );
  }
  const refusal = signRefusal({ id: ws.user.id, role: ws.user.user_group_id }, session);
  if (refusal) return <p className="tr-muted">{ruleText(refusal, t)}</p>;
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const password = String(new FormData(form).get('password') ?? '');
    setError(null);
    try {
      const res = await ws.rest<{ signed_at: number }>('POST', '/trainings/onsite/sign_class.json', {
        classId: session.id,
        password,
      });
      setOpen(false);
      onSigned(res.signed_at);
      // Bring the signed class into the local database now rather than at the next change event.
      ws.client.resync();
    } catch (err) {
      form.reset();
      setError(err instanceof Error ? err.message : String(err));
    }
  };
  const why = !online ? t('trainings.signOffline') : waiting ? t('trainings.waitingAttendance') : null;
  return (
    <div className="tr-sign">
      {!open && (
        <button type="button" disabled={!!why} onClick={() => setOpen(true)} data-testid="sign-class">
          {t('trainings.signAttendance')}
        </button>
      )}
      {why && <span className="tr-muted"> {why}</span>}
      {open && (
        <form onSubmit={submit} aria-label={t('trainings.signAttendance')}>
          <label>
            {t('trainings.yourPassword')}{' '}
            <input name="password" type="password" autoComplete="current-password" required />
          </label>{' '}
          <button type="submit">{t('trainings.sign')}</button>{' '}
          <button type="button" onClick={() => setOpen(false)}>
            {t('trainings.cancel')}
          </button>
        </form>
      )}
      {error && (
        <p role="alert" className="form-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** Monday to Sunday of a week, the classes of each day in order. */
function WeekCalendar({ data, classes, today }: { data: TrainingData; classes: TrainingClassDoc[]; today: string }) {
  const t = useT();
  const fmt = useTrainingFormats();
  const { display } = useCompany();
  const [anchor, setAnchor] = useState(today);
  const days = weekOf(anchor);
  const zone = display.companyZone;
  return (
    <div data-testid="training-week">
      <div className="tr-controls">
        <button type="button" onClick={() => setAnchor(addDays(anchor, -7))}>
          {t('trainings.prevWeek')}
        </button>
        <button type="button" onClick={() => setAnchor(today)}>
          {t('trainings.thisWeek')}
        </button>
        <button type="button" onClick={() => setAnchor(addDays(anchor, 7))}>
          {t('trainings.nextWeek')}
        </button>
      </div>
      <table className="tr-week">
        <thead>
          <tr>
            {days.map((d) => (
              <th key={d} className={d === today ? 'tr-today' : undefined}>
                {fmt.weekday(d)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <tr>
            {days.map((d) => (
              <td key={d} className={d === today ? 'tr-today' : undefined}>
                {classes
                  .filter((c) => isoDateIn(c.datetime, zone) === d)
                  .map((c) => (
                    <div
                      key={c.id}
                      className="tr-event"
                      style={{ borderColor: data.trainings.find((t) => t.id === c.training_id)?.color ?? undefined }}
                    >
                      <strong>{fmt.time(c.datetime)}</strong> {data.subjects.find((s) => s.id === c.subject_id)?.name}
                      <br />
                      <span className="tr-muted">
                        {data.lessons.find((l) => l.id === c.lesson_id)?.name ??
                          data.exams.find((x) => x.id === c.exam_id)?.name ??
                          ''}
                      </span>
                    </div>
                  ))}
              </td>
            ))}
          </tr>
        </tbody>
      </table>
    </div>
  );
}
