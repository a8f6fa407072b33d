import { REPORT_RECIPIENT_ROLES } from '@ops/shared/rules/aircraft-reports/policy';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import { notify } from '../notifications/notifications.notify.ts';

/**
 * Part B 6: a new aircraft report notifies all active company staff except the
 * reporter. Staff here: administrators, managers, instructors, dispatchers,
 * pilots (roles <= 190) and mechanics (300); students and external auditors
 * are not notified (docs/areas/fleet.md).
 */
export async function reportRecipients(uow: UnitOfWork, actor: Actor): Promise<string[]> {
  const rows = await uow.trx
    .selectFrom('users')
    .select('id')
    .where('company_id', '=', actor.companyId)
    .where('deleted', '=', 0)
    .where('active', '=', 1)
    .where('id', '!=', actor.userId)
    .where('user_group_id', 'in', REPORT_RECIPIENT_ROLES)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Title, severity and aircraft status (Part B 4.2 item 3), in the report's transaction. */
export async function notifyReportCreated(
  uow: UnitOfWork,
  actor: Actor,
  report: { id: string; title: string; severity: string; aircraft_status: string; registration: string },
): Promise<number> {
  const userIds = await reportRecipients(uow, actor);
  return notify(uow, {
    companyId: actor.companyId,
    userIds,
    title: `${report.registration}: ${report.title}`,
    body: `Severity ${report.severity}, aircraft ${report.aircraft_status}. Reported by ${actor.name} ${actor.surname}.`,
    link: `/maintenance/aircraft_reports/view/${report.id}.json`,
  });
}
