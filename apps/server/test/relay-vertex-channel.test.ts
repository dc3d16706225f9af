import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChannelType } from '@gatehouse/shared';
import {
  createTestServiceAccount,
  startGoogleTokenStandIn,
  type GoogleTokenStandIn,
} from './support/google-token-stand-in';
import { readVertexFixture, startVertexStandIn, type VertexStandIn } from './support/vertex-stand-in';
import { startRelayKit, type RelayKit } from './support/relay-kit';

/**
 * A Vertex AI (42) channel served by the native Vertex adapter, end to end with the `openai` SDK as the client:
 * the relay gets an access token from the service account (Google token stand-in), then translates through
 * canonical types to Gemini's generateContent or Claude's rawPredict on the Vertex stand-in and back.
 */
const PROJECT = 'gatehouse-test';
const REGION = 'us-east5';
const GEMINI = 'gemini-2.5-flash';
const CLAUDE = 'claude-sonnet-4-5-20250929';

let kit: RelayKit;
let google: GoogleTokenStandIn;
let vertex: VertexStandIn;

const vertexKey = (json: string) => [REGION, PROJECT, JSON.stringify(JSON.parse(json))].join('|');

beforeAll(async () => {
  google = await startGoogleTokenStandIn();
  vertex = await startVertexStandIn({ project: PROJECT, location: REGION, acceptedTokens: google.issued });
  kit = await startRelayKit();
  // Vertex prices vary by region: the vendor ships none for its embedding models.
  await kit.test.context.options.set('ModelRatio', JSON.stringify({ 'text-embedding-005': 0.0125 }));
  const account = google.createServiceAccount({ projectId: PROJECT });
  await kit.createChannel({
    baseUrl: vertex.url,
    type: ChannelType.vertexAi,
    key: vertexKey(account.json),
    models: `${GEMINI},${CLAUDE},text-embedding-005`,
  });
  // A channel whose service account Google does not know (deleted, or its key revoked).
  const revoked = createTestServiceAccount({
    tokenUri: google.tokenUri,
    clientEmail: 'revoked@gatehouse-test.iam.gserviceaccount.com',
  });
  await kit.createChannel({
    baseUrl: vertex.url,
    type: ChannelType.vertexAi,
    key: vertexKey(revoked.json),
    models: 'gemini-2.5-pro',
  });
});
afterAll(async () => {
  await kit.close();
  await vertex.close();
  await google.close();
});
beforeEach(async () => {
  vertex.behaviour = {};
  vertex.requests.length = 0;
  await kit.test.context.options.set('RetryTimes', '0');
});

async function newClient(quota = 1_000_000) {
  const user = await kit.createUser({ quota });
  const { key } = await kit.createKey(user.id);
  return { user, client: kit.client(key) };
}

const lastLog = () => kit.lastConsumeLog();

describe('an OpenAI client on a Vertex AI channel', () => {
  it('gets Gemini’s answer with one access token for every request, billed as Vertex reported', async () => {
    const { user, client } = await newClient();
    vertex.behaviour = { fixture: { json: 'generate-content-text.json' } };
    const ask = () =>
      client.chat.completions.create({
        model: GEMINI,
        messages: [{ role: 'user', content: 'Capital of France?' }],
      });
    const completion = await ask();
    expect(completion.choices[0]).toMatchObject({
      message: { role: 'assistant', content: 'Paris is the capital of France.' },
      finish_reason: 'stop',
    });
    expect(completion.usage).toMatchObject({ prompt_tokens: 9, completion_tokens: 31 });
    expect(await lastLog()).toMatchObject({ user_id: user.id, prompt_tokens: 9, completion_tokens: 31 });
    await ask();
    expect(google.calls).toBe(1);
    expect(vertex.requests.map((request) => request.accessToken)).toEqual([
      google.issued[0],
      google.issued[0],
    ]);
    expect(vertex.requests[0]).toMatchObject({
      project: PROJECT,
      location: REGION,
      publisher: 'google',
      model: GEMINI,
      method: 'generateContent',
    });
  });

  it('reads Gemini’s cachedContentTokenCount as cached tokens, JSON and streamed, billed at the read ratio', async () => {
    const { client } = await newClient();
    vertex.behaviour = { cachedTokens: 40 };
    const messages = [{ role: 'user' as const, content: 'Capital of France?' }];
    const completion = await client.chat.completions.create({ model: GEMINI, messages });
    expect(completion.usage).toMatchObject({
      prompt_tokens: 40,
      prompt_tokens_details: { cached_tokens: 40 },
    });
    const log = await lastLog();
    expect(log).toMatchObject({ prompt_tokens: 40, cache_read_tokens: 40, completion_tokens: 6 });
    // gemini-2.5-flash: $0.30 / $2.50 (0.15, 8.33…), cache reads 0.1: (40 × 0.1 + 6 × 8.33…) × 0.15 = 8.1 → 9
    expect(Number(log.quota)).toBe(9);
    const stream = await client.chat.completions.create({
      model: GEMINI,
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    let cached = 0;
    for await (const chunk of stream) cached = chunk.usage?.prompt_tokens_details?.cached_tokens ?? cached;
    expect(cached).toBe(40);
    expect(await lastLog()).toMatchObject({ cache_read_tokens: 40, is_stream: 1 });
  });

  it('gets Claude’s answer through rawPredict, under its Vertex id, with cache reads billed', async () => {
    const { user, client } = await newClient();
    vertex.behaviour = { fixture: { json: 'raw-predict-message.json' } };
    const completion = await client.chat.completions.create({
      model: CLAUDE,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Capital of France?' },
      ],
      max_tokens: 100,
    });
    expect(completion.choices[0]?.message.content).toBe('Paris is the capital of France.');
    expect(vertex.requests[0]).toMatchObject({
      publisher: 'anthropic',
      model: 'claude-sonnet-4-5@20250929',
      method: 'rawPredict',
      body: {
        anthropic_version: 'vertex-2023-10-16',
        max_tokens: 100,
        system: [{ type: 'text', text: 'Be brief.' }],
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Capital of France?' }] }],
      },
    });
    expect(await lastLog()).toMatchObject({ user_id: user.id, prompt_tokens: 2062, completion_tokens: 10 });
  });

  it.each([
    [GEMINI, 'stream-generate-content-text.sse', { prompt_tokens: 7, completion_tokens: 24 }],
    [CLAUDE, 'stream-raw-predict-text.sse', { prompt_tokens: 14, completion_tokens: 12 }],
  ])('streams %s as chat chunks, with the usage chunk when asked', async (model, sse, usage) => {
    const { client } = await newClient();
    vertex.behaviour = { fixture: { sse } };
    const stream = await client.chat.completions.create({
      model,
      messages: [{ role: 'user', content: 'Say hello in French' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let reported: unknown = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) reported = chunk.usage;
    }
    expect(text).toBe('Bonjour ! Un café ☕ pour vous.');
    expect(reported).toMatchObject(usage);
    expect(vertex.requests[0]?.method).toMatch(/^stream(GenerateContent|RawPredict)$/);
  });

  it("answers Claude's refusal as the client's error, and a refused token as the channel's, charging nothing", async () => {
    const { user, client } = await newClient(500_000);
    vertex.behaviour = {
      error: {
        status: 400,
        body: JSON.parse(readVertexFixture('error-claude-invalid-request.json').toString('utf8')),
      },
    };
    const refused = (await client.chat.completions
      .create({ model: CLAUDE, messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught)) as { status: number; message: string };
    expect(refused.status).toBe(400);
    expect(refused.message).toContain('does not appear to be a valid png image');
    vertex.behaviour = {};
    const revoked = (await client.chat.completions
      .create({ model: 'gemini-2.5-pro', messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught)) as { status: number; code: string; message: string };
    expect(revoked.status).toBe(502);
    expect(revoked.code).toBe('channel_auth_failed');
    expect(revoked.message).toContain('invalid_grant');
    expect(revoked.message).not.toContain('PRIVATE KEY');
    expect(vertex.requests).toHaveLength(1);
    await kit.settle();
    expect(await kit.userQuota(user.id)).toBe(500_000);
  });

  it('gets embeddings from predict with the access token', async () => {
    const { client } = await newClient();
    const answer = await client.embeddings.create({
      model: 'text-embedding-005',
      input: ['one two', 'three'],
    });
    expect(answer.data).toHaveLength(2);
    expect(answer.model).toBe('text-embedding-005');
    expect(answer.usage.prompt_tokens).toBe(3);
  });
});
