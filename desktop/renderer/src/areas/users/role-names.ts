/**
 * Role display names in the reader's language (issue 33). Roles stay numbers in
 * data; each has a message, named literally so the catalogue check sees it.
 */
import type { MessageId } from '@ops/shared/i18n/index';
import { useCallback } from 'react';
import { useT } from '../../i18n.tsx';

const ROLE_MESSAGE: Record<number, MessageId> = {
  1: 'users.role1',
  100: 'users.role100',
  105: 'users.role105',
  110: 'users.role110',
  120: 'users.role120',
  135: 'users.role135',
  150: 'users.role150',
  170: 'users.role170',
  190: 'users.role190',
  200: 'users.role200',
  250: 'users.role250',
  300: 'users.role300',
};

/** `roleName(role, fallback)`: the role's name, or the server's name for a role this app does not know. */
export function useRoleName(): (role: number, fallback?: string) => string {
  const t = useT();
  return useCallback(
    (role: number, fallback?: string) => {
      const id = ROLE_MESSAGE[role];
      return id ? t(id) : (fallback ?? String(role));
    },
    [t],
  );
}
