import { describe, expect, it } from 'vitest';
import type { Db } from '../db/database';
import { OptionStore } from '../options/option-store';
import { describePricing, findPricing } from './pricing';

/** An option store held in memory: noteWritten changes a value without a database. */
function createOptions(): OptionStore {
  return new OptionStore(null as unknown as Db);
}

describe('findPricing', () => {
  it('hands out one frozen pricing per model and group until an option it reads changes', () => {
    const options = createOptions();
    options.noteWritten('ModelRatio', JSON.stringify({ 'acme-llm': 2 }));
    options.noteWritten('GroupRatio', JSON.stringify({ default: 1, vip: 0.5 }));
    const first = findPricing(options, 'acme-llm', 'vip');
    expect(first).toMatchObject({ modelRatio: 2, groupRatio: 0.5 });
    expect(Object.isFrozen(first)).toBe(true);
    expect(findPricing(options, 'acme-llm', 'vip')).toBe(first);
    expect(findPricing(options, 'acme-llm', 'default')).toMatchObject({ modelRatio: 2, groupRatio: 1 });

    options.noteWritten('CompletionRatio', JSON.stringify({ 'acme-llm': 3 }));
    expect(findPricing(options, 'acme-llm', 'vip')).toMatchObject({ completionRatio: 3, groupRatio: 0.5 });
    options.noteWritten('GroupRatio', JSON.stringify({ vip: 0.25 }));
    expect(findPricing(options, 'acme-llm', 'vip')?.groupRatio).toBe(0.25);
    options.noteWritten('ModelRatio', '{}');
    expect(findPricing(options, 'acme-llm', 'vip')).toBeNull();
  });

  it('describes a shared pricing as it describes the same ratios in a plain object', () => {
    const options = createOptions();
    options.noteWritten('ModelRatio', JSON.stringify({ 'acme-llm': 2 }));
    options.noteWritten('AudioInputRatio', JSON.stringify({ 'acme-llm': 8 }));
    const pricing = findPricing(options, 'acme-llm', 'default')!;
    const text = describePricing({ ...pricing });
    expect(text).toContain('audio input ratio 8, ');
    expect(describePricing(pricing)).toBe(text);
    expect(describePricing(pricing)).toBe(text);
  });
});
