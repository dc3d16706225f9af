import { describe, expect, it } from 'vitest';
import { pipeSeparatedKeyProblem, splitPipeSeparatedKey } from './pipe-separated-key';

describe('pipe-separated keys', () => {
  it('splits a key into trimmed parts', () => {
    expect(splitPipeSeparatedKey(' a | b|c \n')).toEqual(['a', 'b', 'c']);
  });

  it('names the problem with the parts, never the key', () => {
    expect(pipeSeparatedKeyProblem('a|b|c', [3])).toBeNull();
    expect(pipeSeparatedKeyProblem('secret', [3])).toBe('it has 1 part separated by "|"');
    expect(pipeSeparatedKeyProblem('a|b', [3])).toBe('it has 2 parts separated by "|"');
    expect(pipeSeparatedKeyProblem('a| |c', [3])).toBe('a part is empty');
    expect(pipeSeparatedKeyProblem('a|b x|c', [3])).toBe('a part contains spaces');
    expect(pipeSeparatedKeyProblem('key', [1, 2])).toBeNull();
  });
});
