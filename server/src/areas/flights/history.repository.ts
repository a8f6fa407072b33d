import { uuidv7 } from '@ops/shared';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { settleFlightCharges } from '../billing/billing.service.ts';
import { settleDutyFlight } from '../duty/duty.repository.ts';

export const CHANGE_ACTIONS = ['create', 'edit', 'confirm', 'dispatch', 'cancel', 'revert'] as const;
export type ChangeAction = (typeof CHANGE_ACTIONS)[number];

/** `changeNames` of the flight view: how a client labels each history action. */
export const CHANGE_NAMES: Record<ChangeAction, { icon: string; name: string; class: string }> = {
  create: { icon: 'plus', name: 'Created', class: 'info' },
  edit: { icon: 'pencil', name: 'Edited', class: 'secondary' },
  confirm: { icon: 'check', name: 'Confirmed', class: 'success' },
  dispatch: { icon: 'send', name: 'Dispatched', class: 'primary' },
  cancel: { icon: 'x', name: 'Canceled', class: 'danger' },
  revert: { icon: 'rotate-ccw', name: 'Returned to draft', class: 'warning' },
};

export interface FieldChange {
  field: string;
  from: unknown;
  to: unknown;
}

/** Fields an edit's history row reports when they change. */
export const TRACKED_FIELDS = [
  'date',
  'status',
  'callsign',
  'aircraft_id',
  'flight_type_id',
  'base_id',
  'pic_id',
  'sic_id',
  'supervisor_id',
  'departure_airport',
  'landing_airport',
  'offblocks',
  'takeoff',
  'landing',
  'onblocks',
  'block_time',
  'flight_time',
  'night_flight_time',
  'ifr_flight_time',
  'rules',
  'crosscountry',
  'landings',
  'night_landings',
  'engine_starts',
  'pax',
  'oil',
  'fuel',
  'cargo',
  'route',
  'remarks',
  'pf',
] as const;

export function diffFields(before: Record<string, unknown>, after: Record<string, unknown>): FieldChange[] {
  const out: FieldChange[] = [];
  for (const field of TRACKED_FIELDS) {
    const from = before[field] ?? null;
    const to = after[field] ?? null;
    if (from !== to) out.push({ field, from, to });
  }
  return out;
}

interface HistoryEntry {
  companyId: string;
  flightId: string;
  userId: string | null;
  action: ChangeAction;
  fields?: FieldChange[] | null;
  comments?: string | null;
}

async function insertHistoryRow(uow: UnitOfWork, entry: HistoryEntry): Promise<void> {
  await uow.trx
    .insertInto('flight_changes')
    .values({
      id: uuidv7(),
      company_id: entry.companyId,
      flight_id: entry.flightId,
      user_id: entry.userId,
      action: entry.action,
      fields: entry.fields?.length ? JSON.stringify(entry.fields) : null,
      comments: entry.comments ?? null,
      created: nowSeconds(),
    })
    .execute();
}

/** A change of the flight: its history row, then the totals that follow from the flight re-settled. */
export async function recordChange(uow: UnitOfWork, entry: HistoryEntry): Promise<void> {
  await insertHistoryRow(uow, entry);
  // Every change of a flight (confirm, edit, revert, cancel; REST or a device's command) passes here in its
  // transaction: billing brings the flight's charges to what it costs now (CONTRACT 6), idempotently.
  await settleFlightCharges(uow, entry.companyId, entry.flightId, entry.userId);
  await settleDutyFlight(uow.trx, entry.companyId, entry.flightId);
}

/**
 * A note in the flight's history that changes nothing of the flight (readiness
 * warnings): one row, nothing re-settled, since charges and duty totals follow
 * from the flight's fields and those did not move. Shown as an edit.
 */
export async function recordNote(
  uow: UnitOfWork,
  note: { companyId: string; flightId: string; userId: string | null; comments: string },
): Promise<void> {
  await insertHistoryRow(uow, { ...note, action: 'edit', fields: null });
}
