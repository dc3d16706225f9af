import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  fetchCredentialForTests,
  startGoogleTokenStandIn,
  type GoogleTokenStandIn,
} from '../../../test/support/google-token-stand-in';
import {
  readVertexFixture,
  startVertexStandIn,
  type VertexStandIn,
} from '../../../test/support/vertex-stand-in';
import type { ChatChunk, ChatRequest } from '../../canonical/chat';
import type { TranslatorChannel, UpstreamHttpRequest } from '../../canonical/translation';
import { vertexAdapter, vertexTranslator } from './vertex-adapter';

const PROJECT = 'gatehouse-test';
const REGION = 'us-central1';

let google: GoogleTokenStandIn;
let vertex: VertexStandIn;
/** a Vertex channel whose Base URL is the stand-in, with its access token prepared */
let channel: TranslatorChannel;

beforeAll(async () => {
  google = await startGoogleTokenStandIn();
  vertex = await startVertexStandIn({ project: PROJECT, location: REGION, acceptedTokens: google.issued });
  const account = google.createServiceAccount({ projectId: PROJECT });
  const key = [REGION, PROJECT, JSON.stringify(JSON.parse(account.json))].join('|');
  const base = {
    baseUrl: vertex.url,
    key,
    other: '',
    config: { region: REGION, vertex_ai_project_id: PROJECT },
  };
  const { accessToken } = await vertexAdapter.prepareCredential!(base, fetchCredentialForTests);
  channel = { ...base, accessToken };
});
afterAll(async () => {
  await vertex.close();
  await google.close();
});
beforeEach(() => {
  vertex.behaviour = {};
});

const chat = (fields: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'my-alias',
  messages: [{ role: 'user', content: 'Say hello' }],
  ...fields,
});

async function send(upstreamModel: string, isStream: boolean, request = chat(), clientHeaders = {}) {
  const built: UpstreamHttpRequest = await vertexTranslator.buildRequest({
    channel,
    request,
    upstreamModel,
    isStream,
    clientHeaders,
  });
  const response = await fetch(built.url, { method: 'POST', headers: built.headers, body: built.body });
  return { built, response, bytes: Buffer.from(await response.arrayBuffer()) };
}

function decodeStream(bytes: Buffer) {
  const decoder = vertexTranslator.createStreamDecoder();
  const chunks: ChatChunk[] = [];
  // Two pieces, cut inside the first event: the decoder must wait for it to know the stream.
  chunks.push(...decoder.push(bytes.subarray(0, 30)), ...decoder.push(bytes.subarray(30)), ...decoder.end());
  return {
    text: chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join(''),
    finish: chunks.map((chunk) => chunk.choices[0]?.finish_reason).find(Boolean),
    usage: decoder.usage(),
  };
}

describe('the access token', () => {
  it('comes from the service account and is what Vertex is called with', async () => {
    expect(google.calls).toBe(1);
    expect(channel.accessToken).toBe(google.issued[0]);
    await send('gemini-2.5-flash', false);
    expect(vertex.requests.at(-1)?.accessToken).toBe(channel.accessToken);
  });
});

describe('Gemini on Vertex AI', () => {
  it("posts Gemini's body to the model's generateContent in the channel's project and region", async () => {
    const { built, response, bytes } = await send('gemini-2.5-flash', false);
    expect(built.url).toBe(
      `${vertex.url}/v1/projects/${PROJECT}/locations/${REGION}/publishers/google/models/gemini-2.5-flash:generateContent`,
    );
    expect(JSON.parse(String(built.body))).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'Say hello' }] }],
    });
    expect(response.status).toBe(200);
    const { completion, usage } = vertexTranslator.readResponse(bytes);
    expect(completion.choices[0]?.message.content).toBe('Hello from the Gemini stand-in (gemini-2.5-flash).');
    expect(usage).toEqual({ promptTokens: 2, completionTokens: 6 });
  });

  it("reads Vertex's answer with its thinking tokens", async () => {
    vertex.behaviour = { fixture: { json: 'generate-content-text.json' } };
    const { bytes } = await send('gemini-2.5-flash', false);
    const { completion, usage } = vertexTranslator.readResponse(bytes);
    expect(completion.choices[0]).toMatchObject({
      message: { role: 'assistant', content: 'Paris is the capital of France.' },
      finish_reason: 'stop',
    });
    expect(completion.model).toBe('gemini-2.5-flash');
    expect(usage).toEqual({ promptTokens: 9, completionTokens: 31, reasoningTokens: 24 });
  });

  it('streams with alt=sse, word by word, and a recorded transcript', async () => {
    const own = await send('gemini-2.5-flash', true);
    expect(vertex.requests.at(-1)).toMatchObject({ method: 'streamGenerateContent' });
    expect(vertex.requests.at(-1)?.query.get('alt')).toBe('sse');
    expect(own.response.headers.get('content-type')).toBe('text/event-stream');
    expect(decodeStream(own.bytes)).toEqual({
      text: 'Hello from the Gemini stand-in (gemini-2.5-flash).',
      finish: 'stop',
      usage: { promptTokens: 2, completionTokens: 6 },
    });
    vertex.behaviour = { fixture: { sse: 'stream-generate-content-text.sse' } };
    expect(decodeStream((await send('gemini-2.5-flash', true)).bytes)).toEqual({
      text: 'Bonjour ! Un café ☕ pour vous.',
      finish: 'stop',
      usage: { promptTokens: 7, completionTokens: 24, reasoningTokens: 15 },
    });
  });
});

describe('Claude on Vertex AI', () => {
  it("posts Anthropic's body (no model, Vertex's anthropic_version) to rawPredict under the Vertex id", async () => {
    const { built, response, bytes } = await send('claude-sonnet-4-5-20250929', false);
    expect(response.status).toBe(200);
    expect(built.url).toBe(
      `${vertex.url}/v1/projects/${PROJECT}/locations/${REGION}/publishers/anthropic/models/claude-sonnet-4-5@20250929:rawPredict`,
    );
    expect(built.headers).toEqual({
      authorization: `Bearer ${channel.accessToken}`,
      'content-type': 'application/json',
    });
    expect(JSON.parse(String(built.body))).toEqual({
      anthropic_version: 'vertex-2023-10-16',
      max_tokens: expect.any(Number),
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hello' }] }],
    });
    const { completion, usage } = vertexTranslator.readResponse(bytes);
    expect(completion.choices[0]?.message.content).toBe(
      'Hello from the Vertex stand-in (claude-sonnet-4-5@20250929).',
    );
    expect(usage).toEqual({ promptTokens: 2, completionTokens: 6 });
  });

  it("reads a recorded answer with Claude's cache usage", async () => {
    vertex.behaviour = { fixture: { json: 'raw-predict-message.json' } };
    const { bytes } = await send('claude-sonnet-4-5@20250929', false);
    const { completion, usage } = vertexTranslator.readResponse(bytes);
    expect(completion).toMatchObject({
      id: 'msg_vrtx_01GmbH2XUPJhgzBXtZKBTjWd',
      model: 'claude-sonnet-4-5-20250929',
    });
    expect(completion.choices[0]?.message.content).toBe('Paris is the capital of France.');
    expect(usage).toMatchObject({ promptTokens: 2062, completionTokens: 10, cacheReadTokens: 2048 });
  });

  it('streams on streamRawPredict with system, tools and the client’s beta header, as recorded', async () => {
    const request = chat({
      messages: [
        { role: 'system', content: 'Answer in French.' },
        { role: 'user', content: 'What is the weather in Paris?' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'The weather of a city',
            parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          },
        },
      ],
      tool_choice: 'auto',
      max_tokens: 512,
      temperature: 0.2,
      stop: ['\n\nHuman:'],
    });
    vertex.behaviour = { fixture: { sse: 'stream-raw-predict-text.sse' } };
    const beta = { 'anthropic-beta': 'context-1m-2025-08-07' };
    const { built, response, bytes } = await send('claude-sonnet-4-5-20250929', true, request, beta);
    expect(built.url).toMatch(/publishers\/anthropic\/models\/claude-sonnet-4-5@20250929:streamRawPredict$/);
    expect(JSON.parse(String(built.body))).toEqual(
      JSON.parse(readVertexFixture('request-claude-stream-with-system-and-tools.json').toString('utf8')),
    );
    expect(vertex.requests.at(-1)?.headers['anthropic-beta']).toBe('context-1m-2025-08-07');
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(decodeStream(bytes)).toEqual({
      text: 'Bonjour ! Un café ☕ pour vous.',
      finish: 'stop',
      usage: { promptTokens: 14, completionTokens: 12 },
    });
  });

  it("streams the stand-in's own events", async () => {
    const { bytes } = await send('claude-3-5-haiku@20241022', true);
    expect(decodeStream(bytes)).toMatchObject({
      text: 'Hello from the Vertex stand-in (claude-3-5-haiku@20241022).',
      finish: 'stop',
    });
  });
});

describe('embeddings on Vertex AI', () => {
  it("answers OpenAI's list from the model's predict, with Vertex's token counts", async () => {
    const input = {
      channel,
      body: { model: 'text-embedding-005', input: ['one two three', 'four'], dimensions: 3 },
      rawBody: Buffer.alloc(0),
      upstreamModel: 'text-embedding-005',
      isModelMapped: false,
    };
    const built = await vertexAdapter.embeddings!.buildRequest(input);
    const response = await fetch(built.url, { method: 'POST', headers: built.headers, body: built.body });
    expect(response.status).toBe(200);
    const read = vertexAdapter.embeddings!.readResponse(Buffer.from(await response.arrayBuffer()));
    expect(read.usage).toEqual({ promptTokens: 4, completionTokens: 0 });
    const answer = read.answer as { data: Array<{ embedding: number[] }> };
    expect(answer.data.map((each) => each.embedding.length)).toEqual([3, 3]);
  });
});

describe("Vertex AI's errors, through the adapter", () => {
  it('a token Vertex does not accept is an authentication failure of the channel', async () => {
    const stale = { ...channel, accessToken: 'ya29.expired' };
    const built = await vertexTranslator.buildRequest({
      channel: stale,
      request: chat(),
      upstreamModel: 'gemini-2.5-flash',
      isStream: false,
      clientHeaders: {},
    });
    const response = await fetch(built.url, { method: 'POST', headers: built.headers, body: built.body });
    expect(response.status).toBe(401);
    const details = vertexAdapter.readError(Buffer.from(await response.arrayBuffer()), 401);
    expect(details).toMatchObject({ kind: 'authentication', type: 'UNAUTHENTICATED' });
  });

  it('a project the account cannot use is a permission failure', async () => {
    const elsewhere = { ...channel, key: channel.key.replace(`|${PROJECT}|`, '|someone-else|') };
    const built = await vertexTranslator.buildRequest({
      channel: elsewhere,
      request: chat(),
      upstreamModel: 'claude-sonnet-4-5@20250929',
      isStream: false,
      clientHeaders: {},
    });
    const response = await fetch(built.url, { method: 'POST', headers: built.headers, body: built.body });
    expect(response.status).toBe(403);
    expect(vertexAdapter.readError(Buffer.from(await response.arrayBuffer()), 403)).toMatchObject({
      kind: 'permission',
      code: 'IAM_PERMISSION_DENIED',
    });
  });

  it("Claude's own refusal keeps Anthropic's words, a quota Google's", async () => {
    vertex.behaviour = {
      error: {
        status: 400,
        body: JSON.parse(readVertexFixture('error-claude-invalid-request.json').toString('utf8')),
      },
    };
    const refused = await send('claude-sonnet-4-5@20250929', false);
    expect(vertexAdapter.readError(refused.bytes, 400)).toMatchObject({
      kind: 'invalid_request',
      type: 'invalid_request_error',
    });
    vertex.behaviour = {
      error: {
        status: 429,
        body: JSON.parse(readVertexFixture('error-quota-exceeded.json').toString('utf8')),
      },
    };
    const limited = await send('claude-sonnet-4-5@20250929', false);
    expect(vertexAdapter.readError(limited.bytes, 429)).toMatchObject({
      kind: 'rate_limit',
      type: 'RESOURCE_EXHAUSTED',
    });
  });
});
