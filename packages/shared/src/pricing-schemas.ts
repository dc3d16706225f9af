/** One model a user can call, as GET /api/pricing answers it. */
export interface PricedModel {
  model: string;
  /** the first of the user's groups with a channel for the model: the group the relay bills */
  group: string;
  group_ratio: number;
  model_ratio: number;
  completion_ratio: number;
  cache_read_ratio: number;
  cache_write_ratio: number;
  /** audio / image prompt tokens relative to text ones, generated ones relative to text completion tokens */
  audio_input_ratio: number;
  image_input_ratio: number;
  audio_output_ratio: number;
  image_output_ratio: number;
  /**
   * per million tokens, group ratio applied: US dollars when `display_in_currency`, else quota. Cache prices are
   * per million prompt tokens read from or written to the vendor's cache; audio and image prices per million
   * audio or image tokens in the prompt (input) or in the answer (output).
   */
  input_price: number;
  output_price: number;
  cache_read_price: number;
  cache_write_price: number;
  audio_input_price: number;
  image_input_price: number;
  audio_output_price: number;
  image_output_price: number;
  /**
   * set for a model priced per call (the ModelPrice option): what one call costs, group ratio applied, in the
   * same unit as the token prices; the token prices do not apply to it then. Null for models priced by tokens.
   */
  call_price: number | null;
}

export interface PriceList {
  display_in_currency: boolean;
  quota_per_unit: number;
  models: PricedModel[];
}

/** What prices a model: its ratios and, for a model priced per call, the call's price in US dollars. */
export interface ModelPriceRatios {
  model_ratio: number;
  completion_ratio: number;
  cache_read_ratio: number;
  cache_write_ratio: number;
  audio_input_ratio: number;
  image_input_ratio: number;
  audio_output_ratio: number;
  image_output_ratio: number;
  /** US dollars per call (ModelPrice); null when the model is priced by tokens */
  call_price: number | null;
}

/** The options that price models, each a JSON object of model name → number. */
export const modelPriceOptionKeys = [
  'ModelRatio',
  'CompletionRatio',
  'CacheReadRatio',
  'CacheWriteRatio',
  'AudioInputRatio',
  'ImageInputRatio',
  'AudioOutputRatio',
  'ImageOutputRatio',
  'ModelPrice',
] as const;
export type ModelPriceOptionKey = (typeof modelPriceOptionKeys)[number];

/** One row of the built-in price table, as GET /api/pricing/built-in answers it. */
export interface BuiltInPriceRow {
  model: string;
  /** the gateway's own price for the model; null when only an option prices it */
  built_in: ModelPriceRatios | null;
  /** what the relay charges now: each option's entry over the built-in one */
  effective: ModelPriceRatios;
  /** the options with an entry for this model (they win over the built-in price) */
  overridden_by: ModelPriceOptionKey[];
  /** false when an option names the model without giving it a ratio or a call price: the relay refuses it */
  is_priced: boolean;
}

export interface BuiltInPriceTable {
  /** US dollars per million tokens at model ratio 1 */
  usd_per_million_at_ratio_1: number;
  models: BuiltInPriceRow[];
}
