import type { Alert, AlertSource } from './sources.alerts.ts';
import { dateBounds, lapseOf, urgencyClass, windowOf } from './sources.alerts.ts';

/**
 * `UserCertificate` alerts: pilot certificates (licences, ratings, medicals)
 * expiring in the window. The aggregator has already clamped the people: a
 * manager without `user_id` gets the whole company, others themselves and
 * their students.
 */
export const userCertificateAlerts: AlertSource = {
  type: 'UserCertificate',
  async collect(db, scope) {
    const { from, to } = windowOf(scope);
    const { first, last } = dateBounds(from, to, scope.timeZone);
    if (scope.userIds !== null && scope.userIds.length === 0) return [];
    let q = db
      .selectFrom('user_certificates as c')
      .innerJoin('users as u', (j) => j.onRef('u.id', '=', 'c.user_id').on('u.company_id', '=', scope.companyId))
      .select(['c.id', 'c.user_id', 'c.type', 'c.name', 'c.expiration', 'u.name as first_name', 'u.surname'])
      .where('c.company_id', '=', scope.companyId)
      .where('c.deleted', '=', 0)
      .where('u.deleted', '=', 0)
      .where('c.expiration', 'is not', null)
      .where('c.expiration', '>=', first)
      .where('c.expiration', '<=', last);
    if (scope.userIds !== null) q = q.where('c.user_id', 'in', [...scope.userIds]);
    const rows = await q.orderBy('c.expiration').orderBy('c.id').execute();
    return rows
      .map((r): Alert => {
        const date = lapseOf(r.expiration as string, scope.timeZone);
        return {
          type: 'UserCertificate',
          icon: 'fa fa-id-card',
          class: urgencyClass(date, scope.now, scope.timeZone),
          link: `/pilots/view/${r.user_id}`,
          name: r.name || r.type,
          date,
          details: `${r.first_name} ${r.surname}`,
        };
      })
      .filter((a) => a.date >= from && a.date <= to);
  },
};
