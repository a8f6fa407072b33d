import { DateTime } from 'luxon';

/**
 * Flight wall-clock times (CONTRACT 4 `/flights/edit.json`): `HH:MM` in the
 * flight time zone on the flight's date; a time earlier than the previous one
 * is on the next day.
 */
export interface WallClockInput {
  date: string;
  offblocks: string;
  takeoff?: string | null;
  landing?: string | null;
  onblocks: string;
}

export interface FlightInstants {
  offblocks: number;
  takeoff: number | null;
  landing: number | null;
  onblocks: number;
  block_time: number;
  flight_time: number;
}

export type TimesResult = { ok: true; times: FlightInstants } | { ok: false; errors: Record<string, string> };

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function minutesOf(v: string): number {
  const m = HHMM.exec(v)!;
  return Number(m[1]) * 60 + Number(m[2]);
}

export function computeFlightTimes(input: WallClockInput, zone: string): TimesResult {
  const errors: Record<string, string> = {};
  const day = DATE.test(input.date) ? DateTime.fromISO(input.date, { zone }) : null;
  if (!day?.isValid) errors.date = 'Date must be YYYY-MM-DD';
  const fields = ['offblocks', 'takeoff', 'landing', 'onblocks'] as const;
  for (const f of fields) {
    const v = input[f];
    const required = f === 'offblocks' || f === 'onblocks';
    if (v === undefined || v === null || v === '') {
      if (required) errors[`${f}_time`] = 'Time is required (HH:MM)';
    } else if (!HHMM.test(v)) errors[`${f}_time`] = 'Time must be HH:MM (00:00 to 23:59)';
  }
  if ((input.takeoff ? 1 : 0) !== (input.landing ? 1 : 0) && !errors.takeoff_time && !errors.landing_time) {
    errors[input.takeoff ? 'landing_time' : 'takeoff_time'] = 'Give both takeoff and landing times, or neither';
  }
  if (Object.keys(errors).length || !day) return { ok: false, errors };

  // Walk the clock forward: each time earlier than the previous one is a day later.
  let dayOffset = 0;
  let prev = -1;
  const at = (v: string | null | undefined): number | null => {
    if (!v) return null;
    const minutes = minutesOf(v);
    if (prev !== -1 && minutes < prev) dayOffset++;
    prev = minutes;
    return day.plus({ days: dayOffset }).set({ hour: Math.floor(minutes / 60), minute: minutes % 60, second: 0, millisecond: 0 }).toUnixInteger();
  };
  const offblocks = at(input.offblocks)!;
  const takeoff = at(input.takeoff);
  const landing = at(input.landing);
  const onblocks = at(input.onblocks)!;
  const block_time = onblocks - offblocks;
  const flight_time = takeoff !== null && landing !== null ? landing - takeoff : block_time;
  return { ok: true, times: { offblocks, takeoff, landing, onblocks, block_time, flight_time } };
}

/** A unix instant as the flight's date and `HH:MM` in a zone (for reading flights back). */
export function formatWallClock(unix: number, zone: string): { date: string; time: string } {
  const d = DateTime.fromSeconds(unix, { zone });
  return { date: d.toFormat('yyyy-MM-dd'), time: d.toFormat('HH:mm') };
}

export interface TimedFlight {
  id: string;
  aircraft_id: string | null;
  offblocks: number | null;
  onblocks: number | null;
}

/**
 * Flights of the same aircraft whose block times overlap the candidate's
 * (touching ends do not overlap), ordered by off-blocks time, at most `limit`,
 * with the total count.
 */
export function findOverlaps<T extends TimedFlight>(candidate: TimedFlight, others: readonly T[], limit = 20): { conflicts: T[]; total: number } {
  if (candidate.offblocks === null || candidate.onblocks === null || !candidate.aircraft_id) return { conflicts: [], total: 0 };
  const all = others
    .filter(
      (o) =>
        o.id !== candidate.id &&
        o.aircraft_id === candidate.aircraft_id &&
        o.offblocks !== null &&
        o.onblocks !== null &&
        o.offblocks < candidate.onblocks! &&
        candidate.offblocks! < o.onblocks,
    )
    .sort((a, b) => (a.offblocks ?? 0) - (b.offblocks ?? 0) || (a.id < b.id ? -1 : 1));
  return { conflicts: all.slice(0, limit), total: all.length };
}

export const FLIGHT_STATUSES = ['DRAFT', 'SCHEDULED', 'DELAYED', 'DISPATCHED', 'LANDED', 'CANCELED', 'DELETED'] as const;
export type FlightStatus = (typeof FLIGHT_STATUSES)[number];
/** Stored statuses: DELAYED is computed on read only (Part B 3.1). */
export const STORED_FLIGHT_STATUSES = FLIGHT_STATUSES.filter((s) => s !== 'DELAYED');
export const UNCONFIRMED_STATUSES: readonly FlightStatus[] = ['DRAFT', 'SCHEDULED', 'DELAYED', 'DISPATCHED'];

/** DELAYED: a SCHEDULED flight more than one hour past its scheduled off-blocks time. */
export function flightStatusOnRead(status: string, scheduledOffblocks: number | null, now: number): string {
  if (status === 'SCHEDULED' && scheduledOffblocks !== null && now > scheduledOffblocks + 3600) return 'DELAYED';
  return status;
}
