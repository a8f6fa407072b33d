/** Shapes aircraft rows into the CONTRACT 4 wrappers. */
export interface AircraftRow {
  id: string;
  registration: string;
  multiengine: number;
  multipilot: number;
  simulator: number;
  active: number;
  hours: number;
  landings: number;
  user_id: string | null;
  base_id: string | null;
  model_name: string | null;
  model_icao: string | null;
  manufacturer_name: string | null;
}

export function presentAircraft(r: AircraftRow) {
  return {
    Aircraft: {
      id: r.id,
      registration: r.registration,
      multiengine: !!r.multiengine,
      multipilot: !!r.multipilot,
      simulator: !!r.simulator,
      active: !!r.active,
      hours: r.hours,
      landings: r.landings,
      user_id: r.user_id,
      base_id: r.base_id,
    },
    AircraftModel: { name: r.model_name, icao: r.model_icao, AircraftManufacturer: { name: r.manufacturer_name } },
  };
}

export interface AircraftDetailsRow {
  model_id: string | null;
  serial_number: string | null;
  adsb: string | null;
  insurance_expiration: string | null;
  airworthiness_expiration: string | null;
  registration_expiration: string | null;
  weight_balance_expiration: string | null;
  radio_expiration: string | null;
  avionics_expiration: string | null;
}

/** Fields the view adds to the CONTRACT 4 `Aircraft` wrapper: model id, serial, certificate expiry dates. */
export function presentAircraftDetails(r: AircraftDetailsRow) {
  return {
    model_id: r.model_id,
    serial_number: r.serial_number,
    adsb: r.adsb,
    insurance_expiration: r.insurance_expiration,
    airworthiness_expiration: r.airworthiness_expiration,
    registration_expiration: r.registration_expiration,
    weight_balance_expiration: r.weight_balance_expiration,
    radio_expiration: r.radio_expiration,
    avionics_expiration: r.avionics_expiration,
  };
}
