import OpenAI from 'openai';
import type {
  Response,
  ResponseOutputItem,
  ResponseStreamEvent,
  ResponseUsage,
} from 'openai/resources/responses/responses';
import type {
  ResponsesObject,
  ResponsesOutputItem,
  ResponsesStreamEvent,
  ResponsesUsage,
} from '../../src/protocols/openai-responses/responses-types';

/**
 * For tests only: the `openai` package's Responses client reading what this gateway writes, without a server
 * (its fetch answers the given body), and compile-time checks that our wire types are the SDK's.
 */

// What the SDK types as unions of every tool and choice it knows is echoed here as the client sent it.
type EchoedAsSent = 'tools' | 'tool_choice' | 'output_text' | 'usage' | 'output' | 'text' | 'reasoning';

export const sdkTypeChecks = {
  outputItem: (item: ResponsesOutputItem): ResponseOutputItem => item,
  usage: (usage: ResponsesUsage): ResponseUsage => usage,
  response: (response: ResponsesObject): Omit<Response, EchoedAsSent> => response,
  event: (event: Exclude<ResponsesStreamEvent, { response: unknown }>): ResponseStreamEvent => event,
};

/** An SDK client whose every request is answered with `body` (JSON, or SSE when it starts with "event:"). */
export function createAnsweringClient(body: string): OpenAI {
  const isStream = body.startsWith('event:');
  return new OpenAI({
    apiKey: 'sk-test',
    baseURL: 'http://gateway.invalid/v1',
    maxRetries: 0,
    fetch: async () =>
      new globalThis.Response(body, {
        status: 200,
        headers: { 'content-type': isStream ? 'text/event-stream' : 'application/json' },
      }),
  });
}
