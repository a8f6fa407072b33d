/**
 * "Rates" (CONTRACT 6): aircraft and instructor rates per hour. The office
 * (roles <= 170) reads them; managers (<= 105) add, change and delete them.
 */
import { type AircraftDoc, allows, GATES, type UserDoc } from '@ops/shared';
import type { MessageId } from '@ops/shared/i18n/index';
import { type FormEvent, useMemo, useState } from 'react';
import { fullName, useCompany, useDocs, useUsers, useWorkspace } from '../../hooks.ts';
import { Busy, Outcome, ScreenHead, useApi } from '../office-kit.tsx';
import { sentenceOf, useBillingCompany, useBillingLoad, useBillingText } from './billing-data.ts';
import { billingGates } from '@ops/shared/rules/billing/policy';
import { parseAmount, type Rate, type RateKind, ZRates } from './money.ts';
import { ConfirmDialog, Money } from './parts.tsx';

export default function RatesScreen() {
  const ws = useWorkspace();
  const company = useBillingCompany();
  const { name } = useCompany();
  const { t } = useBillingText();
  if (!allows(billingGates.office, ws.user.user_group_id))
    return (
      <section data-testid="billing-rates">
        <ScreenHead title={t('shell.screenBillingRates')} />
        <p className="empty">{t('billing.ratesOffice')}</p>
      </section>
    );
  if (company.known && !company.enabled)
    return (
      <section data-testid="billing-rates">
        <ScreenHead title={t('shell.screenBillingRates')} />
        <p className="empty" data-testid="billing-off">
          {t(company.plan === 'free' ? 'billing.offRatesFree' : 'billing.offRates', {
            company: name || t('billing.thisCompany'),
          })}
        </p>
      </section>
    );
  return <RatesBody />;
}

const KIND_NAMES: Record<RateKind, MessageId> = { aircraft: 'billing.aircraft', instructor: 'billing.kindInstructor' };

function RatesBody() {
  const ws = useWorkspace();
  const { t, money } = useBillingText();
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
      ? (aircraft.find((a) => a.id === r.target_id)?.registration ?? t('billing.unknownAircraft'))
      : fullName(users.get(r.target_id)) || t('billing.unknownPerson');
  const sorted = [...(rates.data?.rates ?? [])].sort(
    (a, b) => a.kind.localeCompare(b.kind) || targetName(a).localeCompare(targetName(b)),
  );
  const setting =
    typeof data?.CompanyBillingSetting === 'object' && data.CompanyBillingSetting !== null
      ? (data.CompanyBillingSetting as Record<string, unknown>)
      : {};
  const tax = typeof setting.tax === 'number' ? setting.tax : null;
  const basis = rates.data?.basis === 'flight' ? 'flight' : 'block';

  return (
    <section data-testid="billing-rates">
      <ScreenHead title={t('shell.screenBillingRates')} />
      <p className="muted">
        {tax !== null ? t('billing.chargedPerTax', { basis, tax }) : t('billing.chargedPer', { basis })}
      </p>
      {rates.loading && !rates.data && <Busy what={t('shell.loading')} />}
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
          <caption className="sr-only">{t('billing.ratesCaption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('billing.colKind')}</th>
              <th scope="col">{t('billing.colFor')}</th>
              <th scope="col" className="num">
                {t('billing.colPerHour')}
              </th>
              {manage && <th scope="col">{t('billing.colActions')}</th>}
            </tr>
          </thead>
          <tbody>
            {sorted.map((r) => (
              <tr key={r.id} data-rate={r.id} data-target={targetName(r)}>
                <td>{t(KIND_NAMES[r.kind])}</td>
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
                          t('billing.rateNow', {
                            kind: r.kind,
                            target: targetName(r),
                            amount: money(amount, currency),
                          }),
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
                          {t('billing.edit')}
                        </button>
                        <button type="button" className="secondary small" onClick={() => setDeleting(r)}>
                          {t('billing.deleteButton')}
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
      {rates.data && sorted.length === 0 && <p className="empty">{t('billing.noRates')}</p>}
      {deleting && (
        <DeleteRate
          rate={deleting}
          label={targetName(deleting)}
          currency={currency}
          onClose={() => setDeleting(null)}
          onDone={() => {
            setDone(t('billing.rateDeleted', { kind: deleting.kind, target: targetName(deleting) }));
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
  const { t, money, sample } = useBillingText();
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
    const a = parseAmount(amount, { allowZero: true }, t);
    const errs = {
      ...(target ? {} : { target: t(kind === 'aircraft' ? 'billing.pickAircraft' : 'billing.pickInstructor') }),
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
        t(replaces ? 'billing.rateChanged' : 'billing.rateAdded', {
          kind,
          target: label,
          amount: money(a.value, currency),
        }),
      );
      setAmount('');
      setTarget('');
    } catch (err) {
      setError(sentenceOf(err, t));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="add-entry" onSubmit={submit} aria-label={t('billing.addRateForm')} noValidate>
      <div className="field">
        <label htmlFor="rate-kind">{t('billing.colKind')}</label>
        <select
          id="rate-kind"
          value={kind}
          onChange={(e) => {
            setKind(e.target.value === 'instructor' ? 'instructor' : 'aircraft');
            setTarget('');
          }}
        >
          <option value="aircraft">{t('billing.aircraft')}</option>
          <option value="instructor">{t('billing.kindInstructor')}</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="rate-target">{t(KIND_NAMES[kind])}</label>
        <select
          id="rate-target"
          value={target}
          onChange={(e) => setTarget(e.target.value)}
          aria-invalid={errors.target ? true : undefined}
        >
          <option value="">{t('billing.pick')}</option>
          {options.map((o) => (
            <option key={o.id} value={o.id}>
              {o.label}
            </option>
          ))}
        </select>
        {errors.target && <small className="field-error">{errors.target}</small>}
      </div>
      <div className="field">
        <label htmlFor="rate-amount">{t('billing.perHourLabel', { currency })}</label>
        <input
          id="rate-amount"
          inputMode="decimal"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          placeholder={sample(150)}
          aria-invalid={errors.amount ? true : undefined}
        />
        {errors.amount && <small className="field-error">{errors.amount}</small>}
      </div>
      <div>
        <button type="submit" disabled={busy}>
          {replaces ? t('billing.changeRate') : t('billing.addRate')}
        </button>
      </div>
      {replaces && (
        <p className="muted small field-wide">
          {t('billing.alreadyRate', { kind, amount: money(replaces.amount, currency) })}
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
  const { t, sample } = useBillingText();
  // The current amount with the language's decimal mark (parseAmount reads a comma or a dot).
  const [text, setText] = useState(() => sample(rate.amount));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    const a = parseAmount(text, { allowZero: true }, t);
    if (!a.ok) return setError(a.message);
    setBusy(true);
    setError(null);
    try {
      await post('/manager/billing/rates/edit.json', {
        Rate: { id: rate.id, kind: rate.kind, target_id: rate.target_id, amount: a.value },
      });
      onSaved(a.value);
    } catch (err) {
      setError(sentenceOf(err, t));
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} className="row-actions" aria-label={t('billing.editRate')} noValidate>
      <input
        className="rate-edit"
        aria-label={t('billing.perHourLabel', { currency })}
        inputMode="decimal"
        value={text}
        onChange={(e) => setText(e.target.value)}
        aria-invalid={error ? true : undefined}
      />
      <button type="submit" className="small" disabled={busy}>
        {t('billing.save')}
      </button>
      <button type="button" className="secondary small" onClick={onCancel}>
        {t('billing.cancel')}
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
  const { t, money } = useBillingText();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const effect = t('billing.deleteEffect', { kind: rate.kind, target: label, amount: money(rate.amount, currency) });
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await post(`/manager/billing/rates/delete/${encodeURIComponent(rate.id)}.json`);
      onDone();
    } catch (err) {
      setError(sentenceOf(err, t));
      setBusy(false);
    }
  };
  return (
    <ConfirmDialog
      title={t('billing.deleteTitle', { kind: rate.kind, target: label })}
      effect={effect}
      confirmLabel={t('billing.deleteConfirm')}
      danger
      busy={busy}
      error={error}
      onConfirm={confirm}
      onCancel={onClose}
    />
  );
}
