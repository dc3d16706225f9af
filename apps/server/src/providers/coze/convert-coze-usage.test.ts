import { describe, expect, it } from 'vitest';
import { convertCozeUsage } from './convert-coze-usage';

describe("Coze's chat usage → billed tokens", () => {
  it.each([
    [
      'input and output counts',
      { token_count: 6644, output_count: 766, input_count: 5878 },
      { promptTokens: 5878, completionTokens: 766 },
    ],
    [
      'input from the total when only output is given',
      { token_count: 100, output_count: 30 },
      { promptTokens: 70, completionTokens: 30 },
    ],
    [
      'the total as input when it is all there is',
      { token_count: 42 },
      { promptTokens: 42, completionTokens: 0 },
    ],
    ['the zeros of an unfinished chat as none', { token_count: 0, output_count: 0, input_count: 0 }, null],
    ['no usage', null, null],
  ])('reads %s', (_, usage, expected) => {
    expect(convertCozeUsage(usage)).toEqual(expected);
  });
});
