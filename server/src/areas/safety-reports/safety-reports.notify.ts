import { safetyGates } from '@ops/shared/rules/safety-reports/policy';
import { SAFETY_STATUSES } from '@ops/shared/rules/safety-reports/safety';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import { notify } from '../notifications/notifications.notify.ts';
import type { SafetyReportsTable } from './safety-reports.tables.ts';

/**
 * Part B 6 for safety reports, written in the report's transaction through the
 * one notification service. Managers and safety officers are the active users
 * with role <= 110; the person who acts is never notified of their own action.
 * Drafts notify nobody (callers only call these for non-drafts).
 */
async function managers(uow: UnitOfWork, companyId: string): Promise<string[]> {
  const rows = await uow.trx
    .selectFrom('users')
    .select('id')
    .where('company_id', '=', companyId)
    .where('deleted', '=', 0)
    .where('active', '=', 1)
    .where('user_group_id', '<=', safetyGates.manage.maxRole)
    .execute();
  return rows.map((r) => r.id);
}

const label = (status: string) => SAFETY_STATUSES.find((s) => s.key === status)?.label ?? status;
const link = (id: string) => `/safety_reports/view/${id}.json`;

/** Creation as open, or a draft submitted: the listed crew and every manager, once. */
export async function notifySubmitted(uow: UnitOfWork, actor: Actor, r: SafetyReportsTable): Promise<number> {
  const crew = JSON.parse(r.involved_user_ids) as string[];
  const userIds = [...crew, ...(await managers(uow, actor.companyId))].filter((id) => id !== actor.userId);
  const by = r.user_id ? `${actor.name} ${actor.surname}` : 'an anonymous reporter';
  return notify(uow, {
    companyId: actor.companyId,
    userIds,
    title: `Safety report ${r.idn}: ${r.name}`,
    body: `New ${r.severity} report at ${r.location} on ${r.datetime.slice(0, 10)}, filed by ${by}.`,
    link: link(r.id),
  });
}

/** An edit of a non-draft: managers and the report's owner, with old and new status when it changed. */
export async function notifyEdited(
  uow: UnitOfWork,
  actor: Actor,
  before: SafetyReportsTable,
  after: SafetyReportsTable,
): Promise<number> {
  const userIds = [...(await managers(uow, actor.companyId)), after.author_id].filter((id) => id !== actor.userId);
  const moved = before.status !== after.status;
  return notify(uow, {
    companyId: actor.companyId,
    userIds,
    title: `Safety report ${after.idn} updated${moved ? `: ${label(before.status)} → ${label(after.status)}` : ''}`,
    body: moved
      ? `Status changed from ${label(before.status)} to ${label(after.status)} by ${actor.name} ${actor.surname}.`
      : `${after.name} was edited by ${actor.name} ${actor.surname}.`,
    link: link(after.id),
  });
}
