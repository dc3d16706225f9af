import { Role } from '@gatehouse/shared';
import { escapeHtml, sendMail } from '../../auth/mailer';
import type { RelayRuntime } from '../../relay/relay-runtime';

/**
 * With ChannelBalanceWarningThreshold above 0, a refresh that finds a channel's balance below it — the first
 * time, or after it was at or above — e-mails the root user, so a reseller hears before users see 429s. The
 * threshold is in the balance's own currency. No root address or no SMTP: skipped quietly.
 */
export async function warnOfLowBalance(
  runtime: RelayRuntime,
  channel: { id: number; name: string; balance: number; balance_updated_time: number },
  balance: number,
): Promise<void> {
  const { options, db } = runtime.context;
  const threshold = options.getNumber('ChannelBalanceWarningThreshold');
  if (threshold <= 0 || balance >= threshold) return;
  const wasAbove = channel.balance_updated_time === 0 || channel.balance >= threshold;
  if (!wasAbove || options.get('SMTPServer').trim() === '') return;
  const root = await db
    .selectFrom('users')
    .select('email')
    .where('role', '=', Role.root)
    .where('email', '!=', '')
    .orderBy('id')
    .executeTakeFirst();
  if (!root) return;
  const systemName = options.get('SystemName');
  const text =
    `The balance of channel "${channel.name}" (#${channel.id}) is down to ${balance.toFixed(2)}, ` +
    `below the warning threshold of ${threshold}. Top up the vendor account before its requests fail.`;
  try {
    await sendMail(
      options,
      {
        to: root.email,
        subject: `${systemName}: channel "${channel.name}" is running low`,
        text,
        html: `<p>${escapeHtml(text)}</p>`,
      },
      runtime.log,
    );
  } catch (error) {
    runtime.log.warn({ err: error, channelId: channel.id }, 'low channel balance e-mail not sent');
  }
}
