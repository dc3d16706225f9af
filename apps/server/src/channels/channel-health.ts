import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import { ChannelStatus, nowSeconds, splitList } from '@gatehouse/shared';
import type { ChatRequest } from '../canonical/chat';
import { completionText } from '../canonical/completion-text';
import { UnsupportedOptionError, UpstreamFormatError, UpstreamReportedError } from '../canonical/translation';
import type { AppContext } from '../context';
import type { ChannelRow } from '../db/schema';
import { recordManageLog } from '../logs/log-writer';
import { toRelayChannel } from '../relay/channel-cache';
import { prepareChannelCredentials } from '../relay/channel-credentials';
import type { RelayRuntime } from '../relay/relay-runtime';
import { readUpstreamBody, sendToChannel } from '../relay/upstream-call';
import {
  describeConnectionFailure,
  describeReportedError,
  describeUpstreamError,
  type UpstreamFailure,
} from '../relay/upstream-failure';
import { setChannelStatus } from './channel-status';

interface ChannelName {
  id: number;
  name: string;
}

/** Channels being switched right now: concurrent failures of one channel change and log it once. */
const switching = new WeakMap<AppContext, Set<number>>();

async function switchStatus(
  context: AppContext,
  channel: ChannelName,
  from: number,
  to: number,
  content: string,
): Promise<boolean> {
  let busy = switching.get(context);
  if (!busy) {
    busy = new Set();
    switching.set(context, busy);
  }
  if (busy.has(channel.id)) return false;
  busy.add(channel.id);
  try {
    const row = await context.db
      .selectFrom('channels')
      .select('status')
      .where('id', '=', channel.id)
      .executeTakeFirst();
    // Only an enabled channel is auto-disabled, and only an auto-disabled one re-enabled: a manual choice stays.
    if (row?.status !== from) return false;
    if (!(await setChannelStatus(context, channel.id, to, content))) return false;
    await recordManageLog(context.db, 0, '', content);
    return true;
  } finally {
    busy.delete(channel.id);
  }
}

/**
 * With AutomaticDisableChannelEnabled, a channel whose upstream says its key is invalid, out of money or its
 * account deactivated — or whose test took longer than ChannelDisableThreshold — gets status 3 (disabled by
 * the program) and a management log row saying why.
 */
export async function disableFailingChannel(
  context: AppContext,
  log: FastifyBaseLogger,
  channel: ChannelName,
  reason: string,
): Promise<boolean> {
  if (!context.options.getBoolean('AutomaticDisableChannelEnabled')) return false;
  try {
    const changed = await switchStatus(
      context,
      channel,
      ChannelStatus.enabled,
      ChannelStatus.autoDisabled,
      `Channel "${channel.name}" (#${channel.id}) was disabled automatically: ${reason}`,
    );
    if (changed) log.warn({ channelId: channel.id, reason }, 'channel disabled automatically');
    return changed;
  } catch (error) {
    log.error({ err: error, channelId: channel.id }, 'disabling a failing channel failed');
    return false;
  }
}

/**
 * What one failed relay attempt means for the channel's health: every failure is logged against the channel
 * (malformed answers, timeouts and 5xx included, so an operator sees a flaky channel in the server log), and a
 * channel whose credentials or account the upstream refused is disabled when AutomaticDisableChannelEnabled.
 * A single malformed answer or timeout is not enough to disable a channel: the relay tries another one.
 */
export function reportChannelFailure(
  context: AppContext,
  log: FastifyBaseLogger,
  channel: ChannelName,
  failure: UpstreamFailure,
  requestId: string,
): void {
  log.warn(
    {
      requestId,
      channelId: channel.id,
      upstreamStatus: failure.upstreamStatus,
      code: failure.code,
      reason: failure.message,
    },
    'upstream attempt failed',
  );
  if (failure.code === 'channel_auth_failed')
    void storeAuthFailure(context, log, channel.id, failure.message);
  if (failure.isChannelDead) void disableFailingChannel(context, log, channel, failure.message);
}

/** The auth-failure reason each channel has in the database as this server last wrote it: one write per change. */
const storedReasons = new WeakMap<AppContext, Map<number, string>>();

function storedReasonsOf(context: AppContext): Map<number, string> {
  let reasons = storedReasons.get(context);
  if (!reasons) {
    reasons = new Map();
    storedReasons.set(context, reasons);
  }
  return reasons;
}

const MAX_REASON_LENGTH = 1000;

/**
 * Records why the upstream refused the channel's credentials, so the channel list shows it whether or not the
 * channel is disabled for it. Written only when the reason changes.
 */
async function storeAuthFailure(
  context: AppContext,
  log: FastifyBaseLogger,
  channelId: number,
  message: string,
): Promise<void> {
  const reason = message.slice(0, MAX_REASON_LENGTH);
  const reasons = storedReasonsOf(context);
  if (reasons.get(channelId) === reason) return;
  reasons.set(channelId, reason);
  try {
    await context.db
      .updateTable('channels')
      .set({ auth_failed_reason: reason, auth_failed_time: nowSeconds() })
      .where('id', '=', channelId)
      .execute();
  } catch (error) {
    reasons.delete(channelId);
    log.error({ err: error, channelId }, 'recording a channel auth failure failed');
  }
}

/** The channel's credentials work again (a success through it, a passing test): its auth failure is cleared. */
export function clearChannelAuthFailure(
  runtime: Pick<RelayRuntime, 'context' | 'log'>,
  channel: ChannelName,
): void {
  const reasons = storedReasonsOf(runtime.context);
  if (reasons.get(channel.id) === '') return;
  reasons.set(channel.id, '');
  runtime.context.db
    .updateTable('channels')
    .set({ auth_failed_reason: '', auth_failed_time: 0 })
    .where('id', '=', channel.id)
    .where('auth_failed_reason', '!=', '')
    .execute()
    .catch((error: unknown) => {
      reasons.delete(channel.id);
      runtime.log.error({ err: error, channelId: channel.id }, 'clearing a channel auth failure failed');
    });
}

/** With AutomaticEnableChannelEnabled, a channel disabled by the program is enabled again after a passing test. */
export async function enableRecoveredChannel(
  context: AppContext,
  log: FastifyBaseLogger,
  channel: ChannelName,
): Promise<boolean> {
  if (!context.options.getBoolean('AutomaticEnableChannelEnabled')) return false;
  const changed = await switchStatus(
    context,
    channel,
    ChannelStatus.autoDisabled,
    ChannelStatus.enabled,
    `Channel "${channel.name}" (#${channel.id}) passed its test and was enabled again automatically`,
  );
  if (changed) log.info({ channelId: channel.id }, 'channel enabled again automatically');
  return changed;
}

export interface ChannelTestResult {
  success: boolean;
  message: string;
  /** seconds */
  time: number;
  model: string;
}

/** Reasoning models refuse max_tokens; they get no limit (the test prompt is one word). */
function buildTestRequest(model: string): ChatRequest {
  const request: ChatRequest = { model, messages: [{ role: 'user', content: 'hi' }] };
  if (!/^(o\d|gpt-5)/.test(model)) request.max_tokens = 5;
  return request;
}

const REPLY_PREVIEW_LENGTH = 100;

function shortenReply(text: string): string {
  const reply = text.trim();
  return reply.length > REPLY_PREVIEW_LENGTH ? `${reply.slice(0, REPLY_PREVIEW_LENGTH)}…` : reply;
}

/** How long a test may take when RELAY_TIMEOUT sets no limit. */
const TEST_TIMEOUT_MS = 60_000;

/**
 * A tiny real chat request through the channel's own adapter and model mapping. Stores the response time
 * (ms) and the test time; applies ChannelDisableThreshold and the automatic disable / enable options.
 */
export async function testChannel(
  runtime: RelayRuntime,
  row: ChannelRow,
  requestedModel: string,
): Promise<ChannelTestResult> {
  const { context, log } = runtime;
  const channel = toRelayChannel(row);
  const model = requestedModel.trim() || splitList(row.models)[0] || '';
  const fail = (message: string, time = 0): ChannelTestResult => ({ success: false, message, time, model });
  if (model === '') return fail('This channel lists no model to test with');
  if (!channel.provider) return fail(`Channel type ${row.type} is not known to this server`);
  if (!channel.provider.isSupported) return fail(channel.provider.reason);
  const { adapter } = channel.provider;
  const upstreamModel = channel.modelMapping.get(model) ?? model;
  const timeout = context.config.relayTimeoutSeconds * 1000 || TEST_TIMEOUT_MS;
  const startedAt = performance.now();
  const elapsed = () => (performance.now() - startedAt) / 1000;
  const failWith = async (failure: UpstreamFailure): Promise<ChannelTestResult> => {
    if (failure.code === 'channel_auth_failed')
      await storeAuthFailure(context, log, channel.id, failure.message);
    if (failure.isChannelDead) await disableFailingChannel(context, log, channel, failure.message);
    return fail(failure.message, elapsed());
  };
  let result: ChannelTestResult;
  try {
    // The canonical lane, so the test works alike for every vendor whatever protocol it speaks.
    const prepared = await prepareChannelCredentials(runtime, channel, adapter);
    if (!prepared.ok) {
      result = await failWith(prepared.failure);
    } else {
      const upstream = await adapter.translator.buildRequest({
        channel: prepared.value,
        request: buildTestRequest(upstreamModel),
        upstreamModel,
        isStream: false,
        clientHeaders: {},
      });
      const response = await sendToChannel(runtime, adapter, upstream, AbortSignal.timeout(timeout));
      const answer = await readUpstreamBody(response);
      if (response.statusCode < 200 || response.statusCode >= 300) {
        const details = adapter.readError(answer, response.statusCode, response.headers);
        result = await failWith(
          describeUpstreamError(response.statusCode, details, {
            typeName: channel.typeName,
            key: channel.credentials.key,
          }),
        );
      } else {
        const { completion } = adapter.translator.readResponse(answer);
        // one-api's console shows the message after "output:"; the model's reply, shortened.
        result =
          completion.choices.length > 0
            ? { success: true, message: shortenReply(completionText(completion)), time: elapsed(), model }
            : fail('The upstream answered without any choices', elapsed());
      }
    }
  } catch (error) {
    if (error instanceof UpstreamReportedError) {
      // An error inside a 2xx body (Baidu, Tencent …) counts by its kind, as the relay counts it: refused
      // credentials disable the channel when automatic disabling is on.
      result = await failWith(
        describeReportedError(error, { typeName: channel.typeName, key: channel.credentials.key }),
      );
    } else {
      const message =
        error instanceof UpstreamFormatError || error instanceof UnsupportedOptionError
          ? error.message
          : describeConnectionFailure(error).message;
      result = fail(message, elapsed());
    }
  }
  result.time = Number(result.time.toFixed(2));
  await context.db
    .updateTable('channels')
    .set({ response_time: Math.round(result.time * 1000), test_time: nowSeconds() })
    .where('id', '=', row.id)
    .execute();
  const threshold = context.options.getNumber('ChannelDisableThreshold');
  if (result.success && threshold > 0 && result.time > threshold) {
    const reason = `its test took ${result.time} s, more than the ${threshold} s of ChannelDisableThreshold`;
    await disableFailingChannel(context, log, channel, reason);
    return fail(`The channel answered, but ${reason}`, result.time);
  }
  if (result.success && row.auth_failed_reason !== '') clearChannelAuthFailure(runtime, channel);
  if (result.success && row.status === ChannelStatus.autoDisabled)
    await enableRecoveredChannel(context, log, channel);
  return result;
}

/** Tests one channel after another, spaced so upstreams are not hammered. */
export async function testChannels(
  runtime: RelayRuntime,
  scope: 'all' | 'disabled',
  spacingMs: number,
): Promise<ChannelTestResult[]> {
  let query = runtime.context.db.selectFrom('channels').selectAll().orderBy('id');
  if (scope === 'disabled') query = query.where('status', '!=', ChannelStatus.enabled);
  const rows = await query.execute();
  const results: ChannelTestResult[] = [];
  for (const [index, row] of rows.entries()) {
    if (index > 0 && spacingMs > 0) await new Promise((resolve) => setTimeout(resolve, spacingMs));
    results.push(await testChannel(runtime, row, ''));
  }
  return results;
}
