import { ChannelStatus, nowSeconds } from '@gatehouse/shared';
import type { ChannelRow } from '../../db/schema';
import { toRelayChannel } from '../../relay/channel-cache';
import type { RelayRuntime } from '../../relay/relay-runtime';
import { describeConnectionFailure } from '../../relay/upstream-failure';
import { BalanceError, balanceReaders, type FetchBalanceJson } from './balance-readers';
import { warnOfLowBalance } from './low-balance-warning';

/** A balance endpoint answers at once or not at all: a slow one keeps the old balance. */
const BALANCE_TIMEOUT_MS = 15_000;

export type BalanceResult = { success: true; balance: number } | { success: false; message: string };

function createFetchJson(runtime: RelayRuntime, baseUrl: string, key: string): FetchBalanceJson {
  return async (path) => {
    const url = new URL(`${baseUrl}${path}`);
    const response = await runtime.dispatcher.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers: { authorization: `Bearer ${key}`, accept: 'application/json' },
      signal: AbortSignal.timeout(BALANCE_TIMEOUT_MS),
      headersTimeout: BALANCE_TIMEOUT_MS,
      bodyTimeout: BALANCE_TIMEOUT_MS,
    });
    const body = await response.body.text();
    if (response.statusCode < 200 || response.statusCode >= 300)
      throw new BalanceError(`The upstream answered HTTP ${response.statusCode}: ${body.slice(0, 200)}`);
    try {
      return JSON.parse(body) as unknown;
    } catch {
      throw new BalanceError('The upstream balance answer is not JSON');
    }
  };
}

/**
 * Asks the channel's vendor for the account balance and stores it with the time. On any failure the channel is
 * left as it was — old balance kept, status untouched — and the answer says why.
 */
export async function updateChannelBalance(runtime: RelayRuntime, row: ChannelRow): Promise<BalanceResult> {
  const channel = toRelayChannel(row);
  const reader = balanceReaders[row.type];
  if (!reader) return { success: false, message: `${channel.typeName} channels have no balance API` };
  const { baseUrl } = channel.credentials;
  if (baseUrl === '')
    return { success: false, message: 'The channel has no base URL to ask for its balance' };
  // A channel holding several keys (one a line) reports the first one's account.
  const key = channel.credentials.key.split('\n')[0].trim();
  let balance: number;
  try {
    balance = await reader(createFetchJson(runtime, baseUrl, key), new Date());
  } catch (error) {
    const message = error instanceof BalanceError ? error.message : describeConnectionFailure(error).message;
    return { success: false, message };
  }
  await runtime.context.db
    .updateTable('channels')
    .set({ balance, balance_updated_time: nowSeconds() })
    .where('id', '=', row.id)
    .execute();
  await warnOfLowBalance(runtime, row, balance);
  return { success: true, balance };
}

/** Every enabled channel with a balance API, one after another; failures are logged and skipped. */
export async function updateAllChannelBalances(runtime: RelayRuntime, spacingMs: number): Promise<void> {
  const types = Object.keys(balanceReaders).map(Number);
  const rows = await runtime.context.db
    .selectFrom('channels')
    .selectAll()
    .where('status', '=', ChannelStatus.enabled)
    .where('type', 'in', types)
    .orderBy('id')
    .execute();
  for (const [index, row] of rows.entries()) {
    if (index > 0 && spacingMs > 0) await new Promise((resolve) => setTimeout(resolve, spacingMs));
    const result = await updateChannelBalance(runtime, row);
    if (!result.success)
      runtime.log.warn({ channelId: row.id, reason: result.message }, 'channel balance refresh failed');
  }
}
