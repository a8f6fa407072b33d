import { SAFETY_STATUSES, safetyVisible, type SafetyViewer } from '@ops/shared/rules/safety-reports/safety';
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
  return eb.or([seenByRoleSql(eb, actor), linkedSql(eb, actor, opts)]);
}

/** Reports the caller sees by role alone: every submitted one for roles <= 150, the published ones above. */
export function seenByRoleSql(eb: ExpressionBuilder<DB, 'safety_reports'>, actor: Actor): Expression<SqlBool> {
  return eb('safety_reports.status', 'in', statusesSeenByRole(actor));
}

/**
 * Reports the caller sees through a link: their own (drafts only when asked
 * for), the ones they review and the ones of flights they crewed. Each term has
 * an index, so both databases read the few linked reports by index (PostgreSQL
 * BitmapOr, SQLite multi-index OR).
 */
export function linkedSql(eb: ExpressionBuilder<DB, 'safety_reports'>, actor: Actor, opts: { drafts: boolean }): Expression<SqlBool> {
  const me = actor.userId;
  const submitted = eb('safety_reports.status', '!=', 'draft');
  return eb.or([
    opts.drafts ? eb('safety_reports.author_id', '=', me) : eb.and([eb('safety_reports.author_id', '=', me), submitted]),
    ...(['reviewer_id', 'crew_pic_id', 'crew_sic_id', 'crew_supervisor_id'] as const).map((c) => eb.and([eb(`safety_reports.${c}`, '=', me), submitted])),
  ]);
}

/** Submitted statuses, the ones the statistics count. */
export const SUBMITTED_STATUSES: string[] = SAFETY_STATUSES.map((s) => s.key).filter((k) => k !== 'draft');

/**
 * Submitted statuses the viewer sees whoever filed, reviews or crewed the
 * report, by the rule itself: `safetyVisible` of a report with no one attached.
 * Every link only adds visibility, so each report of these statuses is visible;
 * the statistics read them from the aggregate and the others with `visibleSql`.
 */
export function statusesSeenByRole(actor: Actor): string[] {
  const nobody = { author_id: null, reviewer_id: null, crew_pic_id: null, crew_sic_id: null, crew_supervisor_id: null };
  return SUBMITTED_STATUSES.filter((status) => safetyVisible({ status, ...nobody }, viewerOf(actor)));
}

/** The other statuses (drafts included), seen only through a link: listed as `in (...)`, which indexes answer. */
export function statusesSeenByLink(actor: Actor): string[] {
  const seen = statusesSeenByRole(actor);
  return SAFETY_STATUSES.map((s) => s.key).filter((k) => !seen.includes(k));
}

export { safetyVisible, sql };
