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

/** `defaults` fill placeholders a caller may leave out. */
const TEMPLATES: Record<MailTemplate, { subject: string; body: string; defaults?: TemplateData }> = {
  two_factor_code: {
    subject: 'Your sign-in code',
    body: 'Hello {name},\n\nYour sign-in code is {code}. It is valid for 10 minutes.\nIf you did not try to sign in, change your password.',
  },
  confirm: {
    subject: 'Confirm your email address',
    body: 'Hello {name},\n\nPlease confirm your email address {email} by opening:\n{appUrl}/confirm/{token}',
  },
  welcome: {
    subject: 'Welcome to {company}',
    body: 'Hello {name},\n\nYou now have an account at {company}. Sign in at {appUrl} with {email}.',
  },
  activation: {
    subject: 'Activate your account at {company}',
    body: 'Hello {name},\n\nYour account at {company} is ready. Set your password and sign in at {appUrl}/activate/{token}.',
  },
  staff_confirm: {
    subject: 'Your staff account at {company}',
    body: 'Hello {name},\n\nAn account was created for you at {company}. Confirm your email address at {appUrl}/{page}/{token}.',
    // A login without a password gets an activation token, whose page also sets the password: `page: 'activate'`.
    defaults: { page: 'confirm' },
  },
  class_invitation: {
    subject: 'Class: {subject} on {when}',
    body: 'Hello {name},\n\nYou are invited to the class {activity} of {subject} ({training}) on {when}, {minutes} minutes{place}.\nTeacher: {teacher}.',
  },
  class_missed: {
    subject: 'You missed the class {subject} on {when}',
    body: 'Hello {name},\n\nThe attendance of the class {activity} of {subject} ({training}) on {when} was signed and you were marked absent.\nYou may send a justification until {deadline}: {appUrl}/trainings/classes/{classId}',
  },
  account_entry: {
    subject: '{subject}',
    body: 'Hello {name},\n\n{text}\n\nYour account: {appUrl}/app/',
  },
  reminder: {
    subject: 'Reminder: activate your account at {company}',
    body: 'Hello {name},\n\nThis is a reminder to activate your account at {company}: {appUrl}/activate/{token}.',
  },
};

const fill = (s: string, data: TemplateData) => s.replace(/\{(\w+)\}/g, (_, k: string) => String(data[k] ?? ''));

export function renderTemplate(
  template: MailTemplate,
  data: TemplateData,
): { subject: string; text: string; html: string } {
  const t = TEMPLATES[template];
  const values = { ...t.defaults, ...data };
  const text = fill(t.body, values);
  const html = `<!doctype html><html><body><p>${esc(text).replace(/\n\n/g, '</p><p>').replace(/\n/g, '<br>')}</p></body></html>`;
  return { subject: fill(t.subject, values), text, html };
}
