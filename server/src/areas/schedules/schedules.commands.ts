import { CommandRejected, defineCommand } from '../../sync/index.ts';
import { onFlightDispatched } from '../flights/dispatch-hooks.service.ts';
import { ZScheduleFields } from './schedules.schema.ts';
import { z } from 'zod';
import { BookingRefused, decideBooking, decideCancel, syncDispatchedFlight } from './schedules.service.ts';

/**
 * `schedule.book`: a booking or move made offline, decided once when it
 * reaches the server, with the same rules as REST. The loser is rejected with
 * the reason, its code and the competing bookings in `details`.
 */
export const scheduleBookCommand = defineCommand({
  name: 'schedule.book',
  args: ZScheduleFields.extend({ new_id: ZScheduleFields.shape.id }),
  async run(_ctx, uow, actor, args) {
    const { new_id, ...input } = args;
    try {
      const r = await decideBooking(uow, actor, input, { newId: new_id });
      return { id: r.id, flight_id: r.flight_id, warning: r.warning ?? null };
    } catch (e) {
      if (e instanceof BookingRefused)
        throw new CommandRejected(e.answer.message, {
          code: e.answer.code,
          // The reason as a message id and values: the device shows it in its reader's language (issue 33).
          text: e.answer.text,
          conflicts: e.answer.conflicts ?? [],
          ...(e.answer.readiness ? { readiness: e.answer.readiness } : {}),
        });
      throw e;
    }
  },
});

/**
 * `schedule.cancel` (issue 28): cancelling a booking, also offline; decided
 * when it reaches the server with the REST rules (`cancelRefusal`).
 */
export const scheduleCancelCommand = defineCommand({
  name: 'schedule.cancel',
  args: z.object({ id: z.string().min(1).max(64) }),
  async run(_ctx, uow, actor, args) {
    try {
      await decideCancel(uow, actor, args.id);
      return { id: args.id };
    } catch (e) {
      if (e instanceof BookingRefused)
        throw new CommandRejected(e.answer.message, { code: e.answer.code, text: e.answer.text });
      throw e;
    }
  },
});

/** Part B 3.1: a dispatched flight's departure and destination go back to its booking. */
onFlightDispatched(syncDispatchedFlight);
