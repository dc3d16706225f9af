import { afterAll, beforeAll, beforeEach } from 'vitest';
import { ChannelType } from '@gatehouse/shared';
import { startOpenAIUpstream, type OpenAIUpstream } from './openai-upstream';
import { startRelayKit, type RelayKit } from './relay-kit';

/**
 * The gateway of the translated lane's tests: an Anthropic channel (answered by the tiny vendor, see
 * support/tiny-vendor) on the OpenAI stand-in `alpha`. A test file that mocks the registry with the tiny
 * vendor calls useTranslationLane() at its top level; `kit`, `upstream` and `channelId` are set before its
 * first test.
 */
export let kit: RelayKit;
export let upstream: OpenAIUpstream;
export let channelId: number;

/**
 * Starts the stand-in and the gateway before the file's tests and closes them after; before each test,
 * forgets the stand-in's behaviour and requests and turns retries off.
 */
export function useTranslationLane(): void {
  beforeAll(async () => {
    upstream = await startOpenAIUpstream('alpha');
    kit = await startRelayKit();
    channelId = await kit.createChannel({
      upstream,
      type: ChannelType.anthropic,
      key: 'tiny-key',
      models: 'tiny-model,tiny-alias',
      modelMapping: { 'tiny-alias': 'tiny-model-2025' },
    });
    await kit.test.context.options.set('ModelRatio', JSON.stringify({ 'tiny-model': 1, 'tiny-alias': 1 }));
  });
  afterAll(async () => {
    await kit.close();
    await upstream.close();
  });
  beforeEach(async () => {
    upstream.behaviour = {};
    upstream.received.length = 0;
    await kit.test.context.options.set('RetryTimes', '0');
  });
}

export async function newClient(quota = 1_000_000) {
  const user = await kit.createUser({ quota });
  const { key } = await kit.createKey(user.id);
  return { user, key, client: kit.client(key) };
}

export const lastLog = () => kit.lastConsumeLog();
