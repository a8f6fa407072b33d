import { SAFETY_VIEW_ALL_MAX_ROLE, safetyVisible, type SafetyViewer } from '@ops/shared/rules/safety-reports/safety';
import { type ExpressionBuilder, type Expression, type SqlBool, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { Actor } from '../../http/actor.ts';
import './safety-reports.tables.ts';

export const viewerOf = (actor: Actor): SafetyViewer => ({ userId: actor.userId, role: actor.role });

/**
 * The SQL form of `safetyVisible` (shared/src/rules/safety-reports): the list,
 * statistics and exports filter with it; single rows and sync use the rule
 * itself. The suite checks both agree role by role.
 */
export function visibleSql(eb: ExpressionBuilder<DB, 'safety_reports'>, actor: Actor, opts: { drafts: boolean }): Expression<SqlBool> {
  const me = actor.userId;
  const nonDraft =
    actor.role <= SAFETY_VIEW_ALL_MAX_ROLE
      ? eb('safety_reports.status', '!=', 'draft')
      : eb.and([
          eb('safety_reports.status', '!=', 'draft'),
          eb.or([
            eb('safety_reports.status', '=', 'published'),
            eb('safety_reports.author_id', '=', me),
            eb('safety_reports.reviewer_id', '=', me),
            eb('safety_reports.crew_pic_id', '=', me),
            eb('safety_reports.crew_sic_id', '=', me),
            eb('safety_reports.crew_supervisor_id', '=', me),
          ]),
        ]);
  if (!opts.drafts) return nonDraft;
  return eb.or([nonDraft, eb.and([eb('safety_reports.status', '=', 'draft'), eb('safety_reports.author_id', '=', me)])]);
}

export { safetyVisible, sql };
