import { describe, expect, it } from 'vitest';
import { getAnthropicModelTraits, UNKNOWN_MODEL_TRAITS } from './anthropic-model-traits';

describe('what each Claude generation accepts', () => {
  it.each([
    ['claude-3-haiku-20240307', 'none', true, false, false],
    ['claude-3-5-sonnet-20241022', 'none', true, false, false],
    ['claude-3-7-sonnet-20250219', 'budget', true, false, false],
    ['claude-sonnet-4-20250514', 'budget', true, false, false],
    ['claude-opus-4-1-20250805', 'budget', true, true, false],
    ['claude-sonnet-4-5-20250929', 'budget', true, true, true],
    ['claude-haiku-4-5', 'budget', true, true, true],
    ['claude-opus-4-6', 'budget-or-adaptive', true, true, true],
    ['anthropic.claude-sonnet-4-6', 'budget-or-adaptive', true, true, true],
    ['claude-opus-4-7', 'adaptive', false, false, true],
    ['claude-opus-5', 'adaptive', false, false, true],
    ['claude-mythos-preview', 'adaptive', false, false, true],
    ['claude-fable-5', 'adaptive', false, false, true],
  ])(
    '%s: thinking %s, sampling %s, one sampler %s, structured outputs %s',
    (model, thinking, sampling, one, structured) => {
      expect(getAnthropicModelTraits(model)).toEqual({
        thinking,
        hasSampling: sampling,
        isOneSampler: one,
        hasStructuredOutputs: structured,
      });
    },
  );

  it('leaves a name it cannot place to the vendor', () => {
    expect(getAnthropicModelTraits('my-company-claude')).toBe(UNKNOWN_MODEL_TRAITS);
  });
});
