import { describe, expect, it } from 'vitest';
import { ChannelType, channelTypes } from '@gatehouse/shared';
import { findChannelProvider, resolveChannelCredentials } from './provider-registry';

function chatUrl(type: number, other = '', base_url = ''): string {
  const provider = findChannelProvider(type);
  if (!provider?.isSupported) throw new Error(`type ${type} has no adapter`);
  const channel = resolveChannelCredentials({ type, base_url, key: 'k', other });
  return provider.adapter.chat.buildRequest({
    channel,
    body: { model: 'm' },
    rawBody: Buffer.from('{"model":"m"}'),
    upstreamModel: 'm',
    isModelMapped: false,
    isStream: false,
  }).url;
}

describe('provider registry', () => {
  it('has an entry for every channel type the console offers', () => {
    for (const type of channelTypes) expect(findChannelProvider(type.id), type.name).not.toBeNull();
  });

  it.each([
    [ChannelType.openai, 'https://api.openai.com/v1/chat/completions'],
    [ChannelType.openRouter, 'https://openrouter.ai/api/v1/chat/completions'],
    [ChannelType.groq, 'https://api.groq.com/openai/v1/chat/completions'],
    [ChannelType.deepseek, 'https://api.deepseek.com/v1/chat/completions'],
    [ChannelType.novita, 'https://api.novita.ai/v3/openai/chat/completions'],
    [ChannelType.doubao, 'https://ark.cn-beijing.volces.com/api/v3/chat/completions'],
    [ChannelType.zhipu, 'https://open.bigmodel.cn/api/paas/v4/chat/completions'],
    [ChannelType.ali, 'https://dashscope.aliyuncs.com/compatible-mode/v1/chat/completions'],
    [ChannelType.gemini, 'https://generativelanguage.googleapis.com/v1beta/openai/chat/completions'],
    [ChannelType.moonshot, 'https://api.moonshot.cn/v1/chat/completions'],
    [ChannelType.siliconFlow, 'https://api.siliconflow.cn/v1/chat/completions'],
    [ChannelType.ollama, 'http://localhost:11434/v1/chat/completions'],
  ])('type %i calls %s by default', (type, url) => {
    expect(chatUrl(type)).toBe(url);
  });

  it('uses the channel base URL, without a trailing slash, over the default', () => {
    expect(chatUrl(ChannelType.custom, '', 'https://llm.internal/')).toBe(
      'https://llm.internal/v1/chat/completions',
    );
  });

  it('builds Azure deployment URLs and Cloudflare account URLs from `other`', () => {
    expect(chatUrl(ChannelType.azure, '', 'https://acme.openai.azure.com')).toBe(
      'https://acme.openai.azure.com/openai/deployments/m/chat/completions?api-version=2024-03-01-preview',
    );
    expect(chatUrl(ChannelType.cloudflare, 'acc123')).toBe(
      'https://api.cloudflare.com/client/v4/accounts/acc123/ai/v1/chat/completions',
    );
  });

  it('says why a vendor without an adapter cannot be called', () => {
    const provider = findChannelProvider(ChannelType.awsClaude);
    expect(provider).toMatchObject({ isSupported: false, reason: expect.stringContaining('AWS Bedrock') });
  });

  it('leaves out endpoints a vendor does not offer', () => {
    const azure = findChannelProvider(ChannelType.azure);
    expect(azure?.isSupported && azure.adapter.moderations).toBeUndefined();
    const openai = findChannelProvider(ChannelType.openai);
    expect(openai?.isSupported && openai.adapter.audioTranscriptions).toBeDefined();
  });
});
