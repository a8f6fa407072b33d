/**
 * "Rates" (CONTRACT 6): aircraft and instructor rates per hour. The office
 * (roles <= 170) reads them; managers (<= 105) add, change and delete them.
 */
import { type AircraftDoc, allows, GATES, type UserDoc } from '@ops/shared';
import { type FormEvent, useMemo, useState } from 'react';
import { fullName, useCompany, useDocs, useUsers, useWorkspace } from '../../hooks.ts';
import { Busy, Outcome, ScreenHead, useApi } from '../office-kit.tsx';
import { sentenceOf, useBillingCompany, useBillingLoad } from './billing-data.ts';
import { billingGates } from '@ops/shared/rules/billing/policy';
import { formatMoney, parseAmount, type Rate, type RateKind, ZRates } from './money.ts';
import { ConfirmDialog, Money } from './parts.tsx';

export default function RatesScreen() {
  const ws = useWorkspace();
  const company = useBillingCompany();
  const { name } = useCompany();
  if (!allows(billingGates.office, ws.user.user_group_id))
    return (
      <section data-testid="billing-rates">
        <ScreenHead title="Rates" />
        <p className="empty">Rates are kept by the office.</p>
      </section>
    );
  if (company.known && !company.enabled)
    return (
      <section data-testid="billing-rates">
        <ScreenHead title="Rates" />
        <p className="empty" data-testid="billing-off">
          {name || 'This company'} does not use billing
          {company.plan === 'free' ? ' (the free plan has no billing)' : ''}: there are no rates to keep.
        </p>
      </section>
    );
  return <RatesBody />;
}

const KIND_NAMES: Record<RateKind, string> = { aircraft: 'Aircraft', instructor: 'Instructor' };

function RatesBody() {
  const ws = useWorkspace();
  const { data } = useCompany();
  const rates = useBillingLoad('/billing/rates.json', (raw) => ZRates.parse(raw));
  const { docs: aircraft } = useDocs<AircraftDoc>('aircraft');
  const users = useUsers();
  const manage = allows(billingGates.manage, ws.user.user_group_id);
  const instructors = useMemo(
    () =>
      [...users.values()]
        .filter((u) => u.active !== false && u.user_group_id !== null && allows(GATES.instructors, u.user_group_id))
        .sort((a, b) => fullName(a).localeCompare(fullName(b))),
    [users],
  );
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Rate | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const currency = rates.data?.currency ?? 'EUR';
  const targetName = (r: Pick<Rate, 'kind' | 'target_id'>) =>
    r.kind === 'aircraft'
      ? (aircraft.find((a) => a.id === r.target_id)?.registration ?? 'Unknown aircraft')
      : fullName(users.get(r.target_id)) || 'Unknown person';
  const sorted = [...(rates.data?.rates ?? [])].sort(
    (a, b) => a.kind.localeCompare(b.kind) || targetName(a).localeCompare(targetName(b)),
  );
  const setting =
    typeof data?.CompanyBillingSetting === 'object' && data.CompanyBillingSetting !== null
      ? (data.CompanyBillingSetting as Record<string, unknown>)
      : {};
  const tax = typeof setting.tax === 'number' ? setting.tax : null;
  const basis = rates.data?.basis === 'flight' ? 'flight time' : 'block time';

  return (
    <section data-testid="billing-rates">
      <ScreenHead title="Rates" />
      <p className="muted">
        Charged per hour of {basis} at confirm{tax !== null ? `, plus ${tax}% tax` : ''}. Instructor rates apply when an
        instructor seat is flown.
      </p>
      {rates.loading && !rates.data && <Busy />}
      <Outcome error={rates.error} done={done} />
      {manage && rates.data && (
        <AddRate
          aircraft={aircraft.filter((a) => a.active !== false)}
          instructors={instructors}
          existing={rates.data.rates}
          currency={currency}
          onSaved={(m) => {
            setDone(m);
            rates.reload();
          }}
        />
      )}
      {rates.data && (
        <table className="data-table" data-testid="rates">
          <caption className="sr-only">Rates per hour</caption>
          <thead>
            <tr>
              <th scope="col">Kind</th>
              <th scope="col">For</th>
              <th scope="col" className="num">
                Per hour
              </th>
              {manage && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {sorted.map((r) => (
              <tr key={r.id} data-rate={r.id} data-target={targetName(r)}>
                <td>{KIND_NAMES[r.kind]}</td>
                <td>{targetName(r)}</td>
                <td className="num">
                  {editing === r.id ? (
                    <EditAmount
                      rate={r}
                      currency={currency}
                      onCancel={() => setEditing(null)}
                      onSaved={(amount) => {
                        setEditing(null);
                        setDone(
                          `The ${r.kind} rate of ${targetName(r)} is now ${formatMoney(amount, currency)} per hour.`,
                        );
                        rates.reload();
                      }}
                    />
                  ) : (
                    <Money amount={r.amount} currency={currency} />
                  )}
                </td>
                {manage && (
                  <td>
                    {editing !== r.id && (
                      <span className="row-actions">
                        <button type="button" className="secondary small" onClick={() => setEditing(r.id)}>
                          Edit
                        </button>
                        <button type="button" className="secondary small" onClick={() => setDeleting(r)}>
                          Delete…
                        </button>
                      </span>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {rates.data && sorted.length === 0 && (
        <p className="empty">No rates yet: confirmed flights are not charged until there is one.</p>
      )}
      {deleting && (
        <DeleteRate
          rate={deleting}
          label={targetName(deleting)}
          currency={currency}
          onClose={() => setDeleting(null)}
          onDone={() => {
            setDone(`The ${deleting.kind} rate of ${targetName(deleting)} was deleted.`);
            setDeleting(null);
            rates.reload();
          }}
        />
      )}
    </section>
  );
}

function AddRate({
  aircraft,
  instructors,
  existing,
  currency,
  onSaved,
}: {
  aircraft: AircraftDoc[];
  instructors: UserDoc[];
  existing: Rate[];
  currency: string;
  onSaved(message: string): void;
}) {
  const { post } = useApi();
  const [kind, setKind] = useState<RateKind>('aircraft');
  const [target, setTarget] = useState('');
  const [amount, setAmount] = useState('');
  const [errors, setErrors] = useState<{ target?: string; amount?: string }>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const options =
    kind === 'aircraft'
      ? aircraft.map((a) => ({ id: a.id, label: a.registration }))
      : instructors.map((u) => ({ id: u.id, label: fullName(u) }));
  const replaces = existing.find((r) => r.kind === kind && r.target_id === target);
  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    const a = parseAmount(amount, { allowZero: true });
    const errs = {
      ...(target ? {} : { target: kind === 'aircraft' ? 'Pick an aircraft' : 'Pick an instructor' }),
      ...(a.ok ? {} : { amount: a.message }),
    };
    setErrors(errs);
    if (!a.ok || !target) return;
    setBusy(true);
    setError(null);
    try {
      await post('/manager/billing/rates/edit.json', { Rate: { kind, target_id: target, amount: a.value } });
      const label = options.find((o) => o.id === target)?.label ?? '';
      onSaved(
        `${replaces ? 'Changed' : 'Added'}: the ${kind} rate of ${label} is ${formatMoney(a.value, currency)} per hour.`,
      );
      setAmount('');
      setTarget('');
    } catch (err) {
      setError(sentenceOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="add-entry" onSubmit={submit} aria-label="Add a rate" noValidate>
      <div className="field">
        <label htmlFor="rate-kind">Kind</label>
        <select
          id="rate-kind"
          value={kind}
          onChange={(e) => {
            setKind(e.target.value === 'instructor' ? 'instructor' : 'aircraft');
            setTarget('');
          }}
        >
          <option value="aircraft">Aircraft</option>
          <option value="instructor">Instructor</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="rate-target">{kind === 'aircraft' ? 'Aircraft' : 'Instructor'}</label>
        <select
          id="rate-target"
          value={target}
          onChange={(e) => setTarget(e.target.value)}
          aria-invalid={errors.target ? true : undefined}
        >
          <option value="">Pick…</option>
          {options.map((o) => (
            <option key={o.id} value={o.id}>
              {o.label}
            </option>
          ))}
        </select>
        {errors.target && <small className="field-error">{errors.target}</small>}
      </div>
      <div className="field">
        <label htmlFor="rate-amount">Per hour ({currency})</label>
        <input
          id="rate-amount"
          inputMode="decimal"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          placeholder="150.00"
          aria-invalid={errors.amount ? true : undefined}
        />
        {errors.amount && <small className="field-error">{errors.amount}</small>}
      </div>
      <div>
        <button type="submit" disabled={busy}>
          {replaces ? 'Change rate' : 'Add rate'}
        </button>
      </div>
      {replaces && (
        <p className="muted small field-wide">
          This {kind} already has a rate ({formatMoney(replaces.amount, currency)}); saving changes it.
        </p>
      )}
      {error && (
        <p role="alert" className="form-error field-wide">
          {error}
        </p>
      )}
    </form>
  );
}

function EditAmount({
  rate,
  currency,
  onCancel,
  onSaved,
}: {
  rate: Rate;
  currency: string;
  onCancel(): void;
  onSaved(amount: number): void;
}) {
  const { post } = useApi();
  const [text, setText] = useState(rate.amount.toFixed(2));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    const a = parseAmount(text, { allowZero: true });
    if (!a.ok) return setError(a.message);
    setBusy(true);
    setError(null);
    try {
      await post('/manager/billing/rates/edit.json', {
        Rate: { id: rate.id, kind: rate.kind, target_id: rate.target_id, amount: a.value },
      });
      onSaved(a.value);
    } catch (err) {
      setError(sentenceOf(err));
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} className="row-actions" aria-label="Edit rate" noValidate>
      <input
        className="rate-edit"
        aria-label={`Per hour (${currency})`}
        inputMode="decimal"
        value={text}
        onChange={(e) => setText(e.target.value)}
        aria-invalid={error ? true : undefined}
      />
      <button type="submit" className="small" disabled={busy}>
        Save
      </button>
      <button type="button" className="secondary small" onClick={onCancel}>
        Cancel
      </button>
      {error && (
        <small role="alert" className="field-error">
          {error}
        </small>
      )}
    </form>
  );
}

function DeleteRate({
  rate,
  label,
  currency,
  onClose,
  onDone,
}: {
  rate: Rate;
  label: string;
  currency: string;
  onClose(): void;
  onDone(): void;
}) {
  const { post } = useApi();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const effect = `Flights confirmed from now on are not charged for ${rate.kind === 'aircraft' ? `the aircraft ${label}` : `instructor ${label}`} (today ${formatMoney(rate.amount, currency)} per hour). Entries already booked stay as they are.`;
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await post(`/manager/billing/rates/delete/${encodeURIComponent(rate.id)}.json`);
      onDone();
    } catch (err) {
      setError(sentenceOf(err));
      setBusy(false);
    }
  };
  return (
    <ConfirmDialog
      title={`Delete the ${rate.kind} rate of ${label}?`}
      effect={effect}
      confirmLabel="Delete the rate"
      danger
      busy={busy}
      error={error}
      onConfirm={confirm}
      onCancel={onClose}
    />
  );
}
