import { cached, media, same, usd, withCacheRatios, type ModelPrice } from '../model-prices';

/** Gemini API models (https://ai.google.dev/gemini-api/docs/models). */
export const geminiModels: readonly string[] = [
  'gemini-2.5-pro',
  'gemini-2.5-flash',
  'gemini-2.5-flash-lite',
  'gemini-2.0-flash',
  'gemini-2.0-flash-lite',
  'gemini-1.5-pro',
  'gemini-1.5-flash',
  'gemini-1.5-flash-8b',
  'gemini-embedding-001',
  'text-embedding-004',
];

/**
 * https://ai.google.dev/gemini-api/docs/pricing (the prices of prompts up to 200K tokens). Cached input
 * (context caching, implicit or explicit) costs a quarter of the input price, a tenth on Gemini 2.5; the
 * hourly storage of an explicit cache is billed by Google apart from requests, and never here.
 */
export const geminiPrices: Readonly<Record<string, ModelPrice>> = withCacheRatios(
  { read: 0.25, write: 1 },
  {
    ...same(usd(0.5, 1.5), ['gemini-pro', 'gemini-1.0-pro']),
    'gemini-1.5-pro': usd(1.25, 5),
    'gemini-1.5-flash': usd(0.075, 0.3),
    'gemini-1.5-flash-8b': usd(0.0375, 0.15),
    // Audio input: $0.70 / 1M on 2.0 Flash, $1.00 on 2.5 Flash, $0.30 on 2.5 Flash-Lite; text, image and video
    // input share the input price (https://ai.google.dev/gemini-api/docs/pricing).
    'gemini-2.0-flash': media(usd(0.1, 0.4), { audioInput: 7 }),
    'gemini-2.0-flash-lite': usd(0.075, 0.3),
    'gemini-2.5-pro': cached(usd(1.25, 10), { read: 0.1 }),
    'gemini-2.5-flash': media(cached(usd(0.3, 2.5), { read: 0.1 }), { audioInput: 1 / 0.3 }),
    'gemini-2.5-flash-lite': media(cached(usd(0.1, 0.4), { read: 0.1 }), { audioInput: 3 }),
    'gemini-embedding-001': usd(0.15),
    'text-embedding-004': usd(0),
  },
);
