import { createHash } from 'node:crypto';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatChunk } from '../../canonical/chat';
import type { CanonicalChatInput, TranslatorChannel, UpstreamHttpRequest } from '../../canonical/translation';
import {
  STAND_IN_KEY,
  startBedrockStandIn,
  type BedrockStandIn,
} from '../../../test/support/bedrock-stand-in';
import { bedrockTranslator, readBedrockError } from './bedrock-adapter';
import { buildBedrockRequest, buildBedrockUrl } from './bedrock-request';
import { signBedrockRequest } from './bedrock-signing';

let standIn: BedrockStandIn;
beforeAll(async () => {
  standIn = await startBedrockStandIn();
});
afterAll(async () => {
  await standIn.close();
});

const channel = (fields: Partial<TranslatorChannel> = {}): TranslatorChannel => ({
  baseUrl: standIn.url,
  key: STAND_IN_KEY,
  other: '',
  config: {},
  ...fields,
});

const input = (fields: Partial<CanonicalChatInput> = {}): CanonicalChatInput => ({
  channel: channel(),
  request: {
    model: 'claude-3-5-sonnet-20241022',
    messages: [{ role: 'user', content: 'Hello' }],
    max_tokens: 64,
  },
  upstreamModel: 'claude-3-5-sonnet-20241022',
  isStream: false,
  clientHeaders: {},
  ...fields,
});

async function send(upstream: UpstreamHttpRequest, path?: string) {
  const url = path ? new URL(path, upstream.url).toString() : upstream.url;
  const response = await request(url, { method: 'POST', headers: upstream.headers, body: upstream.body });
  const body = Buffer.from(await response.body.arrayBuffer());
  return { status: response.statusCode, errorType: String(response.headers['x-amzn-errortype'] ?? ''), body };
}

describe('Bedrock URLs', () => {
  it("calls the region's endpoint, or the channel's Base URL, with the model id as one encoded segment", () => {
    const aws = channel({ baseUrl: '' });
    expect(buildBedrockUrl(aws, 'us-west-2', 'anthropic.claude-3-5-sonnet-20241022-v2:0', false)).toBe(
      'https://bedrock-runtime.us-west-2.amazonaws.com/model/anthropic.claude-3-5-sonnet-20241022-v2%3A0/converse',
    );
    expect(
      buildBedrockUrl(
        channel({ baseUrl: 'https://proxy.corp/bedrock' }),
        'eu-west-1',
        'amazon.nova-pro-v1:0',
        true,
      ),
    ).toBe('https://proxy.corp/bedrock/model/amazon.nova-pro-v1%3A0/converse-stream');
    expect(
      buildBedrockUrl(aws, 'us-east-1', 'arn:aws:bedrock:us-east-1:123456789012:inference-profile/x', false),
    ).toBe(
      'https://bedrock-runtime.us-east-1.amazonaws.com/model/arn%3Aaws%3Abedrock%3Aus-east-1%3A123456789012%3Ainference-profile%2Fx/converse',
    );
  });
});

describe('SigV4 signing', () => {
  it('signs for service bedrock in the key’s region with the payload hash, and leaves Host to the HTTP client', async () => {
    const date = new Date(Date.UTC(2025, 0, 2, 3, 4, 5));
    const built = await buildBedrockRequest(input({ channel: channel({ baseUrl: '' }) }), date);
    expect(built.url).toBe(
      'https://bedrock-runtime.us-west-2.amazonaws.com/model/anthropic.claude-3-5-sonnet-20241022-v2%3A0/converse',
    );
    expect(built.headers).toMatchObject({
      'content-type': 'application/json',
      accept: 'application/json',
      'x-amz-date': '20250102T030405Z',
      'x-amz-content-sha256': createHash('sha256').update(built.body).digest('hex'),
    });
    expect(built.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDSTANDIN000EXAMPLE\/20250102\/us-west-2\/bedrock\/aws4_request, SignedHeaders=accept;content-type;host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/,
    );
    expect(built.headers.host).toBeUndefined();
    expect(JSON.stringify(built.headers)).not.toContain('STANDINKEY');
  });

  it('passes the stand-in’s recomputation for a model id with ":" (the path double-encoded as AWS signs it)', async () => {
    const { status, body } = await send(await bedrockTranslator.buildRequest(input()));
    expect(status).toBe(200);
    expect(standIn.requests.at(-1)).toMatchObject({
      rawPath: '/model/anthropic.claude-3-5-sonnet-20241022-v2%3A0/converse',
      modelId: 'anthropic.claude-3-5-sonnet-20241022-v2:0',
      operation: 'converse',
      body: {
        messages: [{ role: 'user', content: [{ text: 'Hello' }] }],
        inferenceConfig: { maxTokens: 64 },
      },
    });
    expect(bedrockTranslator.readResponse(body).completion.choices[0]!.message.content).toBe(
      'Hello from the stand-in.',
    );
  });

  it('is refused with a wrong secret, and the error reads as an authentication failure', async () => {
    const wrongSecret = STAND_IN_KEY.replace('STANDINKEY', 'WRONGKEY00');
    const answer = await send(await buildBedrockRequest(input({ channel: channel({ key: wrongSecret }) })));
    expect(answer.status).toBe(403);
    expect(standIn.refusals.at(-1)).toBe('InvalidSignatureException');
    expect(readBedrockError(answer.body, answer.status, answer.errorType)).toMatchObject({
      type: 'InvalidSignatureException',
      kind: 'authentication',
    });
  });

  it('is refused when the signature covers another path than the one called, or another body', async () => {
    const url = `${standIn.url}/model/anthropic.claude-v2:1/converse`;
    const headers = await signBedrockRequest(
      { url, headers: { 'content-type': 'application/json' }, body: '{}' },
      {
        accessKeyId: 'AKIDSTANDIN000EXAMPLE',
        secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYSTANDINKEY',
        region: 'us-west-2',
      },
    );
    const decodedPathSigned = await send(
      { url, headers, body: '{}' },
      '/model/anthropic.claude-v2%3A1/converse',
    );
    expect(decodedPathSigned.status).toBe(403);
    expect(standIn.refusals.at(-1)).toBe('InvalidSignatureException');

    const built = await buildBedrockRequest(input());
    const tampered = await send({ ...built, body: String(built.body).replace('Hello', 'Bye!!') });
    expect(tampered.status).toBe(400);
    expect(standIn.refusals.at(-1)).toBe('XAmzContentSHA256Mismatch');
  });
});

describe('against the Bedrock stand-in', () => {
  it('streams ConverseStream frames through the decoder as they arrive, one byte per write', async () => {
    standIn.behaviour = { streamWriteSize: 1 };
    const upstream = await buildBedrockRequest(input({ isStream: true }));
    expect(upstream.headers.accept).toBe('application/vnd.amazon.eventstream');
    const response = await request(upstream.url, {
      method: 'POST',
      headers: upstream.headers,
      body: upstream.body,
    });
    expect(response.headers['content-type']).toBe('application/vnd.amazon.eventstream');
    const decoder = bedrockTranslator.createStreamDecoder();
    const chunks: ChatChunk[] = [];
    for await (const bytes of response.body) chunks.push(...decoder.push(bytes as Buffer));
    chunks.push(...decoder.end());
    expect(standIn.requests.at(-1)?.operation).toBe('converse-stream');
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe(
      'Hello from the stand-in.',
    );
    expect(decoder.usage()).toEqual({ promptTokens: 9, completionTokens: 5 });
    standIn.behaviour = {};
  });

  it('answers errors with x-amzn-errortype, read into the kind the relay acts on', async () => {
    standIn.behaviour = {
      error: {
        status: 429,
        errorType: 'ThrottlingException',
        message: 'Too many requests, please wait before trying again.',
      },
    };
    const answer = await send(await buildBedrockRequest(input()));
    standIn.behaviour = {};
    expect(answer.status).toBe(429);
    expect(readBedrockError(answer.body, answer.status, answer.errorType)).toEqual({
      message: 'Too many requests, please wait before trying again.',
      type: 'ThrottlingException',
      code: 'ThrottlingException',
      kind: 'rate_limit',
    });
  });

  it('refuses to build a request for a key without a region', async () => {
    await expect(buildBedrockRequest(input({ channel: channel({ key: 'AKIA|secret' }) }))).rejects.toThrow(
      'AccessKeyId|SecretAccessKey|region',
    );
  });
});
