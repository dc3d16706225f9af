import { performance } from 'node:perf_hooks';
import { LogType } from '@gatehouse/shared';
import { attemptColumns, ClientGoneError, type RelayJob } from './relay-job';
import { RelayError } from './relay-error';

const MAX_CONTENT_LENGTH = 500;

/**
 * Logs a request that failed after its quota was reserved (no channel could answer it; it was refunded
 * whole) as an error row, written with the ledger's next batch and counted in the usage rollups as a failed
 * request of the last channel tried. A client that left is not a failure of the gateway; nor is a request
 * refused before its reservation (bad input, limits, balance), which never reached a channel.
 */
export function recordRelayFailure(job: RelayJob, error: unknown): void {
  const { context, ledger } = job.runtime;
  if (error instanceof ClientGoneError || !context.options.getBoolean('LogConsumeEnabled')) return;
  const reason =
    error instanceof RelayError
      ? `${error.statusCode} ${error.message}`
      : 'internal error (see the server log)';
  ledger.recordFailure({
    type: LogType.error,
    created_at: job.createdAt,
    user_id: job.caller.userId,
    username: job.caller.username,
    token_name: job.caller.tokenName,
    model_name: job.model,
    channel_id: job.channel.id,
    elapsed_time: Math.round(performance.now() - job.startedAt),
    is_stream: job.isStream ? 1 : 0,
    request_id: job.requestId,
    inbound_protocol: job.inboundProtocol,
    ...attemptColumns(job),
    quota: 0,
    content: reason.slice(0, MAX_CONTENT_LENGTH),
  });
}
