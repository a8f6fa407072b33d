import { safetyGates } from '@ops/shared/rules/safety-reports/policy';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import { english } from '../../http/messages.ts';
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

const link = (id: string) => `/safety_reports/view/${id}.json`;

/** Creation as open, or a draft submitted: the listed crew and every manager, once. */
export async function notifySubmitted(uow: UnitOfWork, actor: Actor, r: SafetyReportsTable): Promise<number> {
  const crew = JSON.parse(r.involved_user_ids) as string[];
  const userIds = [...crew, ...(await managers(uow, actor.companyId))].filter((id) => id !== actor.userId);
  // Each recipient reads it in their own language (issue 33); the English is the fallback.
  const bodyValues = {
    severity: r.severity,
    location: r.location,
    date: r.datetime.slice(0, 10),
    anonymous: r.user_id ? 'no' : 'yes',
    by: `${actor.name} ${actor.surname}`,
  };
  const titleValues = { idn: r.idn, name: r.name };
  return notify(uow, {
    companyId: actor.companyId,
    userIds,
    title: english('safety-reports.notifyNewTitle', titleValues),
    titleId: 'safety-reports.notifyNewTitle',
    titleValues,
    body: english('safety-reports.notifyNewBody', bodyValues),
    bodyId: 'safety-reports.notifyNewBody',
    bodyValues,
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
  const values = {
    idn: after.idn,
    name: after.name,
    from: before.status,
    to: after.status,
    by: `${actor.name} ${actor.surname}`,
  };
  const titleId = moved ? 'safety-reports.notifyMovedTitle' : 'safety-reports.notifyEditedTitle';
  const bodyId = moved ? 'safety-reports.notifyMovedBody' : 'safety-reports.notifyEditedBody';
  return notify(uow, {
    companyId: actor.companyId,
    userIds,
    title: english(titleId, values),
    titleId,
    titleValues: values,
    body: english(bodyId, values),
    bodyId,
    bodyValues: values,
    link: link(after.id),
  });
}
