import { describe, expect, it, vi } from 'vitest';
import { RelayCallError, streamChat } from './stream-chat';

const encoder = new TextEncoder();
const event = (payload: unknown) => encoder.encode(`data: ${JSON.stringify(payload)}\n\n`);
const textChunk = (content: string) => event({ choices: [{ index: 0, delta: { content } }] });

/** fetch answering this body; the stream fails with an AbortError when the caller aborts, as a browser's does. */
function answerWith(
  body: (signal: AbortSignal) => ReadableStream<Uint8Array> | string,
  init: ResponseInit = {},
) {
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async (_input: RequestInfo | URL, request?: RequestInit) => new Response(body(request!.signal!), init),
    ),
  );
}

function run(signal = new AbortController().signal) {
  const pieces: string[] = [];
  const started: Array<string | null> = [];
  const result = streamChat({
    apiKey: 'sk-k',
    body: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] },
    signal,
    onStart: (id) => started.push(id),
    onText: (text) => pieces.push(text),
  });
  return { result, pieces, started };
}

describe('streamChat', () => {
  it('keeps what arrived when the reader stops, and says it was stopped', async () => {
    const abort = new AbortController();
    answerWith(
      (signal) =>
        new ReadableStream({
          start(controller) {
            controller.enqueue(textChunk('Once upon'));
            signal.addEventListener('abort', () =>
              controller.error(new DOMException('stopped', 'AbortError')),
            );
          },
        }),
      { headers: { 'X-Request-Id': 'req-stop' } },
    );
    const call = run(abort.signal);
    await vi.waitFor(() => expect(call.pieces).toEqual(['Once upon']));
    abort.abort();
    await expect(call.result).resolves.toEqual({ usage: null, isStopped: true });
    expect(call.started).toEqual(['req-stop']);
  });

  it('turns an error event inside the stream into a RelayCallError, after the text before it', async () => {
    answerWith(
      () =>
        new ReadableStream({
          start(controller) {
            controller.enqueue(textChunk('Part'));
            controller.enqueue(event({ error: { message: 'upstream went away', type: 'server_error' } }));
            controller.close();
          },
        }),
    );
    const call = run();
    await expect(call.result).rejects.toMatchObject({
      name: 'RelayCallError',
      message: 'upstream went away',
      code: 'server_error',
      status: null,
    });
    expect(call.pieces).toEqual(['Part']);
  });

  it('reads a refusal that is not JSON (a proxy page) as its text and status', async () => {
    answerWith(() => 'Bad gateway', { status: 502, statusText: 'Bad Gateway' });
    const failure = await run().result.catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RelayCallError);
    expect(failure).toMatchObject({ message: 'Bad gateway', status: 502, code: null });
  });
});
