import type { FastifyBaseLogger } from 'fastify';
import { formatQuota } from '@gatehouse/shared';
import type { OptionStore } from '../options/option-store';
import { escapeHtml, sendMail } from '../auth/mailer';
import type { QuotaCrossing } from './settlement-ledger';

/**
 * Tells a user by e-mail that their balance fell to QuotaRemindThreshold or below (once per crossing: the
 * ledger reports a user only in the batch that crossed). Users without an address, or a server without SMTP,
 * are skipped quietly; a failed send is logged, never retried.
 */
export async function sendQuotaReminder(
  options: OptionStore,
  crossing: QuotaCrossing,
  log: FastifyBaseLogger,
): Promise<void> {
  if (crossing.email === '' || options.get('SMTPServer').trim() === '') return;
  const systemName = options.get('SystemName');
  const balance = formatQuota(crossing.quota, {
    displayInCurrency: options.getBoolean('DisplayInCurrencyEnabled'),
    quotaPerUnit: options.getNumber('QuotaPerUnit'),
  });
  const topUpLink = options.get('TopUpLink').trim();
  const text =
    `Hello ${crossing.username}, your ${systemName} balance is down to ${balance}. ` +
    `Top up soon so your API calls keep working.${topUpLink ? ` Top up: ${topUpLink}` : ''}`;
  try {
    await sendMail(
      options,
      {
        to: crossing.email,
        subject: `${systemName}: your balance is running low`,
        text,
        html: `<p>${escapeHtml(text)}</p>`,
      },
      log,
    );
  } catch (error) {
    log.warn({ err: error, userId: crossing.userId }, 'quota reminder e-mail not sent');
  }
}
