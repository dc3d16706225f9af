import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startOpenAIUpstream, type OpenAIUpstream } from './support/openai-upstream';
import { startRelayKit, type RelayKit } from './support/relay-kit';

/** A body of the wrong kind on a relay route: a clear 4xx in OpenAI's error shape, never a 500. */
let kit: RelayKit;
let upstream: OpenAIUpstream;
let userId: number;
let key: string;

const JSON_ROUTES = [
  '/v1/chat/completions',
  '/v1/completions',
  '/v1/embeddings',
  '/v1/moderations',
  '/v1/images/generations',
  '/v1/audio/speech',
];
const MULTIPART_ROUTES = ['/v1/audio/transcriptions', '/v1/audio/translations'];

beforeAll(async () => {
  upstream = await startOpenAIUpstream('alpha');
  kit = await startRelayKit();
  await kit.createChannel({
    upstream,
    models: 'gpt-4o-mini,text-embedding-3-small,omni-moderation-latest,dall-e-3,tts-1,whisper-1',
  });
  const user = await kit.createUser({ quota: 10_000_000 });
  userId = user.id;
  key = (await kit.createKey(user.id)).key;
});
afterAll(async () => {
  await kit.close();
  await upstream.close();
});
beforeEach(() => {
  upstream.received.length = 0;
});

function uploadForm(model: string): FormData {
  const form = new FormData();
  form.append('model', model);
  form.append('input', 'hello');
  form.append('prompt', 'hello');
  form.append('file', new Blob([Buffer.from('RIFF-fake-wav-audio')], { type: 'audio/wav' }), 'hello.wav');
  return form;
}

const post = (path: string, body: FormData | string, headers: Record<string, string> = {}) =>
  fetch(`${kit.gatewayUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, ...headers },
    body,
  });

describe('a multipart/form-data body on a JSON relay route', () => {
  it.each(JSON_ROUTES)(
    '%s answers 415 naming the Content-Type it takes, and calls no upstream',
    async (path) => {
      const quotaBefore = await kit.userQuota(userId);
      const response = await post(path, uploadForm('gpt-4o-mini'));
      expect(response.status).toBe(415);
      expect(await response.json()).toEqual({
        error: {
          message: expect.stringMatching(
            /^This endpoint takes a JSON body \(Content-Type: application\/json\), not multipart\/form-data \(request id: .+\)$/,
          ) as unknown,
          type: 'invalid_request_error',
          param: null,
          code: 'unsupported_media_type',
        },
      });
      expect(upstream.received).toHaveLength(0);
      await kit.settle();
      expect(await kit.userQuota(userId)).toBe(quotaBefore);
    },
  );

  it('checks the key first: without one it is still a 401', async () => {
    const response = await fetch(`${kit.gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      body: uploadForm('gpt-4o-mini'),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: 'invalid_api_key' } });
  });
});

describe('the multipart relay routes', () => {
  it.each(MULTIPART_ROUTES)('%s still takes an upload', async (path) => {
    const response = await post(path, uploadForm('whisper-1'));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ text: 'the quick brown fox' });
  });

  it.each(MULTIPART_ROUTES)(
    '%s answers a JSON body with a 400 that names multipart/form-data',
    async (path) => {
      const response = await post(path, JSON.stringify({ model: 'whisper-1', file: 'hello.wav' }), {
        'content-type': 'application/json',
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        error: {
          message: expect.stringContaining('multipart/form-data') as unknown,
          type: 'invalid_request_error',
        },
      });
      expect(upstream.received).toHaveLength(0);
    },
  );
});
