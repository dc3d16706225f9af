import { describe, expect, it } from 'vitest';
import { cleanGeminiJsonSchema, hasNoParameters } from './clean-gemini-json-schema';

describe('cleanGeminiJsonSchema', () => {
  it('keeps the keywords Gemini documents and removes the rest, at every depth', () => {
    expect(
      cleanGeminiJsonSchema({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        title: 'Query',
        properties: {
          tags: {
            type: 'array',
            items: { type: 'string', pattern: '^[a-z]+$', examples: ['a'] },
            uniqueItems: true,
            minItems: 1,
          },
          limit: { type: ['integer', 'null'], multipleOf: 5, maximum: 50, default: 10 },
          filter: { anyOf: [{ type: 'string', format: 'date-time' }, { not: { type: 'null' } }] },
        },
        required: ['tags'],
        additionalProperties: { type: 'string', minLength: 2 },
        patternProperties: { '^x-': {} },
      }),
    ).toEqual({
      type: 'object',
      title: 'Query',
      properties: {
        tags: { type: 'array', items: { type: 'string' }, minItems: 1 },
        limit: { type: ['integer', 'null'], maximum: 50 },
        filter: { anyOf: [{ type: 'string', format: 'date-time' }, {}] },
      },
      required: ['tags'],
      additionalProperties: { type: 'string' },
    });
  });

  it('leaves a property named like a keyword alone', () => {
    expect(
      cleanGeminiJsonSchema({ type: 'object', properties: { default: { type: 'string' }, pattern: {} } }),
    ).toEqual({ type: 'object', properties: { default: { type: 'string' }, pattern: {} } });
  });

  it('renames definitions to $defs and strips siblings of $ref, which Gemini refuses', () => {
    expect(
      cleanGeminiJsonSchema({
        $ref: '#/definitions/Person',
        definitions: {
          Person: {
            type: 'object',
            properties: { friend: { $ref: '#/definitions/Person', description: 'a friend', default: null } },
          },
        },
      }),
    ).toEqual({
      $ref: '#/$defs/Person',
      $defs: { Person: { type: 'object', properties: { friend: { $ref: '#/$defs/Person' } } } },
    });
  });

  it('inlines allOf, turns const into enum and draft 4 tuples into prefixItems', () => {
    expect(
      cleanGeminiJsonSchema({
        allOf: [
          { type: 'object', properties: { a: { const: 'fixed' } }, required: ['a'] },
          {
            properties: { b: { type: 'array', items: [{ type: 'number' }, { type: 'string' }] } },
            required: ['b'],
          },
        ],
        description: 'both',
      }),
    ).toEqual({
      type: 'object',
      description: 'both',
      properties: {
        a: { enum: ['fixed'] },
        b: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'string' }] },
      },
      required: ['a', 'b'],
    });
  });
});

describe('hasNoParameters', () => {
  it('is true for an absent or empty object schema only', () => {
    expect(hasNoParameters(undefined)).toBe(true);
    expect(hasNoParameters({ type: 'object', properties: {} })).toBe(true);
    expect(hasNoParameters({ type: 'object', properties: { a: { type: 'string' } } })).toBe(false);
    expect(hasNoParameters({ $ref: '#/$defs/A', $defs: { A: {} } })).toBe(false);
  });
});
