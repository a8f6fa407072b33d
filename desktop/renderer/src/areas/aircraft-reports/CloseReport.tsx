import type { AircraftReportDoc } from '@ops/shared';
import { type FormEvent, useState } from 'react';
import { humanRefusal } from '../../refusals.ts';
import { Field } from '../../ui.tsx';
import { RestError } from '../../workspace.ts';
import { useWorkspace } from '../../hooks.ts';
import { useT } from '../../i18n.tsx';

/** What the server answers to a close (POST /maintenance/aircraft_reports/close/{id}.json). */
interface CloseAnswer {
  dispatchable: boolean;
  blockReason: string | null;
}

/**
 * Closing a report is a release to service (issue 28 item 6): the closer
 * writes the rectification and signs with their password, as the CRS is
 * signed, after reading what closing will unblock. The password is checked by
 * the server, so closing needs the connection; nothing is queued.
 */
export function CloseReport({
  report,
  effect,
  online,
  onDone,
}: {
  report: AircraftReportDoc;
  /** What closing changes for the aircraft, from the shared rule on local data. */
  effect: { unblocks: boolean; sentence: string };
  online: boolean;
  onDone(result: string | null): void;
}) {
  const ws = useWorkspace();
  const t = useT();
  const [rectification, setRectification] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ rectification?: string; password?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const next: typeof errors = {};
    if (rectification.trim().length < 3) next.rectification = t('aircraft-reports.rectifyRequired');
    if (!password) next.password = t('aircraft-reports.passwordSigns');
    setErrors(next);
    if (next.rectification || next.password) return;
    setBusy(true);
    try {
      const r = await ws.rest<CloseAnswer>('POST', `/maintenance/aircraft_reports/close/${report.id}.json`, {
        rectification: rectification.trim(),
        password,
      });
      onDone(
        r.dispatchable
          ? t('aircraft-reports.nowDispatchable')
          : t('aircraft-reports.staysBlocked', { reason: r.blockReason ?? '' }),
      );
    } catch (err) {
      const msg = err instanceof RestError ? humanRefusal(err.message, null, t) : t('aircraft-reports.notClosed');
      // A wrong password belongs beside its field (the server's 401 or its "password" sentence).
      const aboutPassword = err instanceof RestError && (err.status === 401 || /password/i.test(err.message));
      setErrors(aboutPassword ? { password: msg } : { form: msg });
      setPassword('');
    } finally {
      setBusy(false);
    }
  };

  if (!online)
    return (
      <div className="form-warning" role="status">
        {t('aircraft-reports.closeOnline')}{' '}
        <button type="button" className="link" onClick={() => onDone(null)}>
          {t('aircraft-reports.keepOpen')}
        </button>
      </div>
    );

  return (
    <form className="close-report" aria-label={t('aircraft-reports.closeReport')} onSubmit={submit} noValidate>
      <p className="notice" data-testid="close-effect">
        {effect.sentence}
      </p>
      <Field label={t('aircraft-reports.rectification')} error={errors.rectification} wide>
        <textarea
          name="rectification"
          rows={3}
          maxLength={4000}
          value={rectification}
          onChange={(e) => setRectification(e.target.value)}
        />
      </Field>
      <Field label={t('aircraft-reports.yourPassword')} error={errors.password}>
        <input
          type="password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </Field>
      {errors.form && (
        <p className="form-warning" role="alert">
          {errors.form}
        </p>
      )}
      <div className="actions-row">
        <button type="submit" disabled={busy}>
          {t('aircraft-reports.closeAndRelease')}
        </button>
        <button type="button" className="secondary" onClick={() => onDone(null)} disabled={busy}>
          {t('aircraft-reports.keepOpen')}
        </button>
      </div>
    </form>
  );
}
