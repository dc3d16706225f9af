import { describe, expect, it } from 'vitest';
import type { ChatChunk } from '../../canonical/chat';
import { ChunksBeforeFailure } from './chunks-before-failure';
import { deltaChunk } from './stream-chunks';

const head = { id: 'c1', created: 1, model: '' };
const read = (text: string): ChatChunk[] => {
  if (text === 'bad') throw new Error('bad event');
  return text ? [deltaChunk(head, { content: text })] : [];
};

describe('ChunksBeforeFailure', () => {
  it('answers every chunk when nothing fails', () => {
    expect(new ChunksBeforeFailure().read(['a', '', 'b'], read)).toHaveLength(2);
  });

  it('answers the chunks before a failure and throws it on the next call', () => {
    const reader = new ChunksBeforeFailure();
    expect(reader.read(['a', 'bad', 'b'], read)).toEqual([deltaChunk(head, { content: 'a' })]);
    expect(() => reader.read(['c'], read)).toThrow('bad event');
    expect(() => reader.throwPending()).toThrow('bad event');
  });

  it('throws at once when no chunk came before the failure', () => {
    const reader = new ChunksBeforeFailure();
    expect(() => reader.read(['', 'bad'], read)).toThrow('bad event');
    expect(() => reader.throwPending()).not.toThrow();
  });
});
