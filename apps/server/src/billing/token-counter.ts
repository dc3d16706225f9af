import { readDataUrlImageSize, type ImageSize } from './image-dimensions';

type Encoder = { countTokens(text: string): number };
type EncodingName = 'o200k' | 'cl100k';

const loading = new Map<EncodingName, Promise<Encoder>>();

/**
 * gpt-tokenizer's tables take tens of MB and ~0.3 s to load: each encoding only when the first request that
 * needs it arrives (a gateway serving only GPT-4o-class models never loads cl100k).
 */
function loadEncoder(name: EncodingName): Promise<Encoder> {
  let encoder = loading.get(name);
  if (!encoder) {
    encoder =
      name === 'o200k'
        ? import('gpt-tokenizer/encoding/o200k_base')
        : import('gpt-tokenizer/encoding/cl100k_base');
    loading.set(name, encoder);
  }
  return encoder;
}

/** Models of the GPT-4o generation onwards use o200k_base; everything else is counted with cl100k_base. */
function encodingOf(model: string): EncodingName {
  return /^(gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o1|o3|o4|gpt-oss|openai\/gpt-oss)/.test(model)
    ? 'o200k'
    : 'cl100k';
}

/** ApproximateTokenEnabled: about four ASCII characters per token, one token per other character. */
function approximateCount(text: string): number {
  let ascii = 0;
  let other = 0;
  for (let index = 0; index < text.length; index += 1) {
    if (text.charCodeAt(index) < 128) ascii += 1;
    else other += 1;
  }
  return Math.ceil(ascii / 4) + other;
}

const enum CharClass {
  none,
  letter,
  digit,
  space,
  symbol,
  other,
}

function classOf(code: number): CharClass {
  if ((code >= 97 && code <= 122) || (code >= 65 && code <= 90)) return CharClass.letter;
  if (code >= 48 && code <= 57) return CharClass.digit;
  if (code === 32 || code === 9 || code === 10 || code === 13) return CharClass.space;
  return code < 128 ? CharClass.symbol : CharClass.other;
}

/**
 * A count that leans high, without the tokenizer's tables, to size reservations: the cl100k / o200k
 * pre-tokenizers split text at letter runs, digit groups of three, punctuation and whitespace runs, so those
 * are what is counted — a letter run per 4 letters (per 2 once mixed with digits, as in ids and hashes), a new
 * run at a lower-to-upper case change, a token per symbol, per whitespace run of two or more and per line
 * break, and per non-ASCII character its UTF-8 length minus one (CJK 2, emoji 3). Measured against
 * gpt-tokenizer (token-counter.test.ts): 1.2–1.5 × on English, 1.3–1.7 × on code, 1.3–2.9 × on Chinese,
 * never below on those; random base64 can come out ~10 % under (settlement charges the real usage).
 */
export function estimateTokens(text: string): number {
  let tokens = 0;
  let previous = CharClass.none;
  let isPreviousUpper = false;
  let run = 0;
  // letters and digits since the last space or symbol: an alphanumeric word like "a1b2c3" splits finely
  let hasLetter = false;
  let hasDigit = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    const kind = classOf(code);
    const isUpper = code >= 65 && code <= 90;
    switch (kind) {
      case CharClass.letter:
        if (previous !== CharClass.letter || run === (hasDigit ? 2 : 4) || (isUpper && !isPreviousUpper)) {
          tokens += 1;
          run = 0;
        }
        hasLetter = true;
        break;
      case CharClass.digit:
        if (previous !== CharClass.digit || run === (hasLetter ? 2 : 3)) {
          tokens += 1;
          run = 0;
        }
        hasDigit = true;
        break;
      case CharClass.space:
        if (previous !== CharClass.space) run = 0;
        // one space joins the next word; longer runs are tokens of their own, up to ~64 characters each
        if (run % 64 === 1) tokens += 1;
        if (code === 10 && previous !== CharClass.space) tokens += 1;
        hasLetter = hasDigit = false;
        break;
      case CharClass.symbol:
        tokens += 1;
        hasLetter = hasDigit = false;
        break;
      default:
        // a high surrogate stands for a 4-byte character; its low half adds nothing
        if (code >= 0xd800 && code <= 0xdbff) tokens += 3;
        else if (code < 0xdc00 || code > 0xdfff) tokens += code < 0x800 ? 1 : 2;
        hasLetter = hasDigit = false;
    }
    run += 1;
    previous = kind;
    isPreviousUpper = isUpper;
  }
  return tokens;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;

/**
 * Vision input (https://platform.openai.com/docs/guides/images-vision#calculating-costs): low detail is a
 * flat base; otherwise the image is fitted into 2048 px, its short side scaled to 768 px, and each 512 px tile
 * costs extra. gpt-4o-mini counts ~33× the tokens at its lower price. Remote images are not fetched: they are
 * counted as 1024 × 1024.
 */
export function countImageTokens(model: string, detail: unknown, size: ImageSize | null): number {
  const isMini = model.startsWith('gpt-4o-mini');
  const base = isMini ? 2833 : 85;
  const perTile = isMini ? 5667 : 170;
  if (detail === 'low') return base;
  let { width, height } = size ?? { width: 1024, height: 1024 };
  if (width <= 0 || height <= 0) return base;
  const fit = Math.min(1, 2048 / Math.max(width, height));
  width *= fit;
  height *= fit;
  const shrink = Math.min(1, 768 / Math.min(width, height));
  width *= shrink;
  height *= shrink;
  return base + perTile * Math.ceil(width / 512) * Math.ceil(height / 512);
}

/** Counts tokens of OpenAI-format requests and answers for one model. */
export class TokenCounter {
  constructor(
    private readonly model: string,
    private readonly count: (text: string) => number,
  ) {}

  text(text: string): number {
    return text === '' ? 0 : this.count(text);
  }

  private content(content: unknown): number {
    if (typeof content === 'string') return this.text(content);
    if (!Array.isArray(content)) return 0;
    let tokens = 0;
    for (const part of content) {
      if (!isObject(part)) continue;
      if (typeof part.text === 'string') tokens += this.text(part.text);
      if (isObject(part.image_url)) {
        const url = typeof part.image_url.url === 'string' ? part.image_url.url : '';
        tokens += countImageTokens(this.model, part.image_url.detail, readDataUrlImageSize(url));
      }
    }
    return tokens;
  }

  /** Tool and function definitions are sent to the model as text: their JSON is a fair measure. */
  private json(value: unknown): number {
    return value === undefined || value === null ? 0 : this.text(JSON.stringify(value));
  }

  /** A chat request: 3 tokens per message, 1 per name, 3 to prime the reply (OpenAI's cookbook). */
  chatPrompt(body: Json): number {
    let tokens = 3;
    const messages = Array.isArray(body.messages) ? body.messages : [];
    for (const message of messages) {
      if (!isObject(message)) continue;
      tokens += 3;
      if (typeof message.role === 'string') tokens += this.text(message.role);
      tokens += this.content(message.content);
      if (typeof message.name === 'string') tokens += 1 + this.text(message.name);
      if (typeof message.tool_call_id === 'string') tokens += this.text(message.tool_call_id);
      if (Array.isArray(message.tool_calls)) {
        for (const call of message.tool_calls) {
          const fn = isObject(call) ? call.function : null;
          if (!isObject(fn)) continue;
          if (typeof fn.name === 'string') tokens += this.text(fn.name);
          if (typeof fn.arguments === 'string') tokens += this.text(fn.arguments);
        }
      }
    }
    tokens += this.json(body.tools) + this.json(body.functions);
    if (isObject(body.response_format)) tokens += this.json(body.response_format.json_schema);
    return tokens;
  }

  /** Legacy completions, embeddings and moderations: a string, strings, token ids, or content parts. */
  input(input: unknown): number {
    if (typeof input === 'string') return this.text(input);
    if (!Array.isArray(input)) return 0;
    let tokens = 0;
    for (const item of input) {
      if (typeof item === 'number') tokens += 1;
      else if (Array.isArray(item))
        tokens += item.every((entry) => typeof entry === 'number') ? item.length : this.input(item);
      else if (typeof item === 'string') tokens += this.text(item);
      else if (isObject(item)) tokens += this.content([item]);
    }
    return tokens;
  }
}

/**
 * Sizes reservations: estimateTokens for text (images, message overheads and tools counted as exactly as
 * the tokenizer would). Loads nothing, so a gateway whose upstreams report usage never loads gpt-tokenizer.
 */
export function createTokenEstimator(model: string): TokenCounter {
  return new TokenCounter(model, estimateTokens);
}

/**
 * Settles requests whose upstream reported no usage: exact with gpt-tokenizer (loaded on the first such
 * request), or the approximation when ApproximateTokenEnabled.
 */
export async function createTokenCounter(model: string, isApproximate: boolean): Promise<TokenCounter> {
  if (isApproximate) return new TokenCounter(model, approximateCount);
  const encoder = await loadEncoder(encodingOf(model));
  return new TokenCounter(model, (text) => encoder.countTokens(text));
}
