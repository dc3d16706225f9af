import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { afterEach, describe, expect, it } from 'vitest';
import { createTokenCounter, TokenCounter } from './token-counter';
import { TokenizerThread, type EncodingName } from './tokenizer-thread';

const threads: TokenizerThread[] = [];
afterEach(async () => {
  for (const thread of threads.splice(0)) await thread.close();
});

function newThread(idleExitMs?: number): TokenizerThread {
  const thread = new TokenizerThread(idleExitMs);
  threads.push(thread);
  return thread;
}

const texts = [
  'Hello there, how are you today?',
  'function add(a: number, b: number): number {\n  return a + b;\n}\n',
  '你好，世界。今天天气很好。',
  '{"id":"call_1","arguments":{"path":"src/main.ts","line":42}}',
  '🙂 emoji and accents: café, naïve, Ångström',
];

describe('the tokenizer thread', () => {
  it('counts exactly what gpt-tokenizer counts, in both encodings, summing the texts', async () => {
    const thread = newThread();
    expect(thread.isRunning).toBe(false);
    const sum = (count: (text: string) => number) => texts.reduce((total, text) => total + count(text), 0);
    expect(await thread.count('o200k', texts)).toBe(sum(countO200k));
    expect(await thread.count('cl100k', texts)).toBe(sum(countCl100k));
    expect(thread.isRunning).toBe(true);
    // Counts in flight together get their own answers.
    const each = await Promise.all(texts.map((text) => thread.count('o200k', [text])));
    expect(each).toEqual(texts.map((text) => countO200k(text)));
  });

  it("counts a text holding a special token as text (gpt-tokenizer's countTokens throws on it)", async () => {
    const thread = newThread();
    const text = 'Why does my prompt end with <|endoftext|> or <|im_start|>?';
    expect(await thread.count('o200k', [text])).toBe(countO200k(text, { disallowedSpecial: new Set() }));
    expect(() => countO200k(text)).toThrow(/special token/);
  });

  it('answers nothing to count without starting the thread', async () => {
    const thread = newThread();
    expect(await thread.count('o200k', [])).toBe(0);
    expect(thread.isRunning).toBe(false);
  });

  it('fails a count it cannot do with a clear error and goes on counting', async () => {
    const thread = newThread();
    await expect(thread.count('p50k' as EncodingName, ['text'])).rejects.toThrow(/^counting tokens failed: /);
    expect(await thread.count('o200k', ['hello world'])).toBe(2);
  });

  it('fails what it was counting when it stops, and the next count starts a new thread', async () => {
    const thread = newThread();
    const long = 'lorem ipsum dolor sit amet '.repeat(20_000);
    const failed = expect(thread.count('o200k', [long])).rejects.toThrow('the tokenizer thread was closed');
    await thread.close();
    await failed;
    expect(thread.isRunning).toBe(false);
    expect(await thread.count('o200k', ['hello world'])).toBe(2);
    expect(thread.isRunning).toBe(true);
  });

  it('ends when idle and starts again for the next count', async () => {
    const thread = newThread(50);
    expect(await thread.count('cl100k', ['hello world'])).toBe(2);
    await expect.poll(() => thread.isRunning, { timeout: 5000 }).toBe(false);
    expect(await thread.count('cl100k', ['hello world again'])).toBe(3);
  });
});

describe('the settlement counter', () => {
  it('counts a chat exactly in the thread, or approximately at once', async () => {
    const body = {
      messages: [
        { role: 'system', content: texts[1] },
        { role: 'user', content: [{ type: 'text', text: texts[2] }], name: 'alice' },
      ],
      tools: [{ type: 'function', function: { name: 'read', parameters: { type: 'object' } } }],
    };
    const tools = JSON.stringify(body.tools);
    const exact = 3 + 3 + countO200k('system') + countO200k(texts[1]) + 3 + countO200k('user');
    expect(await createTokenCounter('gpt-4o', false).chatPrompt(body)).toBe(
      exact + countO200k(texts[2]) + 1 + countO200k('alice') + countO200k(tools),
    );
    expect(await createTokenCounter('gpt-3.5-turbo', false).text(texts[0])).toBe(countCl100k(texts[0]));
    expect(await createTokenCounter('gpt-4o', true).text('abcdefgh')).toBe(2);
  });

  it('charges the approximation when the thread cannot count, and says why', async () => {
    const thread = newThread();
    const failures: Error[] = [];
    const counter = new TokenCounter('gpt-4o', 'o200k', (error) => failures.push(error), thread);
    const long = 'lorem ipsum dolor sit amet '.repeat(20_000);
    const counted = counter.chatPrompt({ messages: [{ role: 'user', content: long }] });
    await thread.close();
    // 3 + 3 overheads, then about four ASCII characters per token of "user" and the text
    expect(await counted).toBe(3 + 3 + 1 + Math.ceil(long.length / 4));
    expect(failures.map((error) => error.message)).toEqual(['the tokenizer thread was closed']);
    // A counter of an encoding the thread does not know falls back the same way.
    const unknown = new TokenCounter(
      'gpt-4o',
      'p50k' as EncodingName,
      (error) => failures.push(error),
      thread,
    );
    expect(await unknown.text('abcdefgh')).toBe(2);
    expect(failures[1].message).toMatch(/^counting tokens failed: /);
  });
});
