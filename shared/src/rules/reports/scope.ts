/** Whose figures a report answers (Part A 4.11). */

import { maySeeOthersReports } from './policy.ts';

export type ReportScope = { userId: string; aircraftId: string | null } | { userId: null; aircraftId: string };

/** A path value that means "no filter": empty, `null`, `-`, `_`, `0`. */
export const isEmptyPathValue = (v: string | null | undefined): boolean =>
  v === undefined || v === null || ['', 'null', '-', '_', '0', 'undefined'].includes(v.trim());

/**
 * The scope of a report: the requested user, else the caller; a null user with
 * an aircraft scopes by aircraft only. A caller above 170 always gets their own.
 */
export function reportScope(
  caller: { id: string; role: number },
  userId: string | null | undefined,
  aircraftId?: string | null,
): ReportScope {
  const aircraft = isEmptyPathValue(aircraftId) ? null : (aircraftId as string);
  if (!maySeeOthersReports(caller)) return { userId: caller.id, aircraftId: aircraft };
  const user = isEmptyPathValue(userId) ? null : (userId as string);
  if (!user && aircraft) return { userId: null, aircraftId: aircraft };
  return { userId: user ?? caller.id, aircraftId: aircraft };
}
