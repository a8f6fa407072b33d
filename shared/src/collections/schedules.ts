import { bookingVisible } from '../rules/schedules/policy.ts';
import { type CollectionDef, s } from './types.ts';

/**
 * Bookings offline (issue 20). Managers, the office, the auditor and mechanics
 * replicate every booking of the company; pilots, students and instructors the
 * ones they fly, teach or made: the same `bookingVisible` rule REST applies.
 * Read-only: a booking or a move made offline is the server-decided command
 * `schedule.book`, so a conflict is decided once and the loser learns why.
 */
export interface BookingDoc {
  id: string;
  aircraft_id: string;
  pilot_id: string;
  instructor_id: string | null;
  flight_type_id: string;
  base_id: string | null;
  /** Unix seconds. */
  start: number;
  end: number;
  /** BOOKED or CANCELED. */
  status: string;
  flight_id: string | null;
  remarks: string | null;
  user_id: string | null;
  departure_airport: string | null;
  landing_airport: string | null;
  modified: number;
}

export const BOOKING_SCOPE_FIELDS = ['pilot_id', 'instructor_id', 'user_id'] as const;

export const bookingsCollection: CollectionDef<BookingDoc> = {
  name: 'bookings',
  version: 0,
  schema: {
    properties: {
      id: s.id,
      aircraft_id: { type: 'string', maxLength: 64 },
      pilot_id: { type: 'string', maxLength: 64 },
      instructor_id: s.str,
      flight_type_id: { type: 'string', maxLength: 64 },
      base_id: s.str,
      start: s.indexedNum,
      end: s.indexedNum,
      status: { type: 'string', maxLength: 16 },
      flight_id: s.str,
      remarks: s.str,
      user_id: s.str,
      departure_airport: s.str,
      landing_airport: s.str,
      modified: s.int,
    },
    required: ['id', 'aircraft_id', 'pilot_id', 'flight_type_id', 'start', 'end', 'status'],
    // The board reads a day or a week by start; the aircraft board by aircraft then start.
    indexes: [
      ['start', 'id'],
      ['aircraft_id', 'start'],
    ],
  },
  rows: { kind: 'custom', fields: BOOKING_SCOPE_FIELDS, test: (row, viewer) => bookingVisible(row, viewer) },
  visible: (doc) => doc,
  writableFields: [],
  canPush: () => false,
};
