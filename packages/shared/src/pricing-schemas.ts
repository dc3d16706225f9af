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
  /**
   * per million tokens, group ratio applied: US dollars when `display_in_currency`, else quota. Cache prices are
   * per million prompt tokens read from or written to the vendor's cache.
   */
  input_price: number;
  output_price: number;
  cache_read_price: number;
  cache_write_price: number;
}

export interface PriceList {
  display_in_currency: boolean;
  quota_per_unit: number;
  models: PricedModel[];
}
