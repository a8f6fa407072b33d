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
import { type FormEvent, useState } from 'react';
import { formatTime, isoDateIn } from '../../format.ts';
import { fullName, useCompany, useDocs, useNow, useUsers, useWorkspace } from '../../hooks.ts';
import { Badge, Empty } from '../../ui.tsx';
import { Busy, ScreenHead } from '../office-kit.tsx';
import { addDays, type TrainingData, weekOf } from './training-data.ts';
import './trainings.css';
import { useTraining, useTrainingSave } from './use-training.ts';

const STATUS_LABELS: Record<AttendanceStatus, string> = {
  attended: 'Attended',
  attended_post_class: 'Attended (after class)',
  absent: 'Absent',
  absent_justified: 'Absent (justified)',
};

/**
 * The instructor's "Today" (issue 19 item 9): today's classes they teach (a
 * training manager: every class of the day) with their students. Attendance
 * is taken offline (the rows sync as edits; the server re-decides with
 * `attendanceEditRefusal`); signing needs the teacher's password, so it is an
 * online step. A week calendar of classes next to it.
 */
export default function TrainingToday() {
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
  if (!data.ready) return <Busy />;
  return (
    <section className="trainings" data-testid="training-today">
      <ScreenHead title="Classes">
        {(['today', 'week'] as const).map((t) => (
          <button key={t} type="button" aria-pressed={tab === t} onClick={() => setTab(t)}>
            {t === 'today' ? 'Today' : 'Week'}
          </button>
        ))}
      </ScreenHead>
      {tab === 'today' && (
        <>
          {todays.length === 0 && <Empty>No classes today.</Empty>}
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
  const ws = useWorkspace();
  // The signature (or unsigning) the server just accepted, shown before the pull brings the class back.
  const [signedNow, setSignedNow] = useState<{ from: number | null; to: number | null } | null>(null);
  const session = signedNow && signedNow.from === stored.signed_at ? { ...stored, signed_at: signedNow.to } : stored;
  const users = useUsers();
  const { display } = useCompany();
  const { save, pending, online } = useTrainingSave();
  const rows = data.classStudents.filter((r) => r.session_id === session.id);
  const { docs: outcomes } = useDocs<OutcomeDoc>('outcome', { sort: [{ created: 'desc' }] });
  const refusalOf = (id: string) => outcomes.find((o) => o.document_id === id && o.status === 'rejected');
  const actor = { id: ws.user.id, role: ws.user.user_group_id };
  const locked = attendanceEditRefusal(actor, session);
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
          {formatTime(session.datetime, display)} · {subject?.name ?? 'Class'}
          {lesson ? ` · ${lesson.name}` : exam ? ` · ${exam.name}` : ''}
        </h2>
        <span className="tr-muted">{session.minutes} min</span>
        {session.signed_at ? <Badge tone="ok">Signed</Badge> : <Badge tone="info">Not signed</Badge>}
      </header>
      {session.remarks && <p className="tr-muted">{session.remarks}</p>}
      <table className="tr-table">
        <thead>
          <tr>
            <th>Student</th>
            <th>Attendance</th>
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
                  <fieldset className="tr-choices" aria-label={`Attendance of ${fullName(users.get(r.user_id))}`}>
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
                        {STATUS_LABELS[st]}
                      </button>
                    ))}
                  </fieldset>
                </td>
                <td>
                  {pending.has(r.id) && <Badge tone="pending">Waiting to sync</Badge>}
                  {refused && (
                    <span className="tr-refused" data-testid="attendance-refused">
                      Refused: {humanRefusal(refused.reason)}
                    </span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {rows.length === 0 && <Empty>No students invited.</Empty>}
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
  const ws = useWorkspace();
  const { display } = useCompany();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (session.signed_at != null) {
    // Unsign: only for whom the shared rule allows (the teacher or a training manager), and online.
    const mayUnsign = unsignRefusal({ id: ws.user.id, role: ws.user.user_group_id }, session) === null;
    const unsign = async () => {
      if (
        !window.confirm(
          'Unsign the attendance of this class? The marks can be changed again, and the class must be signed again with the teacher’s password.',
        )
      )
        return;
      setError(null);
      try {
        await ws.rest('POST', '/trainings/onsite/unsign_class.json', { classId: session.id });
        onSigned(null);
        ws.client.resync();
      } catch (err) {
        setError(humanRefusal(err instanceof Error ? err.message : String(err)));
      }
    };
    return (
      <div className="tr-sign">
        <p role="status" data-testid="class-signed">
          Attendance signed at {formatTime(session.signed_at, display)}.
        </p>
        {mayUnsign && (
          <button type="button" disabled={!online} onClick={unsign} data-testid="unsign-class">
            Unsign
          </button>
        )}
        {mayUnsign && !online && <span className="tr-muted"> Unsigning needs a connection.</span>}
        {error && (
          <p role="alert" className="form-error">
            {error}
          </p>
        )}
      </div>
    );
  }
  const refusal = signRefusal({ id: ws.user.id, role: ws.user.user_group_id }, session);
  if (refusal) return <p className="tr-muted">{refusal}</p>;
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
  const why = !online
    ? 'Signing needs a connection (your password is checked by the server).'
    : waiting
      ? 'Waiting for the attendance to reach the server…'
      : null;
  return (
    <div className="tr-sign">
      {!open && (
        <button type="button" disabled={!!why} onClick={() => setOpen(true)} data-testid="sign-class">
          Sign attendance
        </button>
      )}
      {why && <span className="tr-muted"> {why}</span>}
      {open && (
        <form onSubmit={submit} aria-label="Sign attendance">
          <label>
            Your password <input name="password" type="password" autoComplete="current-password" required />
          </label>{' '}
          <button type="submit">Sign</button>{' '}
          <button type="button" onClick={() => setOpen(false)}>
            Cancel
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
  const { display } = useCompany();
  const [anchor, setAnchor] = useState(today);
  const days = weekOf(anchor);
  const zone = display.companyZone;
  return (
    <div data-testid="training-week">
      <div className="tr-controls">
        <button type="button" onClick={() => setAnchor(addDays(anchor, -7))}>
          ‹ Previous week
        </button>
        <button type="button" onClick={() => setAnchor(today)}>
          This week
        </button>
        <button type="button" onClick={() => setAnchor(addDays(anchor, 7))}>
          Next week ›
        </button>
      </div>
      <table className="tr-week">
        <thead>
          <tr>
            {days.map((d) => (
              <th key={d} className={d === today ? 'tr-today' : undefined}>
                {new Date(`${d}T12:00:00Z`).toLocaleDateString('en-GB', {
                  weekday: 'short',
                  day: 'numeric',
                  month: 'short',
                  timeZone: 'UTC',
                })}
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
                      <strong>{formatTime(c.datetime, display)}</strong>{' '}
                      {data.subjects.find((s) => s.id === c.subject_id)?.name}
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
