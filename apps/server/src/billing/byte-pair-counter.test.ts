import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { createBytePairCounter } from './byte-pair-counter';

const require = createRequire(import.meta.url);
const { CL100K_TOKEN_SPLIT_REGEX, O200K_TOKEN_SPLIT_REGEX } =
  require('gpt-tokenizer/cjs/encodingParams/constants') as {
    CL100K_TOKEN_SPLIT_REGEX: RegExp;
    O200K_TOKEN_SPLIT_REGEX: RegExp;
  };

function counterOf(file: string, pattern: RegExp): (text: string) => number {
  return createBytePairCounter(
    readFileSync(require.resolve(`gpt-tokenizer/data/${file}`), 'latin1'),
    pattern,
  );
}

// gpt-tokenizer refuses text holding a special token unless told not to; here such text is text
const asText = { disallowedSpecial: new Set<string>() };
const encodings = [
  {
    name: 'o200k_base',
    count: counterOf('o200k_base.tiktoken', O200K_TOKEN_SPLIT_REGEX),
    reference: (text: string) => countO200k(text, asText),
  },
  {
    name: 'cl100k_base',
    count: counterOf('cl100k_base.tiktoken', CL100K_TOKEN_SPLIT_REGEX),
    reference: (text: string) => countCl100k(text, asText),
  },
];

/** A deterministic stream of numbers in [0, 1) (mulberry32), so a failure names a reproducible text. */
function randomFrom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

// What splits and merges differently: case changes, contractions, digits, whitespace runs and line breaks,
// symbols, accents and combining marks, CJK, Hangul, Arabic, emoji (surrogate pairs, joiners), lone bytes.
const ALPHABET = [
  ...'abcdefghijklmnopqrstuvwxyz',
  ...'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  ...'0123456789',
  ...' \t\r\n',
  ...`!"#$%&'()*+,-./:;<=>?@[\\]^_\`{|}~`,
  "'s",
  "'RE",
  "'ll",
  '    ',
  '\n\n',
  '\r\n',
  ...'éÅñçøßĳǅ',
  'e\u0301',
  '\u0308',
  ...'你好世界的一是了',
  ...'한국어',
  ...'مرحبا',
  ...'😀🌍👍',
  '👩‍💻',
  '\u00a0',
  '\u2028',
  '\ufffd',
];

describe('the byte-pair counter', () => {
  for (const { name, count } of encodings) {
    it(`counts gpt-tokenizer's own test samples of ${name} as their token lists`, () => {
      const plans = readFileSync(require.resolve('gpt-tokenizer/data/TestPlans.txt'), 'utf8').split('\n\n');
      let checked = 0;
      for (const plan of plans) {
        const fields = /^EncodingName: (.*)\nSample: (.*)\nEncoded: (\[.*\])/.exec(plan.trim());
        if (!fields || fields[1] !== name) continue;
        expect(count(fields[2]), fields[2]).toBe((JSON.parse(fields[3]) as number[]).length);
        checked += 1;
      }
      expect(checked).toBeGreaterThan(50);
    });
  }

  for (const { name, count, reference } of encodings) {
    it(`counts what gpt-tokenizer counts for ${name}: this repository's source, and random mixed texts`, () => {
      const sourceRoot = path.resolve(import.meta.dirname, '..');
      const files = readdirSync(sourceRoot, { recursive: true, encoding: 'utf8' }).filter((file) =>
        file.endsWith('.ts'),
      );
      expect(files.length).toBeGreaterThan(300);
      for (const file of files) {
        const text = readFileSync(path.join(sourceRoot, file), 'utf8');
        expect(count(text), file).toBe(reference(text));
      }
      const random = randomFrom(20261129);
      for (let sample = 0; sample < 3000; sample += 1) {
        let text = '';
        const length = Math.floor(random() * 120);
        for (let index = 0; index < length; index += 1) {
          const piece = ALPHABET[Math.floor(random() * ALPHABET.length)];
          // runs of one piece, as in separators, indentation and repeated letters
          text += random() < 0.1 ? piece.repeat(1 + Math.floor(random() * 40)) : piece;
        }
        expect(count(text), JSON.stringify(text)).toBe(reference(text));
      }
    });
  }

  it('counts special tokens and long unbroken runs as text, as gpt-tokenizer does when told to', () => {
    for (const { count, reference } of encodings) {
      for (const text of [
        '',
        'say <|endoftext|> and <|im_start|>user\nhi<|im_end|>',
        '='.repeat(5000),
        'x'.repeat(3000),
        '🙂'.repeat(700),
        `${'a1b2c3'.repeat(200)} ${'9'.repeat(1000)}`,
      ]) {
        expect(count(text)).toBe(reference(text));
      }
    }
  });

  it('counts a piece of tens of thousands of bytes as gpt-tokenizer does, and the next pieces after it', () => {
    const o200k = encodings[0].count;
    // gpt-tokenizer's count of this text (2.7 s there: it rescans the piece for every join)
    expect(o200k(`${'='.repeat(70_000)} and after`)).toBe(1096);
    expect(o200k('hello world')).toBe(countO200k('hello world'));
  });

  it('builds its table from the rank file alone: bytes in base64 and a rank per line', () => {
    // "a", "b", "ab", "abc" with "bc" not a token: "abc" is one token, "abab" is two
    const rankFile = ['YQ== 0', 'Yg== 1', 'Yw== 2', 'YWI= 3', 'YWJj 4', ''].join('\n');
    const count = createBytePairCounter(rankFile, /\S+|\s+/gu);
    expect(count('abc')).toBe(1);
    expect(count('abab')).toBe(2);
    expect(count('cab cc')).toBe(2 + 1 + 2);
  });
});
