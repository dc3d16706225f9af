import { cached, media, ratio, same, usd, withCacheRatios, type ModelPrice } from '../model-prices';

/**
 * The models of the OpenAI API (https://platform.openai.com/docs/models), also listed for Azure, the OpenAI
 * resellers and custom channels. Checked against the vendor's model pages (late 2025); names exactly as the
 * API expects them.
 */
export const openAIModels: readonly string[] = [
  'gpt-3.5-turbo',
  'gpt-3.5-turbo-0125',
  'gpt-3.5-turbo-1106',
  'gpt-3.5-turbo-instruct',
  'gpt-4',
  'gpt-4-0613',
  'gpt-4-turbo',
  'gpt-4-turbo-2024-04-09',
  'gpt-4o',
  'gpt-4o-2024-05-13',
  'gpt-4o-2024-08-06',
  'gpt-4o-2024-11-20',
  'chatgpt-4o-latest',
  'gpt-4o-mini',
  'gpt-4o-mini-2024-07-18',
  'gpt-4.1',
  'gpt-4.1-mini',
  'gpt-4.1-nano',
  'gpt-5',
  'gpt-5-mini',
  'gpt-5-nano',
  'o1',
  'o1-mini',
  'o3',
  'o3-mini',
  'o4-mini',
  'text-embedding-ada-002',
  'text-embedding-3-small',
  'text-embedding-3-large',
  'omni-moderation-latest',
  'text-moderation-latest',
  'text-moderation-stable',
  'davinci-002',
  'babbage-002',
  'dall-e-2',
  'dall-e-3',
  'gpt-image-1',
  'whisper-1',
  'gpt-4o-transcribe',
  'gpt-4o-mini-transcribe',
  'tts-1',
  'tts-1-hd',
  'gpt-4o-mini-tts',
];

/**
 * OpenAI's list prices, including older snapshots clients still ask for by name. Cached input costs half the
 * input price on the GPT-4o generation (and o1, o3-mini), a quarter on GPT-4.1, o3 and o4-mini, a tenth on
 * GPT-5; writing the cache costs nothing extra. Models without prompt caching never report cached tokens.
 */
export const openAIPrices: Readonly<Record<string, ModelPrice>> = withCacheRatios(
  { read: 0.5, write: 1 },
  {
    // https://openai.com/api/pricing
    ...same(usd(0.5, 1.5), ['gpt-3.5-turbo', 'gpt-3.5-turbo-0125']),
    'gpt-3.5-turbo-1106': usd(1, 2),
    ...same(usd(1.5, 2), ['gpt-3.5-turbo-0613', 'gpt-3.5-turbo-0301', 'gpt-3.5-turbo-instruct']),
    ...same(usd(3, 4), ['gpt-3.5-turbo-16k', 'gpt-3.5-turbo-16k-0613']),
    ...same(usd(30, 60), ['gpt-4', 'gpt-4-0613', 'gpt-4-0314']),
    ...same(usd(60, 120), ['gpt-4-32k', 'gpt-4-32k-0613', 'gpt-4-32k-0314']),
    ...same(usd(10, 30), [
      'gpt-4-turbo',
      'gpt-4-turbo-2024-04-09',
      'gpt-4-turbo-preview',
      'gpt-4-0125-preview',
      'gpt-4-1106-preview',
      'gpt-4-vision-preview',
    ]),
    ...same(usd(2.5, 10), ['gpt-4o', 'gpt-4o-2024-08-06', 'gpt-4o-2024-11-20', 'gpt-4o-search-preview']),
    // Audio tokens: $40 / 1M in (16 × text input), $80 / 1M out (8 × text output).
    'gpt-4o-audio-preview': media(usd(2.5, 10), { audioInput: 16, audioOutput: 8 }),
    ...same(usd(5, 15), ['gpt-4o-2024-05-13', 'chatgpt-4o-latest']),
    ...same(usd(0.15, 0.6), ['gpt-4o-mini', 'gpt-4o-mini-2024-07-18', 'gpt-4o-mini-search-preview']),
    ...same(cached(usd(2, 8), { read: 0.25 }), ['gpt-4.1', 'gpt-4.1-2025-04-14']),
    ...same(cached(usd(0.4, 1.6), { read: 0.25 }), ['gpt-4.1-mini', 'gpt-4.1-mini-2025-04-14']),
    ...same(cached(usd(0.1, 0.4), { read: 0.25 }), ['gpt-4.1-nano', 'gpt-4.1-nano-2025-04-14']),
    'gpt-4.5-preview': usd(75, 150),
    ...same(cached(usd(1.25, 10), { read: 0.1 }), ['gpt-5', 'gpt-5-2025-08-07', 'gpt-5-chat-latest']),
    ...same(cached(usd(0.25, 2), { read: 0.1 }), ['gpt-5-mini', 'gpt-5-mini-2025-08-07']),
    ...same(cached(usd(0.05, 0.4), { read: 0.1 }), ['gpt-5-nano', 'gpt-5-nano-2025-08-07']),
    ...same(usd(15, 60), ['o1', 'o1-2024-12-17', 'o1-preview']),
    'o1-pro': usd(150, 600),
    ...same(usd(1.1, 4.4), ['o1-mini', 'o3-mini', 'o3-mini-2025-01-31']),
    ...same(cached(usd(1.1, 4.4), { read: 0.25 }), ['o4-mini', 'o4-mini-2025-04-16']),
    ...same(cached(usd(2, 8), { read: 0.25 }), ['o3', 'o3-2025-04-16']),
    'o3-pro': usd(20, 80),
    'davinci-002': usd(2),
    'babbage-002': usd(0.4),
    'text-embedding-3-small': usd(0.02),
    'text-embedding-3-large': usd(0.13),
    'text-embedding-ada-002': usd(0.1),
    // Moderation is free at OpenAI; a ratio of 0 bills nothing but keeps the model known.
    ...same(usd(0), ['omni-moderation-latest', 'text-moderation-latest', 'text-moderation-stable']),
    // Whisper is $0.006 a minute; billed per transcript token at $0.03 / 1K (about 200 tokens a minute).
    'whisper-1': ratio(15),
    // Transcription: text input $2.50 / $1.25, audio input $6 / $3 per 1M (2.4 × text input).
    'gpt-4o-transcribe': media(usd(2.5, 10), { audioInput: 2.4 }),
    'gpt-4o-mini-transcribe': media(usd(1.25, 5), { audioInput: 2.4 }),
    // Speech is billed per input character: tts-1 $15 / 1M characters, tts-1-hd $30.
    ...same(ratio(7.5), ['tts-1', 'tts-1-1106', 'gpt-4o-mini-tts']),
    ...same(ratio(15), ['tts-1-hd', 'tts-1-hd-1106']),
    // Images: dollars per standard image ÷ 0.002 (sizes and quality multiply it; see image-pricing.ts).
    'dall-e-2': ratio(8),
    'dall-e-3': ratio(20),
    // gpt-image-1 bills tokens: text input $5 / 1M, image input $10 / 1M, image output $40 / 1M.
    'gpt-image-1': media(cached(usd(5, 40), { read: 0.25 }), { imageInput: 2 }),
  },
);
