import { describe, expect, it } from 'vitest';
import type { Log } from '@gatehouse/shared';
import { describeLogCharge, formatChargeArithmetic } from './log-charge';

const log = (overrides: Partial<Log>): Log => ({
  id: 1,
  user_id: 2,
  username: 'alice',
  type: 2,
  content: '',
  token_name: 'work',
  model_name: 'claude-sonnet-4-5',
  prompt_tokens: 0,
  completion_tokens: 0,
  quota: 0,
  channel: 3,
  elapsed_time: 800,
  is_stream: false,
  created_at: 1_700_000_000,
  request_id: 'req-1',
  cache_read_tokens: 0,
  cache_write_tokens: 0,
  reasoning_tokens: 0,
  audio_input_tokens: 0,
  image_input_tokens: 0,
  audio_output_tokens: 0,
  image_output_tokens: 0,
  inbound_protocol: 'openai-chat',
  model_ratio: 1,
  completion_ratio: 1,
  cache_read_ratio: 1,
  cache_write_ratio: 1,
  audio_input_ratio: 1,
  image_input_ratio: 1,
  audio_output_ratio: 1,
  image_output_ratio: 1,
  group_ratio: 1,
  call_price: 0,
  first_token_ms: 0,
  retries: [],
  ...overrides,
});

describe('formatChargeArithmetic', () => {
  it.each([
    [
      'every term, rounded up',
      log({
        prompt_tokens: 4700,
        cache_read_tokens: 3000,
        cache_write_tokens: 500,
        completion_tokens: 800,
        model_ratio: 1.5,
        completion_ratio: 4,
        cache_read_ratio: 0.1,
        cache_write_ratio: 1.25,
        audio_input_ratio: 1,
        image_input_ratio: 1,
        audio_output_ratio: 1,
        image_output_ratio: 1,
        quota: 7988,
      }),
      '(1,200 + 3,000 × 0.1 + 500 × 1.25 + 800 × 4) × 1.5 × 1 = 7,987.5 → 7,988',
    ],
    [
      'no cache: no cache terms, no arrow when exact',
      log({
        prompt_tokens: 1000,
        completion_tokens: 2000,
        model_ratio: 1.25,
        completion_ratio: 4,
        quota: 11250,
      }),
      '(1,000 + 2,000 × 4) × 1.25 × 1 = 11,250',
    ],
    [
      'float noise is not shown',
      log({ prompt_tokens: 3, cache_read_tokens: 3, cache_read_ratio: 0.1, quota: 1 }),
      '(3 × 0.1) × 1 × 1 = 0.3 → 1',
    ],
  ])('%s', (_name, entry, expected) => {
    const charge = describeLogCharge(entry);
    expect(charge && formatChargeArithmetic(entry, charge)).toBe(expected);
  });

  it('has no arithmetic for entries that did not record their ratios or are priced per image', () => {
    expect(describeLogCharge(log({ inbound_protocol: '' }))).toBeNull();
    expect(describeLogCharge(log({ inbound_protocol: 'openai-images' }))).toBeNull();
  });

  it('itemises a token-priced image model (gpt-image-1) by its image tokens', () => {
    const image = log({
      inbound_protocol: 'openai-images',
      model_name: 'gpt-image-1',
      prompt_tokens: 50,
      image_input_tokens: 40,
      completion_tokens: 4160,
      model_ratio: 2.5,
      completion_ratio: 8,
      image_input_ratio: 2,
      group_ratio: 2,
      quota: 166_850,
    });
    const charge = describeLogCharge(image);
    expect(charge?.exact).toBe(166_850);
    expect(formatChargeArithmetic(image, charge!)).toBe('(10 + 40 × 2 + 4,160 × 8) × 2.5 × 2 = 166,850');
  });

  it('has no token arithmetic for entries priced per call: their price made the charge', () => {
    expect(describeLogCharge(log({ call_price: 0.04, prompt_tokens: 4000, quota: 30_000 }))).toBeNull();
  });
});
