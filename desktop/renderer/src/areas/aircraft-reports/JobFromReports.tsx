import type { AircraftDoc, AircraftReportDoc } from '@ops/shared';
import { type FormEvent, useState } from 'react';
import { zonedToUnix } from '../../format.ts';
import { useCompany, useWorkspace } from '../../hooks.ts';
import { humanRefusal } from '../../refusals.ts';
import { Field } from '../../ui.tsx';
import { RestError } from '../../workspace.ts';
import { useT } from '../../i18n.tsx';
import type { Translate } from '@ops/shared/i18n/index';

/** A job name from the reports it rectifies: "Rectify: Nose gear shimmy, Oil leak". */
export function jobNameFor(reports: readonly Pick<AircraftReportDoc, 'title'>[], t?: Translate): string {
  const titles = reports.map((r) => r.title).join(', ');
  const name = t ? t('aircraft-reports.jobNameDefault', { titles }) : `Rectify: ${titles}`;
  return name.length > 180 ? `${name.slice(0, 177)}…` : name;
}

/**
 * A maintenance job from the open reports ticked in the technical log (Part B
 * 4.2, grouping: `Job[aircraft_report_ids][]`); signing its CRS later closes
 * them all. Created on the server (the job number and the links are decided
 * there), so it needs the connection.
 */
export function JobFromReports({
  aircraft,
  reports,
  online,
  onCreated,
}: {
  aircraft: AircraftDoc;
  reports: readonly AircraftReportDoc[];
  online: boolean;
  onCreated(): void;
}) {
  const ws = useWorkspace();
  const t = useT();
  const { display } = useCompany();
  const [name, setName] = useState('');
  const [start, setStart] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (!reports.length)
    return note ? (
      <p className="notice" role="status">
        {note}
      </p>
    ) : (
      <p className="muted small">{t('aircraft-reports.tickReports')}</p>
    );

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      // The picker's wall clock is the company's (as every time on the maintenance screens), not the browser's.
      const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(start);
      const startAt = m
        ? zonedToUnix({ year: +m[1], month: +m[2], day: +m[3], hour: +m[4], minute: +m[5] }, display.companyZone)
        : null;
      await ws.rest('POST', '/maintenance/jobs/create.json', {
        Job: {
          aircraft_id: aircraft.id,
          name: name.trim() || jobNameFor(reports, t),
          ...(startAt ? { start: startAt } : {}),
          aircraft_report_ids: reports.map((r) => r.id),
        },
      });
      setNote(t('aircraft-reports.jobCreated', { registration: aircraft.registration, count: reports.length }));
      setName('');
      setStart('');
      onCreated();
    } catch (err) {
      setError(err instanceof RestError ? humanRefusal(err.message, null, t) : t('aircraft-reports.jobFailed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="job-from-reports notice" aria-label={t('aircraft-reports.newJobAria')} onSubmit={submit}>
      <strong>{t('aircraft-reports.newJobFor', { registration: aircraft.registration, count: reports.length })}</strong>
      <ul className="small">
        {reports.map((r) => (
          <li key={r.id}>{r.title}</li>
        ))}
      </ul>
      <Field label={t('aircraft-reports.jobName')} wide>
        <input
          name="job_name"
          maxLength={180}
          placeholder={jobNameFor(reports, t)}
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
      </Field>
      <Field label={t('aircraft-reports.startOptional', { zone: display.companyZone })}>
        <input type="datetime-local" name="job_start" value={start} onChange={(e) => setStart(e.target.value)} />
      </Field>
      {!online && <p className="form-warning">{t('aircraft-reports.jobNeedsConnection')}</p>}
      {error && (
        <p className="form-warning" role="alert">
          {error}
        </p>
      )}
      <div className="actions-row">
        <button type="submit" disabled={busy || !online}>
          {t('aircraft-reports.createJob')}
        </button>
      </div>
    </form>
  );
}
