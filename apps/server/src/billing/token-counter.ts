import { readDataUrlImageSize, type ImageSize } from './image-dimensions';
import { TokenizerThread, type EncodingName } from './tokenizer-thread';

/** The exact counts of every relay in this process, in one thread started by the first (tokenizer-thread.ts). */
const tokenizer = new TokenizerThread();

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

/** What a request or answer counts: tokens known already (images, overheads) and texts to count. */
interface Tally {
  tokens: number;
  texts: string[];
}

/**
 * Walks OpenAI-format requests and answers for one model: images, per-message overheads and token ids are
 * counted as it goes, texts are collected and counted at the end by `total` — at once for an estimate, in
 * the tokenizer thread for an exact count.
 */
abstract class TokenWalker<Count> {
  constructor(private readonly model: string) {}

  protected abstract total(tally: Tally): Count;

  text(text: string): Count {
    return this.total({ tokens: 0, texts: text === '' ? [] : [text] });
  }

  /** A chat request: 3 tokens per message, 1 per name, 3 to prime the reply (OpenAI's cookbook). */
  chatPrompt(body: Json): Count {
    const tally: Tally = { tokens: 3, texts: [] };
    const messages = Array.isArray(body.messages) ? body.messages : [];
    for (const message of messages) {
      if (!isObject(message)) continue;
      tally.tokens += 3;
      if (typeof message.role === 'string') addText(tally, message.role);
      this.addContent(tally, message.content);
      if (typeof message.name === 'string') {
        tally.tokens += 1;
        addText(tally, message.name);
      }
      if (typeof message.tool_call_id === 'string') addText(tally, message.tool_call_id);
      if (Array.isArray(message.tool_calls)) {
        for (const call of message.tool_calls) {
          const fn = isObject(call) ? call.function : null;
          if (!isObject(fn)) continue;
          if (typeof fn.name === 'string') addText(tally, fn.name);
          if (typeof fn.arguments === 'string') addText(tally, fn.arguments);
        }
      }
    }
    addJson(tally, body.tools);
    addJson(tally, body.functions);
    if (isObject(body.response_format)) addJson(tally, body.response_format.json_schema);
    return this.total(tally);
  }

  /** Legacy completions, embeddings and moderations: a string, strings, token ids, or content parts. */
  input(input: unknown): Count {
    const tally: Tally = { tokens: 0, texts: [] };
    this.addInput(tally, input);
    return this.total(tally);
  }

  private addInput(tally: Tally, input: unknown): void {
    if (typeof input === 'string') return addText(tally, input);
    if (!Array.isArray(input)) return;
    for (const item of input) {
      if (typeof item === 'number') tally.tokens += 1;
      else if (Array.isArray(item)) {
        if (item.every((entry) => typeof entry === 'number')) tally.tokens += item.length;
        else this.addInput(tally, item);
      } else if (typeof item === 'string') addText(tally, item);
      else if (isObject(item)) this.addContent(tally, [item]);
    }
  }

  private addContent(tally: Tally, content: unknown): void {
    if (typeof content === 'string') return addText(tally, content);
    if (!Array.isArray(content)) return;
    for (const part of content) {
      if (!isObject(part)) continue;
      if (typeof part.text === 'string') addText(tally, part.text);
      if (isObject(part.image_url)) {
        const url = typeof part.image_url.url === 'string' ? part.image_url.url : '';
        tally.tokens += countImageTokens(this.model, part.image_url.detail, readDataUrlImageSize(url));
      }
    }
  }
}

function addText(tally: Tally, text: string): void {
  if (text !== '') tally.texts.push(text);
}

/** Tool and function definitions are sent to the model as text: their JSON is a fair measure. */
function addJson(tally: Tally, value: unknown): void {
  if (value !== undefined && value !== null) addText(tally, JSON.stringify(value));
}

function sumOf(tally: Tally, count: (text: string) => number): number {
  let tokens = tally.tokens;
  for (const text of tally.texts) tokens += count(text);
  return tokens;
}

/** Counts at once, without the tokenizer's tables: sizes reservations. */
export class TokenEstimator extends TokenWalker<number> {
  protected total(tally: Tally): number {
    return sumOf(tally, estimateTokens);
  }
}

/** What a counter does when the tokenizer thread could not count: told the error, it charges the approximation. */
export type CountFailed = (error: Error) => void;

/**
 * Counts what settlement charges: exactly in the tokenizer thread, or the approximation. If the thread cannot
 * count (it failed to load its tables or stopped), the approximation is charged instead of nothing, and
 * `onCountFailed` hears why.
 */
export class TokenCounter extends TokenWalker<Promise<number>> {
  constructor(
    model: string,
    private readonly encoding: EncodingName | null,
    private readonly onCountFailed?: CountFailed,
    private readonly thread: TokenizerThread = tokenizer,
  ) {
    super(model);
  }

  protected total(tally: Tally): Promise<number> {
    if (this.encoding === null) return Promise.resolve(sumOf(tally, approximateCount));
    return this.thread.count(this.encoding, tally.texts).then(
      (counted) => tally.tokens + counted,
      (error: Error) => {
        this.onCountFailed?.(error);
        return sumOf(tally, approximateCount);
      },
    );
  }
}

/**
 * Sizes reservations: estimateTokens for text (images, message overheads and tools counted as exactly as
 * the tokenizer would). Loads nothing, so a gateway whose upstreams report usage never loads gpt-tokenizer.
 */
export function createTokenEstimator(model: string): TokenEstimator {
  return new TokenEstimator(model);
}

/**
 * Settles requests whose upstream reported no usage: exact with gpt-tokenizer (in the tokenizer thread, which
 * the first such count starts), or the approximation when ApproximateTokenEnabled or the thread cannot count.
 */
export function createTokenCounter(
  model: string,
  isApproximate: boolean,
  onCountFailed?: CountFailed,
): TokenCounter {
  return new TokenCounter(model, isApproximate ? null : encodingOf(model), onCountFailed);
}
