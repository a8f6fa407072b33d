import type { Bool, SyncColumns } from './schema.ts';

/** Tables of the foundation migration (0001). Areas declare their own tables the same way. */
export interface CompaniesTable extends SyncColumns {
  id: string;
  name: string;
  disabled: Bool;
  api: Bool;
  plan: string;
  type: string;
  timezone: string;
  flight_timezone: string | null;
  currency: string;
  country_iso: string | null;
  icao: string | null;
  zip: string | null;
  logo: string | null;
  color: string | null;
  date_format: string;
  time_format: string;
  duration_format: string;
  aoc: Bool;
  extracrew: Bool;
  cabincrew: Bool;
  max_duty_hours: number | null;
  max_flight_hours_year: number | null;
  /** Days ahead a booking may start (CONTRACT 5); NULL = the default 365. */
  booking_horizon_days: number | null;
  /** JSON object of the named company flags (Part A 2.2: self_schedule, require_flight_password, ...). */
  flags: string;
  billing_enabled: Bool;
  billing_billed_person: string | null;
  billing_tax: number;
  billing_send_notification: Bool;
  billing_public_key: string | null;
  created: number;
  modified: number;
}

export interface IdentitiesTable {
  id: string;
  email: string;
  password_hash: string;
  alerts: Bool;
  message_alerts: Bool;
  newsletter: Bool;
  whatsapp: Bool;
  created: number;
  modified: number;
}

export interface ReplicatedBase extends SyncColumns {
  id: string;
  company_id: string;
  created: number;
  modified: number;
}

export interface UsersTable extends ReplicatedBase {
  identity_id: string | null;
  email: string | null;
  email_status: string;
  active: Bool;
  pilot: Bool;
  billing: Bool;
  user_group_id: number;
  base_id: string | null;
  supervisor_id: string | null;
  language: string;
  api: Bool;
  two_factor: string;
  totp_secret: string | null;
  expiration: string | null;
  name: string;
  surname: string;
  passport: string | null;
  companyid: string | null;
  dob: string | null;
  phonecode: string | null;
  phone: string | null;
  phonecode2: string | null;
  phone2: string | null;
  emergency_contact: string | null;
  public_phone: Bool;
  address: string | null;
  pc: string | null;
  city: string | null;
  country_id: string | null;
  timezone_id: string | null;
  nationality: string | null;
  birthcountry_id: string | null;
  photo: string | null;
  flight_hours: number;
  color: string | null;
  notes: string | null;
}

export interface BasesTable extends ReplicatedBase {
  name: string;
  is_default: Bool;
  airport_id: string | null;
}

export interface AircraftTable extends ReplicatedBase {
  registration: string;
  model_id: string | null;
  multiengine: Bool;
  multipilot: Bool;
  simulator: Bool;
  active: Bool;
  hours: number;
  landings: number;
  flights: number;
  user_id: string | null;
  base_id: string | null;
  photo: string | null;
  adsb: string | null;
}

export interface SessionsTable {
  id: string;
  token_hash: string;
  identity_id: string;
  user_id: string;
  company_id: string;
  created: number;
  expires: number;
  last_seen: number;
  ip: string | null;
  user_agent: string | null;
  revoked: Bool;
}

export interface ApiKeysTable {
  id: string;
  company_id: string;
  user_id: string;
  created_by: string;
  name: string;
  key_prefix: string;
  key_hash: string;
  last_used_at: number | null;
  expires: number | null;
  revoked: Bool;
  revoked_at: number | null;
  created: number;
}

declare module './schema.ts' {
  interface DB {
    companies: CompaniesTable;
    identities: IdentitiesTable;
    users: UsersTable;
    bases: BasesTable;
    aircraft: AircraftTable;
    aircraft_manufacturers: { id: string; name: string };
    aircraft_models: { id: string; manufacturer_id: string; name: string; icao: string | null };
    sessions: SessionsTable;
    user_logins: {
      id: string;
      user_id: string;
      company_id: string;
      created: number;
      ip: string | null;
      user_agent: string | null;
      method: string;
    };
    api_keys: ApiKeysTable;
    login_challenges: {
      id: string;
      user_id: string;
      mode: string;
      code_hash: string | null;
      expires: number;
      attempts: number;
      used: Bool;
      ip: string | null;
      created: number;
    };
    auth_failures: { key: string; window_start: number; count: number };
    mail_outbox: {
      id: string;
      company_id: string | null;
      to_address: string;
      subject: string;
      template: string;
      body_text: string;
      body_html: string | null;
      status: string;
      error: string | null;
      created: number;
      sent_at: number | null;
    };
    company_permissions: { company_id: string; role: number; key: string; allowed: Bool };
  }
}
