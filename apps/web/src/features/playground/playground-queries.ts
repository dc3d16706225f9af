import { queryOptions } from '@tanstack/react-query';
import { LogType, TokenStatus, type Log, type Token } from '@gatehouse/shared';
import { api } from '../../api/client';

/** The largest page the key list answers (the server's page size limit). */
const KEY_PAGE_SIZE = 100;

/** The signed-in user's usable keys: the first page of the key list at its largest, enabled ones only. */
export const playgroundKeysQueryOptions = () =>
  queryOptions({
    queryKey: ['tokens', 'playground'],
    queryFn: ({ signal }) =>
      api.get<Token[]>('/api/token/', { params: { p: 0, size: KEY_PAGE_SIZE }, signal }),
    select: (tokens) => tokens.filter((token) => token.status === TokenStatus.enabled),
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What one relay answer was billed: the quota of its consumption log entry, found by the request id the relay
 * answered. The entry is written as the answer is settled, a moment after the stream ends, so this asks a few
 * times; null when it never appears (the operator turned consumption logging off).
 */
export async function findRequestCharge(
  requestId: string,
  { attempts = 10, intervalMs = 300 }: { attempts?: number; intervalMs?: number } = {},
): Promise<number | null> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    const logs = await api.get<Log[]>('/api/log/self/', {
      params: { request_id: requestId, type: LogType.consume, p: 0 },
      quiet: true,
    });
    if (logs[0]) return logs[0].quota;
    if (attempt < attempts - 1) await sleep(intervalMs);
  }
  return null;
}
