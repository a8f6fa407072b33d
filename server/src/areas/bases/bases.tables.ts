import type { ReplicatedBase } from '../../db/core-tables.ts';
import type { Bool } from '../../db/schema.ts';

/** Part A 2.8 BaseSchedule rows (migration 0020). */
export interface BaseSchedulesTable extends ReplicatedBase {
  base_id: string;
  user_id: string;
  /** Unix seconds; null on an always-available entry. */
  start_at: number | null;
  end_at: number | null;
  type: string;
  always: Bool;
  created_by: string | null;
}

declare module '../../db/schema.ts' {
  interface DB {
    base_schedules: BaseSchedulesTable;
  }
}
