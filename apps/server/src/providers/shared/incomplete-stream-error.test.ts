import { describe, expect, it } from 'vitest';
import { UpstreamFormatError } from '../../canonical/translation';
import { incompleteStreamError } from './incomplete-stream-error';

describe('incompleteStreamError', () => {
  it('names the final event a started stream was cut before, and says when it was empty', () => {
    const cut = incompleteStreamError('Tencent Hunyuan', true, 'its finish reason');
    expect(cut).toBeInstanceOf(UpstreamFormatError);
    expect(cut.message).toBe('the Tencent Hunyuan stream ended before its finish reason');
    expect(incompleteStreamError('Baidu ERNIE', false, 'is_end').message).toBe(
      'the Baidu ERNIE stream was empty',
    );
  });
});
