import { allows, type PolicyActor, ROLES, roleGate } from '../../roles.ts';

/**
 * Who may do what with company news (Part A 4.3): the routes, the `news`
 * collection, the REST presenter and the renderer's buttons ask here.
 */
export const newsGates = {
  /** News managers (<= 135, Part A 5 names it the manager-news threshold): publish, edit, delete, see every signature and the recipients. */
  manage: roleGate('news.manage', { maxRole: ROLES.GROUND_INSTRUCTOR }),
  /** Company management (<= 105) reads every company article, whoever it is addressed to (Part A 4.3 item 1). */
  readAll: roleGate('news.read-all', { maxRole: ROLES.OPERATIONS_MANAGER }),
  /** The platform administrator publishes to the public platform feed, which belongs to no company. */
  platform: roleGate('news.platform', { roles: [ROLES.PLATFORM_ADMIN] }),
};

/** Publishes, edits and deletes articles; sees recipients and every signature; a view is not counted. */
export const mayManageNews = (actor: Pick<PolicyActor, 'role'>): boolean => allows(newsGates.manage, actor.role);

/** Reads every company article whatever its recipients (the SQL filter is skipped). */
export const mayReadAllNews = (actor: Pick<PolicyActor, 'role'>): boolean => allows(newsGates.readAll, actor.role);

/** Whether an article with these recipient roles is addressed to the actor (empty: everyone). */
export function mayReadArticle(actor: Pick<PolicyActor, 'role'>, article: { recipients: readonly number[] }): boolean {
  return mayReadAllNews(actor) || article.recipients.length === 0 || article.recipients.includes(actor.role);
}

/** Publishes to, and deletes from, the public platform feed (`News.public`). */
export const mayPublishPlatformNews = (actor: Pick<PolicyActor, 'role'>): boolean =>
  allows(newsGates.platform, actor.role);
