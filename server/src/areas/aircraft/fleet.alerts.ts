import { type Translate, translator } from '@ops/shared/i18n/index';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import {
  type Alert,
  DEFAULT_AHEAD_SECONDS,
  DEFAULT_BACK_SECONDS,
  dateBounds,
  lapseOf,
  urgencyClass,
} from '../company/alerts/sources.alerts.ts';
import { CERTIFICATES, certificateColumn } from './aircraft.tables.ts';

/**
 * Company alerts of the fleet (Part A 2.4, 4.2 item 6): `Aircraft` for
 * certificate expiry dates, `Maintenance` for open jobs with a start date
 * (type `Maintenance`, no longer `Aircraft`: Part B 9.6). Registered as
 * sources in areas/company/alerts/fleet.alerts.ts, which also decides who gets them.
 */
export interface AlertWindow {
  companyId: string;
  timeZone: string;
  now: number;
  /** Explicit bounds replace the default window (30 days back, about 3 months ahead). */
  from?: number | null;
  to?: number | null;
  /** The reader's language for the alert's words; English when not given. */
  t?: Translate;
}

const bounds = (w: AlertWindow) => ({
  from: w.from ?? w.now - DEFAULT_BACK_SECONDS,
  to: w.to ?? w.now + DEFAULT_AHEAD_SECONDS,
});

/** Certificate expiry dates of active aircraft lapsing in the window; one query for all six certificates. */
export async function aircraftAlerts(db: Kysely<DB>, w: AlertWindow): Promise<Alert[]> {
  const { from, to } = bounds(w);
  const t = w.t ?? translator('en');
  const { first, last } = dateBounds(from, to, w.timeZone);
  const rows = await db
    .selectFrom('aircraft as a')
    .leftJoin('aircraft_models as m', 'm.id', 'a.model_id')
    .leftJoin('aircraft_manufacturers as f', 'f.id', 'm.manufacturer_id')
    .select([
      'a.id',
      'a.registration',
      'm.name as model',
      'f.name as maker',
      ...CERTIFICATES.map((c) => `a.${certificateColumn(c)}` as const),
    ])
    .where('a.company_id', '=', w.companyId)
    .where('a.deleted', '=', 0)
    .where('a.active', '=', 1)
    .where((eb) =>
      eb.or(
        CERTIFICATES.map((c) =>
          eb.and([eb(`a.${certificateColumn(c)}`, '>=', first), eb(`a.${certificateColumn(c)}`, '<=', last)]),
        ),
      ),
    )
    .execute();
  const out: Alert[] = [];
  for (const r of rows) {
    for (const c of CERTIFICATES) {
      const value = r[certificateColumn(c)];
      if (!value || value < first || value > last) continue;
      // Valid through that date: it lapses at the next midnight of the company zone.
      const date = lapseOf(value, w.timeZone);
      out.push({
        type: 'Aircraft',
        icon: 'fa fa-plane',
        class: urgencyClass(date, w.now, w.timeZone),
        link: `/aircraft/view/${r.id}`,
        name: t('company.alertCertificate', { registration: r.registration, certificate: c }),
        date,
        details: [r.maker, r.model].filter(Boolean).join(' '),
      });
    }
  }
  return out.sort((a, b) => a.date - b.date || a.name.localeCompare(b.name));
}

/** Open maintenance jobs (CRS not signed) whose start falls in the window; overdue ones count as expired. */
export async function maintenanceAlerts(db: Kysely<DB>, w: AlertWindow): Promise<Alert[]> {
  const { from, to } = bounds(w);
  const t = w.t ?? translator('en');
  const rows = await db
    .selectFrom('maintenance_jobs as j')
    .innerJoin('aircraft as a', (jn) => jn.onRef('a.id', '=', 'j.aircraft_id').on('a.company_id', '=', w.companyId))
    .select(['j.id', 'j.name', 'j.start', 'a.registration'])
    .where('j.company_id', '=', w.companyId)
    .where('j.deleted', '=', 0)
    .where('j.crs_signed', '=', 0)
    .where('j.start', 'is not', null)
    .where('j.start', '>=', from)
    .where('j.start', '<=', to)
    .orderBy('j.start')
    .orderBy('j.id')
    .execute();
  return rows.map((r) => ({
    type: 'Maintenance' as const,
    icon: 'fa fa-wrench',
    class: urgencyClass(Number(r.start), w.now, w.timeZone),
    link: `/maintenance/jobs/view/${r.id}`,
    name: t('company.alertMaintenanceDue', { registration: r.registration }),
    date: Number(r.start),
    details: r.name,
  }));
}
