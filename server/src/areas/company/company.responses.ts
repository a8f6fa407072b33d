import { z } from 'zod';

/**
 * Response schemas of the company routes: the 200 bodies as the handlers return them (each route's
 * `response`). The handler's return type is checked against these at compile time and every answer
 * of the integration suite against the document they produce (the contract test).
 */

/** A timezone as the company presents it. */
const zTimezone = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  offset_hours: z.number(),
  offset: z.string(),
  country_iso: z.null(),
});

/** The company's records as the settings screens read them (the manager answers add `Admin`). */
const companySettings = {
  Company: z.object({
    id: z.string(),
    name: z.string(),
    disabled: z.boolean(),
    api: z.boolean(),
    plan: z.string(),
    type: z.string(),
  }),
  CompanyTheme: z.object({
    id: z.string(),
    logo: z.string().nullable(),
    color: z.string().nullable(),
  }),
  CompanyDetail: z.object({
    id: z.string(),
    currency: z.string(),
    icao: z.string().nullable(),
    timezone_id: z.string(),
    country_id: z.string().nullable(),
    zip: z.string().nullable(),
    Timezone: zTimezone,
    Country: z
      .object({
        name: z.string(),
        iso2: z.string(),
      })
      .nullable(),
  }),
  CompanySetting: z.object({
    FlightTimezone: zTimezone.optional(),
    self_schedule: z.boolean(),
    require_pic_docs: z.boolean(),
    schedule_self_allow_nodocs: z.boolean(),
    block_pic_without_docs: z.boolean(),
    require_flight_password: z.boolean(),
    schedule_dispatch_frat: z.boolean(),
    require_debriefing_signature: z.boolean(),
    id: z.string(),
    company_id: z.string(),
    flight_timezone_id: z.string().nullable(),
    date_format: z.string(),
    time_format: z.string(),
    duration_format: z.string(),
    aoc: z.boolean(),
    extracrew: z.boolean(),
    cabincrew: z.boolean(),
    max_duty_hours: z.number().nullable(),
    max_flight_hours_year: z.number().nullable(),
    booking_horizon_days: z.number().int().nullable(),
  }),
  CompanyBillingSetting: z.object({
    id: z.string(),
    company_id: z.string(),
    enabled: z.boolean(),
    billed_person: z.string().nullable(),
    tax: z.number(),
    send_notification: z.boolean(),
    public_key: z.string().nullable(),
    basis: z.enum(['block', 'flight']),
  }),
};

/** GET /companies/settings.json */
export const ZCompaniesSettings = z.strictObject(companySettings);

/** Account figures only the manager sees. */
const zCompanyAdmin = z.object({
  created: z.number(),
  modified: z.number(),
  user_count: z.number(),
  active_user_count: z.number(),
  pilot_count: z.number(),
  pilot_limit: z.number().nullable(),
  base_count: z.number(),
  active_api_keys: z.number(),
  operating_hours: z.object({
    company: z.boolean(),
    bases: z.number(),
  }),
});

/** GET /manager/companies/settings.json */
export const ZManagerCompaniesSettings = z.strictObject({
  Admin: zCompanyAdmin,
  ...companySettings,
});

/** POST /manager/companies/edit.json */
export const ZManagerCompaniesEdit = z.strictObject({
  Admin: zCompanyAdmin,
  ...companySettings,
  result: z.boolean(),
  message: z.string(),
});

/** One opening-hours row (a weekday or a dated override; base_id null for the company). */
const zOperatingHoursRow = z.object({
  id: z.string(),
  base_id: z.string().nullable(),
  weekday: z.number().nullable(),
  override_date: z.string().nullable(),
  closed: z.boolean(),
  start_minute: z.number(),
  end_minute: z.number(),
});

/** GET /manager/companies/operating_hours.json */
export const ZManagerCompaniesOperatingHours = z.strictObject({
  OperatingHours: z.object({
    timezone: z.string(),
    overrides_from: z.string(),
    overrides_to: z.string(),
    rows: z.array(zOperatingHoursRow),
    bases: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        customised: z.boolean(),
      }),
    ),
  }),
});

/** POST /manager/companies/save_operating_hours.json */
export const ZManagerCompaniesSaveOperatingHours = z.strictObject({
  result: z.boolean(),
  message: z.string(),
  base_id: z.string().nullable(),
  rows: z.array(zOperatingHoursRow),
});

/** GET /companies/hours/:scope/:from/:to.json */
export const ZCompaniesHours = z.strictObject({
  base_id: z.string().nullable(),
  timezone: z.string(),
  from: z.string(),
  to: z.string(),
  days: z.array(
    z.object({
      date: z.string(),
      closed: z.boolean(),
      windows: z.array(
        z.object({
          start: z.number(),
          end: z.number(),
          start_minute: z.number(),
          end_minute: z.number(),
        }),
      ),
    }),
  ),
});

/** GET /companies/permissions.json */
export const ZCompaniesPermissions = z.strictObject({
  'Flight.create': z.boolean(),
  'Flight.edit': z.boolean(),
  'Flight.confirm': z.boolean(),
});

/** One role's permissions and which of them override the defaults. */
const zRolePermissions = z.object({
  role: z.number(),
  name: z.string(),
  permissions: z.object({
    'Flight.create': z.boolean(),
    'Flight.edit': z.boolean(),
    'Flight.confirm': z.boolean(),
  }),
  overridden: z.array(z.enum(['Flight.create', 'Flight.edit', 'Flight.confirm'])),
});

/** GET /manager/companies/permissions.json */
export const ZManagerCompaniesPermissions = z.strictObject({
  roles: z.array(zRolePermissions),
});

/** POST /manager/companies/permissions.json */
export const ZManagerCompaniesPermissionsPost = z.strictObject({
  result: z.boolean(),
  role: zRolePermissions.optional(),
});

/** GET /companies/alerts.json */
export const ZCompaniesAlerts = z.array(
  z.object({
    type: z.enum(['Aircraft', 'UserCertificate', 'Maintenance', 'AircraftUpload', 'Document', 'duty']),
    icon: z.string(),
    class: z.enum(['text-danger', 'text-warning', 'text-muted']),
    link: z.string(),
    name: z.string(),
    date: z.number(),
    details: z.string(),
  }),
);
