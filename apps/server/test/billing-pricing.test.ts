import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeImageCost, computeReservation, computeTokenCost } from '../src/billing/quota-cost';
import { describePricing, findModelRatios, getGroupRatio } from '../src/billing/pricing';
import { findImageMultiplier } from '../src/billing/image-pricing';
import { countImageTokens, createTokenCounter } from '../src/billing/token-counter';
import { readDataUrlImageSize } from '../src/billing/image-dimensions';
import { createTestApp, type TestApp } from './test-app';

let test: TestApp;
beforeAll(async () => {
  test = await createTestApp();
});
afterAll(async () => {
  await test.close();
});

const plain = {
  modelRatio: 1,
  completionRatio: 1,
  cacheReadRatio: 1,
  cacheWriteRatio: 1,
  audioInputRatio: 1,
  imageInputRatio: 1,
  audioOutputRatio: 1,
  imageOutputRatio: 1,
  groupRatio: 1,
};
const claude = { ...plain, modelRatio: 1.5, completionRatio: 5, cacheReadRatio: 0.1, cacheWriteRatio: 1.25 };

describe('computeTokenCost', () => {
  it.each([
    ['ratio 1', plain, 100, 50, 150],
    ['completion ratio', { ...plain, completionRatio: 4 }, 100, 50, 300],
    ['model ratio', { ...plain, modelRatio: 15 }, 10, 10, 300],
    ['group ratio', { ...plain, groupRatio: 1.5 }, 10, 0, 15],
    ['rounds up', { ...plain, modelRatio: 0.075 }, 10, 0, 1],
    ['float noise is not a token', { ...plain, modelRatio: 0.075 }, 1000, 0, 75],
    ['at least 1 when tokens were used', { ...plain, modelRatio: 0.01 }, 1, 0, 1],
    ['nothing used costs nothing', plain, 0, 0, 0],
    ['a free model costs nothing', { ...plain, modelRatio: 0 }, 1000, 1000, 0],
    ['a free group costs nothing', { ...plain, groupRatio: 0 }, 1000, 1000, 0],
  ])('%s', (_name, pricing, promptTokens, completionTokens, expected) => {
    expect(computeTokenCost(pricing, { promptTokens, completionTokens })).toBe(expected);
  });

  // prompt counts every input token; cache reads and writes are parts of it, reasoning is part of completion.
  it.each([
    ['cache reads at a tenth', claude, { prompt: 1000, read: 1000, write: 0, completion: 0 }, 150],
    ['cache writes at 1.25', claude, { prompt: 1000, read: 0, write: 1000, completion: 0 }, 1875],
    [
      'fresh + read + write + completion, the README example',
      { ...claude, modelRatio: 1.5, completionRatio: 4 },
      { prompt: 4700, read: 3000, write: 500, completion: 800 },
      7988,
    ],
    [
      'reasoning is priced as completion',
      claude,
      { prompt: 0, read: 0, write: 0, completion: 100, reasoning: 80 },
      750,
    ],
    [
      'no cache ratios: cache tokens cost what fresh ones do',
      plain,
      { prompt: 100, read: 60, write: 40, completion: 0 },
      100,
    ],
    [
      'a free cache read of only cached tokens costs nothing',
      { ...plain, cacheReadRatio: 0 },
      { prompt: 50, read: 50, write: 0, completion: 0 },
      0,
    ],
    [
      'at least 1 for a cache read at a non-zero price',
      { ...claude, modelRatio: 0.01 },
      { prompt: 10, read: 10, write: 0, completion: 0 },
      1,
    ],
    [
      'group ratio scales all of it',
      { ...claude, groupRatio: 2 },
      { prompt: 1000, read: 1000, write: 0, completion: 0 },
      300,
    ],
    [
      'counts that overstate the cache never make fresh input negative',
      claude,
      { prompt: 10, read: 20, write: 0, completion: 0 },
      3,
    ],
  ])('%s', (_name, pricing, tokens, expected) => {
    const usage = {
      promptTokens: tokens.prompt,
      completionTokens: tokens.completion,
      cacheReadTokens: tokens.read,
      cacheWriteTokens: tokens.write,
      reasoningTokens: 'reasoning' in tokens ? tokens.reasoning : 0,
    };
    expect(computeTokenCost(pricing, usage)).toBe(expected);
  });
});

describe('computeReservation', () => {
  it.each([
    ['pre-consumed + prompt without max_tokens', plain, 500, 20, 0, 520],
    [
      'max_tokens × completion ratio covers the worst case',
      { ...plain, completionRatio: 4 },
      500,
      20,
      100,
      920,
    ],
    ['scaled by model and group ratio', { ...plain, modelRatio: 2, groupRatio: 0.5 }, 100, 0, 0, 100],
    ['a negative pre-consumption counts as 0', plain, -5, 10, 0, 10],
    [
      'a cache write dearer than input prices the whole prompt as written',
      { ...plain, cacheWriteRatio: 1.25 },
      0,
      100,
      0,
      125,
    ],
    ['a cheap cache read does not lower the hold', { ...plain, cacheReadRatio: 0.1 }, 0, 100, 0, 100],
  ])('%s', (_name, pricing, preConsumed, prompt, maxTokens, expected) => {
    expect(computeReservation(pricing, preConsumed, prompt, maxTokens)).toBe(expected);
  });

  it('always covers the settled cost when max_tokens bounds the answer, however the prompt was cached', () => {
    const pricing = { ...claude, modelRatio: 1.25, completionRatio: 4, groupRatio: 1.1 };
    const reserved = computeReservation(pricing, 0, 30, 100);
    for (const completion of [0, 1, 57, 100]) {
      for (const [read, write] of [
        [0, 0],
        [30, 0],
        [0, 30],
        [10, 20],
      ]) {
        const usage = {
          promptTokens: 30,
          completionTokens: completion,
          cacheReadTokens: read,
          cacheWriteTokens: write,
        };
        expect(computeTokenCost(pricing, usage)).toBeLessThanOrEqual(reserved);
      }
    }
  });
});

describe('model ratios', () => {
  it('knows built-in prices as ratios of $0.002 per 1K tokens', () => {
    expect(findModelRatios(test.context.options, 'gpt-4o')).toMatchObject({
      modelRatio: 1.25,
      completionRatio: 4,
    });
    expect(findModelRatios(test.context.options, 'gpt-4')).toMatchObject({
      modelRatio: 15,
      completionRatio: 2,
    });
    expect(findModelRatios(test.context.options, 'text-embedding-3-small')).toMatchObject({
      modelRatio: 0.01,
      completionRatio: 1,
    });
    expect(findModelRatios(test.context.options, 'claude-3-5-sonnet-20241022')).toEqual({
      modelRatio: 1.5,
      completionRatio: 5,
      cacheReadRatio: 0.1,
      cacheWriteRatio: 1.25,
      audioInputRatio: 1,
      imageInputRatio: 1,
      audioOutputRatio: 1,
      imageOutputRatio: 1,
    });
  });

  it.each([
    ['claude-sonnet-4-5', 0.1, 1.25],
    ['claude-3-haiku-20240307', 0.12, 1.2],
    ['gpt-4o', 0.5, 1],
    ['gpt-4.1-mini', 0.25, 1],
    ['o3', 0.25, 1],
    ['o3-mini', 0.5, 1],
    ['gpt-5', 0.1, 1],
    ['gemini-2.0-flash', 0.25, 1],
    ['gemini-2.5-flash', 0.1, 1],
  ])('knows the cache prices of %s: read %s, write %s', (model, read, write) => {
    expect(findModelRatios(test.context.options, model)).toMatchObject({
      cacheReadRatio: read,
      cacheWriteRatio: write,
    });
  });

  it('knows DeepSeek cache hits as their list price over the input price', () => {
    expect(findModelRatios(test.context.options, 'deepseek-chat')?.cacheReadRatio).toBeCloseTo(0.028 / 0.28);
  });

  it('lets CacheReadRatio and CacheWriteRatio override the built-in cache prices and price other models', async () => {
    await test.context.options.set(
      'CacheReadRatio',
      JSON.stringify({ 'claude-sonnet-4-5': 0.2, 'acme-llm': 0.3 }),
    );
    await test.context.options.set('CacheWriteRatio', JSON.stringify({ 'claude-sonnet-4-5': 2 }));
    await test.context.options.set('ModelRatio', JSON.stringify({ 'acme-llm': 3 }));
    expect(findModelRatios(test.context.options, 'claude-sonnet-4-5')).toMatchObject({
      cacheReadRatio: 0.2,
      cacheWriteRatio: 2,
    });
    // A model without built-in cache prices: what the option says, else the fresh input price.
    expect(findModelRatios(test.context.options, 'acme-llm')).toEqual({
      modelRatio: 3,
      completionRatio: 1,
      cacheReadRatio: 0.3,
      cacheWriteRatio: 1,
      audioInputRatio: 1,
      imageInputRatio: 1,
      audioOutputRatio: 1,
      imageOutputRatio: 1,
    });
    for (const key of ['CacheReadRatio', 'CacheWriteRatio', 'ModelRatio'] as const)
      await test.context.options.set(key, '{}');
  });

  it('knows no price for an unknown model until ModelRatio sets one', async () => {
    expect(findModelRatios(test.context.options, 'acme-llm')).toBeNull();
    await test.context.options.set('ModelRatio', JSON.stringify({ 'acme-llm': 3, 'gpt-4o': 2 }));
    expect(findModelRatios(test.context.options, 'acme-llm')).toMatchObject({
      modelRatio: 3,
      completionRatio: 1,
    });
    // The option overrides a built-in price and keeps its completion ratio.
    expect(findModelRatios(test.context.options, 'gpt-4o')).toMatchObject({
      modelRatio: 2,
      completionRatio: 4,
    });
    await test.context.options.set('CompletionRatio', JSON.stringify({ 'acme-llm': 2.5 }));
    expect(findModelRatios(test.context.options, 'acme-llm')).toMatchObject({
      modelRatio: 3,
      completionRatio: 2.5,
    });
    // A free model is still a known model.
    await test.context.options.set('ModelRatio', JSON.stringify({ 'local-llama': 0 }));
    expect(findModelRatios(test.context.options, 'local-llama')).toMatchObject({
      modelRatio: 0,
      completionRatio: 1,
    });
    expect(findModelRatios(test.context.options, 'acme-llm')).toBeNull();
    // Prototype names are never prices.
    expect(findModelRatios(test.context.options, 'constructor')).toBeNull();
  });

  it('reads group ratios, 1 for a group the option does not list', async () => {
    await test.context.options.set('GroupRatio', JSON.stringify({ default: 1, vip: 0.8 }));
    expect(getGroupRatio(test.context.options, 'vip')).toBe(0.8);
    expect(getGroupRatio(test.context.options, 'nobody')).toBe(1);
  });

  it('describes the pricing for the log', () => {
    expect(describePricing({ ...claude, modelRatio: 15, completionRatio: 4 })).toBe(
      'model ratio 15, completion ratio 4, cache read ratio 0.1, cache write ratio 1.25, group ratio 1',
    );
  });
});

describe('images', () => {
  it.each([
    ['dall-e-3', undefined, undefined, 1],
    ['dall-e-3', '1024x1792', undefined, 2],
    ['dall-e-3', '1024x1024', 'hd', 2],
    ['dall-e-3', '1792x1024', 'hd', 3],
    ['dall-e-2', '256x256', undefined, 1],
    ['dall-e-2', '512x512', undefined, 1.125],
    ['dall-e-3', '256x256', undefined, null],
    ['cogview-3-plus', '1024x1024', undefined, 1],
  ])('%s %s %s → ×%s', (model, size, quality, expected) => {
    expect(findImageMultiplier(model, size, quality)).toBe(expected);
  });

  it('prices images per picture', () => {
    expect(computeImageCost({ ...plain, modelRatio: 20 }, 2, 1.5)).toBe(60_000);
  });
});

describe('token counting', () => {
  it('counts chat prompts with the per-message overhead, tools and images', async () => {
    const counter = createTokenCounter('gpt-4o', false);
    const base = await counter.chatPrompt({ messages: [{ role: 'user', content: 'Hello there' }] });
    expect(base).toBe(3 + 3 + (await counter.text('user')) + (await counter.text('Hello there')));
    const withTools = await counter.chatPrompt({
      messages: [{ role: 'user', content: 'Hello there' }],
      tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }],
    });
    expect(withTools).toBeGreaterThan(base + 5);
    const withImage = await counter.chatPrompt({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Hello there' },
            { type: 'image_url', image_url: { url: 'https://example.com/a.png', detail: 'low' } },
          ],
        },
      ],
    });
    expect(withImage).toBe(base + 85);
  });

  it('counts images by tiles, from the size of a data URL', () => {
    // A 1×1 PNG: fits one tile.
    const png =
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
    expect(readDataUrlImageSize(png)).toEqual({ width: 1, height: 1 });
    expect(countImageTokens('gpt-4o', 'high', { width: 1, height: 1 })).toBe(85 + 170);
    expect(countImageTokens('gpt-4o', 'high', null)).toBe(85 + 170 * 4);
    expect(countImageTokens('gpt-4o', 'high', { width: 4096, height: 2048 })).toBe(85 + 170 * 6);
    expect(countImageTokens('gpt-4o-mini', 'low', null)).toBe(2833);
  });

  it('approximates without the tokenizer when ApproximateTokenEnabled', async () => {
    const counter = createTokenCounter('gpt-4o', true);
    expect(await counter.text('abcdefgh')).toBe(2);
    expect(await counter.text('你好')).toBe(2);
  });

  it('counts embedding inputs of every shape', async () => {
    const counter = createTokenCounter('text-embedding-3-small', false);
    expect(await counter.input('hello world')).toBe(2);
    expect(await counter.input(['hello', 'world'])).toBe(2);
    expect(await counter.input([1, 2, 3])).toBe(3);
    expect(await counter.input([[1, 2], [3]])).toBe(3);
    expect(
      await counter.input([
        ['hello', 'world'],
        [1, 2],
      ]),
    ).toBe(4);
  });
});
