/** Row types of migration 0135 (duty running totals, kept by `settleDutyFlight`). */
export interface DutyFlightsTable {
  company_id: string;
  flight_id: string;
  user_id: string;
  offblocks: number;
  onblocks: number;
  flight_time: number;
  simulator: number;
}

export interface DutyMonthsTable {
  company_id: string;
  user_id: string;
  /** Unix seconds of the UTC month's first instant. */
  month: number;
  /** Flight seconds of the month's flights by off-blocks, simulators left out. */
  flight_seconds: number;
  /** Flights (simulator sessions included) counted in the month. */
  flights: number;
}

declare module '../../db/schema.ts' {
  interface DB {
    duty_flights: DutyFlightsTable;
    duty_months: DutyMonthsTable;
  }
}
