import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import { ChannelStatus, nowSeconds, splitList } from '@gatehouse/shared';
import type { AppContext } from '../context';
import type { ChannelRow } from '../db/schema';
import { recordManageLog } from '../logs/log-writer';
import { toRelayChannel } from '../relay/channel-cache';
import type { RelayRuntime } from '../relay/relay-runtime';
import { readUpstreamBody, sendUpstream } from '../relay/upstream-call';
import { describeConnectionFailure, describeUpstreamError } from '../relay/upstream-failure';
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
    if (!(await setChannelStatus(context, channel.id, to))) return false;
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
function buildTestBody(model: string): Record<string, unknown> {
  const body: Record<string, unknown> = { model, messages: [{ role: 'user', content: 'hi' }] };
  if (!/^(o\d|gpt-5)/.test(model)) body.max_tokens = 5;
  return body;
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
  const body = buildTestBody(upstreamModel);
  const upstream = adapter.chat.buildRequest({
    channel: channel.credentials,
    body,
    rawBody: Buffer.from(JSON.stringify(body)),
    upstreamModel,
    isModelMapped: false,
    isStream: false,
  });
  const timeout = context.config.relayTimeoutSeconds * 1000 || TEST_TIMEOUT_MS;
  const startedAt = performance.now();
  let result: ChannelTestResult;
  try {
    const response = await sendUpstream(runtime, upstream, AbortSignal.timeout(timeout));
    const answer = await readUpstreamBody(response);
    const seconds = (performance.now() - startedAt) / 1000;
    if (response.statusCode < 200 || response.statusCode >= 300) {
      const failure = describeUpstreamError(
        response.statusCode,
        adapter.readError(answer),
        channel.credentials.key,
      );
      if (failure.isChannelDead) await disableFailingChannel(context, log, channel, failure.message);
      result = fail(failure.message, seconds);
    } else {
      const read = adapter.chat.readResponse(answer);
      const choices = (read.answer as { choices?: unknown } | null)?.choices;
      result = Array.isArray(choices)
        ? { success: true, message: '', time: seconds, model }
        : fail('The upstream answered without any choices', seconds);
    }
  } catch (error) {
    result = fail(describeConnectionFailure(error).message, (performance.now() - startedAt) / 1000);
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
