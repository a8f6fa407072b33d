import type { ReplicatedBase } from '../../db/core-tables.ts';

/** Row types of migration 0040 (merged into DB). */
export interface FlightRiskAssessmentsTable {
  id: string;
  company_id: string;
  flight_id: string;
  user_id: string;
  /** JSON object factor key → chosen option key. */
  answers: string;
  score: number;
  level: string;
  mitigation: string | null;
  created: number;
  modified: number;
}

declare module '../../db/schema.ts' {
  interface DB {
    flight_counts: { company_id: string; status: string; count: number };
    company_airports: ReplicatedBase & { icao: string };
    flight_risk_assessments: FlightRiskAssessmentsTable;
  }
}

declare module '../../db/domain-tables.ts' {
  interface FlightsTable {
    /** Sort and date-range instant: offblocks, else takeoff, else midnight of `date` in the flight zone. */
    starts: number;
  }
}
