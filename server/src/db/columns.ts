import type { CreateTableBuilder } from 'kysely';

/** Column helpers shared by every migration so both dialects get the same shapes. */
// biome-ignore lint/suspicious/noExplicitAny: Kysely's builder is generic over unknown table names here
type Table = CreateTableBuilder<any, any>;

export const T = {
  id: 'text',
  text: 'text',
  int: 'integer',
  bigint: 'bigint',
  real: 'double precision',
  bool: 'integer',
} as const;

/** `id` UUID primary key, `company_id`, and the sync columns of a replicated table. */
export function replicated(t: Table): Table {
  return t
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('change_no', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('modified', 'bigint', (c) => c.notNull());
}
