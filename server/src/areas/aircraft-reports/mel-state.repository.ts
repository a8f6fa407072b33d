import {
  type IntervalType,
  isCounterInterval,
  type MelCategory,
  type MelCounters,
  type MelDeadline,
  type MelItemState,
  type MelStatus,
  melDeadline,
  melStatus,
  type ReportStatus,
} from '@ops/shared/rules/aircraft-reports/mel';
import { type Kysely, sql } from 'kysely';
import { DateTime } from 'luxon';
import type { DB } from '../../db/schema.ts';
import type { MelItemsTable } from '../../db/domain-tables.ts';

/**
 * Counters and derived status of MEL and CDL items. The arithmetic lives in the
 * shared rules (shared/src/rules/aircraft-reports/mel.ts); this module only
 * gathers their inputs from the database: the company time zone and the
 * aircraft's LANDED flights since each item was raised (docs/areas/fleet.md).
 */

/** When a LANDED flight counts as flown: on-blocks, else the latest other instant it has. */
const landedAt = sql<number | null>`coalesce(f.onblocks, f.landing, f.takeoff, f.offblocks)`;

export interface CounterInput {
  /** Any key; the result map uses it. */
  key: string;
  aircraft_id: string;
  /** When the item was raised (the report's `created`). */
  raisedAt: number;
  starts: number | null;
  interval_type: string | null;
  baseline_flights: number | null;
  baseline_cycles: number | null;
}

export async function companyTimeZone(db: Kysely<DB>, companyId: string): Promise<string> {
  const row = await db.selectFrom('companies').select('timezone').where('id', '=', companyId).executeTakeFirst();
  return row?.timezone ?? 'UTC';
}

/**
 * Counters per item, in one query for all items: flights and cycles are the
 * baseline plus the LANDED flights (and their landings) since the item was
 * raised; flight days are the distinct company-zone dates with a LANDED flight
 * from `starts` on. Counting from the raise instant, not from the aircraft's
 * running totals, means a flight flown before the defect was found and
 * confirmed later does not eat into the window.
 */
export async function countersFor(
  db: Kysely<DB>,
  companyId: string,
  timeZone: string,
  items: readonly CounterInput[],
): Promise<Map<string, MelCounters>> {
  const out = new Map<string, MelCounters>();
  const counted = items.filter((i) => isCounterInterval((i.interval_type as IntervalType | null) ?? null));
  for (const i of items)
    out.set(i.key, { flights: i.baseline_flights ?? 0, cycles: i.baseline_cycles ?? 0, flightDays: 0 });
  if (!counted.length) return out;
  const aircraftIds = [...new Set(counted.map((i) => i.aircraft_id))];
  const since = counted.reduce((m, i) => Math.min(m, i.raisedAt, i.starts ?? i.raisedAt), Number.POSITIVE_INFINITY);
  const flights = await db
    .selectFrom('flights as f')
    .select(['f.aircraft_id', 'f.landings', landedAt.as('landed_at')])
    .where('f.company_id', '=', companyId)
    .where('f.aircraft_id', 'in', aircraftIds)
    .where('f.status', '=', 'LANDED')
    .where('f.deleted', '=', 0)
    .where(landedAt, '>=', since)
    .execute();
  const byAircraft = new Map<string, Array<{ at: number; landings: number }>>();
  for (const f of flights) {
    if (f.landed_at === null || f.aircraft_id === null) continue;
    const list = byAircraft.get(f.aircraft_id) ?? [];
    list.push({ at: Number(f.landed_at), landings: Number(f.landings) || 0 });
    byAircraft.set(f.aircraft_id, list);
  }
  for (const i of counted) {
    let n = 0;
    let landings = 0;
    const days = new Set<string>();
    for (const f of byAircraft.get(i.aircraft_id) ?? []) {
      const at = f.at;
      if (at >= i.raisedAt) {
        n += 1;
        landings += f.landings;
      }
      if (i.starts !== null && at >= i.starts) days.add(DateTime.fromSeconds(at, { zone: timeZone }).toISODate() ?? '');
    }
    out.set(i.key, {
      flights: (i.baseline_flights ?? 0) + n,
      cycles: (i.baseline_cycles ?? 0) + landings,
      flightDays: days.size,
    });
  }
  return out;
}

type MelRow = Pick<
  MelItemsTable,
  | 'category'
  | 'interval_type'
  | 'interval_value'
  | 'starts'
  | 'expires'
  | 'baseline_flights'
  | 'baseline_cycles'
  | 'extended'
  | 'extended_until'
>;

export function itemState(m: MelRow, reportStatus: string): MelItemState {
  return {
    category: (m.category as MelCategory | null) ?? null,
    interval_type: (m.interval_type as IntervalType | null) ?? null,
    interval_value: m.interval_value === null ? null : Number(m.interval_value),
    starts: m.starts === null ? null : Number(m.starts),
    expires: m.expires === null ? null : Number(m.expires),
    baseline_flights: m.baseline_flights === null ? null : Number(m.baseline_flights),
    baseline_cycles: m.baseline_cycles === null ? null : Number(m.baseline_cycles),
    extended: !!m.extended,
    extended_until: m.extended_until === null ? null : Number(m.extended_until),
    report_status: reportStatus as ReportStatus,
  };
}

export interface Derived {
  status: MelStatus;
  deadline: MelDeadline;
}

export interface DeriveInput extends MelRow {
  key: string;
  aircraft_id: string;
  raisedAt: number;
  report_status: string;
}

/** Derived status and deadline of each item at `now` (two queries at most: zone and flights). */
export async function deriveAll(
  db: Kysely<DB>,
  companyId: string,
  items: readonly DeriveInput[],
  now: number,
  timeZone?: string,
): Promise<Map<string, Derived>> {
  const out = new Map<string, Derived>();
  if (!items.length) return out;
  const zone = timeZone ?? (await companyTimeZone(db, companyId));
  const counters = await countersFor(
    db,
    companyId,
    zone,
    items.map((i) => ({
      key: i.key,
      aircraft_id: i.aircraft_id,
      raisedAt: i.raisedAt,
      starts: i.starts === null ? null : Number(i.starts),
      interval_type: i.interval_type,
      baseline_flights: i.baseline_flights === null ? null : Number(i.baseline_flights),
      baseline_cycles: i.baseline_cycles === null ? null : Number(i.baseline_cycles),
    })),
  );
  for (const i of items) {
    const state = itemState(i, i.report_status);
    const c = counters.get(i.key) ?? { flights: 0, cycles: 0, flightDays: 0 };
    out.set(i.key, { status: melStatus(state, now, c), deadline: melDeadline(state, c) });
  }
  return out;
}
