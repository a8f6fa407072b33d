import { FLIGHT_INVOLVED_FIELDS } from './flights.ts';
import { BOOKING_SCOPE_FIELDS } from './schedules.ts';

/**
 * What a device keeps of the collections whose history grows without end
 * (docs/sync.md, "Bounded devices"): the server's first pull of an office
 * device loads only this window, and the device prunes what ages out of it
 * (client-core `prune`). The same numbers on both sides, from here.
 */
export const DEVICE_WINDOW_MONTHS = {
  /** Flights dated in the last N months (and the future), for a device that sees every flight. */
  flights: 12,
  /** Bookings starting in the last N months (and every future one), for a device that sees every booking. */
  bookings: 12,
  /** Closed aircraft reports changed in the last N months; open and deferred ones always. */
  closedReports: 12,
} as const;

/** Unix seconds `months` calendar months before `now` (UTC): the start of a window. */
export function monthsBefore(months: number, now: Date): number {
  const d = new Date(now);
  d.setUTCMonth(d.getUTCMonth() - months);
  return Math.floor(d.getTime() / 1000);
}

type Doc = Record<string, unknown>;

export interface DeviceWindow {
  collection: string;
  /** The record type it applies to in an area collection (`fleet` holds aircraft and parts too). */
  type?: string;
  /**
   * The document has aged out of the window and is not the person's own: a
   * device may drop it. A pilot keeps every flight and booking naming them
   * (their logbook), whatever their role, so this never depends on the role.
   */
  outside(doc: Doc, userId: string, now: Date): boolean;
  /** The field and bound every document outside has below it: the device's query reads only those. */
  below(now: Date): { field: string; value: string | number };
}

const names = (doc: Doc, fields: readonly string[], userId: string) => fields.some((f) => doc[f] === userId);

export const DEVICE_WINDOWS: readonly DeviceWindow[] = [
  {
    collection: 'flights',
    outside: (doc, userId, now) =>
      typeof doc.date === 'string' &&
      doc.date < new Date(monthsBefore(DEVICE_WINDOW_MONTHS.flights, now) * 1000).toISOString().slice(0, 10) &&
      !names(doc, FLIGHT_INVOLVED_FIELDS, userId),
    below: (now) => ({
      field: 'date',
      value: new Date(monthsBefore(DEVICE_WINDOW_MONTHS.flights, now) * 1000).toISOString().slice(0, 10),
    }),
  },
  {
    collection: 'bookings',
    outside: (doc, userId, now) =>
      typeof doc.start_at === 'number' &&
      doc.start_at < monthsBefore(DEVICE_WINDOW_MONTHS.bookings, now) &&
      !names(doc, BOOKING_SCOPE_FIELDS, userId),
    below: (now) => ({ field: 'start_at', value: monthsBefore(DEVICE_WINDOW_MONTHS.bookings, now) }),
  },
  {
    collection: 'fleet',
    type: 'aircraft_report',
    outside: (doc, userId, now) =>
      doc.status === 'CLOSED' &&
      typeof doc.modified === 'number' &&
      doc.modified < monthsBefore(DEVICE_WINDOW_MONTHS.closedReports, now) &&
      doc.user_id !== userId,
    below: (now) => ({ field: 'modified', value: monthsBefore(DEVICE_WINDOW_MONTHS.closedReports, now) }),
  },
];
