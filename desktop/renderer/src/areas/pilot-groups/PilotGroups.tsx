import { ZPilotGroupForm } from '@ops/shared/forms/office';
import { type FormEvent, useState } from 'react';
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
      return `Group ${name} created`;
    });
  };

  const bulk = (g: Group['PilotGroup'], what: '1' | '0' | 'welcome') =>
    act.run(async () => {
      if (what === 'welcome') {
        const r = await post<{ message?: string; sent?: number }>(`/pilot_groups/manager_welcomize/${g.id}.json`);
        return r.message ?? `Welcome mails sent to ${g.name}`;
      }
      const r = await get<{ message?: string; changed?: number }>(`/pilot_groups/manager_do/${g.id}/${what}.json`);
      groups.reload();
      return r.message ?? `${g.name}: members ${what === '1' ? 'activated' : 'deactivated'}`;
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
      void act.run(async () => `${g.name}: no active member to deactivate.`);
      return;
    }
    const who = losing === 1 ? '1 member' : `${losing} members`;
    if (
      !window.confirm(
        `Deactivate ${who} of ${g.name}? They lose access at once: they cannot sign in, sync or be booked until someone activates them again. Your own account stays active.`,
      )
    )
      return;
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
      void act.run(async () => `${g.name}: no active member with an email address.`);
      return;
    }
    const who = receiving === 1 ? '1 active member' : `${receiving} active members`;
    if (
      !window.confirm(
        `Send a welcome mail to ${who} of ${g.name}? Each gets a mail at once: a welcome with the sign-in link, or a new confirmation link when their address is not confirmed yet.`,
      )
    )
      return;
    void bulk(g, 'welcome');
  };

  const remove = (g: Group['PilotGroup']) => {
    if (!window.confirm(`Delete the group ${g.name}? Its members stay.`)) return;
    void act.run(async () => {
      await post(`/pilot_groups/manager_delete/${g.id}.json`);
      groups.reload();
      return `Group ${g.name} deleted`;
    });
  };

  return (
    <section data-testid="pilot-groups">
      <ScreenHead title="Pilot groups" />
      <form className="inline-form" onSubmit={add} aria-label="New pilot group" noValidate>
        <FormField label="New group name" error={errorOf(act.errors, 'name')}>
          {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} />}
        </FormField>
        <button type="submit" disabled={act.busy}>
          Create group
        </button>
      </form>
      {act.busy && <Busy what="Working…" />}
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
                <strong>{g.name}</strong> <span className="muted small">{g.pilot_count} members</span>
                <span className="row-actions">
                  <button
                    type="button"
                    className="link small"
                    aria-expanded={open === g.id}
                    onClick={() => setOpen(open === g.id ? null : g.id)}
                  >
                    Members<span className="sr-only"> of {g.name}</span>
                  </button>
                  <button type="button" className="link small" disabled={act.busy} onClick={() => bulk(g, '1')}>
                    Activate all<span className="sr-only"> of {g.name}</span>
                  </button>
                  <button
                    type="button"
                    className="link small danger"
                    disabled={act.busy}
                    onClick={() => void deactivateAll(g)}
                  >
                    Deactivate all<span className="sr-only"> of {g.name}</span>
                  </button>
                  <button type="button" className="link small" disabled={act.busy} onClick={() => void welcomeAll(g)}>
                    Send welcome mails<span className="sr-only"> to {g.name}</span>
                  </button>
                  <button type="button" className="link small danger" onClick={() => remove(g)}>
                    Delete<span className="sr-only"> {g.name}</span>
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
      {members.data.length === 0 && <p className="empty">No member yet.</p>}
      <ul className="plain">
        {members.data.map((m) => (
          <li key={m.id}>
            <a href={`#pilot/${m.id}`}>
              {m.name} {m.surname}
            </a>{' '}
            {!m.active && <span className="badge badge-neutral">inactive</span>}{' '}
            <button
              type="button"
              className="link small"
              onClick={() =>
                save(
                  ids.filter((i) => i !== m.id),
                  `${m.name} ${m.surname} removed`,
                )
              }
            >
              remove
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
          Add a member{' '}
          <select value={adding} onChange={(e) => setAdding(e.target.value)}>
            <option value="">Choose…</option>
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
          onClick={() => save([...ids, adding], 'Member added').then(() => setAdding(''))}
        >
          Add
        </button>
        <Outcome error={act.error} done={act.done} />
      </div>
    </div>
  );
}
