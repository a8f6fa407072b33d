import {
  type Alert,
  type AlertSource,
  dateBounds,
  lapseOf,
  urgencyClass,
  windowOf,
} from '../company/alerts/sources.alerts.ts';
import './uploads.tables.ts';

/**
 * `AircraftUpload` alerts (Part A 2.4): aircraft documents (uploads with model
 * `Aircraft`) whose expiration date lapses in the window. Like the aircraft
 * certificates they are company-wide: a request narrowed to people gets none.
 * One query joining the aircraft, its model and manufacturer (`details`).
 */
export const aircraftUploadAlertSource: AlertSource = {
  type: 'AircraftUpload',
  async collect(db, scope) {
    if (scope.userIds !== null) return [];
    const { from, to } = windowOf(scope);
    const { first, last } = dateBounds(from, to, scope.timeZone);
    const rows = await db
      .selectFrom('uploads as u')
      .innerJoin('aircraft as a', (j) => j.onRef('a.id', '=', 'u.foreign_key').on('a.company_id', '=', scope.companyId))
      .leftJoin('aircraft_models as m', 'm.id', 'a.model_id')
      .leftJoin('aircraft_manufacturers as f', 'f.id', 'm.manufacturer_id')
      .select([
        'u.id',
        'u.filename',
        'u.expiration',
        'a.id as aircraft_id',
        'a.registration',
        'm.name as model',
        'f.name as maker',
      ])
      .where('u.company_id', '=', scope.companyId)
      .where('u.model', '=', 'Aircraft')
      .where('u.deleted', '=', 0)
      .where('u.active', '=', 1)
      .where('u.expiration', '>=', first)
      .where('u.expiration', '<=', last)
      .where('a.deleted', '=', 0)
      .where('a.active', '=', 1)
      .execute();
    const out: Alert[] = rows.map((r) => {
      const date = lapseOf(r.expiration as string, scope.timeZone);
      return {
        type: 'AircraftUpload' as const,
        icon: 'fa fa-file',
        class: urgencyClass(date, scope.now, scope.timeZone),
        link: `/aircraft/view/${r.aircraft_id}`,
        name: `${r.registration}: ${r.filename}`,
        date,
        details: [r.maker, r.model].filter(Boolean).join(' '),
      };
    });
    return out.sort((a, b) => a.date - b.date || a.name.localeCompare(b.name));
  },
};
