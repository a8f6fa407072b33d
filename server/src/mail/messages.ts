import { uuidv7 } from '@ops/shared';
import { type MessageId, translator } from '@ops/shared/i18n/index';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { nowSeconds } from '../lib/tokens.ts';
import type { Logger } from '../logger.ts';

/** Chat channels a message can go through. */
export type MessageChannel = 'whatsapp';
export type MessageTemplate = 'whatsapp_code';

export interface MessageOutboxTable {
  id: string;
  company_id: string | null;
  channel: MessageChannel;
  /** E.164 phone number. */
  to_address: string;
  template: MessageTemplate;
  body_text: string;
  /** `outbox` (no provider: kept and logged), `sending`, `sent`, `failed`. */
  status: 'outbox' | 'sending' | 'sent' | 'failed';
  error: string | null;
  created: number;
  sent_at: number | null;
}

declare module '../db/schema.ts' {
  interface DB {
    message_outbox: MessageOutboxTable;
  }
}

const TEXTS: Record<MessageTemplate, MessageId> = {
  whatsapp_code: 'mail.whatsappCode',
};

/** The text of a message in `locale` (the recipient's language; English when absent). */
export function renderMessage(
  template: MessageTemplate,
  data: Record<string, string | number | undefined>,
  locale?: string | null,
): string {
  return translator(locale)(TEXTS[template], data);
}

/** A delivery provider of one channel (a WhatsApp Business API client, for example). */
export interface MessageProvider {
  channel: MessageChannel;
  send(to: string, text: string): Promise<void>;
}

const providers = new Map<MessageChannel, MessageProvider>();

/**
 * Installs (or with `null` removes) the provider of a channel. With none, messages
 * are kept in `message_outbox` with status `outbox` and logged, like mail without
 * SMTP_URL.
 */
export function setMessageProvider(channel: MessageChannel, provider: MessageProvider | null): void {
  if (provider) providers.set(channel, provider);
  else providers.delete(channel);
}

export interface OutgoingMessage {
  channel: MessageChannel;
  to: string;
  template: MessageTemplate;
  data: Record<string, string | number | undefined>;
  companyId?: string | null;
  locale?: string | null;
}

/** Writes the message to the outbox, then delivers it through the channel's provider when there is one. */
export async function sendMessage(db: Kysely<DB>, log: Logger, msg: OutgoingMessage): Promise<string> {
  const text = renderMessage(msg.template, msg.data, msg.locale);
  const provider = providers.get(msg.channel) ?? null;
  const id = uuidv7();
  await db
    .insertInto('message_outbox')
    .values({
      id,
      company_id: msg.companyId ?? null,
      channel: msg.channel,
      to_address: msg.to,
      template: msg.template,
      body_text: text,
      status: provider ? 'sending' : 'outbox',
      error: null,
      created: nowSeconds(),
      sent_at: null,
    })
    .execute();
  if (!provider) {
    log.info(
      { to: msg.to, channel: msg.channel, template: msg.template },
      `message kept in outbox (no ${msg.channel} provider)`,
    );
    return id;
  }
  try {
    await provider.send(msg.to, text);
    await db
      .updateTable('message_outbox')
      .set({ status: 'sent', sent_at: nowSeconds() })
      .where('id', '=', id)
      .execute();
  } catch (err) {
    log.error({ err, to: msg.to, channel: msg.channel }, 'message delivery failed');
    await db
      .updateTable('message_outbox')
      .set({ status: 'failed', error: String(err) })
      .where('id', '=', id)
      .execute();
  }
  return id;
}
