import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import { emitWebhook } from '../webhooks/outbox.service.ts';
import { present } from './safety-reports.presenter.ts';
import type { SafetyReportsTable } from './safety-reports.tables.ts';

/**
 * `safety_report.submitted`: the report got its number (filed open, or a draft
 * submitted), presented as an entry of `GET /safety_reports/index` (the author
 * of an anonymous report stays hidden, as there).
 */
export function emitSubmittedWebhook(uow: UnitOfWork, actor: Actor, row: SafetyReportsTable): Promise<void> {
  return emitWebhook(uow, actor.companyId, 'safety_report.submitted', 'SafetyReport', row.id, async () => {
    const trx = uow.trx;
    const [category, department, reporter] = await Promise.all([
      row.safety_report_category_id
        ? trx
            .selectFrom('safety_report_categories')
            .select(['id', 'name'])
            .where('company_id', '=', actor.companyId)
            .where('id', '=', row.safety_report_category_id)
            .executeTakeFirst()
        : undefined,
      row.safety_report_department_id
        ? trx
            .selectFrom('safety_report_departments')
            .select(['id', 'name'])
            .where('company_id', '=', actor.companyId)
            .where('id', '=', row.safety_report_department_id)
            .executeTakeFirst()
        : undefined,
      row.user_id
        ? trx
            .selectFrom('users')
            .select(['id', 'name', 'surname'])
            .where('company_id', '=', actor.companyId)
            .where('id', '=', row.user_id)
            .executeTakeFirst()
        : undefined,
    ]);
    return {
      SafetyReport: present(row),
      SafetyReportCategory: category ?? null,
      SafetyReportDepartment: department ?? null,
      User: reporter ?? null,
    };
  });
}
