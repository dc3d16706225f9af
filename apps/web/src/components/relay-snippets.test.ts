import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { buildChatSnippet, snippetBody, type SnippetRequest } from './relay-snippets';

const baseUrl = 'https://gw.example.com/v1';
const key = 'sk-abc123';
const conversation: SnippetRequest = {
  model: 'gpt-4o',
  messages: [
    { role: 'system', content: 'You\'re terse. Say "hi"\nthen stop.' },
    { role: 'user', content: 'Hello!' },
    { role: 'assistant', content: 'Hi.' },
    { role: 'user', content: 'And again — 再见' },
  ],
  temperature: 0.3,
  max_tokens: 256,
  stream: true,
};

describe('snippetBody', () => {
  it('sends temperature and max_tokens only when set, and asks a stream for its usage', () => {
    expect(snippetBody({ model: 'm', messages: [] })).toEqual({ model: 'm', messages: [] });
    expect(snippetBody(conversation)).toMatchObject({
      temperature: 0.3,
      max_tokens: 256,
      stream: true,
      stream_options: { include_usage: true },
    });
  });
});

describe('buildChatSnippet', () => {
  it('curl: the body survives the shell exactly, quotes and newlines included', () => {
    const snippet = buildChatSnippet('curl', { request: conversation, baseUrl, key });
    expect(snippet).toMatch(/^curl https:\/\/gw\.example\.com\/v1\/chat\/completions \\\n/);
    expect(snippet).toContain(`-H "Authorization: Bearer ${key}"`);
    // What the shell hands curl as -d, printed back by the real shell instead of curl.
    const dataWord = snippet.slice(snippet.indexOf('-d ') + 3);
    const sent = execFileSync('bash', ['-c', `printf '%s' ${dataWord}`], { encoding: 'utf8' });
    expect(JSON.parse(sent)).toEqual(snippetBody(conversation));
  });

  it('Python: the openai package, streamed with the usage, valid Python', () => {
    const snippet = buildChatSnippet('python', { request: conversation, baseUrl, key });
    expect(snippet).toContain(`client = OpenAI(base_url="${baseUrl}", api_key="${key}")`);
    expect(snippet).toContain('    stream=True,');
    expect(snippet).toContain('    stream_options={"include_usage": True},');
    expect(snippet).toContain('    temperature=0.3,');
    expect(snippet).toContain('    max_tokens=256,');
    const parsed = execFileSync(
      'python3',
      ['-c', 'import ast, sys; ast.parse(sys.stdin.read()); print("ok")'],
      { input: snippet, encoding: 'utf8' },
    );
    expect(parsed.trim()).toBe('ok');
  });

  it('TypeScript: the openai package with the same body as an object literal', () => {
    const snippet = buildChatSnippet('node', { request: conversation, baseUrl, key });
    expect(snippet).toContain(`new OpenAI({ baseURL: '${baseUrl}', apiKey: '${key}' })`);
    const start = snippet.indexOf('create(') + 'create('.length;
    const literal = snippet.slice(start, snippet.indexOf('});', start) + 1);
    // Keys unquoted, values JSON: read it back as a JavaScript object.
    expect(new Function(`return (${literal});`)()).toEqual(snippetBody(conversation));
    expect(snippet).toContain('for await (const chunk of stream)');
  });

  it('without stream: prints the one answer', () => {
    const single = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Hello!' }] };
    expect(buildChatSnippet('python', { request: single, baseUrl, key })).toMatch(
      /print\(completion\.choices\[0\]\.message\.content\)$/,
    );
    expect(buildChatSnippet('node', { request: single, baseUrl, key })).not.toContain('stream');
  });
});
