import { displayTokenKey, splitCommaList, type Token } from '@gatehouse/shared';

export const snippetKinds = ['curl', 'python', 'node', 'env'] as const;
export type SnippetKind = (typeof snippetKinds)[number];

/** The model a snippet calls: the key's first allowed model, else a common one. */
const EXAMPLE_MODEL = 'gpt-4o-mini';

/** The OpenAI-compatible base URL clients use: the configured server address, else this console's origin. */
export function relayBaseUrl(serverAddress: string | undefined, origin: string): string {
  return `${(serverAddress || origin).replace(/\/+$/, '')}/v1`;
}

/** Ready-to-run code that calls the gateway with this key (the official SDKs and plain curl). */
export function buildSnippet(
  kind: SnippetKind,
  token: Pick<Token, 'key' | 'models'>,
  baseUrl: string,
): string {
  const key = displayTokenKey(token.key);
  const model = splitCommaList(token.models)[0] ?? EXAMPLE_MODEL;
  switch (kind) {
    case 'curl':
      return [
        `curl ${baseUrl}/chat/completions \\`,
        `  -H "Content-Type: application/json" \\`,
        `  -H "Authorization: Bearer ${key}" \\`,
        `  -d '{"model": "${model}", "messages": [{"role": "user", "content": "Hello!"}]}'`,
      ].join('\n');
    case 'python':
      return [
        'from openai import OpenAI',
        '',
        `client = OpenAI(base_url="${baseUrl}", api_key="${key}")`,
        'completion = client.chat.completions.create(',
        `    model="${model}",`,
        '    messages=[{"role": "user", "content": "Hello!"}],',
        ')',
        'print(completion.choices[0].message.content)',
      ].join('\n');
    case 'node':
      return [
        "import OpenAI from 'openai';",
        '',
        `const client = new OpenAI({ baseURL: '${baseUrl}', apiKey: '${key}' });`,
        'const completion = await client.chat.completions.create({',
        `  model: '${model}',`,
        "  messages: [{ role: 'user', content: 'Hello!' }],",
        '});',
        'console.log(completion.choices[0].message.content);',
      ].join('\n');
    case 'env':
      return [`OPENAI_BASE_URL=${baseUrl}`, `OPENAI_API_KEY=${key}`].join('\n');
  }
}
