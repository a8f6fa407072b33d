import { apiKeyForm } from '@ops/shared/forms/office';
import type { MessageId } from '@ops/shared/i18n/index';
import { type FormEvent, useState } from 'react';
import { useT } from '../../i18n.tsx';
import {
  Busy,
  check,
  errorOf,
  FormField,
  Outcome,
  ScreenHead,
  todayIn,
  useAction,
  useApi,
  useLoad,
  useFormats,
} from '../office-kit.tsx';

interface KeyRow {
  ApiKey: {
    id: string;
    name: string;
    key_prefix: string;
    last_used_at: number | null;
    expires: number | null;
    revoked: boolean;
    created: number;
  };
  User: { id: string; email: string | null };
}
interface Created {
  key: { id: string; name: string; key_prefix: string; plaintext: string };
}

/** The key form's checks (shared/src/forms, English) in the app's language; an unknown text shows as it is. */
const FORM_ERRORS: Record<string, MessageId> = {
  'Name is required': 'accounts.nameRequired',
  'At most 120 characters': 'accounts.nameTooLong',
  'Pick the user the key acts as': 'accounts.pickUser',
  'Expected a date YYYY-MM-DD': 'accounts.badDate',
  'The expiry must be after today': 'accounts.expiryAfterToday',
};

export default function ApiKeys() {
  const t = useT();
  const fmt = useFormats();
  const { post } = useApi();
  const keys = useLoad<{ keys: KeyRow[] }>('/manager/api_keys.json');
  const users = useLoad<Record<string, string>>('/manager/users/list.json');
  const [draft, setDraft] = useState({ name: '', user_id: '', expires: '' });
  const [secret, setSecret] = useState<Created['key'] | null>(null);
  const [copied, setCopied] = useState(false);
  const act = useAction();
  const fieldError = (field: string) => {
    const m = errorOf(act.errors, field);
    const id = m ? FORM_ERRORS[m] : undefined;
    return id ? t(id) : m;
  };
  const today = todayIn('UTC');

  const create = async (e: FormEvent) => {
    e.preventDefault();
    const r = check(apiKeyForm(today), draft);
    if (!r.ok) return act.invalid(r.errors);
    await act.run(async () => {
      const expires = draft.expires ? Math.floor(Date.parse(`${draft.expires}T23:59:59Z`) / 1000) : undefined;
      const res = await post<Created>('/manager/api_keys/add.json', {
        name: draft.name,
        user_id: draft.user_id,
        ...(expires ? { expires } : {}),
      });
      setSecret(res.key);
      setCopied(false);
      setDraft({ name: '', user_id: '', expires: '' });
      keys.reload();
    });
  };

  const revoke = (k: KeyRow['ApiKey']) => {
    if (!window.confirm(t('accounts.revokeConfirm', { name: k.name }))) return;
    void act.run(async () => {
      await post(`/manager/api_keys/revoke/${k.id}.json`);
      keys.reload();
      return t('accounts.keyRevoked', { name: k.name });
    });
  };

  const copy = async () => {
    if (!secret) return;
    try {
      await navigator.clipboard.writeText(secret.plaintext);
      setCopied(true);
    } catch {
      // No clipboard permission: the field stays selectable.
      setCopied(false);
    }
  };

  return (
    <section data-testid="api-keys">
      <ScreenHead title={t('accounts.title')} />
      <p className="muted small">{t('accounts.intro')}</p>
      {secret && (
        <div className="secret" role="status" data-testid="api-secret">
          <p>
            <strong>{t('accounts.copyNow', { name: secret.name })}</strong> {t('accounts.shownOnce')}
          </p>
          <div className="actions-row">
            <input
              readOnly
              aria-label={t('accounts.newKey')}
              value={secret.plaintext}
              onFocus={(e) => e.target.select()}
              className="mono wide-input"
            />
            <button type="button" onClick={copy}>
              {copied ? t('accounts.copied') : t('accounts.copy')}
            </button>
            <button type="button" className="secondary" onClick={() => setSecret(null)}>
              {t('accounts.done')}
            </button>
          </div>
        </div>
      )}
      <form className="inline-form" onSubmit={create} aria-label={t('accounts.newKey')} noValidate>
        <FormField label={t('accounts.name')} error={fieldError('name')}>
          {(p) => (
            <input
              {...p}
              value={draft.name}
              onChange={(e) => setDraft({ ...draft, name: e.target.value })}
              placeholder={t('accounts.namePlaceholder')}
            />
          )}
        </FormField>
        <FormField label={t('accounts.actsAs')} error={fieldError('user_id')}>
          {(p) => (
            <select {...p} value={draft.user_id} onChange={(e) => setDraft({ ...draft, user_id: e.target.value })}>
              <option value="">{t('accounts.chooseUser')}</option>
              {Object.entries(users.data ?? {}).map(([id, name]) => (
                <option key={id} value={id}>
                  {name}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField label={t('accounts.expiresOptional')} error={fieldError('expires')}>
          {(p) => (
            <input
              {...p}
              type="date"
              value={draft.expires}
              onChange={(e) => setDraft({ ...draft, expires: e.target.value })}
            />
          )}
        </FormField>
        <button type="submit" disabled={act.busy}>
          {act.busy ? t('accounts.creating') : t('accounts.create')}
        </button>
      </form>
      <Outcome error={act.error} done={act.done} />
      {!keys.data ? (
        keys.error ? (
          <Outcome error={keys.error} />
        ) : (
          <Busy what={t('shell.loading')} />
        )
      ) : (
        <table className="data-table">
          <caption className="sr-only">{t('accounts.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('accounts.colName')}</th>
              <th scope="col">{t('accounts.colKey')}</th>
              <th scope="col">{t('accounts.colActsAs')}</th>
              <th scope="col">{t('accounts.colCreated')}</th>
              <th scope="col">{t('accounts.colLastUsed')}</th>
              <th scope="col">{t('accounts.colExpires')}</th>
              <th scope="col">{t('accounts.colState')}</th>
            </tr>
          </thead>
          <tbody>
            {keys.data.keys.map(({ ApiKey: k, User: u }) => (
              <tr key={k.id} data-key={k.name}>
                <td>{k.name}</td>
                <td className="mono">{k.key_prefix}…</td>
                <td>{u.email ?? u.id}</td>
                <td>{fmt.dateTime(k.created)}</td>
                <td>{fmt.dateTime(k.last_used_at)}</td>
                <td>{k.expires ? fmt.dateTime(k.expires) : t('accounts.never')}</td>
                <td>
                  {k.revoked ? (
                    <span className="badge badge-neutral">{t('accounts.revoked')}</span>
                  ) : (
                    <button type="button" className="link small danger" onClick={() => revoke(k)}>
                      {t('accounts.revoke')}
                      <span className="sr-only"> {k.name}</span>
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {keys.data?.keys.length === 0 && <p className="empty">{t('accounts.none')}</p>}
    </section>
  );
}
