import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import { notify } from '../notifications/notifications.notify.ts';

/** The rest of the crew of a flight: PIC, SIC and supervisor, without the caller. */
export function otherCrew(
  actor: Pick<Actor, 'userId'>,
  f: { pic_id: string | null; sic_id: string | null; supervisor_id: string | null },
): string[] {
  return [...new Set([f.pic_id, f.sic_id, f.supervisor_id].filter((id): id is string => !!id && id !== actor.userId))];
}

/**
 * Part B 6: a cancel with `notify` tells the other crew in-app. WhatsApp is
 * not wired (no provider in this deployment); the in-app notification is the
 * channel every user has.
 */
export async function notifyCrew(
  uow: UnitOfWork,
  actor: Actor,
  f: {
    id: string;
    date: string;
    callsign: string | null;
    pic_id: string | null;
    sic_id: string | null;
    supervisor_id: string | null;
  },
  reason: string,
): Promise<string[]> {
  const userIds = otherCrew(actor, f);
  if (!userIds.length) return userIds;
  const what = f.callsign ? `Flight ${f.callsign} on ${f.date}` : `Your flight on ${f.date}`;
  const message = {
    companyId: actor.companyId,
    userIds,
    title: `${what} was canceled`,
    body: `${actor.name} ${actor.surname}: ${reason}`,
    link: `/flights/view/${f.id}.json`,
  };
  await notify(uow, message);
  return userIds;
}
