import type { Generated } from 'kysely';

/**
 * The Kysely database interface. Each area adds its tables by declaration merging
 * (`declare module '../../db/schema.ts' { interface DB { ... } }` in its
 * `<area>.tables.ts`), so areas never edit one shared file.
 *
 * Conventions (both dialects): ids are UUID text; booleans are integers 0/1;
 * instants are unix seconds (bigint); calendar dates are `YYYY-MM-DD` text.
 * Replicated tables carry `change_no` (server-assigned, per company, see
 * docs/sync.md) and `deleted` (tombstone).
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging in each area
export interface DB {}

export interface SyncColumns {
  change_no: number;
  deleted: number;
}

export type Bool = number;
export type { Generated };
