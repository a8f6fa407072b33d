import type { ReplicatedBase } from './core-tables.ts';
import type { Bool } from './schema.ts';

/** Row types of migration 0003 (flights and the technical log). */
export interface FlightTypesTable extends ReplicatedBase {
  name: string;
  color: string | null;
  booking: Bool;
  pic_flight_time: string;
  sic_flight_time: string;
  supervisor_flight_time: string;
  sort_order: number;
}

export interface FlightsTable extends ReplicatedBase {
  date: string;
  status: string;
  callsign: string | null;
  aircraft_id: string | null;
  flight_type_id: string | null;
  base_id: string | null;
  pic_id: string | null;
  sic_id: string | null;
  supervisor_id: string | null;
  user_id: string | null;
  departure_airport: string | null;
  landing_airport: string | null;
  offblocks: number | null;
  takeoff: number | null;
  landing: number | null;
  onblocks: number | null;
  block_time: number;
  flight_time: number;
  night_flight_time: number;
  ifr_flight_time: number;
  rules: string | null;
  crosscountry: Bool;
  multiengine: Bool;
  landings: number;
  night_landings: number;
  engine_starts: number;
  pax: number;
  oil: number | null;
  fuel: number | null;
  cargo: number | null;
  route: string | null;
  remarks: string | null;
  pf: string | null;
  confirmed_at: number | null;
  confirmed_by: string | null;
  dispatched_at: number | null;
  dispatched_by: string | null;
}

export interface AircraftReportsTable extends ReplicatedBase {
  aircraft_id: string;
  flight_id: string | null;
  user_id: string | null;
  type: string;
  title: string;
  description: string | null;
  ata_chapter: string | null;
  system: string | null;
  severity: string;
  aircraft_status: string;
  dispatch_condition: string;
  status: string;
  hours: number | null;
  cycles: number | null;
  deferred_until: number | null;
  deferred_reference: string | null;
  closed: number | null;
  closed_by: string | null;
  maintenance_job_id: string | null;
}

export interface MelItemsTable {
  id: string;
  company_id: string;
  aircraft_report_id: string;
  mel_reference: string | null;
  category: string | null;
  interval_type: string | null;
  interval_value: number | null;
  starts: number | null;
  expires: number | null;
  baseline_flights: number | null;
  baseline_cycles: number | null;
  placard_fitted: Bool;
  procedures: string | null;
  released_by: string | null;
  released: number | null;
  extended: Bool;
  extended_by: string | null;
  extended_until: number | null;
  extension_reason: string | null;
  created: number;
  modified: number;
}

export interface UserCertificatesTable extends ReplicatedBase {
  user_id: string;
  type: string;
  name: string | null;
  issue: string | null;
  expiration: string | null;
  comments: string | null;
  upload_id: string | null;
}

declare module './schema.ts' {
  interface DB {
    user_certificates: UserCertificatesTable;
    flight_types: FlightTypesTable;
    flight_type_certificates: {
      id: string;
      company_id: string;
      flight_type_id: string;
      role: string;
      certificate_type: string;
    };
    flights: FlightsTable;
    flight_changes: {
      id: string;
      company_id: string;
      flight_id: string;
      user_id: string | null;
      action: string;
      fields: string | null;
      comments: string | null;
      created: number;
    };
    aircraft_reports: AircraftReportsTable;
    mel_items: MelItemsTable;
    mel_item_limitations: {
      id: string;
      company_id: string;
      mel_item_id: string;
      code: string;
      value: string | null;
      note: string | null;
      created: number;
    };
  }
}
