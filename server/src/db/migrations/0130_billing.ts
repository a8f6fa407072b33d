import type { Kysely } from 'kysely';
import { replicated } from '../columns.ts';

/**
 * Billing (CONTRACT 6, docs/areas/billing.md): rates, the append-only ledger
 * of entries and one account per user and company holding the totals of its
 * entries (updated in the transaction of each entry). Money is integer cents,
 * hours integer seconds. The old floating point balance columns on `users`,
 * which nothing wrote, go.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s
    .createTable('billing_rates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('modified', 'bigint', (c) => c.notNull())
    .execute();
  await s
    .createIndex('billing_rates_target')
    .on('billing_rates')
    .columns(['company_id', 'kind', 'target_id'])
    .unique()
    .execute();

  // The account: totals of its entries, and the last entries for the owner's devices (replicated, `personal` type `account`).
  await replicated(s.createTable('billing_accounts'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('balance', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('package_seconds', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('entry_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('recent', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await s
    .createIndex('billing_accounts_user')
    .on('billing_accounts')
    .columns(['company_id', 'user_id'])
    .unique()
    .execute();
  await s
    .createIndex('billing_accounts_company_change')
    .on('billing_accounts')
    .columns(['company_id', 'change_no', 'id'])
    .execute();
  await s.createIndex('billing_accounts_balance').on('billing_accounts').columns(['company_id', 'balance']).execute();

  await s
    .createTable('billing_entries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('tax', 'bigint', (c) => c.notNull())
    .addColumn('seconds', 'bigint', (c) => c.notNull())
    .addColumn('package_seconds', 'bigint', (c) => c.notNull())
    .addColumn('aircraft_id', 'text')
    .addColumn('flight_id', 'text')
    .addColumn('reverses_id', 'text')
    .addColumn('reference', 'text')
    .addColumn('description', 'text')
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .execute();
  await s
    .createIndex('billing_entries_account')
    .on('billing_entries')
    .columns(['company_id', 'user_id', 'created', 'id'])
    .execute();
  await s.createIndex('billing_entries_flight').on('billing_entries').columns(['company_id', 'flight_id']).execute();
  await s
    .createIndex('billing_entries_company_created')
    .on('billing_entries')
    .columns(['company_id', 'created', 'id'])
    .execute();
  // An entry is reversed at most once; a provider's event is credited at most once (nulls are distinct in both databases).
  await s
    .createIndex('billing_entries_reverses')
    .on('billing_entries')
    .columns(['company_id', 'reverses_id'])
    .unique()
    .execute();
  await s
    .createIndex('billing_entries_reference')
    .on('billing_entries')
    .columns(['company_id', 'reference'])
    .unique()
    .execute();

  await s
    .alterTable('companies')
    .addColumn('billing_basis', 'text', (c) => c.notNull().defaultTo('block'))
    .execute();
  // The payment provider's secret key and webhook signing secret, AES-GCM under SECRETS_KEY; never returned.
  await s
    .createTable('billing_providers')
    .addColumn('company_id', 'text', (c) => c.primaryKey())
    .addColumn('secret_key', 'text')
    .addColumn('webhook_secret', 'text')
    .addColumn('modified', 'bigint', (c) => c.notNull())
    .execute();

  // Mails about new entries (CompanyBillingSetting.send_notification), written with the entry, sent by the `billing.mail` job.
  await s
    .createTable('billing_mail_queue')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('sent', 'bigint')
    .execute();
  await s.createIndex('billing_mail_queue_due').on('billing_mail_queue').columns(['sent', 'created']).execute();

  await s.alterTable('users').dropColumn('billing_balance').execute();
  await s.alterTable('users').dropColumn('package_balance').execute();
}

export async function down(): Promise<void> {}
