import type { TestServer } from '../../setup/server.ts';

/** Signs in, answering an EMAIL two-factor challenge (the auditor) with the code from the outbox. */
export async function signIn(s: TestServer, email: string, password = 'demo1234'): Promise<string> {
  const r = await s.api('POST', '/login.json', { body: { email, password } });
  if (r.body?.token) return r.body.token;
  if (r.body?.two_factor !== 'EMAIL') throw new Error(`login ${email}: ${r.status} ${JSON.stringify(r.body)}`);
  const mail = await s.ctx.db
    .selectFrom('mail_outbox')
    .select('body_text')
    .where('to_address', '=', email)
    .where('template', '=', 'two_factor_code')
    .orderBy('created', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const code = /code is (\d{6})/.exec(mail.body_text)![1];
  const v = await s.api('POST', '/login/verify.json', { body: { challenge: r.body.challenge, code } });
  if (!v.body?.token) throw new Error(`verify ${email}: ${v.status} ${JSON.stringify(v.body)}`);
  return v.body.token;
}

/** A calendar date `days` from today in the company zone of Skyline. */
export function dateIn(days: number, zone = 'Europe/Madrid'): string {
  const now = new Date(Date.now() + days * 86400_000);
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}
