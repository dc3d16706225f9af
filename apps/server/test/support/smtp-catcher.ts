import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message as the SMTP server received it, with its plain-text part decoded for assertions. */
export interface CaughtMail {
  from: string;
  to: string[];
  /** the login the client authenticated with, if any */
  auth?: { username: string; password: string };
  subject: string;
  text: string;
  html: string;
  raw: string;
}

export interface SmtpCatcher {
  port: number;
  messages: CaughtMail[];
  /** messages whose DATA was read in full and then refused with a 554, as a failing mail server does */
  refused: CaughtMail[];
  /** when true, every message is read and then refused */
  isRefusing: boolean;
  /** the oldest message to `address` not yet taken, waiting up to 5 s for it */
  nextMailTo(address: string): Promise<CaughtMail>;
  /** marks every message so far as taken (between tests) */
  forget(): void;
  close(): Promise<void>;
}

/**
 * A real SMTP server on 127.0.0.1: the gateway talks SMTP to it (EHLO, AUTH, MAIL, RCPT, DATA) and the test
 * reads what arrived. STARTTLS is not offered (no certificate); `account`/`password` are required when set.
 */
export async function startSmtpCatcher(credentials?: {
  account: string;
  password: string;
}): Promise<SmtpCatcher> {
  const messages: CaughtMail[] = [];
  const refused: CaughtMail[] = [];
  const waiters: Array<{ address: string; resolve: (mail: CaughtMail) => void }> = [];
  const logins = new Map<string, { username: string; password: string }>();
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: !credentials,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, session, callback) {
      logins.set(session.id, { username: auth.username ?? '', password: auth.password ?? '' });
      if (credentials && (auth.username !== credentials.account || auth.password !== credentials.password)) {
        callback(new Error('Invalid username or password'));
        return;
      }
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const parsed = parseMessage(raw);
        const mail: CaughtMail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          auth: logins.get(session.id),
          raw,
          ...parsed,
        };
        if (catcher.isRefusing) {
          refused.push(mail);
          callback(Object.assign(new Error('Message rejected by policy'), { responseCode: 554 }));
          return;
        }
        messages.push(mail);
        const waiter = waiters.find((candidate) => mail.to.includes(candidate.address));
        if (waiter) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(mail);
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const taken = new Set<CaughtMail>();
  const take = (mail: CaughtMail) => {
    taken.add(mail);
    return mail;
  };
  const catcher: SmtpCatcher = {
    port,
    messages,
    refused,
    isRefusing: false,
    nextMailTo(address) {
      const waiting = messages.find((mail) => !taken.has(mail) && mail.to.includes(address));
      if (waiting) return Promise.resolve(take(waiting));
      return new Promise<CaughtMail>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no mail to ${address} within 5 s`)), 5000);
        waiters.push({
          address,
          resolve: (mail) => {
            clearTimeout(timer);
            resolve(take(mail));
          },
        });
      });
    },
    forget() {
      for (const mail of messages) taken.add(mail);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return catcher;
}

interface Part {
  headers: Map<string, string>;
  body: string;
}

function splitPart(source: string): Part {
  const separator = source.indexOf('\r\n\r\n');
  const head = separator === -1 ? source : source.slice(0, separator);
  const body = separator === -1 ? '' : source.slice(separator + 4);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeBody(part: Part): string {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = part.body
      .replace(/=\r\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return part.body;
}

/** RFC 2047 encoded words, as nodemailer writes non-ASCII subjects. */
function decodeHeader(value: string): string {
  return value.replace(/=\?([^?]+)\?([BQ])\?([^?]*)\?=/gi, (_match, _charset, kind: string, text: string) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(
          text
            .replace(/_/g, ' ')
            .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
          'latin1',
        ).toString('utf8'),
  );
}

function collectParts(part: Part, into: Part[]): void {
  const type = part.headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!type.toLowerCase().startsWith('multipart/') || !boundary) {
    into.push(part);
    return;
  }
  const sections = part.body.split(`--${boundary}`).slice(1);
  for (const section of sections) {
    if (section.startsWith('--')) break;
    collectParts(splitPart(section.replace(/^\r\n/, '')), into);
  }
}

function parseMessage(raw: string): { subject: string; text: string; html: string } {
  const message = splitPart(raw);
  const parts: Part[] = [];
  collectParts(message, parts);
  const ofType = (type: string) =>
    parts.find((part) => (part.headers.get('content-type') ?? 'text/plain').toLowerCase().startsWith(type));
  const text = ofType('text/plain');
  const html = ofType('text/html');
  return {
    subject: decodeHeader(message.headers.get('subject') ?? ''),
    text: text ? decodeBody(text).trim() : '',
    html: html ? decodeBody(html).trim() : '',
  };
}
