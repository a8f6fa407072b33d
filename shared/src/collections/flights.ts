import { ROLES } from '../roles.ts';
import { type CollectionDef, s } from './types.ts';

/**
 * The pilot's logbook offline. Staff (role <= 170) replicate every flight of
 * the company; everyone else only flights naming them as PIC, SIC, supervisor
 * or creator, the same rows REST lists for them. Clock fields are `HH:MM` in
 * the company's flight time zone, as POST /flights/edit.json takes them; the
 * unix instants and durations are derived by the server.
 */
export interface FlightDoc {
  id: string;
  date: string;
  /** Stored status; DELAYED is computed on read from `starts` (rules/flights). */
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
  offblocks_time: string | null;
  takeoff_time: string | null;
  landing_time: string | null;
  onblocks_time: string | null;
  offblocks: number | null;
  takeoff: number | null;
  landing: number | null;
  onblocks: number | null;
  /** Sort instant: off-blocks, else take-off, else midnight of `date`. */
  starts: number;
  block_time: number;
  flight_time: number;
  /** Null on a pushed document: let the server compute it from the airports. */
  night_flight_time: number | null;
  ifr_flight_time: number;
  rules: string | null;
  crosscountry: boolean;
  multiengine: boolean;
  landings: number;
  night_landings: number;
  pax: number;
  route: string | null;
  remarks: string | null;
  confirmed_at: number | null;
  dispatched_at: number | null;
  modified: number;
}

/** Involvement fields of the row scope (REST view adds the aircraft's owner). */
export const FLIGHT_INVOLVED_FIELDS = ['pic_id', 'sic_id', 'supervisor_id', 'user_id'] as const;

/** Fields a device may write (the push's REST body carries exactly these). */
export const FLIGHT_WRITABLE_FIELDS = [
  'date',
  'status',
  'callsign',
  'aircraft_id',
  'flight_type_id',
  'pic_id',
  'sic_id',
  'supervisor_id',
  'departure_airport',
  'landing_airport',
  'offblocks_time',
  'takeoff_time',
  'landing_time',
  'onblocks_time',
  'night_flight_time',
  'ifr_flight_time',
  'rules',
  'crosscountry',
  'landings',
  'night_landings',
  'pax',
  'route',
  'remarks',
] as const;

export const flightsCollection: CollectionDef<FlightDoc> = {
  name: 'flights',
  version: 0,
  schema: {
    properties: {
      id: s.id,
      date: { type: 'string', maxLength: 10 },
      status: { type: 'string', maxLength: 16 },
      callsign: s.str,
      aircraft_id: s.str,
      flight_type_id: s.str,
      base_id: s.str,
      pic_id: s.str,
      sic_id: s.str,
      supervisor_id: s.str,
      user_id: s.str,
      departure_airport: s.str,
      landing_airport: s.str,
      offblocks_time: s.str,
      takeoff_time: s.str,
      landing_time: s.str,
      onblocks_time: s.str,
      offblocks: s.num,
      takeoff: s.num,
      landing: s.num,
      onblocks: s.num,
      starts: s.indexedNum,
      block_time: s.int,
      flight_time: s.int,
      night_flight_time: s.num,
      ifr_flight_time: s.int,
      rules: s.str,
      crosscountry: s.bool,
      multiengine: s.bool,
      landings: s.int,
      night_landings: s.int,
      pax: s.int,
      route: s.str,
      remarks: s.str,
      confirmed_at: s.num,
      dispatched_at: s.num,
      modified: s.int,
    },
    required: ['id', 'date', 'status', 'starts'],
    indexes: [['starts', 'id']],
  },
  rows: { kind: 'involved', fields: FLIGHT_INVOLVED_FIELDS, staffMaxRole: ROLES.DISPATCHER },
  visible: (doc) => doc,
  writableFields: FLIGHT_WRITABLE_FIELDS,
  // Who may create or change which flight is the flights service's decision (permissions, crew).
  canPush: () => true,
};
