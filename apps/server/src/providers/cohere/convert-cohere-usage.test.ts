import { describe, expect, it } from 'vitest';
import { convertCohereUsage } from './convert-cohere-usage';

describe("Cohere's usage → billed tokens", () => {
  it.each([
    [
      'billed units, not the template-inflated token counts',
      {
        billed_units: { input_tokens: 5, output_tokens: 418 },
        tokens: { input_tokens: 71, output_tokens: 418 },
      },
      { promptTokens: 5, completionTokens: 418 },
    ],
    [
      'token counts when nothing is billed yet',
      { tokens: { input_tokens: 520, output_tokens: 40 } },
      { promptTokens: 520, completionTokens: 40 },
    ],
    [
      'a missing side as zero',
      { billed_units: { input_tokens: 9 } },
      { promptTokens: 9, completionTokens: 0 },
    ],
    [
      'empty billed units fall back to tokens',
      { billed_units: {}, tokens: { input_tokens: 3, output_tokens: 1 } },
      { promptTokens: 3, completionTokens: 1 },
    ],
    ['no counts at all', { billed_units: {} }, null],
    [
      'negative or non-numeric counts as absent',
      { billed_units: { input_tokens: -1, output_tokens: 'x' } },
      null,
    ],
    [
      'cached tokens as cache reads, at most the billed prompt',
      {
        billed_units: { input_tokens: 900, output_tokens: 10 },
        tokens: { input_tokens: 960 },
        cached_tokens: 512,
      },
      { promptTokens: 900, completionTokens: 10, cacheReadTokens: 512 },
    ],
    [
      'cached tokens beyond the billed prompt capped to it',
      { billed_units: { input_tokens: 5, output_tokens: 1 }, cached_tokens: 64 },
      { promptTokens: 5, completionTokens: 1, cacheReadTokens: 5 },
    ],
    ['no usage', undefined, null],
  ])('reads %s', (_, usage, expected) => {
    expect(convertCohereUsage(usage as never)).toEqual(expected);
  });
});
