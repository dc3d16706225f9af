import { randomBytes } from 'node:crypto';
import { buildChatBody, BENCH_MODEL } from './bench-request';
import { buildMessagesBody } from './protocol-requests';

/**
 * The soak's traffic besides the plain chat load: every other way a client reaches the relay (the Anthropic,
 * Gemini and Responses protocols), and the ways clients misbehave, each with values that never repeat where
 * a client chooses them (keys, model names, paths, `user` fields) — what would make a cache, a counter or a
 * metric keyed by client input grow without end.
 */
export interface ChurnKind {
  name: string;
  /** the statuses a correct gateway answers (a kind that gets others is reported: it tested nothing) */
  expected: number[];
  send(baseUrl: string, apiKey: string): Promise<number>;
}

const unique = () => randomBytes(9).toString('base64url');

async function post(url: string, headers: Record<string, string>, body: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  await response.arrayBuffer();
  return response.status;
}

const bearer = (apiKey: string) => ({ authorization: `Bearer ${apiKey}` });

export const CHURN_KINDS: ChurnKind[] = [
  {
    // Billed for what was produced, counted locally (the tokenizer thread): the disconnect path.
    name: 'stream cut by the client after its first event',
    expected: [200],
    async send(baseUrl, apiKey) {
      const controller = new AbortController();
      const response = await fetch(`${baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...bearer(apiKey) },
        body: buildChatBody('stream'),
        signal: controller.signal,
      });
      await response.body?.getReader().read();
      controller.abort();
      return response.status;
    },
  },
  {
    name: 'a key nobody issued',
    expected: [401],
    send: (baseUrl) =>
      post(`${baseUrl}/v1/chat/completions`, bearer(`sk-${unique()}${unique()}`), buildChatBody('json')),
  },
  {
    name: 'a model no channel serves',
    expected: [503],
    send: (baseUrl, apiKey) =>
      post(
        `${baseUrl}/v1/chat/completions`,
        bearer(apiKey),
        buildChatBody('json').replace(BENCH_MODEL, `soak-${unique()}`),
      ),
  },
  {
    name: 'a body that is not JSON',
    expected: [400],
    send: (baseUrl, apiKey) =>
      post(`${baseUrl}/v1/chat/completions`, bearer(apiKey), `{"model": "${unique()}`),
  },
  {
    name: 'a path the relay does not have',
    expected: [404],
    send: (baseUrl, apiKey) =>
      post(`${baseUrl}/v1/${unique()}/completions`, bearer(apiKey), buildChatBody('json')),
  },
  {
    name: 'chat with a new `user` and metadata each time',
    expected: [200],
    send: (baseUrl, apiKey) => {
      const body = {
        ...(JSON.parse(buildChatBody('json')) as object),
        user: unique(),
        metadata: { run: unique() },
      };
      return post(`${baseUrl}/v1/chat/completions`, bearer(apiKey), JSON.stringify(body));
    },
  },
  {
    name: 'Anthropic Messages stream (Anthropic channel)',
    expected: [200],
    send: (baseUrl, apiKey) =>
      post(
        `${baseUrl}/v1/messages`,
        { 'x-api-key': apiKey, 'anthropic-version': '2023-06-01' },
        buildMessagesBody('stream'),
      ),
  },
  {
    name: 'Gemini streamGenerateContent (translated to chat)',
    expected: [200],
    send: (baseUrl, apiKey) =>
      post(
        `${baseUrl}/v1beta/models/${BENCH_MODEL}:streamGenerateContent?alt=sse`,
        { 'x-goog-api-key': apiKey },
        JSON.stringify({
          contents: [{ role: 'user', parts: [{ text: 'Say hello in one short sentence.' }] }],
        }),
      ),
  },
  {
    name: 'Responses API stream (translated to chat)',
    expected: [200],
    send: (baseUrl, apiKey) =>
      post(
        `${baseUrl}/v1/responses`,
        bearer(apiKey),
        JSON.stringify({ model: BENCH_MODEL, input: 'Say hello in one short sentence.', stream: true }),
      ),
  },
];

export interface ChurnCounts {
  /** per kind: how many were sent, and the statuses outside `expected` with their counts */
  byKind: Map<string, { sent: number; unexpected: Map<string, number> }>;
}

/** `workers` loops, each sending the kinds in turn until `seconds` have passed. */
export async function runChurn(
  baseUrl: string,
  apiKey: string,
  workers: number,
  seconds: number,
): Promise<ChurnCounts> {
  const byKind = new Map(
    CHURN_KINDS.map((kind) => [kind.name, { sent: 0, unexpected: new Map<string, number>() }]),
  );
  const deadline = Date.now() + seconds * 1000;
  const loop = async (offset: number) => {
    for (let turn = offset; Date.now() < deadline; turn += 1) {
      const kind = CHURN_KINDS[turn % CHURN_KINDS.length];
      const counts = byKind.get(kind.name)!;
      counts.sent += 1;
      let outcome: string;
      try {
        const status = await kind.send(baseUrl, apiKey);
        outcome = kind.expected.includes(status) ? '' : String(status);
      } catch (error) {
        outcome = error instanceof Error ? error.message : String(error);
      }
      if (outcome) counts.unexpected.set(outcome, (counts.unexpected.get(outcome) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: workers }, (_, worker) => loop(worker)));
  return { byKind };
}
