import { type MessageId, translator } from '@ops/shared/i18n/index';

export type MailTemplate =
  | 'two_factor_code'
  | 'confirm'
  | 'welcome'
  | 'activation'
  | 'staff_confirm'
  | 'reminder'
  | 'class_invitation'
  | 'class_missed'
  | 'account_entry';
export type TemplateData = Record<string, string | number | undefined>;

const esc = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);

/** The message ids of each mail; `defaults` fill placeholders a caller may leave out. */
const TEMPLATES: Record<MailTemplate, { subject: MessageId; body: MessageId; defaults?: TemplateData }> = {
  two_factor_code: { subject: 'mail.twoFactorSubject', body: 'mail.twoFactorBody' },
  confirm: { subject: 'mail.confirmSubject', body: 'mail.confirmBody' },
  welcome: { subject: 'mail.welcomeSubject', body: 'mail.welcomeBody' },
  activation: { subject: 'mail.activationSubject', body: 'mail.activationBody' },
  staff_confirm: {
    subject: 'mail.staffConfirmSubject',
    body: 'mail.staffConfirmBody',
    // A login without a password gets an activation token, whose page also sets the password: `page: 'activate'`.
    defaults: { page: 'confirm' },
  },
  class_invitation: { subject: 'mail.classInvitationSubject', body: 'mail.classInvitationBody' },
  class_missed: { subject: 'mail.classMissedSubject', body: 'mail.classMissedBody' },
  account_entry: { subject: 'mail.accountEntrySubject', body: 'mail.accountEntryBody' },
  reminder: { subject: 'mail.reminderSubject', body: 'mail.reminderBody' },
};

/** A mail in the recipient's language (`locale`; English when unknown). */
export function renderTemplate(
  template: MailTemplate,
  data: TemplateData,
  locale?: string | null,
): { subject: string; text: string; html: string } {
  const t = TEMPLATES[template];
  const values = { ...t.defaults, ...data };
  const tr = translator(locale);
  const text = tr(t.body, values);
  const html = `<!doctype html><html><body><p>${esc(text).replace(/\n\n/g, '</p><p>').replace(/\n/g, '<br>')}</p></body></html>`;
  return { subject: tr(t.subject, values), text, html };
}
