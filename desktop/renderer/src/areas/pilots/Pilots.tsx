import { allows, GATES } from '@ops/shared';
import { useState } from 'react';
import { useWorkspace } from '../../hooks.ts';
import { useT } from '../../i18n.tsx';
import { Busy, messageOf, Outcome, type Paginate, Pager, ScreenHead, useLoad } from '../office-kit.tsx';

interface PilotRow {
  User: {
    id: string;
    active: boolean;
    pilot: boolean;
    email?: string | null;
    email_status?: string;
    user_group_id: number;
  };
  UserDetail: {
    name: string;
    surname: string;
    phone?: string | null;
    city?: string | null;
    Country?: { name: string } | null;
  };
  /** Left out, or its name null, for viewers the API does not show roles to (the auditor, issue 28 item 2). */
  UserGroup?: { name: string | null };
  Base: { id: string; name: string } | null;
  PilotGroup: Record<string, string>;
}
interface Directory {
  pilots: PilotRow[];
  paginate: Paginate;
}

interface Filters {
  search: string;
  user_group_id: string;
  pilot_group: string;
  base_id: string;
  active: string;
  pilot: string;
}

const INITIAL: Filters = { search: '', user_group_id: '', pilot_group: '', base_id: '', active: 'true', pilot: '' };
const PAGE_SIZE = 25;

/** `/pilots/index/page:2/search:ana/....json`: named parameters; empty ones are left out. */
export function directoryPath(f: Filters, extra: Record<string, string | number>): string {
  const parts = Object.entries({ ...f, ...extra })
    .filter(([, v]) => v !== '' && v !== undefined)
    .map(([k, v]) => `${k}:${encodeURIComponent(String(v).replace(/[/:]/g, ' '))}`);
  return `/pilots/index${parts.length ? `/${parts.join('/')}` : ''}.json`;
}

export default function Pilots() {
  const t = useT();
  const ws = useWorkspace();
  const [draft, setDraft] = useState<Filters>(INITIAL);
  const [filters, setFilters] = useState<Filters>(INITIAL);
  const [page, setPage] = useState(1);
  const dir = useLoad<Directory>(directoryPath(filters, { page, limit: PAGE_SIZE }));
  const groups = useLoad<{ pilotGroups: Array<{ PilotGroup: { id: string; name: string } }> }>(
    allows(GATES.instructors, ws.user.user_group_id) ? '/pilot_groups/manager_index.json' : null,
  );
  const bases = useLoad<{ bases: Array<{ Base: { id: string; name: string } }> }>('/bases/index.json');
  const [exporting, setExporting] = useState<string | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);

  const apply = (e: React.FormEvent) => {
    e.preventDefault();
    setFilters(draft);
    setPage(1);
  };

  /** The same filters as an .xlsx file (every matching row), downloaded with the session token. */
  const exportXlsx = async () => {
    setExporting(t('pilots.preparing'));
    setExportError(null);
    try {
      const res = await fetch(`${ws.baseUrl}${directoryPath(filters, { excel: 1 })}`, {
        headers: { authorization: `Bearer ${ws.token}` },
      });
      if (!res.ok) throw new Error(t('pilots.exportFailed', { status: res.status }));
      setExporting(t('pilots.downloading'));
      const blob = await res.blob();
      const a = document.createElement('a');
      a.href = URL.createObjectURL(blob);
      a.download = 'pilots.xlsx';
      a.click();
      setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
    } catch (err) {
      setExportError(messageOf(err));
    } finally {
      setExporting(null);
    }
  };

  const set = (p: Partial<Filters>) => setDraft({ ...draft, ...p });
  return (
    <section data-testid="pilots">
      <ScreenHead title={t('pilots.directoryTitle')}>
        <button type="button" className="secondary" onClick={exportXlsx} disabled={exporting !== null}>
          {exporting ?? t('pilots.exportXlsx')}
        </button>
        <Outcome error={exportError} />
      </ScreenHead>
      <form className="filters" onSubmit={apply} aria-label={t('pilots.filters')}>
        <label>
          {t('pilots.search')}
          <input
            type="search"
            value={draft.search}
            onChange={(e) => set({ search: e.target.value })}
            placeholder={t('pilots.searchPlaceholder')}
          />
        </label>
        <label>
          {t('pilots.role')}
          <select value={draft.user_group_id} onChange={(e) => set({ user_group_id: e.target.value })}>
            <option value="">{t('pilots.any')}</option>
            <option value="150">{t('pilots.roleStaff')}</option>
            <option value="190">{t('pilots.rolePilots')}</option>
            <option value="200">{t('pilots.roleStudents')}</option>
          </select>
        </label>
        {groups.data && (
          <label>
            {t('pilots.pilotGroup')}
            <select value={draft.pilot_group} onChange={(e) => set({ pilot_group: e.target.value })}>
              <option value="">{t('pilots.any')}</option>
              {groups.data.pilotGroups.map((g) => (
                <option key={g.PilotGroup.id} value={g.PilotGroup.id}>
                  {g.PilotGroup.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <label>
          {t('pilots.base')}
          <select value={draft.base_id} onChange={(e) => set({ base_id: e.target.value })}>
            <option value="">{t('pilots.any')}</option>
            {bases.data?.bases.map((b) => (
              <option key={b.Base.id} value={b.Base.id}>
                {b.Base.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('pilots.state')}
          <select value={draft.active} onChange={(e) => set({ active: e.target.value })}>
            <option value="true">{t('pilots.active')}</option>
            <option value="false">{t('pilots.inactive')}</option>
            <option value="">{t('pilots.both')}</option>
          </select>
        </label>
        <label>
          {t('pilots.flies')}
          <select value={draft.pilot} onChange={(e) => set({ pilot: e.target.value })}>
            <option value="">{t('pilots.everyone')}</option>
            <option value="true">{t('pilots.pilotsOnly')}</option>
            <option value="false">{t('pilots.nonFlying')}</option>
          </select>
        </label>
        <button type="submit">{t('pilots.apply')}</button>
      </form>
      {dir.loading && <Busy what={t('shell.loading')} />}
      <Outcome error={dir.error} />
      {dir.data && (
        <>
          <table className="data-table" data-testid="pilot-table">
            <caption className="sr-only">{t('pilots.tableCaption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('pilots.name')}</th>
                <th scope="col">{t('pilots.role')}</th>
                <th scope="col">{t('pilots.base')}</th>
                <th scope="col">{t('pilots.groups')}</th>
                <th scope="col">{t('pilots.contact')}</th>
                <th scope="col">{t('pilots.state')}</th>
              </tr>
            </thead>
            <tbody>
              {dir.data.pilots.map((p) => (
                <tr key={p.User.id} className={p.User.active ? undefined : 'inactive'}>
                  <td>
                    <a href={`#pilot/${p.User.id}`}>
                      {p.UserDetail.name} {p.UserDetail.surname}
                    </a>
                  </td>
                  <td>{p.UserGroup?.name ?? '—'}</td>
                  <td>{p.Base?.name ?? '—'}</td>
                  <td>
                    {Object.entries(p.PilotGroup ?? {}).map(([color, name]) => (
                      <span key={color} className="group-chip">
                        <span className="swatch" style={{ background: color }} aria-hidden="true" />
                        {name}
                      </span>
                    ))}
                  </td>
                  <td className="small">
                    {[p.User.email, p.UserDetail.phone, p.UserDetail.city].filter(Boolean).join(' · ')}
                  </td>
                  <td>{p.User.active ? t('pilots.stateActive') : t('pilots.stateInactive')}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {dir.data.pilots.length === 0 && <p className="empty">{t('pilots.noMatch')}</p>}
          <Pager paginate={dir.data.paginate} onPage={setPage} label={t('pilots.directoryPages')} />
        </>
      )}
    </section>
  );
}
