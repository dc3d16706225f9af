import type { ModelPriceRatios } from '@gatehouse/shared';
import type { ModelPrice } from './default-model-prices';

/**
 * A model's ratios as the API writes them (snake_case fields), from a built-in price (a ratio it leaves out is
 * 1) or from the ratios the relay charges; `call_price` is the price per call in US dollars, or null.
 */
export function toPriceRatios(price: ModelPrice & { callPrice?: number }): ModelPriceRatios {
  return {
    model_ratio: price.modelRatio,
    completion_ratio: price.completionRatio,
    cache_read_ratio: price.cacheReadRatio ?? 1,
    cache_write_ratio: price.cacheWriteRatio ?? 1,
    audio_input_ratio: price.audioInputRatio ?? 1,
    image_input_ratio: price.imageInputRatio ?? 1,
    audio_output_ratio: price.audioOutputRatio ?? 1,
    image_output_ratio: price.imageOutputRatio ?? 1,
    call_price: price.callPrice ?? null,
  };
}
