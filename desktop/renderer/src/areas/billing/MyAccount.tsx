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
import {
  downloadFile,
  sentenceOf,
  useBillingCompany,
  useBillingLoad,
  useBillingText,
  useLocalAccount,
} from './billing-data.ts';
import { billingGates } from '@ops/shared/rules/billing/policy';
import {
  type Account,
  type AccountPage,
  type Entry,
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
  const { t } = useBillingText();
  if (company.known && !company.enabled)
    return (
      <section data-testid="my-billing">
        <ScreenHead title={t('billing.myTitle')} />
        <p className="empty" data-testid="billing-off">
          {t(company.plan === 'free' ? 'billing.offMineFree' : 'billing.offMine', {
            company: name || t('billing.yourCompany'),
          })}
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
  const { t, money, hours } = useBillingText();
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
      <ScreenHead title={t('billing.myTitle')}>
        {fromDevice && <span className="badge badge-info">{t('billing.storedOnDevice')}</span>}
      </ScreenHead>
      {!ready && <Busy what={t('shell.loading')} />}
      {ready && !account && rest.loading && <Busy what={t('shell.loading')} />}
      {ready && !account && !rest.loading && (
        <p className="empty" data-testid="no-account">
          {rest.error ?? t('billing.notYet')}
        </p>
      )}
      {account && (
        <>
          <div className="balance-cards">
            <div className="balance-card">
              <span className="label">{t('billing.balance')}</span>
              <span className={`value money${account.balance < 0 ? ' money-neg' : ''}`} data-testid="balance">
                {money(account.balance, currency)}
              </span>
              <small className="muted">
                {account.balance < 0
                  ? t('billing.youOwe')
                  : account.balance > 0
                    ? t('billing.credit')
                    : t('billing.nothingOwed')}
              </small>
            </div>
            <div className="balance-card">
              <span className="label">{t('billing.prepaidHours')}</span>
              <span className="value" data-testid="package-balance">
                {hours(account.package_balance)}
              </span>
              <small className="muted">{t('billing.prepaidHint')}</small>
            </div>
          </div>
          {fromDevice && !sync.online && (
            <p className="offline-note" role="status">
              {sync.lastSyncAt || ws.lastSyncAt
                ? t('billing.offlineAsOf', {
                    when: f.dateTime(Math.floor((sync.lastSyncAt ?? ws.lastSyncAt ?? 0) / 1000)),
                  })
                : t('billing.offlineNoTime')}
            </p>
          )}
          <div className="billing-actions">
            <Statement online={sync.online} />
            {company.provider && allows(billingGates.own, ws.user.user_group_id) && (
              <TopUp online={sync.online} currency={currency} />
            )}
          </div>
          <h3>{history ? t('billing.allEntries') : t('billing.lastEntries')}</h3>
          {history && rest.loading && <Busy what={t('shell.loading')} />}
          {history && <Outcome error={rest.error} />}
          <EntriesTable entries={entries} currency={currency} caption={t('billing.myEntriesCaption')} />
          {history ? (
            <>
              <Pager paginate={remote?.paginate} onPage={setPage} label={t('billing.entryPages')} />
              <button type="button" className="secondary small" onClick={() => setHistory(false)}>
                {t('billing.backToLast')}
              </button>
            </>
          ) : (
            <button
              type="button"
              className="secondary small"
              disabled={!sync.online}
              title={sync.online ? undefined : t('billing.historyOffline')}
              onClick={() => {
                setPage(1);
                setHistory(true);
              }}
            >
              {t('billing.fullHistory')}
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
  const { t, locale } = useBillingText();
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
        t,
      );
    } catch (err) {
      setError(sentenceOf(err, t));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <label>
        {t('billing.statementMonth')}
        <select value={month} onChange={(e) => setMonth(e.target.value)} data-testid="statement-month">
          {months.map((m) => (
            <option key={m} value={m}>
              {monthLabel(m, locale)}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        className="secondary"
        onClick={download}
        disabled={busy || !online}
        title={online ? undefined : t('billing.statementOffline')}
        data-testid="download-statement"
      >
        {busy ? t('billing.preparing') : t('billing.downloadStatement')}
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
  const { t, sample } = useBillingText();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    const amount = parseAmount(text, {}, t);
    if (!amount.ok) return setError(amount.message);
    setBusy(true);
    setError(null);
    try {
      const r = await post<{ url?: unknown }>('/billing/checkout.json', { amount: amount.value });
      if (typeof r.url !== 'string' || !/^https?:\/\//.test(r.url)) throw new Error(t('billing.noPaymentPage'));
      location.assign(r.url);
    } catch (err) {
      setError(sentenceOf(err, t));
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} className="contents" aria-label={t('billing.topUpForm')} noValidate>
      <label>
        {t('billing.topUpAmount', { currency })}
        <input
          inputMode="decimal"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={sample(100)}
          aria-invalid={error ? true : undefined}
          data-testid="top-up-amount"
        />
      </label>
      <button
        type="submit"
        disabled={busy || !online}
        title={online ? undefined : t('billing.payOffline')}
        data-testid="top-up"
      >
        {busy ? t('billing.openingPayment') : t('billing.topUpOnline')}
      </button>
      {error && (
        <p role="alert" className="form-error">
          {error}
        </p>
      )}
    </form>
  );
}
