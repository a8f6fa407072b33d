import type { ReplicatedBase } from '../db/core-tables.ts';

declare module '../db/schema.ts' {
  interface DB {
    sync_horizons: { company_id: string; seq: number; purged_at: number };
    sync_outcomes: ReplicatedBase & {
      user_id: string;
      collection: string;
      document_id: string;
      status: string;
      reason: string;
      attempted: string | null;
    };
    commands: ReplicatedBase & {
      user_id: string;
      name: string;
      args: string;
      client_time: number;
      status: string;
      reason: string | null;
      details: string | null;
      result: string | null;
      decided_at: number | null;
    };
  }
}
