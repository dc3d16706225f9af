import { describe, expect, it } from 'vitest';
import { ChannelType, channelTypes } from '@gatehouse/shared';
import { defaultModelPrices } from '../billing/default-model-prices';
import {
  channelProviders,
  findChannelProvider,
  listVendors,
  resolveChannelCredentials,
} from './provider-registry';

function chatUrl(type: number, other = '', base_url = ''): string {
  const provider = findChannelProvider(type);
  if (!provider?.isSupported) throw new Error(`type ${type} has no adapter`);
  const channel = resolveChannelCredentials({ type, base_url, key: 'k', other });
  const passThrough = provider.adapter.passThrough;
  if (!passThrough) throw new Error(`type ${type} has no pass-through lane`);
  return passThrough.buildRequest({
    channel,
    body: { model: 'm' },
    rawBody: Buffer.from('{"model":"m"}'),
    upstreamModel: 'm',
    isModelMapped: false,
    isStream: false,
    clientHeaders: {},
  }).url;
}

describe('provider registry', () => {
  it('has an entry for every channel type the console offers, and none the console does not', () => {
    for (const type of channelTypes) expect(findChannelProvider(type.id), type.name).not.toBeNull();
    expect(Object.keys(channelProviders).map(Number).sort()).toEqual(
      channelTypes.map((type) => type.id).sort(),
    );
  });

  it('prices every model a vendor lists, unless the vendor says why not', () => {
    for (const type of channelTypes) {
      const vendor = findChannelProvider(type.id)!;
      const unpriced = new Set(vendor.unpriced?.flatMap((group) => group.names) ?? []);
      const missing = vendor.models.filter((model) => !defaultModelPrices[model] && !unpriced.has(model));
      expect(missing, `${type.name}: listed without a price or a reason`).toEqual([]);
      const priced = [...unpriced].filter((model) => defaultModelPrices[model]);
      expect(priced, `${type.name}: declared unpriced but priced`).toEqual([]);
      for (const group of vendor.unpriced ?? []) expect(group.reason).not.toBe('');
    }
  });

  it('never has two vendors price one model differently', () => {
    const seen = new Map<string, { price: unknown; by: number }>();
    listVendors().forEach((vendor, index) => {
      for (const [model, price] of Object.entries(vendor.prices)) {
        const earlier = seen.get(model);
        if (earlier) expect(price, `${model} priced by two vendors`).toEqual(earlier.price);
        else seen.set(model, { price, by: index });
      }
    });
  });

  it.each([
    [ChannelType.openai, 'https://api.openai.com/v1/chat/completions'],
    [ChannelType.openRouter, 'https://openrouter.ai/api/v1/chat/completions'],
    [ChannelType.groq, 'https://api.groq.com/openai/v1/chat/completions'],
    [ChannelType.deepseek, 'https://api.deepseek.com/v1/chat/completions'],
    [ChannelType.novita, 'https://api.novita.ai/v3/openai/chat/completions'],
    [ChannelType.doubao, 'https://ark.cn-beijing.volces.com/api/v3/chat/completions'],
    [ChannelType.zhipu, 'https://open.bigmodel.cn/api/paas/v4/chat/completions'],
    [ChannelType.gemini, 'https://generativelanguage.googleapis.com/v1beta/models/m:generateContent'],
    [ChannelType.moonshot, 'https://api.moonshot.cn/v1/chat/completions'],
    [ChannelType.siliconFlow, 'https://api.siliconflow.cn/v1/chat/completions'],
    [ChannelType.ollama, 'http://localhost:11434/v1/chat/completions'],
  ])('type %i calls %s by default', (type, url) => {
    expect(chatUrl(type)).toBe(url);
  });

  it('calls DashScope’s own generation API for Alibaba channels', async () => {
    const provider = findChannelProvider(ChannelType.ali);
    if (!provider?.isSupported) throw new Error('Alibaba has no adapter');
    const request = await provider.adapter.translator.buildRequest({
      channel: resolveChannelCredentials({ type: ChannelType.ali, base_url: '', key: 'k', other: '' }),
      request: { model: 'qwen-plus', messages: [{ role: 'user', content: 'hi' }] },
      upstreamModel: 'qwen-plus',
      isStream: false,
      clientHeaders: {},
    });
    expect(request.url).toBe(
      'https://dashscope.aliyuncs.com/api/v1/services/aigc/text-generation/generation',
    );
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
    const provider = findChannelProvider(ChannelType.palm);
    expect(provider).toMatchObject({ isSupported: false, reason: expect.stringContaining('Google PaLM2') });
  });

  it('leaves out endpoints a vendor does not offer', () => {
    const azure = findChannelProvider(ChannelType.azure);
    expect(azure?.isSupported && azure.adapter.moderations).toBeUndefined();
    const openai = findChannelProvider(ChannelType.openai);
    expect(openai?.isSupported && openai.adapter.audioTranscriptions).toBeDefined();
  });
});
