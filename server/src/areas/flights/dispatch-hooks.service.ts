import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';

/** What a dispatch hook learns: the flight as it was dispatched. */
export interface DispatchedFlight {
  id: string;
  departure_airport: string | null;
  landing_airport: string | null;
}

type DispatchHook = (uow: UnitOfWork, actor: Actor, flight: DispatchedFlight) => Promise<void>;
const dispatchHooks: DispatchHook[] = [];

/**
 * Other areas react to a dispatch inside its transaction (Part B 3.1: the
 * linked schedule gets departure and destination synced) without the flights
 * area importing them.
 */
export function onFlightDispatched(hook: DispatchHook): void {
  dispatchHooks.push(hook);
}

export async function runDispatchHooks(uow: UnitOfWork, actor: Actor, flight: DispatchedFlight): Promise<void> {
  for (const hook of dispatchHooks) await hook(uow, actor, flight);
}
