import { apiKeyForm } from '@ops/shared/forms/office';
import { type FormEvent, useState } from 'react';
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

export default function ApiKeys() {
  const fmt = useFormats();
  const { post } = useApi();
  const keys = useLoad<{ keys: KeyRow[] }>('/manager/api_keys.json');
  const users = useLoad<Record<string, string>>('/manager/users/list.json');
  const [draft, setDraft] = useState({ name: '', user_id: '', expires: '' });
  const [secret, setSecret] = useState<Created['key'] | null>(null);
  const [copied, setCopied] = useState(false);
  const act = useAction();
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
    if (!window.confirm(`Revoke the key ${k.name}? Integrations using it stop at once; this cannot be undone.`)) return;
    void act.run(async () => {
      await post(`/manager/api_keys/revoke/${k.id}.json`);
      keys.reload();
      return `Key ${k.name} revoked`;
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
      <ScreenHead title="API keys" />
      <p className="muted small">
        A key acts as the user it is bound to, with that user&apos;s permissions, until it is revoked or expires.
      </p>
      {secret && (
        <div className="secret" role="status" data-testid="api-secret">
          <p>
            <strong>Copy the key {secret.name} now.</strong> It is shown only this once; the server keeps only a hash.
          </p>
          <div className="actions-row">
            <input
              readOnly
              aria-label="New API key"
              value={secret.plaintext}
              onFocus={(e) => e.target.select()}
              className="mono wide-input"
            />
            <button type="button" onClick={copy}>
              {copied ? 'Copied' : 'Copy'}
            </button>
            <button type="button" className="secondary" onClick={() => setSecret(null)}>
              Done
            </button>
          </div>
        </div>
      )}
      <form className="inline-form" onSubmit={create} aria-label="New API key" noValidate>
        <FormField label="Name" error={errorOf(act.errors, 'name')}>
          {(p) => (
            <input
              {...p}
              value={draft.name}
              onChange={(e) => setDraft({ ...draft, name: e.target.value })}
              placeholder="Accounting sync"
            />
          )}
        </FormField>
        <FormField label="Acts as" error={errorOf(act.errors, 'user_id')}>
          {(p) => (
            <select {...p} value={draft.user_id} onChange={(e) => setDraft({ ...draft, user_id: e.target.value })}>
              <option value="">Choose a user…</option>
              {Object.entries(users.data ?? {}).map(([id, name]) => (
                <option key={id} value={id}>
                  {name}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField label="Expires (optional)" error={errorOf(act.errors, 'expires')}>
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
          {act.busy ? 'Creating…' : 'Create key'}
        </button>
      </form>
      <Outcome error={act.error} done={act.done} />
      {!keys.data ? (
        keys.error ? (
          <Outcome error={keys.error} />
        ) : (
          <Busy />
        )
      ) : (
        <table className="data-table">
          <caption className="sr-only">API keys</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Key</th>
              <th scope="col">Acts as</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Expires</th>
              <th scope="col">State</th>
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
                <td>{k.expires ? fmt.dateTime(k.expires) : 'never'}</td>
                <td>
                  {k.revoked ? (
                    <span className="badge badge-neutral">revoked</span>
                  ) : (
                    <button type="button" className="link small danger" onClick={() => revoke(k)}>
                      Revoke<span className="sr-only"> {k.name}</span>
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {keys.data?.keys.length === 0 && <p className="empty">No API key yet.</p>}
    </section>
  );
}
