import type { AircraftReportDoc } from '@ops/shared';
import { type FormEvent, useState } from 'react';
import { humanRefusal } from '../../refusals.ts';
import { Field } from '../../ui.tsx';
import { RestError } from '../../workspace.ts';
import { useWorkspace } from '../../hooks.ts';

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
  const [rectification, setRectification] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ rectification?: string; password?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const next: typeof errors = {};
    if (rectification.trim().length < 3) next.rectification = 'Say what was done to rectify it.';
    if (!password) next.password = 'Your password signs the release.';
    setErrors(next);
    if (next.rectification || next.password) return;
    setBusy(true);
    try {
      const r = await ws.rest<CloseAnswer>('POST', `/maintenance/aircraft_reports/close/${report.id}.json`, {
        rectification: rectification.trim(),
        password,
      });
      onDone(r.dispatchable ? 'the aircraft is dispatchable.' : `the aircraft stays blocked: ${r.blockReason ?? ''}`);
    } catch (err) {
      const msg = err instanceof RestError ? humanRefusal(err.message) : 'The report could not be closed.';
      setErrors(/password/i.test(msg) ? { password: msg } : { form: msg });
      setPassword('');
    } finally {
      setBusy(false);
    }
  };

  if (!online)
    return (
      <div className="form-warning" role="status">
        Closing a report is signed with your password, which the server checks: close it when you are online.{' '}
        <button type="button" className="link" onClick={() => onDone(null)}>
          Keep open
        </button>
      </div>
    );

  return (
    <form className="close-report" aria-label="Close report" onSubmit={submit} noValidate>
      <p className="notice" data-testid="close-effect">
        {effect.sentence}
      </p>
      <Field label="Rectification (what was done)" error={errors.rectification} wide>
        <textarea
          name="rectification"
          rows={3}
          maxLength={4000}
          value={rectification}
          onChange={(e) => setRectification(e.target.value)}
        />
      </Field>
      <Field label="Your password (signs the release)" error={errors.password}>
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
          Close and release
        </button>
        <button type="button" className="secondary" onClick={() => onDone(null)} disabled={busy}>
          Keep open
        </button>
      </div>
    </form>
  );
}
