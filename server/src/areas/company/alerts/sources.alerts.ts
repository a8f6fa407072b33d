import type { Translate } from '@ops/shared/i18n/index';
import type { Kysely } from 'kysely';
import { DateTime } from 'luxon';
import type { DB } from '../../../db/schema.ts';

/** Alert types of Part A 2.4, one source each. */
export const ALERT_TYPES = [
  'UserCertificate',
  'Aircraft',
  'Maintenance',
  'AircraftUpload',
  'Document',
  'duty',
] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

export type AlertClass = 'text-danger' | 'text-warning' | 'text-muted';

/** Part A 2.4. */
export interface Alert {
  type: AlertType;
  icon: string;
  class: AlertClass;
  link: string;
  name: string;
  /** Unix expiry or due date. */
  date: number;
  details: string;
}

/**
 * What a source is asked for, already clamped to what the caller may see.
 * Sources filter in SQL inside `companyId` and the window.
 */
export interface AlertScope {
  companyId: string;
  /** Company zone: calendar dates (certificate expiry) end at its midnight. */
  timeZone: string;
  now: number;
  /**
   * Explicit bounds (unix seconds). A given bound replaces that side of the
   * source's default window and lifts its caps; null keeps the default.
   */
  from: number | null;
  to: number | null;
  /**
   * Null: the whole company (a manager without `user_id`). Otherwise only
   * alerts about these people: their pilot certificates and documents of
   * aircraft they own; aircraft certificates, maintenance and company
   * documents are then excluded (Part A 4.2 item 6).
   */
  userIds: readonly string[] | null;
  /** The caller (`maySeeAllAlerts` of rules/company/policy.ts tells a manager). */
  viewer: { userId: string; role: number };
  /** The words of names and details in the caller's language (issue 33); data (registrations, names) stays. */
  t: Translate;
}

/** One alert type. Areas implement it and list it in their manifest (`alerts`). */
export interface AlertSource {
  type: AlertType;
  collect(db: Kysely<DB>, scope: AlertScope): Promise<Alert[]>;
}

/** Default window of every source: about 30 days back, about 3 months ahead (Part A 4.2 item 6, 8). */
export const DEFAULT_BACK_SECONDS = 30 * 86400;
export const DEFAULT_AHEAD_SECONDS = 92 * 86400;

export function windowOf(scope: AlertScope): { from: number; to: number } {
  return { from: scope.from ?? scope.now - DEFAULT_BACK_SECONDS, to: scope.to ?? scope.now + DEFAULT_AHEAD_SECONDS };
}

/**
 * Urgency (Part A 2.4): expired, within one calendar month, otherwise muted.
 * The month is counted in the company zone (a 31-day month stays a month).
 */
export function urgencyClass(date: number, now: number, timeZone: string): AlertClass {
  if (date <= now) return 'text-danger';
  const month = DateTime.fromSeconds(now, { zone: timeZone }).plus({ months: 1 }).toUnixInteger();
  return date <= month ? 'text-warning' : 'text-muted';
}

/** A calendar date (`YYYY-MM-DD`, valid through that day) lapses at the next midnight of the company zone. */
export const lapseOf = (date: string, timeZone: string): number =>
  DateTime.fromISO(date, { zone: timeZone }).plus({ days: 1 }).startOf('day').toUnixInteger();

/** The calendar dates whose lapse instant falls inside [from, to]. */
export function dateBounds(from: number, to: number, timeZone: string): { first: string; last: string } {
  return {
    first: DateTime.fromSeconds(from, { zone: timeZone }).minus({ days: 1 }).toISODate() as string,
    last: DateTime.fromSeconds(to, { zone: timeZone }).minus({ days: 1 }).toISODate() as string,
  };
}
