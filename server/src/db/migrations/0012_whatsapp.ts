import type { Kysely } from 'kysely';

/**
 * WhatsApp opt-in (Part A 4.8 items 5 and 8, docs/areas/company-news-users.md):
 * single-use verification codes, and the outbox of chat messages (kept and
 * logged when no WhatsApp provider is configured, as mail without SMTP_URL).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;

  await s
    .createTable('whatsapp_verifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('identity_id', 'text', (c) => c.notNull())
    // E.164, `+` and 8 to 15 digits.
    .addColumn('phone', 'text', (c) => c.notNull())
    // SHA-256 of `{id}:{code}`; the code itself is never stored.
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('verified_at', 'bigint')
    .addColumn('created', 'bigint', (c) => c.notNull())
    .execute();
  await s
    .createIndex('whatsapp_verifications_company_user')
    .on('whatsapp_verifications')
    .columns(['company_id', 'user_id', 'created'])
    .execute();
  await s
    .createIndex('whatsapp_verifications_identity')
    .on('whatsapp_verifications')
    .columns(['identity_id', 'created'])
    .execute();

  await s
    .createTable('message_outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text')
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('template', 'text', (c) => c.notNull())
    .addColumn('body_text', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .execute();
  await s.createIndex('message_outbox_to').on('message_outbox').columns(['to_address', 'created']).execute();
}

export async function down(): Promise<void> {}
