import { allows, GATES, PERMISSION_KEYS } from '@ops/shared';
import { useState } from 'react';
import { useWorkspace } from '../../hooks.ts';
import { mayChangeRolePermissions } from '@ops/shared/rules/company/policy';
import type { MessageId } from '@ops/shared/i18n/index';
import { useT } from '../../i18n.tsx';
import { Busy, Outcome, ScreenHead, useAction, useApi, useLoad } from '../office-kit.tsx';
import { useRoleName } from '../users/role-names.ts';

/** Permission keys stay codes in data; their names are messages. */
const PERMISSION_NAME: Record<(typeof PERMISSION_KEYS)[number], MessageId> = {
  'Flight.create': 'company.permCreate',
  'Flight.edit': 'company.permEdit',
  'Flight.confirm': 'company.permConfirm',
};

interface Matrix {
  roles: Array<{ role: number; name: string; permissions: Record<string, boolean>; overridden: string[] }>;
}

/** Administrators (GATES.admin) change the matrix (never for roles above their own); management reads it. */
export default function Permissions() {
  const ws = useWorkspace();
  const t = useT();
  const roleName = useRoleName();
  const { post } = useApi();
  const matrix = useLoad<Matrix>('/manager/companies/permissions.json');
  const act = useAction();
  const [pending, setPending] = useState<string | null>(null);
  const myRole = ws.user.user_group_id;
  const canEdit = allows(GATES.admin, myRole);

  if (!matrix.data) return matrix.error ? <Outcome error={matrix.error} /> : <Busy />;

  const toggle = async (role: number, key: (typeof PERMISSION_KEYS)[number], value: boolean) => {
    setPending(`${role}:${key}`);
    await act.run(async () => {
      await post('/manager/companies/permissions.json', { role, permissions: { [key]: value } });
      matrix.reload();
      const names = { permission: t(PERMISSION_NAME[key]), role: roleName(role) };
      return value ? t('company.granted', names) : t('company.withdrawn', names);
    });
    setPending(null);
  };

  return (
    <section data-testid="permissions">
      <ScreenHead title={t('shell.screenPermissions')}>
        <span className="muted small">{canEdit ? t('company.permEditHint') : t('company.permReadOnly')}</span>
      </ScreenHead>
      <table className="data-table">
        <caption className="sr-only">{t('company.permCaption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('company.role')}</th>
            {PERMISSION_KEYS.map((k) => (
              <th scope="col" key={k} title={k}>
                {t(PERMISSION_NAME[k])}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {matrix.data.roles.map((r) => (
            <tr key={r.role}>
              <th scope="row">
                {roleName(r.role, r.name)} <span className="muted small">({r.role})</span>
              </th>
              {PERMISSION_KEYS.map((k) => (
                <td key={k} className={r.overridden.includes(k) ? 'overridden' : undefined}>
                  <input
                    type="checkbox"
                    aria-label={t('company.permFor', {
                      permission: t(PERMISSION_NAME[k]),
                      role: roleName(r.role, r.name),
                    })}
                    checked={r.permissions[k] === true}
                    disabled={!canEdit || !mayChangeRolePermissions({ role: myRole }, r.role) || pending !== null}
                    onChange={(e) => toggle(r.role, k, e.target.checked)}
                  />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {pending && <Busy what={t('company.saving')} />}
      <Outcome error={act.error} done={act.done} />
    </section>
  );
}
