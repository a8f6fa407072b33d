import type { Kysely } from 'kysely';

/**
 * Company, news, users and profile (docs/areas/company-news-users.md):
 * operating hours, reference-document stamps, news with recipients and
 * signatures, and one-time email tokens (activation, address confirmation).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;

  // Part A 2.3: one row per window, closed day or dated override; base_id null is the company scope.
  await s
    .createTable('operating_hours')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('base_id', 'text')
    .addColumn('weekday', 'integer')
    .addColumn('override_date', 'text')
    .addColumn('closed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('start_minute', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('end_minute', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created', 'bigint', (c) => c.notNull())
    .execute();
  await s
    .createIndex('operating_hours_company_base')
    .on('operating_hours')
    .columns(['company_id', 'base_id'])
    .execute();
  await s
    .createIndex('operating_hours_company_date')
    .on('operating_hours')
    .columns(['company_id', 'override_date'])
    .execute();

  // Reference documents built from several rows (operating hours, permissions) get their
  // change number here: one row per document, stamped by every write that changes it.
  await s
    .createTable('reference_stamps')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('change_no', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('modified', 'bigint', (c) => c.notNull())
    .execute();
  await s
    .createIndex('reference_stamps_company_change')
    .on('reference_stamps')
    .columns(['company_id', 'change_no', 'id'])
    .execute();

  // News (Part A 2.5). company_id null with public = 1 is the platform's public feed.
  await s
    .createTable('news')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text')
    .addColumn('change_no', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('modified', 'bigint', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('base_id', 'text')
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('category', 'text')
    .addColumn('content', 'text')
    .addColumn('sign', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('notification', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('public', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('view_count', 'integer', (c) => c.notNull().defaultTo(0))
    // Publication date and time shown as News.created: company wall clock, `YYYY-MM-DD HH:MM:SS`.
    .addColumn('published', 'text', (c) => c.notNull())
    .execute();
  await s.createIndex('news_company_change').on('news').columns(['company_id', 'change_no', 'id']).execute();
  await s.createIndex('news_company_published').on('news').columns(['company_id', 'deleted', 'published']).execute();
  await s.createIndex('news_company_slug').on('news').columns(['company_id', 'slug']).execute();

  await s
    .createTable('news_recipients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('news_id', 'text', (c) => c.notNull())
    .addColumn('user_group_id', 'integer', (c) => c.notNull())
    .execute();
  await s
    .createIndex('news_recipients_news')
    .on('news_recipients')
    .columns(['news_id', 'user_group_id'])
    .unique()
    .execute();
  await s
    .createIndex('news_recipients_company_role')
    .on('news_recipients')
    .columns(['company_id', 'user_group_id', 'news_id'])
    .execute();

  await s
    .createTable('news_signatures')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('news_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('created', 'bigint', (c) => c.notNull())
    .execute();
  // One signature per person and article; a concurrent second sign loses on this index.
  await s
    .createIndex('news_signatures_news_user')
    .on('news_signatures')
    .columns(['news_id', 'user_id'])
    .unique()
    .execute();

  // One-time links mailed to people: account activation (set a password) and address confirmation.
  await s
    .createTable('email_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('identity_id', 'text')
    .addColumn('user_id', 'text')
    .addColumn('company_id', 'text')
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('created', 'bigint', (c) => c.notNull())
    .execute();
  await s.createIndex('email_tokens_identity').on('email_tokens').columns(['identity_id', 'purpose']).execute();
  await s.createIndex('email_tokens_user').on('email_tokens').columns(['user_id', 'purpose']).execute();
}

export async function down(): Promise<void> {}
