/**
 * "Accounts" for the office (CONTRACT 6, roles <= 170): every balance, most
 * negative first; one person's account with payments, packages and
 * adjustments added and entries reversed (each behind a dialog that says the
 * effect); the accountant's CSV/XLSX export. Online only (REST).
 */
import { type AircraftDoc, allows } from '@ops/shared';
import type { MessageId } from '@ops/shared/i18n/index';
import { type FormEvent, useCallback, useEffect, useMemo, useState } from 'react';
import { useCompany, useDocs, useUsers, useWorkspace } from '../../hooks.ts';
import { useT } from '../../i18n.tsx';
import { Busy, Check, Outcome, Pager, ScreenHead, todayIn, useApi } from '../office-kit.tsx';
import { downloadFile, sentenceOf, useBillingCompany, useBillingLoad, useBillingText } from './billing-data.ts';
import { billingGates, mayReverseEntry } from '@ops/shared/rules/billing/policy';
import {
  type Account,
  type AddKind,
  addEffect,
  type BalanceRow,
  byBalance,
  type Entry,
  parseAmount,
  parseHours,
  reverseEffect,
  reverseRefusal,
  ZAccountPage,
  ZAccountsList,
} from './money.ts';
import { ConfirmDialog, EntriesTable, Money } from './parts.tsx';

export default function Accounts() {
  const ws = useWorkspace();
  const company = useBillingCompany();
  const { name } = useCompany();
  const t = useT();
  if (!allows(billingGates.office, ws.user.user_group_id))
    return (
      <section data-testid="billing-accounts">
        <ScreenHead title={t('shell.screenBillingAccounts')} />
        <p className="empty">{t('billing.onlyOffice')}</p>
      </section>
    );
  if (company.known && !company.enabled)
    return (
      <section data-testid="billing-accounts">
        <ScreenHead title={t('shell.screenBillingAccounts')} />
        <p className="empty" data-testid="billing-off">
          {t(company.plan === 'free' ? 'billing.offOfficeFree' : 'billing.offOffice', {
            company: name || t('billing.thisCompany'),
          })}
        </p>
      </section>
    );
  return <AccountsBody />;
}

const LIST_PAGE = 500;

/**
 * Every balance of the company from GET /billing/accounts.json (the list
 * extension of CONTRACT 6, docs/areas/billing.md), 500 a page; people marked
 * inactive on this device are left out, as in the rest of the office screens.
 */
function useBalances() {
  const { get } = useApi();
  const t = useT();
  const users = useUsers();
  const [rows, setRows] = useState<BalanceRow[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  const inactive = useMemo(
    () => new Set([...users.values()].filter((u) => u.active === false).map((u) => u.id)),
    [users],
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: tick reloads on purpose
  useEffect(() => {
    let cancelled = false;
    (async () => {
      setError(null);
      const out: BalanceRow[] = [];
      for (let page = 1; !cancelled; page++) {
        const r = ZAccountsList.parse(await get<unknown>(`/billing/accounts.json?page=${page}&limit=${LIST_PAGE}`));
        for (const x of r.accounts)
          if (!inactive.has(x.User.id))
            out.push({
              user_id: x.User.id,
              name: `${x.User.name} ${x.User.surname}`.trim(),
              balance: x.Account.balance,
              package_balance: x.Account.package_balance,
            });
        if (!r.paginate.nextPage) break;
      }
      if (!cancelled) setRows(byBalance(out));
    })().catch((err) => !cancelled && setError(sentenceOf(err, t)));
    return () => {
      cancelled = true;
    };
  }, [get, inactive.size, tick, t]);
  /** A saved entry answers the new account: the list follows without a reload. */
  const update = useCallback(
    (a: Account) =>
      setRows((rs) =>
        rs
          ? byBalance(
              rs.map((r) =>
                r.user_id === a.user_id ? { ...r, balance: a.balance, package_balance: a.package_balance } : r,
              ),
            )
          : rs,
      ),
    [],
  );
  return { rows, error, update, reload: useCallback(() => setTick((t) => t + 1), []) };
}

function AccountsBody() {
  const company = useBillingCompany();
  const balances = useBalances();
  const { t, hours } = useBillingText();
  const [selected, setSelected] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [hideZero, setHideZero] = useState(false);
  const currency = company.currency;
  const shown = (balances.rows ?? []).filter(
    (r) =>
      (!hideZero || r.balance !== 0 || r.package_balance !== 0) &&
      r.name.toLowerCase().includes(search.trim().toLowerCase()),
  );
  const owed = (balances.rows ?? []).reduce((s, r) => s + Math.min(0, Math.round(r.balance * 100)), 0) / 100;
  const current = balances.rows?.find((r) => r.user_id === selected) ?? null;

  return (
    <section data-testid="billing-accounts">
      <ScreenHead title={t('shell.screenBillingAccounts')}>
        <Export />
      </ScreenHead>
      <Outcome error={balances.error} />
      {!balances.rows && !balances.error && <Busy what={t('billing.readingBalances')} />}
      {balances.rows && (
        <div className="accounts-split">
          <div>
            <div className="billing-actions">
              <label>
                {t('billing.find')}
                <input
                  type="search"
                  value={search}
                  onChange={(e) => setSearch(e.target.value)}
                  placeholder={t('billing.namePlaceholder')}
                />
              </label>
              <Check label={t('billing.hideZero')} checked={hideZero} onChange={setHideZero} />
            </div>
            <p className="muted small">
              {t('billing.accountsCount', { count: balances.rows.length })} · {t('billing.owedToSchool')}{' '}
              <Money amount={owed} currency={currency} />
            </p>
            <table className="data-table accounts-list" data-testid="balances">
              <caption className="sr-only">{t('billing.balancesCaption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('billing.colPerson')}</th>
                  <th scope="col" className="num">
                    {t('billing.balance')}
                  </th>
                  <th scope="col" className="num">
                    {t('billing.colPackage')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {shown.map((r) => (
                  <tr key={r.user_id} className={r.user_id === selected ? 'selected' : undefined} data-user={r.user_id}>
                    <td>
                      <button
                        type="button"
                        className="link"
                        aria-pressed={r.user_id === selected}
                        onClick={() => setSelected(r.user_id)}
                      >
                        {r.name}
                      </button>
                    </td>
                    <td className="num" data-testid="row-balance">
                      <Money amount={r.balance} currency={currency} />
                    </td>
                    <td className="num">{r.package_balance ? hours(r.package_balance) : ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {shown.length === 0 && <p className="empty">{t('billing.noMatch')}</p>}
          </div>
          {current ? (
            <AccountPanel key={current.user_id} row={current} currency={currency} onSaved={balances.update} />
          ) : (
            <p className="empty">{t('billing.pickPerson')}</p>
          )}
        </div>
      )}
    </section>
  );
}

const PAGE_SIZE = 15;

/** One person's account: balance, the add form, entries with reversal. */
function AccountPanel({ row, currency, onSaved }: { row: BalanceRow; currency: string; onSaved(a: Account): void }) {
  const ws = useWorkspace();
  const { t, money, hours } = useBillingText();
  const [page, setPage] = useState(1);
  const acc = useBillingLoad(
    `/billing/account/${encodeURIComponent(row.user_id)}.json?page=${page}&limit=${PAGE_SIZE}`,
    (raw) => ZAccountPage.parse(raw),
  );
  const [reversing, setReversing] = useState<Entry | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const mayWrite = allows(billingGates.office, ws.user.user_group_id);
  const actor = { userId: ws.user.id, role: ws.user.user_group_id };
  const account: Account = acc.data?.Account ?? {
    user_id: row.user_id,
    balance: row.balance,
    package_balance: row.package_balance,
    currency,
  };
  const reversed = useMemo(
    () => new Set((acc.data?.entries ?? []).map((e) => e.reverses_id).filter((id): id is string => !!id)),
    [acc.data],
  );
  const saved = (a: Account | null, message: string) => {
    setDone(message);
    if (a) onSaved(a);
    acc.reload();
  };
  return (
    <div className="account-panel" data-testid="account-panel">
      <h2>{row.name}</h2>
      <div className="balance-cards">
        <div className="balance-card">
          <span className="label">{t('billing.balance')}</span>
          <span className={`value money${account.balance < 0 ? ' money-neg' : ''}`} data-testid="panel-balance">
            {money(account.balance, account.currency || currency)}
          </span>
        </div>
        <div className="balance-card">
          <span className="label">{t('billing.packageHours')}</span>
          <span className="value">{hours(account.package_balance)}</span>
        </div>
      </div>
      {done && (
        <p role="status" className="form-done" data-testid="saved">
          {done}
        </p>
      )}
      {mayWrite && <AddEntry row={row} account={account} onSaved={saved} />}
      <h3>{t('billing.entries')}</h3>
      {acc.loading && !acc.data && <Busy what={t('shell.loading')} />}
      <Outcome error={acc.error} />
      {acc.data && (
        <>
          <EntriesTable
            entries={acc.data.entries}
            currency={account.currency || currency}
            caption={t('billing.entriesOf', { name: row.name })}
            compact
            action={
              mayWrite
                ? (e) =>
                    mayReverseEntry(actor, { kind: e.kind, reversed: reversed.has(e.id) }) ? (
                      <button
                        type="button"
                        className="secondary small"
                        onClick={() => setReversing(e)}
                        data-testid="reverse"
                      >
                        {t('billing.reverseButton')}
                      </button>
                    ) : e.kind !== 'reversal' ? (
                      <span className="muted small" title={reverseRefusal(e, reversed, t) ?? undefined}>
                        {t('billing.reversed')}
                      </span>
                    ) : null
                : undefined
            }
          />
          <Pager paginate={acc.data.paginate} onPage={setPage} label={t('billing.entryPages')} />
        </>
      )}
      {reversing && (
        <ReverseDialog
          entry={reversing}
          who={row.name}
          account={account}
          onClose={() => setReversing(null)}
          onDone={() => {
            setReversing(null);
            saved(
              null,
              t('billing.reversedDone', {
                kind: reversing.kind,
                amount: money(reversing.amount, account.currency || currency),
              }),
            );
            // The reversal answers no account: read the balance again for the list.
            void ws.rest<unknown>('GET', `/billing/account/${encodeURIComponent(row.user_id)}.json?limit=1`).then(
              (raw) => {
                const r = ZAccountPage.safeParse(raw);
                if (r.success) onSaved(r.data.Account);
              },
              () => {},
            );
          }}
        />
      )}
    </div>
  );
}

const ADD_KINDS: Array<{ kind: AddKind; label: MessageId; hint: MessageId }> = [
  { kind: 'payment', label: 'billing.kindPayment', hint: 'billing.hintPayment' },
  { kind: 'package', label: 'billing.kindPackage', hint: 'billing.hintPackage' },
  { kind: 'adjustment', label: 'billing.kindAdjustment', hint: 'billing.hintAdjustment' },
];

interface AddForm {
  kind: AddKind;
  amount: string;
  hours: string;
  aircraft_id: string;
  description: string;
}
const EMPTY: AddForm = { kind: 'payment', amount: '', hours: '', aircraft_id: '', description: '' };

/** Add a payment, a package or an adjustment; a dialog says what it books before it is saved. */
function AddEntry({
  row,
  account,
  onSaved,
}: {
  row: BalanceRow;
  account: Account;
  onSaved(a: Account | null, message: string): void;
}) {
  const { post } = useApi();
  const { t, locale, money, hours: hoursText, sample } = useBillingText();
  const { docs: aircraft } = useDocs<AircraftDoc>('aircraft');
  const [form, setForm] = useState<AddForm>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<keyof AddForm, string>>>({});
  const [pending, setPending] = useState<{ body: Record<string, unknown>; effect: string; message: string } | null>(
    null,
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const set = (p: Partial<AddForm>) => setForm({ ...form, ...p });
  const aircraftLabel = aircraft.find((a) => a.id === form.aircraft_id)?.registration ?? null;

  const review = (ev: FormEvent) => {
    ev.preventDefault();
    const errs: Partial<Record<keyof AddForm, string>> = {};
    const amount = parseAmount(
      form.amount,
      { signed: form.kind === 'adjustment', allowZero: form.kind === 'package' },
      t,
    );
    if (!amount.ok) errs.amount = amount.message;
    const hours = form.kind === 'package' ? parseHours(form.hours, t) : null;
    if (hours && !hours.ok) errs.hours = hours.message;
    if (form.description.length > 255) errs.description = t('billing.descTooLong');
    setErrors(errs);
    if (!amount.ok || (hours && !hours.ok) || Object.keys(errs).length) return;
    const Entry: Record<string, unknown> = { user_id: row.user_id, kind: form.kind, amount: amount.value };
    if (hours?.ok) Entry.hours = hours.value;
    if (form.kind === 'package' && form.aircraft_id) Entry.aircraft_id = form.aircraft_id;
    if (form.description.trim()) Entry.description = form.description.trim();
    const message =
      form.kind === 'payment'
        ? t('billing.paymentBooked', { amount: money(Math.abs(amount.value), account.currency), name: row.name })
        : form.kind === 'package'
          ? t('billing.packageSold', { hours: hoursText(hours?.ok ? hours.value : 0), name: row.name })
          : t('billing.adjustmentBooked', { amount: money(amount.value, account.currency), name: row.name });
    setError(null);
    setPending({
      body: { Entry },
      effect: addEffect(
        { kind: form.kind, amount: amount.value, hours: hours?.ok ? hours.value : undefined, aircraftLabel },
        row.name,
        account,
        locale,
        t,
      ),
      message,
    });
  };

  const confirm = async () => {
    if (!pending) return;
    setBusy(true);
    setError(null);
    try {
      const r = await post<{ Account?: unknown }>('/manager/billing/entries/add.json', pending.body);
      const a = ZAccountPage.shape.Account.safeParse(r.Account);
      onSaved(a.success ? a.data : null, pending.message);
      setPending(null);
      setForm({ ...EMPTY, kind: form.kind });
    } catch (err) {
      setError(sentenceOf(err, t));
    } finally {
      setBusy(false);
    }
  };

  const hint = ADD_KINDS.find((k) => k.kind === form.kind)?.hint;
  return (
    <>
      <form className="add-entry" onSubmit={review} aria-label={t('billing.addEntryForm')} noValidate>
        <fieldset className="kind-switch">
          <legend className="sr-only">{t('billing.kindOfEntry')}</legend>
          {ADD_KINDS.map((k) => (
            <button
              key={k.kind}
              type="button"
              aria-pressed={form.kind === k.kind}
              onClick={() => set({ kind: k.kind })}
            >
              {t(k.label)}
            </button>
          ))}
        </fieldset>
        <p className="muted small field-wide">{hint ? t(hint) : ''}</p>
        <Input
          id="in-amount"
          label={t(form.kind === 'package' ? 'billing.priceLabel' : 'billing.amountLabel', {
            currency: account.currency,
          })}
          value={form.amount}
          error={errors.amount}
          onChange={(v) => set({ amount: v })}
          placeholder={form.kind === 'adjustment' ? sample(-25) : sample(100)}
        />
        {form.kind === 'package' && (
          <>
            <Input
              id="in-hours"
              label={t('billing.colHours')}
              value={form.hours}
              error={errors.hours}
              onChange={(v) => set({ hours: v })}
              placeholder={sample(10, 0)}
            />
            <div className="field">
              <label htmlFor="pkg-aircraft">{t('billing.aircraft')}</label>
              <select id="pkg-aircraft" value={form.aircraft_id} onChange={(e) => set({ aircraft_id: e.target.value })}>
                <option value="">{t('billing.anyAircraft')}</option>
                {aircraft
                  .filter((a) => a.active !== false)
                  .map((a) => (
                    <option key={a.id} value={a.id}>
                      {a.registration}
                    </option>
                  ))}
              </select>
            </div>
          </>
        )}
        <div className="field field-wide">
          <label htmlFor="entry-description">{t('billing.colDescription')}</label>
          <input
            id="entry-description"
            value={form.description}
            onChange={(e) => set({ description: e.target.value })}
            placeholder={form.kind === 'payment' ? t('billing.paymentPlaceholder') : ''}
            aria-invalid={errors.description ? true : undefined}
          />
          {errors.description && <small className="field-error">{errors.description}</small>}
        </div>
        <div>
          <button type="submit">{t('billing.addKind', { kind: form.kind })}</button>
        </div>
      </form>
      {pending && (
        <ConfirmDialog
          title={t('billing.addTitle', { kind: form.kind, name: row.name })}
          effect={pending.effect}
          confirmLabel={t('billing.bookKind', { kind: form.kind })}
          busy={busy}
          error={error}
          onConfirm={confirm}
          onCancel={() => {
            setPending(null);
            setError(null);
          }}
        />
      )}
    </>
  );
}

function Input({
  id,
  label,
  value,
  error,
  onChange,
  placeholder,
}: {
  /** Stable across languages (a label-derived id would change with the language). */
  id: string;
  label: string;
  value: string;
  error?: string;
  onChange(v: string): void;
  placeholder?: string;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        inputMode="decimal"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder={placeholder}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-err` : undefined}
      />
      {error && (
        <small id={`${id}-err`} className="field-error">
          {error}
        </small>
      )}
    </div>
  );
}

/** Reverse with a reason: the dialog says the negated amount and the balance after. */
function ReverseDialog({
  entry,
  who,
  account,
  onClose,
  onDone,
}: {
  entry: Entry;
  who: string;
  account: Account;
  onClose(): void;
  onDone(): void;
}) {
  const { post } = useApi();
  const { t, locale } = useBillingText();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = async () => {
    if (reason.trim().length < 3) return setError(t('billing.reasonTooShort'));
    setBusy(true);
    setError(null);
    try {
      await post(`/manager/billing/entries/reverse/${encodeURIComponent(entry.id)}.json`, {
        description: reason.trim(),
      });
      onDone();
    } catch (err) {
      setError(sentenceOf(err, t));
      setBusy(false);
    }
  };
  return (
    <ConfirmDialog
      title={t('billing.reverseTitle')}
      effect={reverseEffect(entry, who, account, locale, t)}
      confirmLabel={t('billing.reverseConfirm')}
      danger
      busy={busy}
      error={error}
      onConfirm={confirm}
      onCancel={onClose}
    >
      <label>
        {t('billing.reason')}
        <input
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          placeholder={t('billing.reasonPlaceholder')}
          data-testid="reverse-reason"
        />
      </label>
    </ConfirmDialog>
  );
}

/** The accountant's export: entries of a date range (company zone) as CSV or XLSX. */
function Export() {
  const ws = useWorkspace();
  const { display } = useCompany();
  const t = useT();
  // Defaults follow the company zone once the company document has loaded (before it, the zone is UTC),
  // until the person picks dates: between midnight in Madrid and midnight UTC the two days differ.
  const today = todayIn(display.companyZone);
  const [fromPicked, setFrom] = useState<string | null>(null);
  const [toPicked, setTo] = useState<string | null>(null);
  const from = fromPicked ?? `${today.slice(0, 8)}01`;
  const to = toPicked ?? today;
  const [format, setFormat] = useState<'csv' | 'xlsx'>('xlsx');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!allows(billingGates.office, ws.user.user_group_id)) return null;
  const run = async () => {
    if (!from || !to || from > to) return setError(t('billing.badDates'));
    setBusy(true);
    setError(null);
    try {
      await downloadFile(
        ws,
        `/manager/billing/entries/export.json?from=${from}&to=${to}&format=${format}`,
        `billing-entries-${from}-to-${to}.${format}`,
        t,
      );
    } catch (err) {
      setError(sentenceOf(err, t));
    } finally {
      setBusy(false);
    }
  };
  return (
    <fieldset className="billing-actions export">
      <legend className="sr-only">{t('billing.exportEntries')}</legend>
      <label>
        {t('billing.from')}
        <input type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
      </label>
      <label>
        {t('billing.to')}
        <input type="date" value={to} onChange={(e) => setTo(e.target.value)} />
      </label>
      <label>
        {t('billing.format')}
        <select value={format} onChange={(e) => setFormat(e.target.value === 'csv' ? 'csv' : 'xlsx')}>
          <option value="xlsx">{t('billing.excel')}</option>
          <option value="csv">CSV</option>
        </select>
      </label>
      <button type="button" className="secondary" onClick={run} disabled={busy} data-testid="export">
        {busy ? t('billing.preparing') : t('billing.exportEntries')}
      </button>
      {error && (
        <p role="alert" className="form-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}
