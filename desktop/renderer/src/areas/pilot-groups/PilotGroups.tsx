import { ZPilotGroupForm } from '@ops/shared/forms/office';
import { type FormEvent, useState } from 'react';
import { useT } from '../../i18n.tsx';
import { Busy, check, errorOf, FormField, Outcome, ScreenHead, useAction, useApi, useLoad } from '../office-kit.tsx';

interface Group {
  PilotGroup: { id: string; name: string; color: string; pilot_count: number };
}
interface Member {
  id: string;
  name: string;
  surname: string;
  email: string | null;
  active: boolean;
  email_status?: string;
}
interface PilotList {
  pilots: Array<{ id: string; name: string; surname: string; user_group_id: number; active: boolean }>;
}

export default function PilotGroups() {
  const t = useT();
  const { ws, get, post } = useApi();
  const groups = useLoad<{ pilotGroups: Group[] }>('/pilot_groups/manager_index.json');
  const [open, setOpen] = useState<string | null>(null);
  const [name, setName] = useState('');
  const act = useAction();

  const add = async (e: FormEvent) => {
    e.preventDefault();
    const r = check(ZPilotGroupForm, { name });
    if (!r.ok) return act.invalid(r.errors);
    await act.run(async () => {
      await post('/pilot_groups/manager_add.json', { PilotGroup: { name } });
      setName('');
      groups.reload();
      return t('pilot-groups.created', { name });
    });
  };

  const bulk = (g: Group['PilotGroup'], what: '1' | '0' | 'welcome') =>
    act.run(async () => {
      if (what === 'welcome') {
        const r = await post<{ message?: string; sent?: number }>(`/pilot_groups/manager_welcomize/${g.id}.json`);
        return r.message ?? t('pilot-groups.welcomeSent', { name: g.name });
      }
      const r = await get<{ message?: string; changed?: number }>(`/pilot_groups/manager_do/${g.id}/${what}.json`);
      groups.reload();
      return (
        r.message ??
        (what === '1' ? t('pilot-groups.activated', { name: g.name }) : t('pilot-groups.deactivated', { name: g.name }))
      );
    });

  /**
   * Deactivating locks people out: ask first, naming how many lose access
   * (the active members other than me; the server also spares accounts above my role).
   */
  const deactivateAll = async (g: Group['PilotGroup']) => {
    let members: Member[];
    try {
      members = await get<Member[]>(`/pilot_groups/manager_pilots/${g.id}.json`);
    } catch (err) {
      void act.run(() => Promise.reject(err));
      return;
    }
    const losing = members.filter((m) => m.active && m.id !== ws.user.id).length;
    if (losing === 0) {
      void act.run(async () => t('pilot-groups.noneToDeactivate', { name: g.name }));
      return;
    }
    if (!window.confirm(t('pilot-groups.confirmDeactivate', { count: losing, name: g.name }))) return;
    void bulk(g, '0');
  };

  /** Mails go out at once and cannot be recalled: ask first, naming who receives one. */
  const welcomeAll = async (g: Group['PilotGroup']) => {
    let members: Member[];
    try {
      members = await get<Member[]>(`/pilot_groups/manager_pilots/${g.id}.json`);
    } catch (err) {
      void act.run(() => Promise.reject(err));
      return;
    }
    const receiving = members.filter((m) => m.active && m.email).length;
    if (receiving === 0) {
      void act.run(async () => t('pilot-groups.noneWithEmail', { name: g.name }));
      return;
    }
    if (!window.confirm(t('pilot-groups.confirmWelcome', { count: receiving, name: g.name }))) return;
    void bulk(g, 'welcome');
  };

  const remove = (g: Group['PilotGroup']) => {
    if (!window.confirm(t('pilot-groups.confirmDelete', { name: g.name }))) return;
    void act.run(async () => {
      await post(`/pilot_groups/manager_delete/${g.id}.json`);
      groups.reload();
      return t('pilot-groups.deleted', { name: g.name });
    });
  };

  return (
    <section data-testid="pilot-groups">
      <ScreenHead title={t('shell.screenGroups')} />
      <form className="inline-form" onSubmit={add} aria-label={t('pilot-groups.newGroup')} noValidate>
        <FormField label={t('pilot-groups.newGroupName')} error={errorOf(act.errors, 'name')}>
          {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} />}
        </FormField>
        <button type="submit" disabled={act.busy}>
          {t('pilot-groups.createGroup')}
        </button>
      </form>
      {act.busy && <Busy what={t('pilot-groups.working')} />}
      <Outcome error={act.error} done={act.done} />
      {!groups.data ? (
        groups.error ? (
          <Outcome error={groups.error} />
        ) : (
          <Busy />
        )
      ) : (
        <ul className="group-list">
          {groups.data.pilotGroups.map(({ PilotGroup: g }) => (
            <li key={g.id} data-group={g.name}>
              <div className="group-head">
                <span className="swatch" style={{ background: g.color }} aria-hidden="true" />
                <strong>{g.name}</strong>{' '}
                <span className="muted small">{t('pilot-groups.memberCount', { count: g.pilot_count })}</span>
                <span className="row-actions">
                  <button
                    type="button"
                    className="link small"
                    aria-expanded={open === g.id}
                    onClick={() => setOpen(open === g.id ? null : g.id)}
                  >
                    {t('pilot-groups.members')}
                    <span className="sr-only">{t('pilot-groups.ofGroup', { name: g.name })}</span>
                  </button>
                  <button type="button" className="link small" disabled={act.busy} onClick={() => bulk(g, '1')}>
                    {t('pilot-groups.activateAll')}
                    <span className="sr-only">{t('pilot-groups.ofGroup', { name: g.name })}</span>
                  </button>
                  <button
                    type="button"
                    className="link small danger"
                    disabled={act.busy}
                    onClick={() => void deactivateAll(g)}
                  >
                    {t('pilot-groups.deactivateAll')}
                    <span className="sr-only">{t('pilot-groups.ofGroup', { name: g.name })}</span>
                  </button>
                  <button type="button" className="link small" disabled={act.busy} onClick={() => void welcomeAll(g)}>
                    {t('pilot-groups.sendWelcome')}
                    <span className="sr-only">{t('pilot-groups.toGroup', { name: g.name })}</span>
                  </button>
                  <button type="button" className="link small danger" onClick={() => remove(g)}>
                    {t('pilot-groups.delete')}
                    <span className="sr-only"> {g.name}</span>
                  </button>
                </span>
              </div>
              {open === g.id && <Members group={g} onChanged={groups.reload} />}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Members({ group, onChanged }: { group: Group['PilotGroup']; onChanged(): void }) {
  const t = useT();
  const { post } = useApi();
  const members = useLoad<Member[]>(`/pilot_groups/manager_pilots/${group.id}.json`);
  const everyone = useLoad<PilotList>('/pilots/list/active:all/pilot:all.json');
  const [adding, setAdding] = useState('');
  const act = useAction();

  const save = (ids: string[], message: string) =>
    act.run(async () => {
      await post(`/pilot_groups/manager_edit/${group.id}.json`, {
        PilotGroup: { name: group.name, User: ids.map((id) => ({ id })) },
      });
      members.reload();
      onChanged();
      return message;
    });

  if (!members.data) return members.error ? <Outcome error={members.error} /> : <Busy />;
  const ids = members.data.map((m) => m.id);
  const candidates = (everyone.data?.pilots ?? []).filter((p) => !ids.includes(p.id));
  return (
    <div className="members">
      {members.data.length === 0 && <p className="empty">{t('pilot-groups.noMember')}</p>}
      <ul className="plain">
        {members.data.map((m) => (
          <li key={m.id}>
            <a href={`#pilot/${m.id}`}>
              {m.name} {m.surname}
            </a>{' '}
            {!m.active && <span className="badge badge-neutral">{t('pilot-groups.inactive')}</span>}{' '}
            <button
              type="button"
              className="link small"
              onClick={() =>
                save(
                  ids.filter((i) => i !== m.id),
                  t('pilot-groups.removed', { name: `${m.name} ${m.surname}` }),
                )
              }
            >
              {t('pilot-groups.remove')}
              <span className="sr-only">
                {' '}
                {m.name} {m.surname}
              </span>
            </button>
          </li>
        ))}
      </ul>
      <div className="inline-form">
        <label>
          {t('pilot-groups.addMember')}{' '}
          <select value={adding} onChange={(e) => setAdding(e.target.value)}>
            <option value="">{t('pilot-groups.choose')}</option>
            {candidates.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name} {p.surname}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="secondary small"
          disabled={!adding || act.busy}
          onClick={() => save([...ids, adding], t('pilot-groups.added')).then(() => setAdding(''))}
        >
          {t('pilot-groups.add')}
        </button>
        <Outcome error={act.error} done={act.done} />
      </div>
    </div>
  );
}
