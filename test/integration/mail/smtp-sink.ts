import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  /** Decoded plain-text part. */
  text: string;
  raw: string;
}

/** Quoted-printable (RFC 2045) as nodemailer writes text parts. */
function decodeQuotedPrintable(s: string): string {
  const bytes = s
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** Subject header, unfolded, with RFC 2047 encoded words decoded. */
function subjectOf(headers: string): string {
  const m = /^Subject: (.*(?:\r?\n[ \t].*)*)/im.exec(headers);
  if (!m) return '';
  return m[1]
    .replace(/\r?\n[ \t]/g, ' ')
    .replace(/=\?utf-8\?([QB])\?(.*?)\?=/gi, (_, enc: string, data: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : decodeQuotedPrintable(data.replace(/_/g, ' ')),
    )
    .replace(/\?=\s+=\?/g, '');
}

/** The text/plain part of a nodemailer message (multipart/alternative with text and html). */
function textOf(raw: string): string {
  const parts = raw.split(/\r?\n--[^\r\n]+\r?\n/);
  for (const part of parts) {
    const split = part.search(/\r?\n\r?\n/);
    if (split === -1) continue;
    const headers = part.slice(0, split);
    if (!/^Content-Type: text\/plain/im.test(headers)) continue;
    const body = part.slice(split).replace(/^\r?\n\r?\n/, '');
    if (/Content-Transfer-Encoding: quoted-printable/i.test(headers)) return decodeQuotedPrintable(body);
    if (/Content-Transfer-Encoding: base64/i.test(headers))
      return Buffer.from(body.replace(/\s/g, ''), 'base64').toString('utf8');
    return body;
  }
  return '';
}

/**
 * A real SMTP server on an ephemeral port for tests: no auth, no TLS. Pass
 * `smtpUrl` as SMTP_URL to the test server and wait for messages.
 */
export async function startSmtpSink() {
  const messages: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    secure: false,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const split = raw.search(/\r?\n\r?\n/);
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          subject: subjectOf(raw.slice(0, split)),
          text: textOf(raw),
          raw,
        });
        for (const w of waiters) w();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    smtpUrl: `smtp://127.0.0.1:${port}`,
    messages,
    /** Mails received for `to` so far. */
    to: (address: string) => messages.filter((m) => m.to.includes(address.toLowerCase())),
    /** Resolves with the first message matching, or rejects after the timeout. */
    waitFor(pred: (m: ReceivedMail) => boolean, timeoutMs = 10_000): Promise<ReceivedMail> {
      return new Promise((resolve, reject) => {
        const check = () => {
          const hit = messages.find(pred);
          if (hit) {
            cleanup();
            resolve(hit);
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(
            new Error(
              `no mail matched within ${timeoutMs} ms; got ${messages.map((m) => `${m.to.join(',')}: ${m.subject}`).join(' | ') || 'none'}`,
            ),
          );
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
