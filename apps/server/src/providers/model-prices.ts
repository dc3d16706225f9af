/**
 * Built-in prices, as ratios: model ratio 1 = $0.002 per 1K prompt tokens, completion ratio = output price ÷
 * input price, cache read and cache write ratios = the price of a prompt token read from or written to the
 * vendor's prompt cache ÷ the input price, audio and image input ratios = the price of such an input token ÷
 * the (text) input price, audio and image output ratios = the price of such an output token ÷ the (text)
 * output price. Each vendor folder prices its models with these helpers from the
 * vendor's list prices; the options ModelRatio, CompletionRatio, CacheReadRatio and CacheWriteRatio override
 * any entry and add models (and AudioInputRatio, ImageInputRatio, AudioOutputRatio, ImageOutputRatio the
 * media ratios). Yuan prices convert at 7 yuan to the dollar.
 */
export interface ModelPrice {
  modelRatio: number;
  completionRatio: number;
  /** absent: cache reads cost what fresh input does (ratio 1) */
  cacheReadRatio?: number;
  /** absent: cache writes cost what fresh input does (ratio 1) */
  cacheWriteRatio?: number;
  /** absent: audio / image input costs what text input does (ratio 1) */
  audioInputRatio?: number;
  imageInputRatio?: number;
  /** absent: audio / image output costs what text output does (ratio 1) */
  audioOutputRatio?: number;
  imageOutputRatio?: number;
}

/** What a vendor charges for audio and image tokens, ÷ its text input price (input) or text output price (output). */
export interface MediaRatios {
  audioInput?: number;
  imageInput?: number;
  audioOutput?: number;
  imageOutput?: number;
}

/** What a vendor charges for prompt tokens read from (read) and written to (write) its cache, ÷ the input price. */
export interface CacheRatios {
  read?: number;
  write?: number;
}

const USD_PER_RATIO_PER_MILLION = 2; // ratio 1 = $0.002 / 1K tokens = $2 / 1M tokens
export const YUAN_PER_USD = 7;

/** Dollars per million input and output tokens. */
export function usd(input: number, output = input): ModelPrice {
  return {
    modelRatio: input / USD_PER_RATIO_PER_MILLION,
    completionRatio: input === 0 ? 1 : output / input,
  };
}

/** Yuan per million input and output tokens. */
export function yuan(input: number, output = input): ModelPrice {
  return usd(input / YUAN_PER_USD, output / YUAN_PER_USD);
}

/**
 * A ratio given directly, for what is not priced per token: images (ratio = dollars per image ÷ 0.002),
 * speech (per character), whisper (per transcript token, one-api's long-standing convention).
 */
export function ratio(modelRatio: number, completionRatio = 1): ModelPrice {
  return { modelRatio, completionRatio };
}

/** One price for several names of a model (dated snapshots, aliases). */
export function same(price: ModelPrice, names: readonly string[]): Record<string, ModelPrice> {
  return Object.fromEntries(names.map((name) => [name, price]));
}

/** A model whose cache prices differ from its vendor's usual ones. */
export function cached(price: ModelPrice, ratios: CacheRatios): ModelPrice {
  return {
    ...price,
    ...(ratios.read === undefined ? {} : { cacheReadRatio: ratios.read }),
    ...(ratios.write === undefined ? {} : { cacheWriteRatio: ratios.write }),
  };
}

/** A model that prices audio or image tokens apart from text ones. */
export function media(price: ModelPrice, ratios: MediaRatios): ModelPrice {
  return {
    ...price,
    ...(ratios.audioInput === undefined ? {} : { audioInputRatio: ratios.audioInput }),
    ...(ratios.imageInput === undefined ? {} : { imageInputRatio: ratios.imageInput }),
    ...(ratios.audioOutput === undefined ? {} : { audioOutputRatio: ratios.audioOutput }),
    ...(ratios.imageOutput === undefined ? {} : { imageOutputRatio: ratios.imageOutput }),
  };
}

/**
 * A vendor's price table with its usual cache prices given once: every entry that does not set its own (with
 * `cached`) gets them.
 */
export function withCacheRatios(
  ratios: CacheRatios,
  prices: Readonly<Record<string, ModelPrice>>,
): Record<string, ModelPrice> {
  return Object.fromEntries(
    Object.entries(prices).map(([name, price]) => [
      name,
      {
        ...price,
        cacheReadRatio: price.cacheReadRatio ?? ratios.read,
        cacheWriteRatio: price.cacheWriteRatio ?? ratios.write,
      },
    ]),
  );
}
