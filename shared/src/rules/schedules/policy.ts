import { ALL_ROLES, isStaff, type PolicyActor, ROLES, roleGate } from '../../roles.ts';
import type { RuleText } from '../readiness/text.ts';

/** Roles that never book (read-only auditor, mechanic). */
export const NON_BOOKING_ROLES: readonly number[] = [ROLES.AUDITOR, ROLES.MECHANIC];

export const scheduleGates = {
  /** Book and cancel aircraft: everyone but the auditor and mechanics. */
  book: roleGate('schedules.book', { roles: ALL_ROLES.filter((r) => !NON_BOOKING_ROLES.includes(r)) }),
} as const;

/** May this role book at all (the route's gate, said for a role number the booking rules get). */
export const mayBook = (role: number): boolean => !NON_BOOKING_ROLES.includes(role);

/** Roles above the office (> 170) book only themselves (self-booking); 170 and below are staff. */
export const isSelfBooker = (role: number): boolean => !isStaff(role);

/** Cancel a booking: staff any; a self-booker only the ones they fly or made. */
export const mayCancelBooking = (
  actor: PolicyActor,
  booking: { pilot_id: string | null; user_id: string | null },
): boolean => !isSelfBooker(actor.role) || booking.pilot_id === actor.userId || booking.user_id === actor.userId;

/** Managers down to the head of training, the office (170), the auditor and mechanics see every booking of the company. */
export const seesAllBookings = (role: number): boolean =>
  role <= ROLES.HEAD_OF_TRAINING || role === ROLES.DISPATCHER || role === ROLES.AUDITOR || role === ROLES.MECHANIC;

/**
 * Who sees a booking (REST and the offline `bookings` collection share this):
 * everyone `seesAllBookings`; instructors, pilots and students the ones they fly, teach or made.
 */
export function bookingVisible(
  row: { pilot_id?: unknown; instructor_id?: unknown; user_id?: unknown },
  viewer: { userId: string; role: number },
): boolean {
  if (seesAllBookings(viewer.role)) return true;
  return row.pilot_id === viewer.userId || row.instructor_id === viewer.userId || row.user_id === viewer.userId;
}

/** Who may be named a booking's instructor: the head of training, flight instructors and managers above them (not ground instructors). */
export const mayInstruct = (role: number): boolean =>
  role <= ROLES.FLIGHT_INSTRUCTOR && role !== ROLES.GROUND_INSTRUCTOR;

/** The instructors the day board lists: the head of training and flight instructors. */
export const LISTED_INSTRUCTOR_ROLES: readonly number[] = [ROLES.HEAD_OF_TRAINING, ROLES.FLIGHT_INSTRUCTOR];

/** An aircraft's calendar feed is published by staff (<= 170); everyone may publish their own. */
export const mayPublishAircraftFeed = (actor: Pick<PolicyActor, 'role'>): boolean => isStaff(actor.role);

/** The users offered as instructors in the booking form. */
export const isBookableInstructor = (role: number | null | undefined): boolean =>
  role !== null && role !== undefined && LISTED_INSTRUCTOR_ROLES.includes(role);

/** The "Book a lesson" flow: self-bookers who may book at all (not the auditor, not mechanics). */
export const mayBookLesson = (role: number): boolean => mayBook(role) && isSelfBooker(role);

/** May this actor open, move or drag this booking (the board's buttons; the server decides the same in `decideBooking`). */
export const mayChangeBooking = (
  actor: PolicyActor,
  booking: { pilot_id: string | null; user_id: string | null },
): boolean => mayBook(actor.role) && mayCancelBooking(actor, booking);

/**
 * Cancelling (issue 28): staff any booking; pilots and students their own
 * future ones (one under way is the office's to cancel). The refusal the
 * server answers, the device decides offline and the screen uses to hide the
 * button; null when allowed.
 */
export function cancelRefusal(
  actor: PolicyActor,
  booking: { pilot_id: string | null; user_id: string | null; start: number },
  now: number,
): { code: 'NOT_ALLOWED' | 'PAST'; message: string; text: RuleText } | null {
  // `text`: the sentence as a message id, so a reader of another language sees it in theirs (issue 33).
  if (!mayBook(actor.role))
    return {
      code: 'NOT_ALLOWED',
      message: 'Your role cannot cancel bookings.',
      text: { id: 'schedules.rRoleCannotCancel' },
    };
  if (!mayCancelBooking(actor, booking))
    return {
      code: 'NOT_ALLOWED',
      message: 'You can only cancel your own bookings.',
      text: { id: 'schedules.rOnlyOwnCancel' },
    };
  if (isSelfBooker(actor.role) && booking.start <= now)
    return {
      code: 'PAST',
      message: 'This booking has already started; ask the office to cancel it.',
      text: { id: 'schedules.rStartedCancel' },
    };
  return null;
}
