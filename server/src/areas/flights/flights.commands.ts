import { z } from 'zod';
import { zId } from '../../http/zod.ts';
import { CommandRejected, defineCommand } from '../../sync/index.ts';
import { confirmFlight, dispatchFlight } from './transitions.service.ts';

/**
 * Decisions taken once by the server, whatever devices did offline: the same
 * services as REST, with the caller's rights when the command runs. A refusal
 * (an HttpError such as the overlap 400) is stored with its body in `details`.
 */
export const flightConfirmCommand = defineCommand({
  name: 'flight.confirm',
  args: z.object({ flight_id: zId }),
  async run(_ctx, uow, actor, args) {
    const r = await confirmFlight(uow, actor, args.flight_id, { offline: true });
    return { flight_id: args.flight_id, status: r.status, warnings: r.warnings };
  },
});

export const flightDispatchCommand = defineCommand({
  name: 'flight.dispatch',
  args: z.object({ flight_id: zId }),
  async run(_ctx, uow, actor, args) {
    const r = await dispatchFlight(uow, actor, args.flight_id);
    if (!r.result)
      throw new CommandRejected(r.message, {
        code: r.code,
        // The reason as a message id (issue 33): the device shows it in its reader's language.
        ...(r.text ? { text: r.text } : {}),
        ...(r.readiness ? { readiness: r.readiness } : {}),
      });
    return { flight_id: args.flight_id, status: r.status };
  },
});
