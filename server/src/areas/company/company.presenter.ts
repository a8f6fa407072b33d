import { COUNTRIES } from '@ops/shared/reference/index';
import type { CompaniesTable } from '../../db/core-tables.ts';

export const COMPANY_FLAG_KEYS = [
  'self_schedule',
  'require_pic_docs',
  'schedule_self_allow_nodocs',
  'block_pic_without_docs',
  'require_flight_password',
  'schedule_dispatch_frat',
  'require_debriefing_signature',
] as const;
export type CompanyFlag = (typeof COMPANY_FLAG_KEYS)[number];

export function companyFlags(row: Pick<CompaniesTable, 'flags'>): Record<CompanyFlag, boolean> {
  let stored: Record<string, unknown> = {};
  try {
    stored = JSON.parse(row.flags) as Record<string, unknown>;
  } catch {
    stored = {};
  }
  return Object.fromEntries(COMPANY_FLAG_KEYS.map((k) => [k, stored[k] === true])) as Record<CompanyFlag, boolean>;
}

const offsetOf = (zone: string): { offset: string; hours: number } => {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(
    new Date(),
  );
  const name = parts.find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  if (!m) return { offset: '+00:00', hours: 0 };
  const hours = (m[1] === '-' ? -1 : 1) * (Number(m[2]) + Number(m[3]) / 60);
  return { offset: `${m[1]}${m[2]}:${m[3]}`, hours };
};

/** Part A 2.2 Timezone record; ids are the IANA names. */
export function presentTimezone(zone: string) {
  const { offset, hours } = offsetOf(zone);
  return { id: zone, name: zone, description: zone.replace(/_/g, ' '), offset_hours: hours, offset, country_iso: null };
}

/** The public company settings payload (Part A 4.2 item 1), also the `company` reference document. */
export function presentCompanySettings(c: CompaniesTable) {
  return {
    Company: { id: c.id, name: c.name, disabled: !!c.disabled, api: !!c.api, plan: c.plan, type: c.type },
    CompanyTheme: { id: c.id, logo: c.logo, color: c.color },
    CompanyDetail: {
      id: c.id,
      currency: c.currency,
      icao: c.icao,
      timezone_id: c.timezone,
      country_id: c.country_iso,
      zip: c.zip,
      Timezone: presentTimezone(c.timezone),
      // Part A 2.2 Country: the English name and the ISO 3166 alpha-2 code.
      Country: c.country_iso ? { name: COUNTRIES[c.country_iso] ?? c.country_iso, iso2: c.country_iso } : null,
    },
    CompanySetting: {
      id: c.id,
      company_id: c.id,
      flight_timezone_id: c.flight_timezone,
      date_format: c.date_format,
      time_format: c.time_format,
      duration_format: c.duration_format,
      aoc: !!c.aoc,
      extracrew: !!c.extracrew,
      cabincrew: !!c.cabincrew,
      max_duty_hours: c.max_duty_hours,
      max_flight_hours_year: c.max_flight_hours_year,
      booking_horizon_days: c.booking_horizon_days ?? null,
      ...companyFlags(c),
      ...(c.flight_timezone ? { FlightTimezone: presentTimezone(c.flight_timezone) } : {}),
    },
    CompanyBillingSetting: {
      id: c.id,
      company_id: c.id,
      enabled: !!c.billing_enabled,
      billed_person: c.billing_billed_person,
      tax: c.billing_tax,
      send_notification: !!c.billing_send_notification,
      public_key: c.billing_public_key,
      basis: c.billing_basis === 'flight' ? ('flight' as const) : ('block' as const),
    },
  };
}
