import { mayEditAircraftOffline } from '../rules/aircraft/policy.ts';
import { type CollectionDef, s } from './types.ts';

export interface AircraftDoc {
  id: string;
  registration: string;
  model_name: string | null;
  model_icao: string | null;
  manufacturer_name: string | null;
  multiengine: boolean;
  multipilot: boolean;
  simulator: boolean;
  active: boolean;
  hours: number;
  landings: number;
  flights: number;
  user_id: string | null;
  base_id: string | null;
}

export const aircraftCollection: CollectionDef<AircraftDoc> = {
  name: 'aircraft',
  version: 0,
  schema: {
    properties: {
      id: s.id,
      registration: s.reqStr,
      model_name: s.str,
      model_icao: s.str,
      manufacturer_name: s.str,
      multiengine: s.bool,
      multipilot: s.bool,
      simulator: s.bool,
      active: s.bool,
      hours: { type: 'number' },
      landings: s.int,
      flights: s.int,
      user_id: s.str,
      base_id: s.str,
    },
    required: ['id', 'registration', 'active'],
  },
  rows: { kind: 'company' },
  visible: (doc) => doc,
  writableFields: ['registration', 'active', 'base_id', 'user_id'],
  canPush: (v) => mayEditAircraftOffline(v),
};
