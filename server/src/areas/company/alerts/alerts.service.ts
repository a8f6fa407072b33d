import { type Locale, translator } from '@ops/shared/i18n/index';
import { maySeeAllAlerts } from '@ops/shared/rules/company/policy';
import type { AppContext } from '../../../context.ts';
import type { Actor } from '../../../http/actor.ts';
import { badRequest, notFound } from '../../../http/errors.ts';
import { nowSeconds } from '../../../lib/tokens.ts';
import { type Alert, ALERT_TYPES, type AlertScope, type AlertSource, type AlertType } from './sources.alerts.ts';

export * from './sources.alerts.ts';

const sources = new Map<AlertType, AlertSource>();

/** Called by `registerAreas()` for the alert sources an area's manifest lists (uploads: `AircraftUpload`). */
export function registerAlertSource(source: AlertSource): void {
  sources.set(source.type, source);
}

export const registeredAlertTypes = (): AlertType[] => ALERT_TYPES.filter((t) => sources.has(t));

export interface AlertQuery {
  from?: number | null;
  to?: number | null;
  types?: AlertType[] | null;
  user_id?: string | null;
}

/** People a non-manager may ask about: themselves and the students they supervise. */
async function ownPeople(ctx: AppContext, actor: Actor): Promise<string[]> {
  const students = await ctx.db
    .selectFrom('users')
    .select('id')
    .where('company_id', '=', actor.companyId)
    .where('supervisor_id', '=', actor.userId)
    .where('deleted', '=', 0)
    .execute();
  return [actor.userId, ...students.map((s) => s.id)];
}

/**
 * GET /companies/alerts.json: every requested source inside the clamped scope,
 * merged and sorted by date ascending. `user_id` is clamped to what the caller
 * may see: a manager may name any user of the company (another company's is
 * 404); anyone else asking about someone outside themselves and their
 * students gets their own alerts. Names and details are worded in `locale`.
 */
export async function companyAlerts(
  ctx: AppContext,
  actor: Actor,
  q: AlertQuery,
  locale: Locale = 'en',
): Promise<Alert[]> {
  if (q.from != null && q.to != null && q.from > q.to)
    throw badRequest('`from` must not be after `to`', { errors: { from: ['Must not be after `to`'] } });
  const manager = maySeeAllAlerts(actor);
  let userIds: string[] | null;
  if (manager) {
    if (q.user_id) {
      const user = await ctx.db
        .selectFrom('users')
        .select('id')
        .where('company_id', '=', actor.companyId)
        .where('id', '=', q.user_id)
        .where('deleted', '=', 0)
        .executeTakeFirst();
      if (!user) throw notFound('User not found');
      userIds = [user.id];
    } else userIds = null;
  } else {
    const allowed = await ownPeople(ctx, actor);
    userIds = q.user_id ? (allowed.includes(q.user_id) ? [q.user_id] : [actor.userId]) : allowed;
  }
  const scope: AlertScope = {
    companyId: actor.companyId,
    timeZone: actor.company.timezone,
    now: nowSeconds(),
    from: q.from ?? null,
    to: q.to ?? null,
    userIds,
    viewer: { userId: actor.userId, role: actor.role },
    t: translator(locale),
  };
  const wanted = q.types?.length ? q.types : ALERT_TYPES;
  const chosen = [...sources.values()].filter((s) => wanted.includes(s.type));
  const batches = await Promise.all(chosen.map((s) => s.collect(ctx.db, scope)));
  return batches.flat().sort((a, b) => a.date - b.date || a.type.localeCompare(b.type) || a.name.localeCompare(b.name));
}
