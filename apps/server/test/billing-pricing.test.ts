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

const plain = { modelRatio: 1, completionRatio: 1, groupRatio: 1 };

describe('computeTokenCost (DESIGN.md formula)', () => {
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
    [
      'scaled by model and group ratio',
      { modelRatio: 2, completionRatio: 1, groupRatio: 0.5 },
      100,
      0,
      0,
      100,
    ],
    ['a negative pre-consumption counts as 0', plain, -5, 10, 0, 10],
  ])('%s', (_name, pricing, preConsumed, prompt, maxTokens, expected) => {
    expect(computeReservation(pricing, preConsumed, prompt, maxTokens)).toBe(expected);
  });

  it('always covers the settled cost when max_tokens bounds the answer', () => {
    const pricing = { modelRatio: 1.25, completionRatio: 4, groupRatio: 1.1 };
    for (const completion of [0, 1, 57, 100]) {
      const reserved = computeReservation(pricing, 0, 30, 100);
      expect(
        computeTokenCost(pricing, { promptTokens: 30, completionTokens: completion }),
      ).toBeLessThanOrEqual(reserved);
    }
  });
});

describe('model ratios', () => {
  it('knows built-in prices as ratios of $0.002 per 1K tokens', () => {
    expect(findModelRatios(test.context.options, 'gpt-4o')).toEqual({ modelRatio: 1.25, completionRatio: 4 });
    expect(findModelRatios(test.context.options, 'gpt-4')).toEqual({ modelRatio: 15, completionRatio: 2 });
    expect(findModelRatios(test.context.options, 'text-embedding-3-small')).toEqual({
      modelRatio: 0.01,
      completionRatio: 1,
    });
    expect(findModelRatios(test.context.options, 'claude-3-5-sonnet-20241022')).toEqual({
      modelRatio: 1.5,
      completionRatio: 5,
    });
  });

  it('knows no price for an unknown model until ModelRatio sets one', async () => {
    expect(findModelRatios(test.context.options, 'acme-llm')).toBeNull();
    await test.context.options.set('ModelRatio', JSON.stringify({ 'acme-llm': 3, 'gpt-4o': 2 }));
    expect(findModelRatios(test.context.options, 'acme-llm')).toEqual({ modelRatio: 3, completionRatio: 1 });
    // The option overrides a built-in price and keeps its completion ratio.
    expect(findModelRatios(test.context.options, 'gpt-4o')).toEqual({ modelRatio: 2, completionRatio: 4 });
    await test.context.options.set('CompletionRatio', JSON.stringify({ 'acme-llm': 2.5 }));
    expect(findModelRatios(test.context.options, 'acme-llm')).toEqual({
      modelRatio: 3,
      completionRatio: 2.5,
    });
    // A free model is still a known model.
    await test.context.options.set('ModelRatio', JSON.stringify({ 'local-llama': 0 }));
    expect(findModelRatios(test.context.options, 'local-llama')).toEqual({
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
    expect(describePricing({ modelRatio: 15, completionRatio: 4, groupRatio: 1 })).toBe(
      'model ratio 15, completion ratio 4, group ratio 1',
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
    expect(computeImageCost({ modelRatio: 20, completionRatio: 1, groupRatio: 1 }, 2, 1.5)).toBe(60_000);
  });
});

describe('token counting', () => {
  it('counts chat prompts with the per-message overhead, tools and images', async () => {
    const counter = await createTokenCounter('gpt-4o', false);
    const base = counter.chatPrompt({ messages: [{ role: 'user', content: 'Hello there' }] });
    expect(base).toBe(3 + 3 + counter.text('user') + counter.text('Hello there'));
    const withTools = counter.chatPrompt({
      messages: [{ role: 'user', content: 'Hello there' }],
      tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }],
    });
    expect(withTools).toBeGreaterThan(base + 5);
    const withImage = counter.chatPrompt({
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
    const counter = await createTokenCounter('gpt-4o', true);
    expect(counter.text('abcdefgh')).toBe(2);
    expect(counter.text('你好')).toBe(2);
  });

  it('counts embedding inputs of every shape', async () => {
    const counter = await createTokenCounter('text-embedding-3-small', false);
    expect(counter.input('hello world')).toBe(2);
    expect(counter.input(['hello', 'world'])).toBe(2);
    expect(counter.input([1, 2, 3])).toBe(3);
    expect(counter.input([[1, 2], [3]])).toBe(3);
  });
});
