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
