import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startOpenAIUpstream, type OpenAIUpstream } from './support/openai-upstream';
import { startRelayKit, type RelayKit } from './support/relay-kit';

let kit: RelayKit;
let upstream: OpenAIUpstream;

beforeAll(async () => {
  upstream = await startOpenAIUpstream('alpha');
  kit = await startRelayKit();
  await kit.createChannel({ upstream, models: 'gpt-4o-mini,text-embedding-3-small' });
});
afterAll(async () => {
  await kit.close();
  await upstream.close();
});
beforeEach(() => {
  upstream.behaviour = {};
  upstream.received.length = 0;
});

interface OpenAIError {
  status: number;
  error: { message: string; type: string; param: string | null; code: string | null };
}

async function post(key: string, path: string, body: unknown): Promise<OpenAIError> {
  const response = await fetch(`${kit.gatewayUrl}/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as Omit<OpenAIError, 'status'>;
  return { status: response.status, ...answer };
}

const hello = [{ role: 'user', content: 'hi' }];

describe('bad relay input is answered 400 before any channel is picked', () => {
  // gpt-4o is priced but no channel serves it: the old order answered these 503 model_not_available.
  it.each([
    ['max_tokens below 1', { model: 'gpt-4o', messages: hello, max_tokens: -5 }, 'max_tokens'],
    ['messages that are not objects', { model: 'gpt-4o', messages: [1, 2, null] }, 'messages[0]'],
    ['an empty messages list', { model: 'gpt-4o', messages: [] }, 'messages'],
    ['no messages', { model: 'gpt-4o' }, 'messages'],
    [
      'a role nobody has',
      { model: 'gpt-4o', messages: [{ role: 'robot', content: 'x' }] },
      'messages[0].role',
    ],
    [
      'an image part without its URL',
      { model: 'gpt-4o', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: {} }] }] },
      'messages[0].content[0].image_url.url',
    ],
    ['temperature as text', { model: 'gpt-4o', messages: hello, temperature: 'hot' }, 'temperature'],
    ['top_p above 1', { model: 'gpt-4o', messages: hello, top_p: 3 }, 'top_p'],
    ['stream as text', { model: 'gpt-4o', messages: hello, stream: 'yes' }, 'stream'],
    ['tools as an object', { model: 'gpt-4o', messages: hello, tools: {} }, 'tools'],
    [
      'a function tool without a name',
      { model: 'gpt-4o', messages: hello, tools: [{ type: 'function', function: {} }] },
      'tools[0].function.name',
    ],
    ['a model that is a number', { model: 5, messages: hello }, 'model'],
    [
      'a json_schema response_format without its json_schema',
      { model: 'gpt-4o', messages: hello, response_format: { type: 'json_schema' } },
      'response_format.json_schema',
    ],
    [
      'a function tool_choice without its function',
      { model: 'gpt-4o', messages: hello, tool_choice: { type: 'function' } },
      'tool_choice.function',
    ],
    [
      'a function tool_choice without a name',
      { model: 'gpt-4o', messages: hello, tool_choice: { type: 'function', function: {} } },
      'tool_choice.function.name',
    ],
  ])('%s', async (_case, body, param) => {
    const user = await kit.createUser({ quota: 500_000 });
    const { key } = await kit.createKey(user.id);
    const answer = await post(key, '/chat/completions', body);
    expect(answer.status).toBe(400);
    expect(answer.error).toMatchObject({ type: 'invalid_request_error', param });
    expect(answer.error.message).toContain(param);
    expect(upstream.received).toHaveLength(0);
    expect(await kit.userQuota(user.id)).toBe(500_000);
  });

  it('says which element is wrong, in OpenAI words', async () => {
    const { key } = await kit.createKey((await kit.createUser()).id);
    const answer = await post(key, '/chat/completions', { model: 'gpt-4o', messages: [1, 2, null] });
    expect(answer.error.message).toContain(
      "Invalid type for 'messages[0]': expected an object, but got an integer instead.",
    );
    const negative = await post(key, '/chat/completions', {
      model: 'gpt-4o',
      messages: hello,
      max_tokens: -5,
    });
    expect(negative.error).toMatchObject({ code: 'integer_below_min_value' });
    expect(negative.error.message).toContain('Expected a value >= 1, but got -5 instead.');
  });

  it.each([
    ['/embeddings', { model: 'text-embedding-3-large', input: 5 }, 'input'],
    ['/embeddings', { model: 'text-embedding-3-large' }, 'input'],
    ['/completions', { model: 'gpt-3.5-turbo-instruct', prompt: 'x', max_tokens: 0 }, 'max_tokens'],
    ['/completions', { model: 'gpt-3.5-turbo-instruct' }, 'prompt'],
    ['/images/generations', { model: 'dall-e-3', prompt: 'a cat', size: 1024 }, 'size'],
    ['/audio/speech', { model: 'tts-1', input: 42, voice: 'alloy' }, 'input'],
  ])('%s with a bad body answers 400 (%j)', async (path, body, param) => {
    const user = await kit.createUser({ quota: 500_000 });
    const { key } = await kit.createKey(user.id);
    const answer = await post(key, path, body);
    expect(answer.status).toBe(400);
    expect(answer.error.param).toBe(param);
    expect(await kit.userQuota(user.id)).toBe(500_000);
  });

  it('still answers 503 for a good body when no channel serves the model', async () => {
    const { key } = await kit.createKey((await kit.createUser()).id);
    const answer = await post(key, '/chat/completions', { model: 'gpt-4o', messages: hello, max_tokens: 5 });
    expect(answer).toMatchObject({ status: 503, error: { code: 'model_not_available' } });
  });

  it('never refuses a field it does not know, and forwards it', async () => {
    const { key } = await kit.createKey((await kit.createUser()).id);
    const body = {
      model: 'gpt-4o-mini',
      messages: [
        { role: 'user', content: [{ type: 'video_url', video_url: { url: 'https://v.example/a' } }] },
      ],
      prompt_cache_key: 'session-1',
      max_tokens: null,
      verbosity: 'low',
    };
    const answer = await post(key, '/chat/completions', body);
    expect(answer.status).toBe(200);
    expect(upstream.received[0].json).toEqual(body);
  });
});

describe('a malformed answer from an OpenAI-compatible upstream', () => {
  it('is a 502 naming the channel type, with the reservation refunded', async () => {
    const user = await kit.createUser({ quota: 500_000 });
    const { key } = await kit.createKey(user.id);
    upstream.behaviour = { raw: { body: '{"id":"chatcmpl-1","object":"chat.completion","choices":[{"ind' } };
    const answer = await post(key, '/chat/completions', {
      model: 'gpt-4o-mini',
      messages: hello,
      max_tokens: 50,
    });
    expect(answer.status).toBe(502);
    expect(answer.error).toMatchObject({ type: 'upstream_error', code: 'bad_upstream_answer' });
    expect(answer.error.message).toContain(
      "The OpenAI channel's upstream sent an answer this gateway cannot read",
    );
    await kit.settle();
    expect(await kit.userQuota(user.id)).toBe(500_000);
  });
});
