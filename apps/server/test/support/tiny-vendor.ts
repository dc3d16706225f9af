import { ChannelType } from '@gatehouse/shared';
import type { ProviderAdapter } from '../../src/providers/provider-types';

/**
 * A tiny vendor for the translated lane's tests. Until a vendor with another protocol lands, Anthropic
 * channels in these tests get a tiny adapter that says it speaks Anthropic Messages, so every OpenAI client
 * is translated: canonical request → its translator (OpenAI's own, against the OpenAI stand-in) → canonical
 * answer and chunks → the OpenAI codec. It derives an access token from the channel key, refuses n > 1, reads
 * failures reported in a 200 answer and cannot use the key `unreadable-key`.
 *
 * A test file mocks the registry with it, first thing:
 *   vi.mock('../src/providers/provider-registry', async (importOriginal) =>
 *     (await import('./support/tiny-vendor')).withTinyVendor(importOriginal));
 */

/** How often the adapter prepared a credential; whether the next one fails, and how long each takes. */
export const tiny = { prepareCalls: 0, failNextPrepare: false, prepareDelayMs: 0 };

/** The provider registry with the tiny adapter in place of Anthropic's (the factory of a vi.mock). */
export async function withTinyVendor(importOriginal: <T>() => Promise<T>) {
  const registry = await importOriginal<typeof import('../../src/providers/provider-registry')>();
  const { createOpenAICompatibleAdapter, prefixedLayout } =
    await import('../../src/providers/openai-compatible/openai-compatible-adapter');
  const { UnsupportedOptionError, UpstreamReportedError } = await import('../../src/canonical/translation');
  const openAI = createOpenAICompatibleAdapter(prefixedLayout('tiny', '/v1'));
  const adapter: ProviderAdapter = {
    wireFormat: 'tiny',
    protocol: 'anthropic-messages',
    translator: {
      async buildRequest(input) {
        if ((input.request.n ?? 1) > 1)
          throw new UnsupportedOptionError('Tiny', 'n > 1', 'it answers one choice');
        if (input.channel.key === 'unreadable-key') throw new Error('the stored key is not valid JSON');
        const request = await openAI.translator.buildRequest(input);
        return {
          ...request,
          headers: { ...request.headers, authorization: `Bearer ${input.channel.accessToken}` },
        };
      },
      readResponse(body) {
        // A vendor that reports failures inside a 200 answer (as Baidu and Tencent Cloud do).
        const text = body.toString();
        if (text.startsWith('{"reported"')) {
          const { reported } = JSON.parse(text) as { reported: { kind: 'rate_limit'; message: string } };
          throw new UpstreamReportedError('Tiny', { ...reported, type: 'tiny_error', code: 'E1' });
        }
        return openAI.translator.readResponse(body);
      },
      createStreamDecoder: () => openAI.translator.createStreamDecoder(),
    },
    readError: (body, status) => openAI.readError(body, status),
    async prepareCredential(channel) {
      tiny.prepareCalls += 1;
      await new Promise((resolve) => setTimeout(resolve, tiny.prepareDelayMs));
      if (tiny.failNextPrepare) {
        tiny.failNextPrepare = false;
        throw new Error('the token endpoint did not answer');
      }
      return { accessToken: `token-${tiny.prepareCalls}-${channel.key}`, expiresAt: Date.now() + 3_600_000 };
    },
  };
  const vendor = { ...registry.channelProviders[ChannelType.anthropic], isSupported: true as const, adapter };
  return {
    ...registry,
    findChannelProvider: (type: number) =>
      type === ChannelType.anthropic ? vendor : registry.findChannelProvider(type),
  };
}
