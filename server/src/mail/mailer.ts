import { uuidv7 } from '@ops/shared';
import type { Kysely } from 'kysely';
import nodemailer, { type Transporter } from 'nodemailer';
import type { DB } from '../db/schema.ts';
import { nowSeconds } from '../lib/tokens.ts';
import type { Logger } from '../logger.ts';
import { renderTemplate, type MailTemplate, type TemplateData } from './templates.ts';

export interface OutgoingMail {
  to: string;
  template: MailTemplate;
  data: TemplateData;
  companyId?: string | null;
  /** The recipient's language; when absent, the `language` of the user with that address. */
  locale?: string | null;
}

/**
 * Every mail is written to the `mail_outbox` table (an audit trail, and the
 * delivery when no SMTP server is configured); with SMTP_URL it is also sent
 * through nodemailer and marked `sent` or `failed`.
 */
export class Mailer {
  private readonly transport: Transporter | null;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly log: Logger,
    smtpUrl: string | null,
    private readonly from: string,
    private readonly publicUrl: string,
  ) {
    this.transport = smtpUrl ? nodemailer.createTransport(smtpUrl) : null;
  }

  async send(mail: OutgoingMail): Promise<string> {
    const locale = mail.locale ?? (await this.recipientLanguage(mail.to, mail.companyId ?? null));
    const { subject, text, html } = renderTemplate(mail.template, { appUrl: this.publicUrl, ...mail.data }, locale);
    const id = uuidv7();
    await this.db
      .insertInto('mail_outbox')
      .values({
        id,
        company_id: mail.companyId ?? null,
        to_address: mail.to,
        subject,
        template: mail.template,
        body_text: text,
        body_html: html,
        status: this.transport ? 'sending' : 'outbox',
        error: null,
        created: nowSeconds(),
        sent_at: null,
      })
      .execute();
    if (!this.transport) {
      this.log.info({ to: mail.to, subject, template: mail.template }, 'mail kept in outbox (no SMTP_URL)');
      return id;
    }
    try {
      await this.transport.sendMail({ from: this.from, to: mail.to, subject, text, html });
      await this.db
        .updateTable('mail_outbox')
        .set({ status: 'sent', sent_at: nowSeconds() })
        .where('id', '=', id)
        .execute();
    } catch (err) {
      this.log.error({ err, to: mail.to }, 'mail delivery failed');
      await this.db
        .updateTable('mail_outbox')
        .set({ status: 'failed', error: String(err) })
        .where('id', '=', id)
        .execute();
    }
    return id;
  }

  /** The language of the user the address belongs to (in the mail's company when it has one). */
  private async recipientLanguage(to: string, companyId: string | null): Promise<string | null> {
    let q = this.db.selectFrom('users').select('language').where('email', '=', to);
    if (companyId) q = q.where('company_id', '=', companyId);
    const row = await q.limit(1).executeTakeFirst();
    return row?.language ?? null;
  }

  close(): void {
    this.transport?.close();
  }
}
