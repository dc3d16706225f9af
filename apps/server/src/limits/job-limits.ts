/** What a finished request settled at: enough to correct the TPM and budget counters it held. */
export interface SettledAmounts {
  usage: { promptTokens: number; completionTokens: number };
  cost: number;
}

/** What a running request holds on the limit counters, given back or corrected when it finishes. */
export interface JobLimits {
  /** never throws; null = nothing was billed (the request failed) */
  release(settled: SettledAmounts | null): Promise<void>;
}
