import type { FastifyBaseLogger } from 'fastify';
import type * as Nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { OptionStore } from '../options/option-store';
import { fail } from '../http/envelope';
import { lazyPackage } from '../lazy-package';

/** Loaded with the first mail sent. */
const nodemailer = lazyPackage<typeof Nodemailer>('nodemailer');

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

const SECONDS = 1000;

/**
 * Transport settings from the SMTP options: implicit TLS on 465, otherwise plain SMTP upgraded with
 * STARTTLS whenever the server offers it (nodemailer's default). Refuses when SMTP is not configured.
 */
export function buildTransportOptions(options: OptionStore): SMTPTransport.Options & { from: string } {
  const host = options.get('SMTPServer').trim();
  const account = options.get('SMTPAccount').trim();
  const address = options.get('SMTPFrom').trim() || account;
  if (host === '' || address === '') {
    fail('E-mail sending is not configured; please contact the administrator');
  }
  const port = options.getNumber('SMTPPort') || 587;
  const token = options.get('SMTPToken');
  const systemName = options.get('SystemName').replace(/["\\]/g, '');
  return {
    host,
    port,
    secure: port === 465,
    auth: account !== '' ? { user: account, pass: token } : undefined,
    // A dead mail server must not hold a console request for nodemailer's default two minutes.
    connectionTimeout: 10 * SECONDS,
    greetingTimeout: 10 * SECONDS,
    socketTimeout: 20 * SECONDS,
    from: address.includes('<') ? address : `"${systemName}" <${address}>`,
  };
}

function describeFailure(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'EAUTH':
      return 'the mail server refused the SMTP account or token';
    case 'ECONNECTION':
    case 'ETIMEDOUT':
    case 'ESOCKET':
    case 'EDNS':
    case 'ECONNREFUSED':
      return 'the mail server could not be reached';
    case 'EENVELOPE':
      return 'the mail server refused the address';
    default:
      return 'the mail server refused the message';
  }
}

/** Sends one message and resolves once the server has accepted it; every failure is a clear business error. */
export async function sendMail(options: OptionStore, mail: Mail, log: FastifyBaseLogger): Promise<void> {
  const { from, ...transportOptions } = buildTransportOptions(options);
  const transport = nodemailer().createTransport(transportOptions);
  try {
    await transport.sendMail({ from, ...mail });
  } catch (error) {
    log.error({ err: error, smtpServer: transportOptions.host }, 'sending e-mail failed');
    fail(`Failed to send the e-mail: ${describeFailure(error)}; please contact the administrator`);
  } finally {
    transport.close();
  }
}

/** Text for the HTML body of our mails. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
