import {
  AIR_SPACES,
  DAMAGES,
  FLIGHT_PHASES,
  PERSONAL_DAMAGES,
  RISK_PROBABILITIES,
  RISK_SEVERITIES,
  SAFETY_SEVERITIES,
  SAFETY_STATUSES,
  SAFETY_TYPES,
} from '@ops/shared/rules/safety-reports/safety';
import type { SafetyReportsTable } from './safety-reports.tables.ts';

type Row = SafetyReportsTable;
/** A stored JSON id list; anything unreadable is none. */
export const parseIds = (json: string): string[] => {
  try {
    const v = JSON.parse(json);
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
};

/** Presented report fields: reads as the spec (datetime, ids), the author and the filing form's id hidden, sets as lists. */
export function present(r: Row) {
  const {
    author_id: _a,
    crew_pic_id: _p,
    crew_sic_id: _s,
    crew_supervisor_id: _v,
    aircraft_ids,
    involved_user_ids,
    idn_year: _y,
    idn_seq: _q,
    child_no: _n,
    change_no: _c,
    client_id: _f,
    ...rest
  } = r;
  return {
    ...rest,
    deleted: Boolean(r.deleted),
    involved_users: parseIds(involved_user_ids),
    aircraft_ids: parseIds(aircraft_ids),
  };
}

/** GET stats.json: the reference enumerations. */
export function enumerations() {
  return {
    result: true,
    status: SAFETY_STATUSES,
    severity: SAFETY_SEVERITIES,
    type: SAFETY_TYPES,
    flight_phase: Object.entries(FLIGHT_PHASES).map(([key, label]) => ({ key, label })),
    damages: Object.entries(DAMAGES).map(([key, label]) => ({ key, label })),
    personal_damages: Object.entries(PERSONAL_DAMAGES).map(([key, label]) => ({ key, label })),
    air_space: Object.entries(AIR_SPACES).map(([key, label]) => ({ key, label })),
    risk_probability: Object.entries(RISK_PROBABILITIES).map(([key, v]) => ({ key, ...v })),
    risk_severity: Object.entries(RISK_SEVERITIES).map(([key, v]) => ({ key, ...v })),
  };
}
