/** Columns added to `aircraft` by migration 0030 (merged into the core row type). */
declare module '../../db/core-tables.ts' {
  interface AircraftTable {
    /** Certificate expiry dates, `YYYY-MM-DD` or null (Part A 2.4 `Aircraft` alerts). */
    insurance_expiration: string | null;
    airworthiness_expiration: string | null;
    registration_expiration: string | null;
    weight_balance_expiration: string | null;
    radio_expiration: string | null;
    avionics_expiration: string | null;
    serial_number: string | null;
  }
}

export const CERTIFICATES = [
  'insurance',
  'airworthiness',
  'registration',
  'weight_balance',
  'radio',
  'avionics',
] as const;
export type Certificate = (typeof CERTIFICATES)[number];
export const certificateColumn = (c: Certificate) => `${c}_expiration` as const;
