import type { Kysely } from 'kysely';
import { replicated } from '../columns.ts';

/**
 * People (docs/areas/people.md): base duty schedules, pilot groups, the
 * aircraft and flight types attributed to a pilot, the account change history,
 * billing balances shown in the pilot directory, and the company's currency
 * requirements.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;

  // Part A 2.8 BaseSchedule. Replicated (personal collection). `start_at`/`end_at` avoid the
  // reserved word END; both are null on an always-available entry (`always` = 1).
  await replicated(s.createTable('base_schedules'))
    .addColumn('base_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('start_at', 'bigint')
    .addColumn('end_at', 'bigint')
    .addColumn('type', 'text', (c) => c.notNull().defaultTo('DUTY'))
    .addColumn('always', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'text')
    .execute();
  await s
    .createIndex('base_schedules_company_change')
    .on('base_schedules')
    .columns(['company_id', 'change_no', 'id'])
    .execute();
  await s
    .createIndex('base_schedules_company_base')
    .on('base_schedules')
    .columns(['company_id', 'base_id', 'start_at'])
    .execute();
  await s
    .createIndex('base_schedules_company_user')
    .on('base_schedules')
    .columns(['company_id', 'user_id', 'start_at'])
    .execute();

  // Part A 2.9 PilotGroup: not replicated (a manager tool); hard-deleted with its memberships.
  await s
    .createTable('pilot_groups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('color', 'text', (c) => c.notNull())
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('modified', 'bigint', (c) => c.notNull())
    .execute();
  await s.createIndex('pilot_groups_company_name').on('pilot_groups').columns(['company_id', 'name']).execute();

  await s
    .createTable('pilot_group_members')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('pilot_group_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('created', 'bigint', (c) => c.notNull())
    .execute();
  await s
    .createIndex('pilot_group_members_group_user')
    .on('pilot_group_members')
    .columns(['pilot_group_id', 'user_id'])
    .unique()
    .execute();
  await s
    .createIndex('pilot_group_members_company_user')
    .on('pilot_group_members')
    .columns(['company_id', 'user_id'])
    .execute();

  // Part A 4.8 items 4 and 5: AttributedAircraft and FlightType joins of a pilot.
  for (const [table, column] of [
    ['pilot_aircraft', 'aircraft_id'],
    ['pilot_flight_types', 'flight_type_id'],
  ] as const) {
    await s
      .createTable(table)
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('company_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn(column, 'text', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .execute();
    await s
      .createIndex(`${table}_company_user`)
      .on(table)
      .columns(['company_id', 'user_id', column])
      .unique()
      .execute();
  }

  // Account change history (GET /pilots/changes/{userId}.json).
  await s
    .createTable('user_changes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('changed_by', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('created', 'bigint', (c) => c.notNull())
    .execute();
  await s
    .createIndex('user_changes_company_user')
    .on('user_changes')
    .columns(['company_id', 'user_id', 'created'])
    .execute();

  // Directory filters and base views by base.
  await s.createIndex('users_company_base').on('users').columns(['company_id', 'base_id', 'user_group_id']).execute();

  // Balances shown in the pilot directory and view when billing is on (null: no billing record yet).
  await s.alterTable('users').addColumn('billing_balance', 'double precision').execute();
  await s.alterTable('users').addColumn('package_balance', 'double precision').execute();

  // Part A 4.8 item 7: JSON {landings, night_landings, hours}; null means the defaults.
  await s.alterTable('companies').addColumn('currency_requirements', 'text').execute();
}

export async function down(): Promise<void> {}
