/**
 * Pure helpers of the scheduling screens: the days and hours a board shows,
 * where a booking sits on it, and the slots a self-booker may pick.
 */
import type { OpsCommands } from '@ops/client-core';
import type { BookingDoc } from '@ops/shared';
import { type BookingSpan, freeWindows } from '@ops/shared/rules/schedules/booking';
import { endOfDay, isoDateIn, zonedToUnix } from '../../format.ts';

declare module '@ops/client-core' {
  interface OpsCommands {
    'schedule.book': {
      args: {
        new_id?: string;
        id?: string;
        aircraft_id: string;
        pilot_id: string;
        instructor_id?: string | null;
        flight_type_id: string;
        start: number;
        end: number;
        remarks?: string | null;
      };
      result: { id: string; flight_id: string | null; warning: string | null };
    };
    'schedule.cancel': {
      args: { id: string };
      result: { id: string };
    };
  }
}

export const DAY = 86_400;

export type BookArgs = OpsCommands['schedule.book']['args'];

/** The drag payload type of a booking on the board. */
export const DRAG_TYPE = 'application/x-ops-booking';

/** Drops snap to this grid (the server's 5-minute grid times three). */
export const DROP_SNAP_SECONDS = 900;

/** Start of a booking dropped at `frac` (0..1) across a lane showing [from, to), grabbed `grab` seconds after its start; snapped. */
export function droppedStart(from: number, to: number, frac: number, grab: number): number {
  const at = from + Math.min(1, Math.max(0, frac)) * (to - from) - grab;
  return Math.round(at / DROP_SNAP_SECONDS) * DROP_SNAP_SECONDS;
}

/** The `schedule.book` arguments of moving booking `b` to `start` (same length), optionally to another aircraft or instructor. */
export function movedArgs(
  b: Pick<
    BookingDoc,
    'id' | 'aircraft_id' | 'pilot_id' | 'instructor_id' | 'flight_type_id' | 'start' | 'end' | 'remarks'
  >,
  start: number,
  to: { aircraft_id?: string; instructor_id?: string },
): BookArgs {
  return {
    id: b.id,
    aircraft_id: to.aircraft_id ?? b.aircraft_id,
    pilot_id: b.pilot_id,
    instructor_id: to.instructor_id ?? b.instructor_id,
    flight_type_id: b.flight_type_id,
    start,
    end: start + (b.end - b.start),
    remarks: b.remarks,
  };
}

/** Company midnight starting `iso`. */
export function startOfDay(iso: string, zone: string): number {
  const [y, m, d] = iso.split('-').map(Number);
  return zonedToUnix({ year: y, month: m, day: d, hour: 0, minute: 0 }, zone);
}

/** `YYYY-MM-DD` days of the board: one, or the Monday-to-Sunday week around `iso`. */
export function boardDays(iso: string, view: 'day' | 'week'): string[] {
  if (view === 'day') return [iso];
  const [y, m, d] = iso.split('-').map(Number);
  const at = new Date(Date.UTC(y, m - 1, d));
  const monday = new Date(at.getTime() - ((at.getUTCDay() + 6) % 7) * DAY * 1000);
  return Array.from({ length: 7 }, (_, i) => new Date(monday.getTime() + i * DAY * 1000).toISOString().slice(0, 10));
}

export const shiftDate = (iso: string, days: number): string => {
  const [y, m, d] = iso.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
};

/** Bookings overlapping a company day, by start. */
export function bookingsOfDay<B extends Pick<BookingDoc, 'start' | 'end'>>(
  bookings: readonly B[],
  iso: string,
  zone: string,
): B[] {
  const from = startOfDay(iso, zone);
  const to = endOfDay(iso, zone) ?? from + DAY;
  return bookings.filter((b) => b.start < to && b.end > from).sort((a, b) => a.start - b.start);
}

/** Left offset and width (percent) of a booking on a day row showing [from, to). */
export function placement(b: BookingSpan, from: number, to: number): { left: number; width: number } {
  const s = Math.max(b.start, from);
  const e = Math.min(b.end, to);
  return { left: ((s - from) / (to - from)) * 100, width: Math.max(0.5, ((e - s) / (to - from)) * 100) };
}

/**
 * Start times a self-booker may pick on a day: every half hour where a
 * `length`-second booking fits inside the open windows, is not in the past,
 * and misses the busy spans known on this device.
 */
export function allowedStarts(
  open: readonly BookingSpan[],
  busy: readonly BookingSpan[],
  length: number,
  now: number,
): number[] {
  const out: number[] = [];
  for (const w of freeWindows(open, busy, length)) {
    for (let t = Math.ceil(w.start / 1800) * 1800; t + length <= w.end; t += 1800) if (t >= now) out.push(t);
  }
  return out;
}

export const todayIn = (zone: string): string => isoDateIn(Math.floor(Date.now() / 1000), zone);
