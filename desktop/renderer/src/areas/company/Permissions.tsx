import { allows, GATES, PERMISSION_KEYS } from '@ops/shared';
import { useState } from 'react';
import { useWorkspace } from '../../hooks.ts';
import { mayChangeRolePermissions } from '@ops/shared/rules/company/policy';
import { Busy, Outcome, ScreenHead, useAction, useApi, useLoad } from '../office-kit.tsx';

interface Matrix {
  roles: Array<{ role: number; name: string; permissions: Record<string, boolean>; overridden: string[] }>;
}

/** Administrators (GATES.admin) change the matrix (never for roles above their own); management reads it. */
export default function Permissions() {
  const ws = useWorkspace();
  const { post } = useApi();
  const matrix = useLoad<Matrix>('/manager/companies/permissions.json');
  const act = useAction();
  const [pending, setPending] = useState<string | null>(null);
  const myRole = ws.user.user_group_id;
  const canEdit = allows(GATES.admin, myRole);

  if (!matrix.data) return matrix.error ? <Outcome error={matrix.error} /> : <Busy />;

  const toggle = async (role: number, key: string, value: boolean) => {
    setPending(`${role}:${key}`);
    await act.run(async () => {
      await post('/manager/companies/permissions.json', { role, permissions: { [key]: value } });
      matrix.reload();
      return `${key} ${value ? 'granted to' : 'withdrawn from'} role ${role}`;
    });
    setPending(null);
  };

  return (
    <section data-testid="permissions">
      <ScreenHead title="Permissions">
        <span className="muted small">
          {canEdit
            ? 'Tick to grant; bold marks a change from the default.'
            : 'Read only: company administrators change permissions.'}
        </span>
      </ScreenHead>
      <table className="data-table">
        <caption className="sr-only">Permission of each role</caption>
        <thead>
          <tr>
            <th scope="col">Role</th>
            {PERMISSION_KEYS.map((k) => (
              <th scope="col" key={k}>
                {k}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {matrix.data.roles.map((r) => (
            <tr key={r.role}>
              <th scope="row">
                {r.name} <span className="muted small">({r.role})</span>
              </th>
              {PERMISSION_KEYS.map((k) => (
                <td key={k} className={r.overridden.includes(k) ? 'overridden' : undefined}>
                  <input
                    type="checkbox"
                    aria-label={`${k} for ${r.name}`}
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
      {pending && <Busy what="Saving…" />}
      <Outcome error={act.error} done={act.done} />
    </section>
  );
}
