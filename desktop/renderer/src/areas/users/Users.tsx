import { allows, GATES, ROLE_NAMES, ROLES } from '@ops/shared';
import { userForm } from '@ops/shared/forms/office';
import { type FormEvent, useMemo, useState } from 'react';
import { useWorkspace } from '../../hooks.ts';
import { assignableRoles, isAuditorRole as isAuditor } from '@ops/shared/rules/users/policy';
import {
  Busy,
  Check,
  check,
  errorOf,
  FormField,
  goTo,
  Outcome,
  Pager,
  ScreenHead,
  todayIn,
  useAction,
  useApi,
  useLoad,
  usePages,
} from '../office-kit.tsx';
import type { MessageId } from '@ops/shared/i18n/index';
import { useT } from '../../i18n.tsx';
import { useRoleName } from './role-names.ts';

/** Two-factor modes stay codes in data; people read their names. */
const TWO_FACTOR_NAME: Record<string, MessageId> = {
  OFF: 'users.twoFactorOff',
  EMAIL: 'users.twoFactorEmail',
  TOTP: 'users.twoFactorTotp',
};

interface UserRow {
  User: {
    id: string;
    active: boolean;
    email_status: string;
    pilot: boolean;
    two_factor: string;
    email: string | null;
    user_group_id: number;
    expiration: string | null;
  };
  UserDetail: { name: string; surname: string };
  UserGroup: { name: string };
}

interface Draft {
  id?: string;
  User: {
    email: string;
    user_group_id: number;
    active: boolean;
    pilot: boolean;
    expiration: string;
    send_email: boolean;
  };
  UserDetail: { name: string; surname: string };
}

const EMPTY: Draft = {
  User: { email: '', user_group_id: ROLES.PILOT, active: true, pilot: true, expiration: '', send_email: true },
  UserDetail: { name: '', surname: '' },
};

/** Roles a user administrator may hand out: their own level and below (the server checks again). */
export default function Users() {
  const ws = useWorkspace();
  const t = useT();
  const roleName = useRoleName();
  const canWrite = allows(GATES.managers, ws.user.user_group_id);
  const users = useLoad<UserRow[]>('/manager/users.json');
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<Draft | null>(null);
  const act = useAction();
  const { post } = useApi();

  const filtered = useMemo(() => {
    const q = search.trim().toLowerCase();
    const all = users.data ?? [];
    if (!q) return all;
    return all.filter((u) =>
      `${u.UserDetail.name} ${u.UserDetail.surname} ${u.User.email ?? ''} ${u.UserGroup.name} ${roleName(u.User.user_group_id, u.UserGroup.name)}`
        .toLowerCase()
        .includes(q),
    );
  }, [users.data, search, roleName]);
  const pages = usePages(filtered, 20);

  const startEdit = async (id: string) => {
    await act.run(async () => {
      const u = await ws.rest<UserRow & { User: { expiration: string | null } }>(
        'GET',
        `/manager/users/view/${id}.json`,
      );
      setEditing({
        id,
        User: {
          email: u.User.email ?? '',
          user_group_id: u.User.user_group_id,
          active: u.User.active,
          pilot: u.User.pilot,
          expiration: u.User.expiration ?? '',
          send_email: false,
        },
        UserDetail: { name: u.UserDetail.name, surname: u.UserDetail.surname },
      });
    });
  };

  const setActive = (u: UserRow, active: boolean) =>
    act.run(async () => {
      await post('/manager/users/edit.json', { User: { id: u.User.id, active } });
      users.reload();
      const name = `${u.UserDetail.name} ${u.UserDetail.surname}`;
      return active ? t('users.reactivated', { name }) : t('users.deactivated', { name });
    });

  const remove = (u: UserRow) => {
    if (!window.confirm(t('users.confirmDelete', { name: `${u.UserDetail.name} ${u.UserDetail.surname}` }))) return;
    void act.run(async () => {
      await post(`/manager/users/delete/${u.User.id}.json`, { confirm: true });
      users.reload();
      return t('users.deleted');
    });
  };

  return (
    <section data-testid="users">
      <ScreenHead title={t('shell.screenUsers')}>
        <label className="inline-label">
          <span className="sr-only">{t('users.search')}</span>
          <input
            type="search"
            className="search"
            placeholder={t('users.searchPlaceholder')}
            value={search}
            onChange={(e) => {
              setSearch(e.target.value);
              pages.setPage(1);
            }}
          />
        </label>
        {canWrite && !editing && (
          <button type="button" onClick={() => setEditing(EMPTY)}>
            {t('users.newUser')}
          </button>
        )}
      </ScreenHead>
      {editing && (
        <UserForm
          draft={editing}
          onClose={() => setEditing(null)}
          onSaved={(msg) => {
            setEditing(null);
            users.reload();
            act.setDone(msg);
          }}
        />
      )}
      <Outcome error={act.error} done={act.done} />
      {!users.data ? (
        users.error ? (
          <Outcome error={users.error} />
        ) : (
          <Busy />
        )
      ) : (
        <>
          <table className="data-table">
            <caption className="sr-only">{t('users.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('users.name')}</th>
                <th scope="col">{t('users.email')}</th>
                <th scope="col">{t('users.role')}</th>
                <th scope="col">{t('users.state')}</th>
                <th scope="col">{t('users.twoFactor')}</th>
                <th scope="col">
                  <span className="sr-only">{t('users.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {pages.rows.map((u) => (
                <tr
                  key={u.User.id}
                  data-user={u.User.email ?? u.User.id}
                  className={u.User.active ? undefined : 'inactive'}
                >
                  <td>
                    <a href={`#pilot/${u.User.id}`}>
                      {u.UserDetail.name} {u.UserDetail.surname}
                    </a>
                  </td>
                  <td>
                    {u.User.email ?? <span className="muted">{t('users.none')}</span>}{' '}
                    {u.User.email && u.User.email_status !== 'confirmed' && (
                      <span className="badge badge-warn" title={u.User.email_status}>
                        {t('users.emailPending')}
                      </span>
                    )}
                  </td>
                  <td>{roleName(u.User.user_group_id, u.UserGroup.name)}</td>
                  <td>
                    {u.User.active ? (
                      <span className="badge badge-ok">{t('users.active')}</span>
                    ) : (
                      <span className="badge badge-neutral">{t('users.inactive')}</span>
                    )}
                  </td>
                  <td>
                    {TWO_FACTOR_NAME[u.User.two_factor] ? t(TWO_FACTOR_NAME[u.User.two_factor]) : u.User.two_factor}
                  </td>
                  <td>
                    {canWrite && (
                      <span className="row-actions">
                        <button
                          type="button"
                          className="link small"
                          onClick={() => startEdit(u.User.id)}
                          aria-label={t('users.editWho', { name: `${u.UserDetail.name} ${u.UserDetail.surname}` })}
                        >
                          {t('users.edit')}
                        </button>
                        {u.User.id !== ws.user.id && (
                          <button
                            type="button"
                            className="link small"
                            onClick={() => setActive(u, !u.User.active)}
                            aria-label={t(u.User.active ? 'users.deactivateWho' : 'users.reactivateWho', {
                              name: `${u.UserDetail.name} ${u.UserDetail.surname}`,
                            })}
                          >
                            {u.User.active ? t('users.deactivate') : t('users.reactivate')}
                          </button>
                        )}
                        {u.User.id !== ws.user.id && (
                          <button
                            type="button"
                            className="link small danger"
                            onClick={() => remove(u)}
                            aria-label={t('users.deleteWho', { name: `${u.UserDetail.name} ${u.UserDetail.surname}` })}
                          >
                            {t('users.delete')}
                          </button>
                        )}
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {filtered.length === 0 && <p className="empty">{t('users.noMatch')}</p>}
          <Pager paginate={pages.paginate} onPage={pages.setPage} label={t('users.pages')} />
        </>
      )}
    </section>
  );
}

function UserForm({ draft, onClose, onSaved }: { draft: Draft; onClose(): void; onSaved(message: string): void }) {
  const ws = useWorkspace();
  const t = useT();
  const roleName = useRoleName();
  const { post } = useApi();
  const [d, setD] = useState<Draft>(draft);
  const act = useAction();
  const e = (k: string) => errorOf(act.errors, k);
  const setU = (p: Partial<Draft['User']>) => setD({ ...d, User: { ...d.User, ...p } });
  const setDetail = (p: Partial<Draft['UserDetail']>) => setD({ ...d, UserDetail: { ...d.UserDetail, ...p } });
  const auditor = isAuditor(d.User.user_group_id);

  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    const r = check(userForm(todayIn(Intl.DateTimeFormat().resolvedOptions().timeZone)), d);
    if (!r.ok) return act.invalid(r.errors);
    await act.run(async () => {
      const body = {
        User: { ...d.User, ...(d.id ? { id: d.id } : {}), ...(auditor ? { pilot: false } : {}) },
        UserDetail: d.UserDetail,
      };
      const res = await post<{ message?: string }>(
        d.id ? '/manager/users/edit.json' : '/manager/users/create.json',
        body,
      );
      onSaved(res.message ?? t('users.saved'));
    });
  };

  return (
    <form
      className="card-form"
      onSubmit={submit}
      aria-label={d.id ? t('users.editUser') : t('users.newUser')}
      noValidate
    >
      <h2>
        {d.id
          ? t('users.editWho', { name: `${draft.UserDetail.name} ${draft.UserDetail.surname}` })
          : t('users.newUser')}
      </h2>
      <div className="grid">
        <FormField label={t('users.name')} error={e('UserDetail.name')}>
          {(p) => (
            <input {...p} name="name" value={d.UserDetail.name} onChange={(v) => setDetail({ name: v.target.value })} />
          )}
        </FormField>
        <FormField label={t('users.surname')} error={e('UserDetail.surname')}>
          {(p) => (
            <input
              {...p}
              name="surname"
              value={d.UserDetail.surname}
              onChange={(v) => setDetail({ surname: v.target.value })}
            />
          )}
        </FormField>
        <FormField label={t('users.email')} error={e('User.email')}>
          {(p) => (
            <input
              {...p}
              name="email"
              type="email"
              value={d.User.email}
              onChange={(v) => setU({ email: v.target.value })}
            />
          )}
        </FormField>
        <FormField label={t('users.role')} error={e('User.user_group_id')}>
          {(p) => (
            <select
              {...p}
              name="role"
              value={d.User.user_group_id}
              onChange={(v) => setU({ user_group_id: Number(v.target.value) })}
            >
              {assignableRoles(ws.user.user_group_id).map((r) => (
                <option key={r} value={r}>
                  {roleName(r, ROLE_NAMES[r])}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField label={auditor ? t('users.expiresAuditor') : t('users.expires')} error={e('User.expiration')}>
          {(p) => (
            <input
              {...p}
              name="expiration"
              type="date"
              value={d.User.expiration}
              onChange={(v) => setU({ expiration: v.target.value })}
            />
          )}
        </FormField>
        <Check label={t('users.activeBox')} checked={d.User.active} onChange={(v) => setU({ active: v })} />
        <Check
          label={t('users.flies')}
          checked={d.User.pilot && !auditor}
          disabled={auditor}
          onChange={(v) => setU({ pilot: v })}
        />
        <Check
          label={d.id ? t('users.mailIfChanged') : t('users.welcomeMail')}
          checked={d.User.send_email}
          onChange={(v) => setU({ send_email: v })}
        />
      </div>
      {auditor && <p className="muted small">{t('users.auditorNote')}</p>}
      <div className="actions-row">
        <button type="submit" disabled={act.busy}>
          {act.busy ? t('users.saving') : d.id ? t('users.saveUser') : t('users.createUser')}
        </button>
        <button type="button" className="secondary" onClick={onClose}>
          {t('users.cancel')}
        </button>
        <Outcome error={act.error} />
        {d.id && (
          <button type="button" className="link small" onClick={() => goTo('pilot', d.id)}>
            {t('users.fullPage')}
          </button>
        )}
      </div>
    </form>
  );
}
