import { ratio, usd, type ModelPrice } from '../model-prices';
import { openAICompatibleVendor } from '../openai-compatible/openai-compatible-vendor';
import type { VendorDescriptor } from '../vendor-descriptor';

const models: readonly string[] = [
  'llama-3.3-70b-versatile',
  'llama-3.1-8b-instant',
  'meta-llama/llama-4-maverick-17b-128e-instruct',
  'meta-llama/llama-4-scout-17b-16e-instruct',
  'openai/gpt-oss-120b',
  'openai/gpt-oss-20b',
  'qwen/qwen3-32b',
  'moonshotai/kimi-k2-instruct-0905',
  'gemma2-9b-it',
  'whisper-large-v3',
  'whisper-large-v3-turbo',
];

const prices: Readonly<Record<string, ModelPrice>> = {
  // https://groq.com/pricing
  'llama-3.3-70b-versatile': usd(0.59, 0.79),
  'llama-3.1-8b-instant': usd(0.05, 0.08),
  'llama3-70b-8192': usd(0.59, 0.79),
  'llama3-8b-8192': usd(0.05, 0.08),
  'gemma2-9b-it': usd(0.2),
  'mixtral-8x7b-32768': usd(0.24),
  'deepseek-r1-distill-llama-70b': usd(0.75, 0.99),
  'qwen-qwq-32b': usd(0.29, 0.39),
  'meta-llama/llama-4-scout-17b-16e-instruct': usd(0.11, 0.34),
  'meta-llama/llama-4-maverick-17b-128e-instruct': usd(0.2, 0.6),
  'openai/gpt-oss-120b': usd(0.15, 0.75),
  'openai/gpt-oss-20b': usd(0.1, 0.5),
  'whisper-large-v3': ratio(15),
  'whisper-large-v3-turbo': ratio(15),
};

/**
 * Groq (https://console.groq.com/docs/openai): the default base URL already ends in /openai.
 */
export const groqVendor: VendorDescriptor = openAICompatibleVendor({
  wireFormat: 'groq',
  prefix: '/v1',
  offers: ['audioSpeech', 'audioTranscriptions', 'audioTranslations'],
  models,
  prices,
  unpriced: [
    {
      names: ['qwen/qwen3-32b', 'moonshotai/kimi-k2-instruct-0905'],
      reason: 'no list price has been checked for it yet: an administrator sets its ratio in ModelRatio',
    },
  ],
});
