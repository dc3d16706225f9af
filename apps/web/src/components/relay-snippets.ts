/**
 * Ready-to-run code that calls the gateway's OpenAI-compatible chat endpoint: plain curl and the official
 * `openai` SDKs for Python and TypeScript. The key list copies a one-line hello; the playground copies the
 * conversation it holds with its settings.
 */

export const snippetLanguages = ['curl', 'python', 'node'] as const;
export type SnippetLanguage = (typeof snippetLanguages)[number];

export interface SnippetMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface SnippetRequest {
  model: string;
  messages: SnippetMessage[];
  temperature?: number;
  max_tokens?: number;
  /** streamed, with the usage in a last chunk (stream_options.include_usage) */
  stream?: boolean;
}

/** The OpenAI-compatible base URL clients use: the configured server address, else this console's origin. */
export function relayBaseUrl(serverAddress: string | undefined, origin: string): string {
  return `${(serverAddress || origin).replace(/\/+$/, '')}/v1`;
}

/** The JSON body the snippets send, fields in the order a reader expects. */
export function snippetBody(request: SnippetRequest): Record<string, unknown> {
  return {
    model: request.model,
    messages: request.messages,
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(request.max_tokens === undefined ? {} : { max_tokens: request.max_tokens }),
    ...(request.stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  };
}

/** JSON indented under a first line; also a valid Python and TypeScript literal for strings and numbers. */
const literal = (value: unknown, indent: string) =>
  JSON.stringify(value, null, 2).replace(/\n/g, `\n${indent}`);

/** A single-quoted shell word: each ' becomes '\'' (close, escaped quote, reopen). */
const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

function curlSnippet(request: SnippetRequest, baseUrl: string, key: string): string {
  return [
    `curl ${baseUrl}/chat/completions \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -H "Authorization: Bearer ${key}" \\`,
    ...(request.stream ? ['  -N \\'] : []),
    `  -d ${shellQuote(JSON.stringify(snippetBody(request), null, 2))}`,
  ].join('\n');
}

function pythonSnippet(request: SnippetRequest, baseUrl: string, key: string): string {
  // JSON is a Python literal for strings, numbers and lists; only the stream flags need Python's True.
  const pythonValue = (value: unknown) =>
    value === true
      ? 'True'
      : value !== null && typeof value === 'object' && 'include_usage' in value
        ? '{"include_usage": True}'
        : literal(value, '    ');
  const body = snippetBody(request);
  const argumentLines = Object.entries(body).map(([name, value]) => `    ${name}=${pythonValue(value)},`);
  const call = [
    'from openai import OpenAI',
    '',
    `client = OpenAI(base_url="${baseUrl}", api_key="${key}")`,
    `${request.stream ? 'stream' : 'completion'} = client.chat.completions.create(`,
    ...argumentLines,
    ')',
  ];
  if (!request.stream) return [...call, 'print(completion.choices[0].message.content)'].join('\n');
  return [
    ...call,
    'for chunk in stream:',
    '    if chunk.choices and chunk.choices[0].delta.content:',
    '        print(chunk.choices[0].delta.content, end="", flush=True)',
    '    if chunk.usage:',
    '        print()',
    '        print(chunk.usage)',
  ].join('\n');
}

function nodeSnippet(request: SnippetRequest, baseUrl: string, key: string): string {
  const body = snippetBody(request);
  const propertyLines = Object.entries(body).map(([name, value]) => `  ${name}: ${literal(value, '  ')},`);
  const call = [
    "import OpenAI from 'openai';",
    '',
    `const client = new OpenAI({ baseURL: '${baseUrl}', apiKey: '${key}' });`,
    `const ${request.stream ? 'stream' : 'completion'} = await client.chat.completions.create({`,
    ...propertyLines,
    '});',
  ];
  if (!request.stream) return [...call, 'console.log(completion.choices[0].message.content);'].join('\n');
  return [
    ...call,
    'for await (const chunk of stream) {',
    "  process.stdout.write(chunk.choices[0]?.delta?.content ?? '');",
    "  if (chunk.usage) console.log('\\n', chunk.usage);",
    '}',
  ].join('\n');
}

export function buildChatSnippet(
  language: SnippetLanguage,
  { request, baseUrl, key }: { request: SnippetRequest; baseUrl: string; key: string },
): string {
  switch (language) {
    case 'curl':
      return curlSnippet(request, baseUrl, key);
    case 'python':
      return pythonSnippet(request, baseUrl, key);
    case 'node':
      return nodeSnippet(request, baseUrl, key);
  }
}
