import type { ReplicatedBase } from '../../db/core-tables.ts';

/** Row types of migration 0100 (merged into DB). */
export interface SchedulesTable extends ReplicatedBase {
  aircraft_id: string;
  pilot_id: string;
  instructor_id: string | null;
  flight_type_id: string;
  base_id: string | null;
  start_at: number;
  end_at: number;
  status: string;
  flight_id: string | null;
  remarks: string | null;
  /** Who made the booking. */
  user_id: string | null;
  departure_airport: string | null;
  landing_airport: string | null;
}

export interface ScheduleFeedsTable {
  id: string;
  company_id: string;
  user_id: string;
  /** `user` or `aircraft`. */
  kind: string;
  subject_id: string;
  token_hash: string;
  created: number;
  revoked_at: number | null;
}

declare module '../../db/schema.ts' {
  interface DB {
    schedules: SchedulesTable;
    schedule_feeds: ScheduleFeedsTable;
  }
}
