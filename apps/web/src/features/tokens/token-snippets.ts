import { displayTokenKey, splitCommaList, type Token } from '@gatehouse/shared';
import { buildChatSnippet, snippetLanguages } from '../../components/relay-snippets';

export const snippetKinds = [...snippetLanguages, 'env'] as const;
export type SnippetKind = (typeof snippetKinds)[number];

/** The model a snippet calls: the key's first allowed model, else a common one. */
const EXAMPLE_MODEL = 'gpt-4o-mini';

/** Ready-to-run code that calls the gateway with this key (the official SDKs and plain curl), or its variables. */
export function buildSnippet(
  kind: SnippetKind,
  token: Pick<Token, 'key' | 'models'>,
  baseUrl: string,
): string {
  const key = displayTokenKey(token.key);
  if (kind === 'env') return [`OPENAI_BASE_URL=${baseUrl}`, `OPENAI_API_KEY=${key}`].join('\n');
  const model = splitCommaList(token.models)[0] ?? EXAMPLE_MODEL;
  return buildChatSnippet(kind, {
    request: { model, messages: [{ role: 'user', content: 'Hello!' }] },
    baseUrl,
    key,
  });
}
