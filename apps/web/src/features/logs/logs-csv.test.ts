import { describe, expect, it } from 'vitest';
import type { Log } from '@gatehouse/shared';
import { buildLogsCsv, logCsvHeaders } from './logs-csv';

const log = (overrides: Partial<Log> = {}): Log => ({
  id: 1,
  user_id: 2,
  username: 'alice',
  type: 2,
  content: 'model ratio 1',
  token_name: 'work',
  model_name: 'gpt-4o',
  prompt_tokens: 10,
  completion_tokens: 20,
  quota: 1500,
  channel: 3,
  elapsed_time: 800,
  is_stream: true,
  created_at: 1_700_000_000,
  request_id: 'req-1',
  cache_read_tokens: 0,
  cache_write_tokens: 0,
  reasoning_tokens: 0,
  audio_input_tokens: 0,
  image_input_tokens: 0,
  audio_output_tokens: 0,
  image_output_tokens: 0,
  inbound_protocol: 'openai-chat',
  model_ratio: 1.25,
  completion_ratio: 4,
  cache_read_ratio: 0.5,
  cache_write_ratio: 1,
  audio_input_ratio: 1,
  image_input_ratio: 1,
  audio_output_ratio: 1,
  image_output_ratio: 1,
  group_ratio: 1,
  call_price: 0,
  first_token_ms: 0,
  retries: [],
  ...overrides,
});

const options = (isAdmin: boolean) => ({
  headers: logCsvHeaders(isAdmin),
  typeLabel: (type: number) => `type${type}`,
  quotaDisplay: { displayInCurrency: true, quotaPerUnit: 500000 },
  isAdmin,
});

describe('buildLogsCsv', () => {
  it('writes a BOM, a header line and one line per row with the 6-decimal amount', () => {
    const csv = buildLogsCsv([log()], options(true));
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const lines = csv.slice(1).trimEnd().split('\r\n');
    expect(lines[0]).toBe(logCsvHeaders(true).join(','));
    expect(lines[1]).toMatch(
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,type2,alice,work,gpt-4o,true,10,20,0,0,0,1500,\$0\.003000,800,openai-chat,1\.25,4,0\.5,1,1,3,model ratio 1$/,
    );
  });

  it('leaves the channel out for a user', () => {
    const csv = buildLogsCsv([log()], options(false));
    expect(csv).not.toContain('channel');
    expect(csv.trimEnd().endsWith(',800,openai-chat,1.25,4,0.5,1,1,model ratio 1')).toBe(true);
  });

  it('quotes commas, quotes and line breaks, and defuses formulas', () => {
    const csv = buildLogsCsv(
      [log({ content: 'said "hi", then\nleft', token_name: '=HYPERLINK("x")', model_name: '-1+1' })],
      options(false),
    );
    expect(csv).toContain('"said ""hi"", then\nleft"');
    expect(csv).toContain(`"'=HYPERLINK(""x"")"`);
    expect(csv).toContain(",'-1+1,");
  });
});
