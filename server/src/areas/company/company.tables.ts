import type { Bool } from '../../db/schema.ts';

/** Row types of migration 0011 used by the company area. */
export interface OperatingHoursTable {
  id: string;
  company_id: string;
  base_id: string | null;
  weekday: number | null;
  override_date: string | null;
  closed: Bool;
  start_minute: number;
  end_minute: number;
  created: number;
}

/** Change number of a reference document assembled from several rows (docs/sync.md). */
export interface ReferenceStampsTable {
  id: string;
  company_id: string;
  type: string;
  change_no: number;
  deleted: number;
  created: number;
  modified: number;
}

declare module '../../db/schema.ts' {
  interface DB {
    operating_hours: OperatingHoursTable;
    reference_stamps: ReferenceStampsTable;
  }
}
