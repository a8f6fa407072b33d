/**
 * "My billing": the signed-in person's account (CONTRACT 6). Balance, package
 * hours and the last entries come from the account replicated to this device,
 * so they show in the hangar without a network; the full history pages through
 * REST when online, as do the monthly statement and the online top-up.
 */
import { allows } from '@ops/shared';
import { type FormEvent, useState } from 'react';
import { useCompany, useSyncState, useWorkspace } from '../../hooks.ts';
import { Busy, Outcome, Pager, ScreenHead, todayIn, useApi, useFormats } from '../office-kit.tsx';
import { downloadFile, sentenceOf, useBillingCompany, useBillingLoad, useLocalAccount } from './billing-data.ts';
import { billingGates } from '@ops/shared/rules/billing/policy';
import {
  type Account,
  type AccountPage,
  type Entry,
  formatHours,
  formatMoney,
  monthLabel,
  parseAmount,
  recentMonths,
  ZAccountPage,
} from './money.ts';
import { EntriesTable } from './parts.tsx';

const PAGE_SIZE = 20;

export default function MyAccount() {
  const company = useBillingCompany();
  const { name } = useCompany();
  if (company.known && !company.enabled)
    return (
      <section data-testid="my-billing">
        <ScreenHead title="My billing account" />
        <p className="empty" data-testid="billing-off">
          {name || 'Your company'} does not use billing in this app
          {company.plan === 'free' ? ' (the free plan has no billing)' : ''}: there is no balance to show.
        </p>
      </section>
    );
  return <MyAccountBody />;
}

function MyAccountBody() {
  const ws = useWorkspace();
  const sync = useSyncState();
  const company = useBillingCompany();
  const f = useFormats();
  const { local, ready } = useLocalAccount(company.currency);
  // Full history: REST pages; otherwise the replicated account (REST page 1 when there is none on this device).
  const [history, setHistory] = useState(false);
  const [page, setPage] = useState(1);
  const restPath =
    history || (ready && !local) ? `/billing/account.json?page=${history ? page : 1}&limit=${PAGE_SIZE}` : null;
  const rest = useBillingLoad(restPath, (raw) => ZAccountPage.parse(raw));
  const remote: AccountPage | null = rest.data;

  const account: Account | null = history && remote ? remote.Account : (local?.account ?? remote?.Account ?? null);
  const entries: Entry[] = history
    ? (remote?.entries ?? [])
    : (local?.entries.slice(0, PAGE_SIZE) ?? remote?.entries ?? []);
  const currency = account?.currency || company.currency;
  const fromDevice = !history && local !== null;

  return (
    <section data-testid="my-billing">
      <ScreenHead title="My billing account">
        {fromDevice && <span className="badge badge-info">Stored on this device</span>}
      </ScreenHead>
      {!ready && <Busy />}
      {ready && !account && rest.loading && <Busy />}
      {ready && !account && !rest.loading && (
        <p className="empty" data-testid="no-account">
          {rest.error ?? 'Your account has not reached this device yet; it appears after the next sync.'}
        </p>
      )}
      {account && (
        <>
          <div className="balance-cards">
            <div className="balance-card">
              <span className="label">Balance</span>
              <span className={`value money${account.balance < 0 ? ' money-neg' : ''}`} data-testid="balance">
                {formatMoney(account.balance, currency)}
              </span>
              <small className="muted">
                {account.balance < 0
                  ? 'You owe this amount to the school.'
                  : account.balance > 0
                    ? 'Credit for your next flights.'
                    : 'Nothing owed.'}
              </small>
            </div>
            <div className="balance-card">
              <span className="label">Prepaid package hours</span>
              <span className="value" data-testid="package-balance">
                {formatHours(account.package_balance)}
              </span>
              <small className="muted">Used first for the aircraft part of your flights.</small>
            </div>
          </div>
          {fromDevice && !sync.online && (
            <p className="offline-note" role="status">
              Offline: this is your account as of the last sync
              {sync.lastSyncAt || ws.lastSyncAt
                ? ` (${f.dateTime(Math.floor((sync.lastSyncAt ?? ws.lastSyncAt ?? 0) / 1000))})`
                : ''}
              . Flights confirmed since then appear when the device reconnects.
            </p>
          )}
          <div className="billing-actions">
            <Statement online={sync.online} />
            {company.provider && allows(billingGates.own, ws.user.user_group_id) && (
              <TopUp online={sync.online} currency={currency} />
            )}
          </div>
          <h3>{history ? 'All entries' : 'Last entries'}</h3>
          {history && rest.loading && <Busy />}
          {history && <Outcome error={rest.error} />}
          <EntriesTable entries={entries} currency={currency} caption="Entries of my account, newest first" />
          {history ? (
            <>
              <Pager paginate={remote?.paginate} onPage={setPage} label="Entry pages" />
              <button type="button" className="secondary small" onClick={() => setHistory(false)}>
                Back to the last entries
              </button>
            </>
          ) : (
            <button
              type="button"
              className="secondary small"
              disabled={!sync.online}
              title={sync.online ? undefined : 'The full history is read from the server; connect to see it.'}
              onClick={() => {
                setPage(1);
                setHistory(true);
              }}
            >
              Full history
            </button>
          )}
        </>
      )}
    </section>
  );
}

/** The monthly statement (PDF) of one of the last twelve months. */
function Statement({ online }: { online: boolean }) {
  const ws = useWorkspace();
  const { display } = useCompany();
  const months = recentMonths(todayIn(display.companyZone), 12);
  const [month, setMonth] = useState(months[0] ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      await downloadFile(
        ws,
        `/billing/statement/${encodeURIComponent(ws.user.id)}/${month}.pdf`,
        `statement-${month}.pdf`,
      );
    } catch (err) {
      setError(sentenceOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <label>
        Statement month
        <select value={month} onChange={(e) => setMonth(e.target.value)} data-testid="statement-month">
          {months.map((m) => (
            <option key={m} value={m}>
              {monthLabel(m)}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        className="secondary"
        onClick={download}
        disabled={busy || !online}
        title={online ? undefined : 'Statements are made by the server; connect to download one.'}
        data-testid="download-statement"
      >
        {busy ? 'Preparing…' : 'Download statement (PDF)'}
      </button>
      {error && (
        <p role="alert" className="form-error">
          {error}
        </p>
      )}
    </>
  );
}

/** Online top-up: the server opens a checkout with the company's payment provider and answers its address. */
function TopUp({ online, currency }: { online: boolean; currency: string }) {
  const { post } = useApi();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    const amount = parseAmount(text);
    if (!amount.ok) return setError(amount.message);
    setBusy(true);
    setError(null);
    try {
      const r = await post<{ url?: unknown }>('/billing/checkout.json', { amount: amount.value });
      if (typeof r.url !== 'string' || !/^https?:\/\//.test(r.url))
        throw new Error('The payment provider did not answer a payment page; try again later.');
      location.assign(r.url);
    } catch (err) {
      setError(sentenceOf(err));
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} className="contents" aria-label="Top up" noValidate>
      <label>
        Top-up amount ({currency})
        <input
          inputMode="decimal"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="100.00"
          aria-invalid={error ? true : undefined}
          data-testid="top-up-amount"
        />
      </label>
      <button
        type="submit"
        disabled={busy || !online}
        title={online ? undefined : 'Paying online needs a connection.'}
        data-testid="top-up"
      >
        {busy ? 'Opening the payment page…' : 'Top up online'}
      </button>
      {error && (
        <p role="alert" className="form-error">
          {error}
        </p>
      )}
    </form>
  );
}
