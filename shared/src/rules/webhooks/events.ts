/**
 * Webhook event types an integrator can subscribe to (only types some write
 * emits: an area adds its own here with the emit call), and the delivery
 * schedule. Pure, so the app's settings screen offers the same list.
 */
export const WEBHOOK_EVENTS = [
  'flight.confirmed',
  'flight.canceled',
  'flight.dispatched',
  'mel.raised',
  'mel.extended',
  'mel.closed',
  'mel.expired',
  'aircraft.blocked',
  'aircraft.unblocked',
  'safety_report.submitted',
  'enrollment.completed',
  'booking.created',
  'booking.moved',
  'booking.canceled',
  'account.entry_created',
  'duty.exceeded',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Deliveries are retried for this long after the event, then marked failed. */
export const WEBHOOK_RETRY_SECONDS = 24 * 3600;

const STEPS = [10, 30, 60, 120, 300, 600, 1800, 3600];

/**
 * Seconds to wait before attempt `attempt + 1` after `attempt` failed attempts
 * (1-based): 10 s, 30 s, 1 min, 2, 5, 10, 30 min, then hourly. Null when the
 * next attempt would fall past the retry horizon of the event.
 */
export function nextAttemptDelay(attempt: number, eventCreated: number, now: number): number | null {
  const delay = STEPS[Math.min(Math.max(attempt, 1), STEPS.length) - 1];
  return now + delay > eventCreated + WEBHOOK_RETRY_SECONDS ? null : delay;
}
