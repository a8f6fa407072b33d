import { useMemo } from 'react';
import { formatIsoDate } from '../../format.ts';
import { fullName, useCompany, useUsers } from '../../hooks.ts';
import { Badge, Empty } from '../../ui.tsx';
import { Busy, ScreenHead } from '../office-kit.tsx';
import { Bar } from './Bar.tsx';
import { enrollmentProgress } from './training-data.ts';
import './trainings.css';
import { useTraining } from './use-training.ts';

/**
 * The training managers' overview (roles <= 135, issue 18 item 7): every
 * training with its students and their progress, computed locally with the
 * shared progress rules from the replicated rows (works offline).
 */
export default function TrainingOverview() {
  const data = useTraining();
  const users = useUsers();
  const { display } = useCompany();
  const rows = useMemo(
    () =>
      data.trainings
        .filter((t) => !t.template)
        .map((t) => {
          const students = data.enrollments
            .filter((e) => e.training_id === t.id)
            .map((e) => ({ e, p: enrollmentProgress(data, e) }))
            .sort((a, b) => b.p.percentage - a.p.percentage);
          const average = students.length
            ? Math.round(students.reduce((s, x) => s + x.p.percentage, 0) / students.length)
            : 0;
          return { t, students, average };
        }),
    [data],
  );
  if (!data.ready) return <Busy />;
  return (
    <section className="trainings" data-testid="training-overview">
      <ScreenHead title="Training overview" />
      {rows.length === 0 && <Empty>No trainings.</Empty>}
      {rows.map(({ t, students, average }) => (
        <article key={t.id} className="tr-card" data-testid="overview-training" data-training={t.id}>
          <header>
            <h2>{t.name}</h2>
            <Badge tone={t.active ? 'info' : 'neutral'}>{t.active ? 'Active' : 'Inactive'}</Badge>
            <span className="tr-muted">
              {t.training_type} · {students.length} {students.length === 1 ? 'student' : 'students'}
              {t.start_date ? ` · ${formatIsoDate(t.start_date, display)} – ${formatIsoDate(t.end_date, display)}` : ''}
            </span>
            <Bar value={average} label={`Average progress of ${t.name}`} />
          </header>
          {students.length > 0 && (
            <table className="tr-table">
              <thead>
                <tr>
                  <th>Student</th>
                  <th>Status</th>
                  <th>Progress</th>
                  <th>Done</th>
                </tr>
              </thead>
              <tbody>
                {students.map(({ e, p }) => (
                  <tr key={e.id} data-testid="overview-student">
                    <td>{fullName(users.get(e.user_id)) || e.user_id}</td>
                    <td>{e.status}</td>
                    <td>
                      <Bar value={p.percentage} label={`Progress of ${fullName(users.get(e.user_id))}`} />
                    </td>
                    <td>
                      {p.completed} / {p.total}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </article>
      ))}
    </section>
  );
}
