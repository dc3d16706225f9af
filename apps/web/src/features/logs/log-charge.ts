import type { Log } from '@gatehouse/shared';

/** A term of the charge: tokens × their ratio (no ratio for fresh prompt tokens, which cost the plain price). */
export interface ChargeTerm {
  kind:
    | 'freshPrompt'
    | 'cacheRead'
    | 'cacheWrite'
    | 'audioInput'
    | 'imageInput'
    | 'completion'
    | 'audioOutput'
    | 'imageOutput';
  tokens: number;
  ratio: number | null;
}

export interface LogCharge {
  terms: ChargeTerm[];
  /** Σ terms × model ratio × group ratio, before rounding up */
  exact: number;
}

/**
 * An image entry priced per picture (DALL·E): it records no tokens. Token-priced image models (gpt-image-1)
 * record their usage and are itemised like chat.
 */
export function isPricedPerImage(log: Log): boolean {
  return log.inbound_protocol === 'openai-images' && log.prompt_tokens === 0 && log.completion_tokens === 0;
}

/**
 * The arithmetic behind a consumption log entry, from its recorded counts and ratios: (fresh prompt + cache read
 * × cache read ratio + cache write × cache write ratio + completion × completion ratio) × model ratio × group
 * ratio, rounded up (at least 1 when anything was charged). Null for entries that did not record their ratios:
 * those written before the log itemised them, those priced per image rather than per token, and those priced per
 * call (their call price, not their tokens, made the charge).
 */
export function describeLogCharge(log: Log): LogCharge | null {
  if (log.inbound_protocol === '' || isPricedPerImage(log) || log.call_price > 0) return null;
  const freshPrompt = Math.max(
    0,
    log.prompt_tokens -
      log.cache_read_tokens -
      log.cache_write_tokens -
      log.audio_input_tokens -
      log.image_input_tokens,
  );
  const textCompletion = Math.max(
    0,
    log.completion_tokens - log.audio_output_tokens - log.image_output_tokens,
  );
  // Generated audio and image tokens are priced relative to a text completion token: ratio × completion ratio.
  const terms: ChargeTerm[] = [
    { kind: 'freshPrompt', tokens: freshPrompt, ratio: null },
    { kind: 'cacheRead', tokens: log.cache_read_tokens, ratio: log.cache_read_ratio },
    { kind: 'cacheWrite', tokens: log.cache_write_tokens, ratio: log.cache_write_ratio },
    { kind: 'audioInput', tokens: log.audio_input_tokens, ratio: log.audio_input_ratio },
    { kind: 'imageInput', tokens: log.image_input_tokens, ratio: log.image_input_ratio },
    { kind: 'completion', tokens: textCompletion, ratio: log.completion_ratio },
    {
      kind: 'audioOutput',
      tokens: log.audio_output_tokens,
      ratio: log.audio_output_ratio * log.completion_ratio,
    },
    {
      kind: 'imageOutput',
      tokens: log.image_output_tokens,
      ratio: log.image_output_ratio * log.completion_ratio,
    },
  ];
  const weighted = terms.reduce((sum, term) => sum + term.tokens * (term.ratio ?? 1), 0);
  return { terms, exact: weighted * log.model_ratio * log.group_ratio };
}

const numberFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 6 });

/** Ratios are decimals (0.1 × 3 = 0.30000000000000004): round float noise away before showing. */
export const formatChargeNumber = (value: number): string =>
  numberFormat.format(Math.round(value * 1e6) / 1e6);

/**
 * The charge written out, e.g. `(1,200 + 3,000 × 0.1 + 500 × 1.25 + 800 × 4) × 1.5 × 1 = 7,987.5 → 7,988`.
 * Terms without tokens are left out, except the first when every count is 0. The result after the arrow is the
 * charge as recorded: when a balance could not cover a cost above its reservation, less was taken.
 */
export function formatChargeArithmetic(log: Log, charge: LogCharge): string {
  const shown = charge.terms.filter((term) => term.tokens > 0);
  const terms = (shown.length > 0 ? shown : charge.terms.slice(0, 1)).map((term) =>
    term.ratio === null
      ? formatChargeNumber(term.tokens)
      : `${formatChargeNumber(term.tokens)} × ${formatChargeNumber(term.ratio)}`,
  );
  const left = `(${terms.join(' + ')}) × ${formatChargeNumber(log.model_ratio)} × ${formatChargeNumber(log.group_ratio)}`;
  const exact = formatChargeNumber(charge.exact);
  const charged = formatChargeNumber(log.quota);
  return exact === charged ? `${left} = ${exact}` : `${left} = ${exact} → ${charged}`;
}
