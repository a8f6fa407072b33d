import type { Kysely } from 'kysely';

/**
 * Flights list filters (docs/areas/flights.md, List). The page is ordered by
 * (starts, id); the per-filter indexes of 0040 ended at `starts`, so a filter
 * could not hand the page over in order and SQLite (no planner statistics)
 * walked the company's (company, starts, id) index until 20 rows matched: a
 * rare combination read most of the company. Each filter column now leads an
 * index that ends in the full sort key, so the filtered page (and the keyset
 * batches of a streamed page) is one ordered range; `status` (always in the
 * WHERE) is appended so a count of one filter is answered from the index
 * alone. The old indexes are prefixes of the new ones and go, so writes do
 * not pay for both.
 */
const FILTERS = [
  ['aircraft', 'aircraft_id'],
  ['base', 'base_id'],
  ['type', 'flight_type_id'],
  ['pic', 'pic_id'],
  ['sic', 'sic_id'],
  ['supervisor', 'supervisor_id'],
  ['user', 'user_id'],
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  for (const [name, column] of FILTERS) {
    await s
      .createIndex(`flights_company_${name}_starts_id`)
      .on('flights')
      .columns(['company_id', column, 'starts', 'id', 'status'])
      .execute();
    await s.dropIndex(`flights_company_${name}_starts`).ifExists().execute();
  }
  // `status:` alone (DRAFT, CANCELED... often few rows): one ordered range per status.
  await s
    .createIndex('flights_company_status_starts_id')
    .on('flights')
    .columns(['company_id', 'status', 'starts', 'id'])
    .execute();
}

export async function down(): Promise<void> {}
