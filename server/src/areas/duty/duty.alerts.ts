import { hhmm, limitSeconds, NEAR_LIMIT_SHARE } from '@ops/shared/rules/duty/duty';
import { DateTime } from 'luxon';
import type { Alert, AlertSource } from '../company/alerts/sources.alerts.ts';
import { companyLimits, crewOf, flightSecondsBy } from './duty.repository.ts';

/**
 * `duty` alerts: crew past 90 % of `max_flight_hours_year` in the current
 * calendar year of the company zone (danger once past the limit). Dated now:
 * it is a standing condition, not a deadline.
 */
export const dutyAlertSource: AlertSource = {
  type: 'duty',
  async collect(db, scope) {
    if (scope.userIds !== null && scope.userIds.length === 0) return [];
    if ((scope.from !== null && scope.now < scope.from) || (scope.to !== null && scope.now > scope.to)) return [];
    const limits = await companyLimits(db, scope.companyId);
    const limit = limitSeconds(limits.max_flight_hours_year);
    if (limit === null) return [];
    const crew = await crewOf(db, scope.companyId, scope.userIds);
    const year = DateTime.fromSeconds(scope.now, { zone: scope.timeZone }).startOf('year');
    const totals = await flightSecondsBy(
      db,
      scope.companyId,
      crew.map((c) => c.id),
      year.toUnixInteger(),
      year.plus({ years: 1 }).toUnixInteger(),
    );
    const out: Alert[] = [];
    for (const c of crew) {
      const seconds = totals.get(c.id) ?? 0;
      if (seconds < limit * NEAR_LIMIT_SHARE) continue;
      out.push({
        type: 'duty',
        icon: 'fa fa-clock-o',
        class: seconds > limit ? 'text-danger' : 'text-warning',
        link: `/duty/${c.id}`,
        name: `${c.name} ${c.surname}`.trim(),
        date: scope.now,
        // Year as text: no language groups its digits (2.026).
        details: scope.t('company.alertFlightHours', {
          used: hhmm(seconds),
          limit: hhmm(limit),
          year: String(year.year),
          percent: Math.round((seconds / limit) * 100),
        }),
      });
    }
    return out;
  },
};
