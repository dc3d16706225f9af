import { describe, expect, it } from 'vitest';
import { readErrorBody } from './read-error-body';

describe('readErrorBody', () => {
  it('parses a JSON error answer, whitespace around it included', () => {
    expect(readErrorBody(Buffer.from('\n {"error":{"message":"bad"}}\n'))).toEqual({
      excerpt: '{"error":{"message":"bad"}}',
      json: { error: { message: 'bad' } },
    });
  });

  it("keeps the first 500 characters of a proxy's page, trimmed, with no JSON", () => {
    const page = `  <html>${'x'.repeat(600)}</html>`;
    const read = readErrorBody(Buffer.from(page));
    expect(read.json).toBeNull();
    expect(read.excerpt).toBe(page.trim().slice(0, 500));
    expect(read.excerpt).toHaveLength(500);
  });

  it('reads an empty answer as an empty excerpt', () => {
    expect(readErrorBody(Buffer.alloc(0))).toEqual({ excerpt: '', json: null });
  });
});
