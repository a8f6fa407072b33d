import type { MessageId } from '@ops/shared/i18n/index';
import { useMemo } from 'react';
import { fullName, useUsers } from '../../hooks.ts';
import { useT } from '../../i18n.tsx';
import { Badge, Empty } from '../../ui.tsx';
import { Busy, ScreenHead } from '../office-kit.tsx';
import { Bar } from './Bar.tsx';
import { enrollmentProgress } from './training-data.ts';
import './trainings.css';
import { ENROLLMENT_NAMES, useTraining, useTrainingFormats } from './use-training.ts';

const TYPE_NAMES: Record<string, MessageId> = {
  ONSITE: 'trainings.typeONSITE',
  DISTANCE: 'trainings.typeDISTANCE',
  REMOTE: 'trainings.typeREMOTE',
};

/**
 * The training managers' overview (roles <= 135, issue 18 item 7): every
 * training with its students and their progress, computed locally with the
 * shared progress rules from the replicated rows (works offline).
 */
export default function TrainingOverview() {
  const t = useT();
  const fmt = useTrainingFormats();
  const data = useTraining();
  const users = useUsers();
  const rows = useMemo(
    () =>
      data.trainings
        .filter((x) => !x.template)
        .map((tr) => {
          const students = data.enrollments
            .filter((e) => e.training_id === tr.id)
            .map((e) => ({ e, p: enrollmentProgress(data, e) }))
            .sort((a, b) => b.p.percentage - a.p.percentage);
          const average = students.length
            ? Math.round(students.reduce((s, x) => s + x.p.percentage, 0) / students.length)
            : 0;
          return { tr, students, average };
        }),
    [data],
  );
  if (!data.ready) return <Busy what={t('shell.loading')} />;
  return (
    <section className="trainings" data-testid="training-overview">
      <ScreenHead title={t('trainings.overviewTitle')} />
      {rows.length === 0 && <Empty>{t('trainings.noTrainings')}</Empty>}
      {rows.map(({ tr, students, average }) => (
        <article key={tr.id} className="tr-card" data-testid="overview-training" data-training={tr.id}>
          <header>
            <h2>{tr.name}</h2>
            <Badge tone={tr.active ? 'info' : 'neutral'}>
              {tr.active ? t('trainings.active') : t('trainings.inactive')}
            </Badge>
            <span className="tr-muted">
              {TYPE_NAMES[tr.training_type] ? t(TYPE_NAMES[tr.training_type]) : tr.training_type} ·{' '}
              {t('trainings.students', { count: students.length })}
              {tr.start_date
                ? ` · ${t('trainings.dateRange', { from: fmt.day(tr.start_date), to: fmt.day(tr.end_date) })}`
                : ''}
            </span>
            <Bar value={average} label={t('trainings.averageOf', { name: tr.name })} />
          </header>
          {students.length > 0 && (
            <table className="tr-table">
              <thead>
                <tr>
                  <th>{t('trainings.colStudent')}</th>
                  <th>{t('trainings.colStatus')}</th>
                  <th>{t('trainings.colProgress')}</th>
                  <th>{t('trainings.done')}</th>
                </tr>
              </thead>
              <tbody>
                {students.map(({ e, p }) => (
                  <tr key={e.id} data-testid="overview-student">
                    <td>{fullName(users.get(e.user_id)) || e.user_id}</td>
                    <td>{ENROLLMENT_NAMES[e.status] ? t(ENROLLMENT_NAMES[e.status]) : e.status}</td>
                    <td>
                      <Bar
                        value={p.percentage}
                        label={t('trainings.progressOf', { name: fullName(users.get(e.user_id)) })}
                      />
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
