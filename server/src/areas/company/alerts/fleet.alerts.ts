import { aircraftAlerts, maintenanceAlerts } from '../../aircraft/fleet.alerts.ts';
import type { AlertSource } from './sources.alerts.ts';

/**
 * The fleet area's alert queries (areas/aircraft/fleet.alerts.ts) as sources.
 * Aircraft certificates and maintenance are company-wide: a request narrowed
 * to people (a `user_id`, or any caller who is not a manager) gets neither.
 */
export const aircraftAlertSource: AlertSource = {
  type: 'Aircraft',
  collect: (db, scope) =>
    scope.userIds !== null
      ? Promise.resolve([])
      : aircraftAlerts(db, {
          companyId: scope.companyId,
          timeZone: scope.timeZone,
          now: scope.now,
          from: scope.from,
          to: scope.to,
          t: scope.t,
        }),
};

export const maintenanceAlertSource: AlertSource = {
  type: 'Maintenance',
  collect: (db, scope) =>
    scope.userIds !== null
      ? Promise.resolve([])
      : maintenanceAlerts(db, {
          companyId: scope.companyId,
          timeZone: scope.timeZone,
          now: scope.now,
          from: scope.from,
          to: scope.to,
          t: scope.t,
        }),
};
