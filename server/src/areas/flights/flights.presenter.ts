import { wallClock, statusOnRead } from '@ops/shared/rules/flights/clock';
import type { FlightJoinedRow } from './flights.repository.ts';

/** The Flight record of list and view (Part B 2.7): clock strings in the flight zone, instants in unix, durations in seconds. */
export function presentFlightRecord(f: FlightJoinedRow, zone: string, now: number) {
  return {
    id: f.id,
    date: f.date,
    status: statusOnRead(f.status, f.offblocks, now),
    callsign: f.callsign,
    departure_airport: f.departure_airport,
    landing_airport: f.landing_airport,
    offblocks_time: wallClock(f.offblocks, zone),
    takeoff_time: wallClock(f.takeoff, zone),
    landing_time: wallClock(f.landing, zone),
    onblocks_time: wallClock(f.onblocks, zone),
    offblocks: f.offblocks === null ? null : Number(f.offblocks),
    takeoff: f.takeoff === null ? null : Number(f.takeoff),
    landing: f.landing === null ? null : Number(f.landing),
    onblocks: f.onblocks === null ? null : Number(f.onblocks),
    block_time: Number(f.block_time),
    flight_time: Number(f.flight_time),
    night_flight_time: Number(f.night_flight_time),
    ifr_flight_time: Number(f.ifr_flight_time),
    rules: f.rules,
    crosscountry: !!f.crosscountry,
    multiengine: !!f.multiengine,
    landings: Number(f.landings),
    night_landings: Number(f.night_landings),
    engine_starts: Number(f.engine_starts),
    pax: Number(f.pax),
    oil: f.oil,
    fuel: f.fuel,
    cargo: f.cargo,
    route: f.route,
    remarks: f.remarks,
    pf: f.pf,
    aircraft_id: f.aircraft_id,
    flight_type_id: f.flight_type_id,
    base_id: f.base_id,
    pic_id: f.pic_id,
    sic_id: f.sic_id,
    supervisor_id: f.supervisor_id,
    user_id: f.user_id,
    confirmed_at: f.confirmed_at === null ? null : Number(f.confirmed_at),
    confirmed_by: f.confirmed_by,
    dispatched_at: f.dispatched_at === null ? null : Number(f.dispatched_at),
    dispatched_by: f.dispatched_by,
    created: Number(f.created),
    modified: Number(f.modified),
  };
}

function person(
  id: string | null,
  p: {
    name: string | null;
    surname: string | null;
    group: number | null;
    active: number | null;
    pilot: number | null;
    deleted: number | null;
  },
  full: boolean,
) {
  if (!id || p.name === null) return null;
  const base = { id, user_group_id: p.group, UserDetail: { id, name: p.name, surname: p.surname } };
  if (!full) return base;
  return { ...base, active: !!p.active, pilot: !!p.pilot, deleted: !!p.deleted };
}

/**
 * `{Flight, Base, Aircraft, FlightType, Pic, Sic}` of one list row. `full`
 * (the view) adds the people's state; the view adds UserGroup itself.
 */
export function presentFlightRow(f: FlightJoinedRow, zone: string, now: number, full = false) {
  return {
    Flight: presentFlightRecord(f, zone, now),
    Base:
      f.base_id && f.base_name !== null ? { id: f.base_id, name: f.base_name, airport_id: f.base_airport_id } : null,
    Aircraft:
      f.aircraft_id && f.ac_registration !== null
        ? {
            id: f.aircraft_id,
            registration: f.ac_registration,
            multiengine: !!f.ac_multiengine,
            multipilot: !!f.ac_multipilot,
            simulator: !!f.ac_simulator,
            photo: f.ac_photo,
            adsb: f.ac_adsb,
            active: !!f.ac_active,
            hours: f.ac_hours,
            landings: f.ac_landings,
            AircraftModel: {
              name: f.ac_model_name,
              icao: f.ac_model_icao,
              AircraftManufacturer: { name: f.ac_manufacturer_name },
            },
          }
        : null,
    FlightType:
      f.flight_type_id && f.type_name !== null
        ? {
            id: f.flight_type_id,
            name: f.type_name,
            color: f.type_color,
            booking: !!f.type_booking,
            pic_flight_time: f.type_pic,
            sic_flight_time: f.type_sic,
            supervisor_flight_time: f.type_supervisor,
            deleted: !!f.type_deleted,
          }
        : null,
    Pic: person(
      f.pic_id,
      {
        name: f.pic_name,
        surname: f.pic_surname,
        group: f.pic_group,
        active: f.pic_active,
        pilot: f.pic_pilot,
        deleted: f.pic_deleted,
      },
      full,
    ),
    Sic: person(
      f.sic_id,
      {
        name: f.sic_name,
        surname: f.sic_surname,
        group: f.sic_group,
        active: f.sic_active,
        pilot: f.sic_pilot,
        deleted: f.sic_deleted,
      },
      full,
    ),
  };
}
