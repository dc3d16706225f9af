import { describe, expect, it } from 'vitest';
import { relayErrors } from '../../relay/relay-error';
import { convertResponsesRequest } from './convert-responses-request';
import { createOpenAIResponsesCodec } from './openai-responses-codec';

const codecFor = (body: Record<string, unknown>) => {
  const decoded = convertResponsesRequest(body);
  return createOpenAIResponsesCodec(decoded, decoded.chat);
};

describe('the Responses codec of one request', () => {
  it('hands the relay the request decoded before, whatever body it is given', () => {
    const decoded = convertResponsesRequest({ model: 'm', input: 'Hi' });
    const chat = {
      ...decoded.chat,
      messages: [{ role: 'user' as const, content: 'stored' }, ...decoded.chat.messages],
    };
    expect(createOpenAIResponsesCodec(decoded, chat).decodeRequest({})).toBe(chat);
  });

  it('keeps the response it encoded, for storage', () => {
    const codec = codecFor({ model: 'm', input: 'Hi' });
    expect(codec.finalResponse()).toBeNull();
    const text = codec.encodeAnswer({
      id: 'c',
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello' }, finish_reason: 'stop' }],
    });
    expect(JSON.parse(text)).toEqual(codec.finalResponse());
  });

  it('ends a stream under way with response.failed, and answers an error event before one started', () => {
    const error = relayErrors.invalidRequest('Something broke');
    const idle = codecFor({ model: 'm', input: 'Hi', stream: true });
    expect(idle.encodeStreamError(error, 'req1')).toMatch(/^event: error\ndata: \{"type":"error"/);

    const codec = codecFor({ model: 'm', input: 'Hi', stream: true });
    const encoder = codec.createStreamEncoder(codec.decodeRequest({}));
    encoder.encode({
      id: 'c',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'm',
      choices: [{ index: 0, delta: { content: 'Hel' }, finish_reason: null }],
    });
    const text = codec.encodeStreamError(error, 'req1');
    expect(text).toContain('event: response.failed\n');
    expect(codec.finalResponse()).toMatchObject({
      status: 'failed',
      error: { code: 'server_error', message: 'Something broke (request id: req1)' },
    });
    expect(codec.streamEnd).toBe('');
  });
});
