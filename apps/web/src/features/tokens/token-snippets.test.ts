import { describe, expect, it } from 'vitest';
import { relayBaseUrl } from '../../components/relay-snippets';
import { buildSnippet } from './token-snippets';

const token = { key: 'abc123', models: '' };

describe('relayBaseUrl', () => {
  it('uses the server address when set, else the console origin, with /v1', () => {
    expect(relayBaseUrl('https://api.example.com/', 'http://localhost:3000')).toBe(
      'https://api.example.com/v1',
    );
    expect(relayBaseUrl('', 'http://localhost:3000')).toBe('http://localhost:3000/v1');
    expect(relayBaseUrl(undefined, 'http://localhost:3000')).toBe('http://localhost:3000/v1');
  });
});

describe('buildSnippet', () => {
  const base = 'https://gw.example.com/v1';
  it('puts the base URL and the sk- key into every snippet', () => {
    for (const kind of ['curl', 'python', 'node', 'env'] as const) {
      const snippet = buildSnippet(kind, token, base);
      expect(snippet).toContain(base);
      expect(snippet).toContain('sk-abc123');
    }
  });

  it('calls the first model the key allows', () => {
    expect(buildSnippet('curl', { key: 'k', models: ' claude-3-haiku ,gpt-4o' }, base)).toContain(
      '"model": "claude-3-haiku"',
    );
    expect(buildSnippet('python', token, base)).toContain('model="gpt-4o-mini"');
  });

  it('writes a curl command against /chat/completions with a bearer header', () => {
    expect(buildSnippet('curl', token, base)).toMatch(
      /^curl https:\/\/gw\.example\.com\/v1\/chat\/completions \\\n.*\n {2}-H "Authorization: Bearer sk-abc123"/,
    );
  });
});
