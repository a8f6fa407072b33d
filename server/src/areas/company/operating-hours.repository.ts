import type { HoursRow } from '@ops/shared/rules/company/operating-hours';
import type { Kysely } from 'kysely';
import { DateTime } from 'luxon';
import type { DB } from '../../db/schema.ts';
import './company.tables.ts';

/** An operating-hours row as the API presents it (Part A 2.3). */
export interface PresentedHoursRow extends HoursRow {
  id: string;
}

/** Overrides returned by the manager list: 7 days ago to 365 days ahead, company calendar (Part A 8). */
export function overridesWindow(timeZone: string, now: Date = new Date()): { from: string; to: string; today: string } {
  const today = DateTime.fromJSDate(now, { zone: timeZone }).startOf('day');
  return {
    from: today.minus({ days: 7 }).toISODate() as string,
    to: today.plus({ days: 365 }).toISODate() as string,
    today: today.toISODate() as string,
  };
}

const scopeOrder = (r: HoursRow) =>
  `${r.base_id === null ? '0' : `1${r.base_id}`}|${r.weekday === null ? `1${r.override_date}` : `0${r.weekday}`}|${String(r.start_minute).padStart(4, '0')}`;

/** Ids of the company's live bases, as a subquery. */
export const liveBases = (db: Kysely<DB>, companyId: string) =>
  db.selectFrom('bases').select('bases.id').where('bases.company_id', '=', companyId).where('bases.deleted', '=', 0);

/**
 * Rows of the company: every weekly row, and the dated overrides inside
 * [overridesFrom, overridesTo] (null: unbounded). Sorted company scope first,
 * then by base, weekly before dated, by day and start.
 */
export async function loadHoursRows(
  db: Kysely<DB>,
  companyId: string,
  window: { overridesFrom: string | null; overridesTo: string | null },
): Promise<PresentedHoursRow[]> {
  const rows = await db
    .selectFrom('operating_hours')
    .select(['id', 'base_id', 'weekday', 'override_date', 'closed', 'start_minute', 'end_minute'])
    .where('company_id', '=', companyId)
    // A deleted base keeps its rows in the table (a restore would bring them back) but they are not shown.
    .where((eb) => eb.or([eb('base_id', 'is', null), eb('base_id', 'in', liveBases(db, companyId))]))
    .where((eb) => {
      const dated = [eb('override_date', 'is not', null)];
      if (window.overridesFrom) dated.push(eb('override_date', '>=', window.overridesFrom));
      if (window.overridesTo) dated.push(eb('override_date', '<=', window.overridesTo));
      return eb.or([eb('weekday', 'is not', null), eb.and(dated)]);
    })
    .execute();
  return rows
    .map((r) => ({
      id: r.id,
      base_id: r.base_id,
      weekday: r.weekday === null ? null : Number(r.weekday),
      override_date: r.override_date,
      closed: !!r.closed,
      start_minute: Number(r.start_minute),
      end_minute: Number(r.end_minute),
    }))
    .sort((a, b) => (scopeOrder(a) < scopeOrder(b) ? -1 : scopeOrder(a) > scopeOrder(b) ? 1 : 0));
}

/** The rows resolution needs for one base (or the company scope) between two dates: that scope and the company's. */
export async function rowsForResolution(
  db: Kysely<DB>,
  companyId: string,
  baseId: string | null,
  from: string,
  to: string,
): Promise<HoursRow[]> {
  const rows = await db
    .selectFrom('operating_hours')
    .select(['base_id', 'weekday', 'override_date', 'closed', 'start_minute', 'end_minute'])
    .where('company_id', '=', companyId)
    .where((eb) =>
      baseId === null ? eb('base_id', 'is', null) : eb.or([eb('base_id', 'is', null), eb('base_id', '=', baseId)]),
    )
    .where((eb) =>
      eb.or([eb('weekday', 'is not', null), eb.and([eb('override_date', '>=', from), eb('override_date', '<=', to)])]),
    )
    .execute();
  return rows.map((r) => ({
    ...r,
    weekday: r.weekday === null ? null : Number(r.weekday),
    closed: !!r.closed,
    start_minute: Number(r.start_minute),
    end_minute: Number(r.end_minute),
  }));
}
