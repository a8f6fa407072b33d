import { SCHEDULE_TYPES, scheduleForm, ZBaseForm } from '@ops/shared/forms/office';
import { type FormEvent, useState } from 'react';
import { allows, GATES } from '@ops/shared';
import { useWorkspace } from '../../hooks.ts';
import { isAuditorRole as isAuditor } from '@ops/shared/rules/users/policy';
import {
  Busy,
  Check,
  check,
  errorOf,
  FormField,
  Outcome,
  Pager,
  ScreenHead,
  useAction,
  useApi,
  useLoad,
  usePages,
  useFormats,
} from '../office-kit.tsx';
import type { MessageId } from '@ops/shared/i18n/index';
import { useT } from '../../i18n.tsx';

/** Schedule types stay codes in data; people read their names. */
const TYPE_NAME: Record<(typeof SCHEDULE_TYPES)[number], MessageId> = {
  DUTY: 'bases.typeDuty',
  OFF: 'bases.typeOff',
  STANDBY: 'bases.typeStandby',
  REST: 'bases.typeRest',
};
const typeName = (t: ReturnType<typeof useT>, type: string) =>
  type in TYPE_NAME ? t(TYPE_NAME[type as keyof typeof TYPE_NAME]) : type;

interface Base {
  Base: { id: string; name: string; default: boolean; airport_id: string | null };
}
interface Crew {
  id: string;
  title: string;
  eventColor: string;
}
interface Schedule {
  BaseSchedule: { id: string; pilot: string; start: number | null; end: number | null; type: string; always: boolean };
  Pilot: { title: string };
}

/** A datetime-local value (browser time) as unix seconds; NaN when empty. */
const unixOf = (v: string) => (v ? Math.floor(new Date(v).getTime() / 1000) : Number.NaN);

export default function Bases() {
  const ws = useWorkspace();
  const t = useT();
  const canManage = allows(GATES.managers, ws.user.user_group_id);
  const { post } = useApi();
  const bases = useLoad<{ bases: Base[] }>('/bases/index.json');
  const [selected, setSelected] = useState<string | null>(null);
  const [form, setForm] = useState<{ id?: string; name: string; airport_id: string; default: boolean } | null>(null);
  const act = useAction();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!form) return;
    const r = check(ZBaseForm, form);
    if (!r.ok) return act.invalid(r.errors);
    await act.run(async () => {
      const body = { name: form.name, airport_id: form.airport_id, default: form.default };
      await post(form.id ? `/bases/edit/${form.id}.json` : '/bases/add.json', body);
      setForm(null);
      bases.reload();
      return form.id ? t('bases.saved') : t('bases.created');
    });
  };

  const remove = (b: Base['Base']) => {
    if (!window.confirm(t('bases.confirmDelete', { name: b.name }))) return;
    void act.run(async () => {
      await post(`/bases/delete/${b.id}.json`);
      bases.reload();
      return t('bases.deleted', { name: b.name });
    });
  };

  const current = bases.data?.bases.find((b) => b.Base.id === selected)?.Base ?? bases.data?.bases[0]?.Base;
  return (
    <section data-testid="bases">
      <ScreenHead title={t('shell.screenBases')}>
        {canManage && !form && (
          <button type="button" onClick={() => setForm({ name: '', airport_id: '', default: false })}>
            {t('bases.newBase')}
          </button>
        )}
      </ScreenHead>
      {form && (
        <form
          className="card-form"
          onSubmit={submit}
          aria-label={form.id ? t('bases.editBase') : t('bases.newBase')}
          noValidate
        >
          <div className="grid">
            <FormField label={t('bases.name')} error={errorOf(act.errors, 'name')}>
              {(p) => <input {...p} value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />}
            </FormField>
            <FormField label={t('bases.airport')} error={errorOf(act.errors, 'airport_id')}>
              {(p) => (
                <input
                  {...p}
                  value={form.airport_id}
                  onChange={(e) => setForm({ ...form, airport_id: e.target.value })}
                  maxLength={4}
                />
              )}
            </FormField>
            <Check
              label={t('bases.defaultBase')}
              checked={form.default}
              onChange={(v) => setForm({ ...form, default: v })}
            />
          </div>
          <div className="actions-row">
            <button type="submit" disabled={act.busy}>
              {act.busy ? t('bases.saving') : t('bases.saveBase')}
            </button>
            <button type="button" className="secondary" onClick={() => setForm(null)}>
              {t('bases.cancel')}
            </button>
          </div>
        </form>
      )}
      <Outcome error={act.error} done={act.done} />
      {!bases.data ? (
        bases.error ? (
          <Outcome error={bases.error} />
        ) : (
          <Busy />
        )
      ) : (
        <div className="split">
          <ul className="base-list" aria-label={t('bases.bases')}>
            {bases.data.bases.map(({ Base: b }) => (
              <li key={b.id}>
                <button
                  type="button"
                  className={current?.id === b.id ? 'tab-light active' : 'tab-light'}
                  aria-current={current?.id === b.id ? 'true' : undefined}
                  onClick={() => setSelected(b.id)}
                >
                  {b.name} {b.airport_id && <span className="muted small">{b.airport_id}</span>}{' '}
                  {b.default && <span className="badge badge-info">{t('bases.default')}</span>}
                </button>
                {canManage && (
                  <span className="row-actions">
                    <button
                      type="button"
                      className="link small"
                      onClick={() =>
                        setForm({ id: b.id, name: b.name, airport_id: b.airport_id ?? '', default: b.default })
                      }
                    >
                      {t('bases.edit')}
                      <span className="sr-only"> {b.name}</span>
                    </button>
                    <button type="button" className="link small danger" onClick={() => remove(b)}>
                      {t('bases.delete')}
                      <span className="sr-only"> {b.name}</span>
                    </button>
                  </span>
                )}
              </li>
            ))}
          </ul>
          {current && <BaseDetail key={current.id} base={current} />}
        </div>
      )}
    </section>
  );
}

function BaseDetail({ base }: { base: Base['Base'] }) {
  const fmt = useFormats();
  const t = useT();
  const ws = useWorkspace();
  const { get, post } = useApi();
  const crew = useLoad<Crew[]>(`/bases/crew/${base.id}.json`);
  const schedules = useLoad<{ schedules: Schedule[] }>(`/bases/schedule/${base.id}.json`);
  const now = Math.floor(Date.now() / 1000);
  const upcoming = (schedules.data?.schedules ?? [])
    .filter((s) => s.BaseSchedule.always || (s.BaseSchedule.end ?? 0) >= now)
    .sort((a, b) => (a.BaseSchedule.start ?? 0) - (b.BaseSchedule.start ?? 0));
  const pages = usePages(upcoming, 15);
  const [draft, setDraft] = useState({
    pilot: '',
    start: '',
    end: '',
    type: 'DUTY' as (typeof SCHEDULE_TYPES)[number],
  });
  const act = useAction();
  const canWrite = !isAuditor(ws.user.user_group_id);

  const add = async (e: FormEvent) => {
    e.preventDefault();
    const value = { pilot: draft.pilot, start: unixOf(draft.start), end: unixOf(draft.end), type: draft.type };
    const r = check(scheduleForm(now), value);
    if (!r.ok) return act.invalid(r.errors);
    await act.run(async () => {
      await post('/bases/add_schedule.json', { base: base.id, ...value });
      schedules.reload();
      return t('bases.dutyAdded');
    });
  };
  const remove = (id: string) =>
    act.run(async () => {
      await get(`/bases/delete_schedule/${id}.json`);
      schedules.reload();
      return t('bases.entryRemoved');
    });

  return (
    <div className="base-detail">
      <h2>{t('bases.crewHeading', { name: base.name })}</h2>
      {!crew.data ? (
        <Busy />
      ) : (
        <ul className="chips" aria-label={t('bases.crewOf', { name: base.name })}>
          {crew.data.map((c) => (
            <li key={c.id}>
              <span className="swatch" style={{ background: c.eventColor }} aria-hidden="true" />
              <a href={`#pilot/${c.id}`}>{c.title}</a>
            </li>
          ))}
          {crew.data.length === 0 && <li className="empty">{t('bases.noCrew')}</li>}
        </ul>
      )}
      <h2>{t('bases.schedule')}</h2>
      {canWrite && (
        <form className="inline-form" onSubmit={add} aria-label={t('bases.addDuty')} noValidate>
          <FormField label={t('bases.pilot')} error={errorOf(act.errors, 'pilot')}>
            {(p) => (
              <select {...p} value={draft.pilot} onChange={(e) => setDraft({ ...draft, pilot: e.target.value })}>
                <option value="">{t('bases.choose')}</option>
                {crew.data?.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.title}
                  </option>
                ))}
              </select>
            )}
          </FormField>
          <FormField label={t('bases.from')} error={errorOf(act.errors, 'start')}>
            {(p) => (
              <input
                {...p}
                type="datetime-local"
                value={draft.start}
                onChange={(e) => setDraft({ ...draft, start: e.target.value })}
              />
            )}
          </FormField>
          <FormField label={t('bases.until')} error={errorOf(act.errors, 'end')}>
            {(p) => (
              <input
                {...p}
                type="datetime-local"
                value={draft.end}
                onChange={(e) => setDraft({ ...draft, end: e.target.value })}
              />
            )}
          </FormField>
          <FormField label={t('bases.type')}>
            {(p) => (
              <select
                {...p}
                value={draft.type}
                onChange={(e) => setDraft({ ...draft, type: e.target.value as typeof draft.type })}
              >
                {SCHEDULE_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {typeName(t, type)}
                  </option>
                ))}
              </select>
            )}
          </FormField>
          <button type="submit" disabled={act.busy}>
            {t('bases.add')}
          </button>
        </form>
      )}
      <Outcome error={act.error} done={act.done} />
      {!schedules.data ? (
        <Busy />
      ) : (
        <>
          <table className="data-table">
            <caption className="sr-only">{t('bases.caption', { name: base.name })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('bases.pilot')}</th>
                <th scope="col">{t('bases.type')}</th>
                <th scope="col">{t('bases.from')}</th>
                <th scope="col">{t('bases.until')}</th>
                <th scope="col">
                  <span className="sr-only">{t('bases.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {pages.rows.map((s) => (
                <tr key={s.BaseSchedule.id}>
                  <td>{s.Pilot.title}</td>
                  <td>{typeName(t, s.BaseSchedule.type)}</td>
                  <td>{s.BaseSchedule.always ? t('bases.alwaysAvailable') : fmt.dateTime(s.BaseSchedule.start)}</td>
                  <td>{s.BaseSchedule.always ? '' : fmt.dateTime(s.BaseSchedule.end)}</td>
                  <td>
                    {canWrite && (
                      <button type="button" className="link small" onClick={() => remove(s.BaseSchedule.id)}>
                        {t('bases.remove')}
                        <span className="sr-only">{t('bases.removeEntryOf', { name: s.Pilot.title })}</span>
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {upcoming.length === 0 && <p className="empty">{t('bases.nothingAhead')}</p>}
          <Pager paginate={pages.paginate} onPage={pages.setPage} label={t('bases.pages')} />
        </>
      )}
    </div>
  );
}
