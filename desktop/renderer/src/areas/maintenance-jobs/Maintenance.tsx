import {
  type AircraftDoc,
  type AircraftReportDoc,
  type MaintenanceJobDoc,
  WORK_ORDER_STATUSES,
  type WorkOrderDoc,
  type WorkOrderStatus,
} from '@ops/shared';
import { useMemo, useState } from 'react';
import { outcomesByTarget } from '../../decisions.ts';
import { formatDate, formatDateTime } from '../../format.ts';
import { fullName, useCompany, useDocs, useMarks, useOutcomes, useUsers, useWorkspace } from '../../hooks.ts';
import { Badge, DecisionNote, Empty, PendingBadge } from '../../ui.tsx';
import { mayWriteMaintenanceJobs } from '@ops/shared/rules/maintenance-jobs/policy';
import { markKey } from '../../workspace.ts';
import { groundsAircraft } from '@ops/shared/rules/aircraft-reports/blockers';
import { useT } from '../../i18n.tsx';

const JOB_TONE: Record<string, 'info' | 'warn' | 'ok'> = { OPEN: 'info', IN_PROGRESS: 'warn', COMPLETED: 'ok' };

/** Maintenance jobs with their work orders; work order progress can be recorded offline. */
export default function Maintenance() {
  const ws = useWorkspace();
  const t = useT();
  const { docs: jobs, ready } = useDocs<MaintenanceJobDoc>('maintenance_job');
  const { docs: aircraft } = useDocs<AircraftDoc>('aircraft');
  const { docs: reports } = useDocs<AircraftReportDoc>('aircraft_report');
  // The reports each job rectifies (created from the technical log, issue 28); its CRS closes them.
  const reportsOf = useMemo(() => {
    const out = new Map<string, AircraftReportDoc[]>();
    for (const r of reports) {
      if (!r.maintenance_job_id) continue;
      out.set(r.maintenance_job_id, [...(out.get(r.maintenance_job_id) ?? []), r]);
    }
    return out;
  }, [reports]);
  const { docs: outcomes } = useOutcomes();
  const marks = useMarks();
  const users = useUsers();
  const { display } = useCompany();
  const [filter, setFilter] = useState('');
  const [showCompleted, setShowCompleted] = useState(false);
  const registration = useMemo(() => new Map(aircraft.map((a) => [a.id, a.registration])), [aircraft]);
  const outcomesOf = useMemo(() => outcomesByTarget(outcomes), [outcomes]);
  const mayWrite = mayWriteMaintenanceJobs({ role: ws.user.user_group_id });
  const shown = jobs
    .filter((j) => (!filter || j.aircraft_id === filter) && (showCompleted || j.status !== 'COMPLETED'))
    .sort(
      (a, b) =>
        (a.start ?? Number.MAX_SAFE_INTEGER) - (b.start ?? Number.MAX_SAFE_INTEGER) || a.name.localeCompare(b.name),
    );

  const setStatus = async (job: MaintenanceJobDoc, wo: WorkOrderDoc, status: WorkOrderStatus) => {
    const WorkOrder = job.WorkOrder.map((w) => (w.id === wo.id ? { ...w, status } : w));
    await ws.save('maintenance_job', { ...job, WorkOrder, modified: Math.floor(Date.now() / 1000) });
  };

  return (
    <section aria-labelledby="mx-title">
      <div className="screen-head">
        <h2 id="mx-title">{t('maintenance-jobs.title')}</h2>
        <select aria-label={t('maintenance-jobs.aircraft')} value={filter} onChange={(e) => setFilter(e.target.value)}>
          <option value="">{t('maintenance-jobs.allAircraft')}</option>
          {[...aircraft]
            .sort((a, b) => a.registration.localeCompare(b.registration))
            .map((a) => (
              <option key={a.id} value={a.id}>
                {a.registration}
              </option>
            ))}
        </select>
        <label className="check">
          <input type="checkbox" checked={showCompleted} onChange={(e) => setShowCompleted(e.target.checked)} />{' '}
          {t('maintenance-jobs.showCompleted')}
        </label>
      </div>
      {ready && shown.length === 0 && (
        <Empty>{showCompleted ? t('maintenance-jobs.noJobs') : t('maintenance-jobs.noOpenJobs')}</Empty>
      )}
      {shown.map((job) => {
        const pending = marks.has(markKey('maintenance_job', job.id));
        const done = job.WorkOrder.filter((w) => w.status === 'done').length;
        return (
          <article key={job.id} className={`job ${pending ? 'is-pending' : ''}`} data-job-id={job.id}>
            <header>
              <strong>{registration.get(job.aircraft_id) ?? '?'}</strong>
              <span>{job.name}</span>
              <Badge tone={JOB_TONE[job.status] ?? 'info'}>
                {t('maintenance-jobs.jobStatus', { status: job.status })}
              </Badge>
              {job.crs_signed && (
                <Badge tone="ok">
                  {t('maintenance-jobs.crsSigned', {
                    date: job.crs_signed_at ? formatDate(job.crs_signed_at, display) : '',
                  })}
                </Badge>
              )}
              {pending && <PendingBadge />}
            </header>
            <p className="muted small">
              {[
                job.start
                  ? t('maintenance-jobs.start', { when: formatDateTime(job.start, display) })
                  : t('maintenance-jobs.notScheduled'),
                job.finish ? t('maintenance-jobs.finish', { when: formatDateTime(job.finish, display) }) : null,
                t('maintenance-jobs.workDone', { done, total: job.WorkOrder.length }),
                job.user_id ? fullName(users.get(job.user_id)) : null,
              ]
                .filter((x) => x !== null)
                .join(' · ')}
            </p>
            {job.description && <p>{job.description}</p>}
            {(reportsOf.get(job.id)?.length ?? 0) > 0 && (
              <ul className="job-reports" aria-label={t('maintenance-jobs.reportsAria')}>
                {reportsOf.get(job.id)?.map((r) => (
                  <li key={r.id}>
                    {r.ata_chapter ? `ATA ${r.ata_chapter} · ` : ''}
                    {r.title}{' '}
                    <Badge tone={r.status === 'CLOSED' ? 'ok' : 'warn'}>
                      {t('maintenance-jobs.reportStatus', { status: r.status })}
                    </Badge>
                    {r.status !== 'CLOSED' && groundsAircraft(r) && (
                      <Badge tone="danger">{t('maintenance-jobs.groundsAircraft')}</Badge>
                    )}
                  </li>
                ))}
              </ul>
            )}
            <DecisionNote outcome={outcomesOf.get(`maintenance_job:${job.id}`)?.[0]} display={display} />
            <table className="work-orders">
              <thead>
                <tr>
                  <th>{t('maintenance-jobs.workOrder')}</th>
                  <th>{t('maintenance-jobs.ata')}</th>
                  <th>{t('maintenance-jobs.hours')}</th>
                  <th>{t('maintenance-jobs.status')}</th>
                  <th>{t('maintenance-jobs.completed')}</th>
                </tr>
              </thead>
              <tbody>
                {[...job.WorkOrder]
                  .sort((a, b) => a.sort_order - b.sort_order)
                  .map((wo) => (
                    <tr key={wo.id}>
                      <td>
                        {wo.name}
                        {wo.remarks && <div className="muted small">{wo.remarks}</div>}
                      </td>
                      <td>{wo.ata ?? ''}</td>
                      <td>{wo.time ?? ''}</td>
                      <td>
                        {mayWrite && job.status !== 'COMPLETED' ? (
                          <select
                            aria-label={t('maintenance-jobs.statusOf', { name: wo.name })}
                            value={wo.status}
                            onChange={(e) => setStatus(job, wo, e.target.value as WorkOrderStatus)}
                          >
                            {WORK_ORDER_STATUSES.map((s) => (
                              <option key={s} value={s}>
                                {t('maintenance-jobs.workOrderStatus', { status: s })}
                              </option>
                            ))}
                          </select>
                        ) : (
                          t('maintenance-jobs.workOrderStatus', { status: wo.status })
                        )}
                      </td>
                      <td>
                        {wo.completed_at
                          ? `${formatDate(wo.completed_at, display)}${wo.completed_by ? ` · ${fullName(users.get(wo.completed_by))}` : ''}`
                          : ''}
                      </td>
                    </tr>
                  ))}
                {job.WorkOrder.length === 0 && (
                  <tr>
                    <td colSpan={5} className="muted">
                      {t('maintenance-jobs.noWorkOrders')}
                    </td>
                  </tr>
                )}
              </tbody>
            </table>
          </article>
        );
      })}
    </section>
  );
}
