import type { Kysely } from 'kysely';
import { replicated } from '../columns.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;

  // Per-company change counter: the row lock orders commits (docs/sync.md).
  await s
    .createTable('sync_counters')
    .addColumn('company_id', 'text', (c) => c.primaryKey())
    .addColumn('value', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();

  await s
    .createTable('companies')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('change_no', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('api', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('plan', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull().defaultTo('school'))
    .addColumn('timezone', 'text', (c) => c.notNull())
    .addColumn('flight_timezone', 'text')
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('EUR'))
    .addColumn('country_iso', 'text')
    .addColumn('icao', 'text')
    .addColumn('zip', 'text')
    .addColumn('logo', 'text')
    .addColumn('color', 'text')
    .addColumn('date_format', 'text', (c) => c.notNull().defaultTo('YYYY-MM-DD'))
    .addColumn('time_format', 'text', (c) => c.notNull().defaultTo('24'))
    .addColumn('duration_format', 'text', (c) => c.notNull().defaultTo('time'))
    .addColumn('aoc', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('extracrew', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cabincrew', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_duty_hours', 'double precision')
    .addColumn('max_flight_hours_year', 'double precision')
    .addColumn('flags', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('billing_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('billing_billed_person', 'text')
    .addColumn('billing_tax', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('billing_send_notification', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('billing_public_key', 'text')
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('modified', 'bigint', (c) => c.notNull())
    .execute();

  // A login identity: one email and password, shared by every company account of it.
  await s
    .createTable('identities')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('alerts', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('message_alerts', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('newsletter', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('whatsapp', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('modified', 'bigint', (c) => c.notNull())
    .execute();

  await replicated(s.createTable('users'))
    .addColumn('identity_id', 'text', (c) => c.references('identities.id'))
    .addColumn('email', 'text')
    .addColumn('email_status', 'text', (c) => c.notNull().defaultTo('confirmed'))
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('pilot', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('billing', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('user_group_id', 'integer', (c) => c.notNull())
    .addColumn('base_id', 'text')
    .addColumn('supervisor_id', 'text')
    .addColumn('language', 'text', (c) => c.notNull().defaultTo('en'))
    .addColumn('api', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('two_factor', 'text', (c) => c.notNull().defaultTo('OFF'))
    .addColumn('totp_secret', 'text')
    .addColumn('expiration', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('surname', 'text', (c) => c.notNull())
    .addColumn('passport', 'text')
    .addColumn('companyid', 'text')
    .addColumn('dob', 'text')
    .addColumn('phonecode', 'text')
    .addColumn('phone', 'text')
    .addColumn('phonecode2', 'text')
    .addColumn('phone2', 'text')
    .addColumn('emergency_contact', 'text')
    .addColumn('public_phone', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('address', 'text')
    .addColumn('pc', 'text')
    .addColumn('city', 'text')
    .addColumn('country_id', 'text')
    .addColumn('timezone_id', 'text')
    .addColumn('nationality', 'text')
    .addColumn('birthcountry_id', 'text')
    .addColumn('photo', 'text')
    .addColumn('flight_hours', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('color', 'text')
    .addColumn('notes', 'text')
    .execute();
  await s.createIndex('users_company_change').on('users').columns(['company_id', 'change_no', 'id']).execute();
  await s
    .createIndex('users_company_role')
    .on('users')
    .columns(['company_id', 'user_group_id', 'name', 'surname'])
    .execute();
  await s.createIndex('users_identity').on('users').column('identity_id').execute();
  await s.createIndex('users_company_email').on('users').columns(['company_id', 'email']).execute();

  await replicated(s.createTable('bases'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('airport_id', 'text')
    .execute();
  await s.createIndex('bases_company_change').on('bases').columns(['company_id', 'change_no', 'id']).execute();
  await s.createIndex('bases_company_name').on('bases').columns(['company_id', 'name']).execute();

  await s
    .createTable('aircraft_manufacturers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .execute();
  await s
    .createTable('aircraft_models')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('manufacturer_id', 'text', (c) => c.notNull().references('aircraft_manufacturers.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('icao', 'text')
    .execute();

  await replicated(s.createTable('aircraft'))
    .addColumn('registration', 'text', (c) => c.notNull())
    .addColumn('model_id', 'text', (c) => c.references('aircraft_models.id'))
    .addColumn('multiengine', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('multipilot', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('simulator', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('hours', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('landings', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('flights', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('user_id', 'text')
    .addColumn('base_id', 'text')
    .addColumn('photo', 'text')
    .addColumn('adsb', 'text')
    .execute();
  await s.createIndex('aircraft_company_change').on('aircraft').columns(['company_id', 'change_no', 'id']).execute();
  await s.createIndex('aircraft_company_registration').on('aircraft').columns(['company_id', 'registration']).execute();

  await s
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('identity_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('expires', 'bigint', (c) => c.notNull())
    .addColumn('last_seen', 'bigint', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('revoked', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await s.createIndex('sessions_user').on('sessions').columns(['user_id', 'revoked']).execute();

  await s
    .createTable('user_logins')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('method', 'text', (c) => c.notNull())
    .execute();
  await s
    .createIndex('user_logins_company_user')
    .on('user_logins')
    .columns(['company_id', 'user_id', 'created'])
    .execute();

  await s
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key_prefix', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('last_used_at', 'bigint')
    .addColumn('expires', 'bigint')
    .addColumn('revoked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('revoked_at', 'bigint')
    .addColumn('created', 'bigint', (c) => c.notNull())
    .execute();
  await s.createIndex('api_keys_company').on('api_keys').columns(['company_id', 'created']).execute();

  await s
    .createTable('login_challenges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text')
    .addColumn('expires', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ip', 'text')
    .addColumn('created', 'bigint', (c) => c.notNull())
    .execute();

  await s
    .createTable('auth_failures')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .execute();

  await s
    .createTable('mail_outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text')
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('template', 'text', (c) => c.notNull())
    .addColumn('body_text', 'text', (c) => c.notNull())
    .addColumn('body_html', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .execute();
  await s.createIndex('mail_outbox_to').on('mail_outbox').columns(['to_address', 'created']).execute();

  await s
    .createTable('company_permissions')
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('role', 'integer', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('allowed', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('company_permissions_pk', ['company_id', 'role', 'key'])
    .execute();
}

export async function down(): Promise<void> {}
