import { DateTime, type DurationLikeObject } from 'luxon';

export const PLAN_REPEATS = ['NEVER', 'DAY', 'WEEK', 'MONTH', 'QUARTER', 'SEMESTER', 'YEAR'] as const;
export type PlanRepeat = (typeof PLAN_REPEATS)[number];

const STEP: Record<Exclude<PlanRepeat, 'NEVER'>, DurationLikeObject> = {
  DAY: { days: 1 },
  WEEK: { weeks: 1 },
  MONTH: { months: 1 },
  QUARTER: { months: 3 },
  SEMESTER: { months: 6 },
  YEAR: { years: 1 },
};

/**
 * Start of the job that follows a signed one (Part B 4.3): the CRS expiration
 * when given, else the action's periodicity counted from the signed job's
 * finish, in calendar terms of the company zone (a month after 31 January is
 * the last day of February; DST does not shift the wall-clock time). An action
 * repeating NEVER is due by hours or landings only: its job has no start date.
 */
export function nextJobStart(
  repeat: string,
  finish: number,
  crsExpiration: number | null,
  timeZone: string,
): number | null {
  if (crsExpiration !== null) return crsExpiration;
  if (repeat === 'NEVER' || !(repeat in STEP)) return null;
  return DateTime.fromSeconds(finish, { zone: timeZone })
    .plus(STEP[repeat as keyof typeof STEP])
    .toUnixInteger();
}

/**
 * The action after `current` in plan order (sort_order, then id), wrapping to
 * the first; the first when there is no current. `current` keeps its place even
 * when it was deleted or unlinked since.
 */
export function nextInOrder<P extends { id: string; sort_order: number }>(
  linked: readonly P[],
  current: { id: string; sort_order: number } | null | undefined,
): P | null {
  if (!linked.length) return null;
  if (!current) return linked[0];
  const after = linked.find(
    (p) => p.sort_order > current.sort_order || (p.sort_order === current.sort_order && p.id > current.id),
  );
  return after ?? linked[0];
}
