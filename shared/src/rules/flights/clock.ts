import { computeFlightTimes, DELAY_AFTER_SECONDS, flightStatusOnRead, formatWallClock } from './flight-times.ts';
import { DateTime } from 'luxon';

/**
 * The wall clock of flights over the flight-time rules
 * (shared/src/rules/flights/flight-times.ts): the zone a company logs in, and
 * the conversions the server's service and presenters and a device's documents need.
 */

/** Part A 2.2: the company's flight time zone, else the company zone. */
export const flightZone = (actor: { company: { flightTimezone?: string | null; timezone: string } }): string =>
  actor.company.flightTimezone ?? actor.company.timezone;

export interface FlightClock {
  offblocks: string | null;
  takeoff: string | null;
  landing: string | null;
  onblocks: string | null;
}

export interface FlightInstantsOrNone {
  offblocks: number | null;
  takeoff: number | null;
  landing: number | null;
  onblocks: number | null;
  block_time: number;
  flight_time: number;
}

export type ClockResult = { ok: true; at: FlightInstantsOrNone } | { ok: false; errors: Record<string, string> };

/**
 * Wall clock → instants with the next-day rule. A flight may be saved without
 * any time (a draft or a booking placeholder; confirm then refuses it for lack
 * of block time); once any time is given the shared rules apply in full.
 */
export function instantsFromClock(date: string, clock: FlightClock, zone: string): ClockResult {
  if (!clock.offblocks && !clock.takeoff && !clock.landing && !clock.onblocks) {
    return {
      ok: true,
      at: { offblocks: null, takeoff: null, landing: null, onblocks: null, block_time: 0, flight_time: 0 },
    };
  }
  const r = computeFlightTimes({
    date,
    offblocks: clock.offblocks ?? '',
    takeoff: clock.takeoff,
    landing: clock.landing,
    onblocks: clock.onblocks ?? '',
    timeZone: zone,
  });
  if (!r.ok) return { ok: false, errors: r.errors };
  return {
    ok: true,
    at: {
      offblocks: r.offblocks,
      takeoff: r.takeoff,
      landing: r.landing,
      onblocks: r.onblocks,
      block_time: r.block_time,
      flight_time: r.flight_time,
    },
  };
}

/**
 * Formatting through the zone database costs about 15 µs, four times per row
 * of a list: the answers of this pure function are kept in a bounded map
 * (insertion order, oldest dropped), so pages read again format nothing.
 */
const clockMemo = new Map<string, string>();
const CLOCK_MEMO_SIZE = 50_000;

/** `HH:MM` of an instant in the flight zone, or null. */
export function wallClock(unix: number | null, zone: string): string | null {
  if (unix === null) return null;
  const key = `${zone}|${unix}`;
  let hit = clockMemo.get(key);
  if (hit === undefined) {
    hit = formatWallClock(Number(unix), zone).time;
    if (clockMemo.size >= CLOCK_MEMO_SIZE) clockMemo.delete(clockMemo.keys().next().value as string);
    clockMemo.set(key, hit);
  }
  return hit;
}

/** Midnight starting `date` in `zone`: where a flight without times sorts. */
export const midnightIn = (date: string, zone: string): number =>
  DateTime.fromISO(date, { zone }).startOf('day').toUnixInteger();

/** Part B 3.1: DELAYED is computed on read from the scheduled off-blocks time. */
export const statusOnRead = (status: string, offblocks: number | null, now: number): string =>
  flightStatusOnRead(status, offblocks === null ? null : Number(offblocks), now);

/** Off-blocks before this instant make a SCHEDULED flight read DELAYED (the list's `status:DELAYED`). */
export const delayedBefore = (now: number): number => now - DELAY_AFTER_SECONDS;

/** The first instant at which a SCHEDULED flight off blocks at `offblocks` reads DELAYED (strictly more than the delay). */
export const delayedFrom = (offblocks: number): number => offblocks + DELAY_AFTER_SECONDS + 1;
