import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDeepLStandIn, type DeepLStandIn } from '../../../test/support/deepl-stand-in';
import type { ChatChunk } from '../../canonical/chat';
import type { CanonicalChatInput } from '../../canonical/translation';
import { deepLAdapter, deepLTranslator } from './deepl-adapter';

let standIn: DeepLStandIn;

beforeAll(async () => {
  standIn = await startDeepLStandIn({ authKey: 'test-key:fx' });
});
afterAll(() => standIn.close());
beforeEach(() => {
  standIn.received.length = 0;
  standIn.charactersLeft = 500_000;
});

function inputOf(model: string, isStream = false, key = 'test-key:fx'): CanonicalChatInput {
  return {
    channel: { baseUrl: standIn.url, key, other: '', config: {} },
    request: { model, messages: [{ role: 'user', content: 'Hello, world!' }] },
    upstreamModel: model,
    isStream,
    clientHeaders: {},
  };
}

async function send(input: CanonicalChatInput) {
  const upstream = await deepLTranslator.buildRequest(input);
  const response = await fetch(upstream.url, {
    method: 'POST',
    headers: upstream.headers,
    body: upstream.body,
  });
  return { status: response.status, response };
}

describe('the DeepL adapter against a stand-in speaking /v2/translate', () => {
  it('answers a chat with the translation into the model’s language, billing characters', async () => {
    const { status, response } = await send(inputOf('deepl-zh'));
    expect(status).toBe(200);
    const { completion, usage } = deepLTranslator.readResponse(Buffer.from(await response.arrayBuffer()));
    expect(completion.choices[0].message.content).toBe('你好，世界！');
    expect(usage).toEqual({ promptTokens: 13, completionTokens: 0 });
    expect(standIn.received[0].json).toEqual({
      text: ['Hello, world!'],
      target_lang: 'ZH',
      show_billed_characters: true,
    });
  });

  it('streams the translation as it arrives over a real socket', async () => {
    const { response } = await send(inputOf('deepl-de', true));
    const decoder = deepLTranslator.createStreamDecoder();
    const chunks: ChatChunk[] = [];
    for await (const piece of response.body ?? []) chunks.push(...decoder.push(Buffer.from(piece)));
    chunks.push(...decoder.end());
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('Hallo, Welt!');
    expect(decoder.usage()).toEqual({ promptTokens: 13, completionTokens: 0 });
  });

  it('reads a refused key, an unknown language and a used-up quota with their kinds', async () => {
    const refused = await send(inputOf('deepl-zh', false, 'other-key:fx'));
    expect(
      deepLAdapter.readError(Buffer.from(await refused.response.arrayBuffer()), refused.status),
    ).toMatchObject({
      kind: 'authentication',
      code: '403',
    });
    const language = await send(inputOf('deepl-xx'));
    expect(
      deepLAdapter.readError(Buffer.from(await language.response.arrayBuffer()), language.status),
    ).toMatchObject({
      kind: 'invalid_request',
      message: "Value for 'target_lang' not supported.",
    });
    standIn.charactersLeft = 3;
    const quota = await send(inputOf('deepl-zh'));
    expect(quota.status).toBe(456);
    expect(deepLAdapter.readError(Buffer.from(await quota.response.arrayBuffer()), quota.status).kind).toBe(
      'insufficient_quota',
    );
  });
});
