import type { ToolCallIdRule } from '../shared/fit-tool-call-id';
import { entryOf, newWeakMap } from '../../map-entry';
import type { ChatTranslator } from '../../canonical/translation';
import type {
  ChannelCredentials,
  JsonCapability,
  JsonRequestInput,
  MultipartCapability,
  MultipartRequestInput,
  PassThroughCapability,
  PassThroughRequestInput,
  ProviderAdapter,
  UpstreamRequest,
} from '../provider-types';
import { readOpenAIChatAnswer } from './convert-openai-response';
import { convertToOpenAIRequest } from './convert-to-openai-request';
import { openAIAnswerAsEvents } from './openai-answer-as-events';
import { createOpenAIChatStreamDecoder } from './openai-chat-stream-decoder';
import { createOpenAIStreamReader } from './openai-stream-reader';
import { readOpenAIError, readOpenAIResponse, readOpenAITranscript } from './read-openai-response';

/** Paths of the OpenAI API below its version prefix (https://platform.openai.com/docs/api-reference). */
export const openAIPaths = {
  chat: '/chat/completions',
  completions: '/completions',
  embeddings: '/embeddings',
  moderations: '/moderations',
  images: '/images/generations',
  audioSpeech: '/audio/speech',
  audioTranscriptions: '/audio/transcriptions',
  audioTranslations: '/audio/translations',
} as const;

export type OpenAIPath = (typeof openAIPaths)[keyof typeof openAIPaths];

/** The endpoints beyond chat that a vendor's OpenAI-compatible API may offer. */
export type OpenAIEndpoint = Exclude<keyof typeof openAIPaths, 'chat'>;

/** Every endpoint beyond chat: what a vendor that offers chat alone leaves out. */
export const openAIEndpointsBeyondChat = Object.keys(openAIPaths).filter(
  (endpoint): endpoint is OpenAIEndpoint => endpoint !== 'chat',
);

/** Where a vendor's OpenAI-compatible API lives and how it takes the key: the only things vendors vary. */
export interface OpenAICompatibleLayout {
  wireFormat: string;
  buildUrl(channel: ChannelCredentials, path: OpenAIPath, upstreamModel: string): string;
  buildHeaders(channel: ChannelCredentials): Record<string, string>;
  /** whether the upstream accepts `stream_options.include_usage` */
  supportsStreamUsage(channel: ChannelCredentials): boolean;
  /** vendors without an endpoint leave it out, and the relay answers that the channel cannot serve it */
  omit?: readonly OpenAIEndpoint[];
  /** the tool call ids it takes back, when stricter than OpenAI's */
  toolCallIds?: ToolCallIdRule;
}

/** The common case: `{base}{prefix}/chat/completions` with a bearer key. */
export function prefixedLayout(wireFormat: string, prefix: string): OpenAICompatibleLayout {
  return {
    wireFormat,
    buildUrl: (channel, path) => `${channel.baseUrl}${prefix}${path}`,
    buildHeaders: (channel) => ({ authorization: `Bearer ${channel.key}` }),
    supportsStreamUsage: () => true,
  };
}

function wantsUsage(body: Record<string, unknown>): boolean {
  const streamOptions = body.stream_options;
  return typeof streamOptions === 'object' && streamOptions !== null && 'include_usage' in streamOptions
    ? (streamOptions as { include_usage?: unknown }).include_usage === true
    : false;
}

const isJsonSpace = (byte: number | undefined) =>
  byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/**
 * The client's bytes with `fields` (none of which its object has) written at the front of the object, or
 * null when the bytes do not start with one. Keys, numbers and spacing stay as the client wrote them.
 */
function withFieldsAdded(raw: Buffer, fields: Record<string, unknown>): Buffer | null {
  let open = 0;
  while (isJsonSpace(raw[open])) open += 1;
  if (raw[open] !== 0x7b) return null;
  let next = open + 1;
  while (isJsonSpace(raw[next])) next += 1;
  const isEmpty = raw[next] === 0x7d;
  const inserted =
    fields === ASK_USAGE
      ? ASK_USAGE_MEMBERS[isEmpty ? 0 : 1]
      : Buffer.from(membersOf(fields) + (isEmpty ? '' : ','));
  // Copied into one buffer: no array of parts and no views of the client's bytes to concatenate.
  const added = Buffer.allocUnsafe(raw.length + inserted.length);
  raw.copy(added, 0, 0, open + 1);
  inserted.copy(added, open + 1);
  raw.copy(added, open + 1 + inserted.length, open + 1);
  return added;
}

/** The fields as JSON object members, without the braces. */
const membersOf = (fields: Record<string, unknown>) => JSON.stringify(fields).slice(1, -1);

/** What asking a stream for its usage adds to a body without stream_options: the same every time. */
const ASK_USAGE: Readonly<Record<string, unknown>> = Object.freeze({
  stream_options: Object.freeze({ include_usage: true }),
});

/** ASK_USAGE's members alone (an empty body) and followed by a comma, as bytes. */
const ASK_USAGE_MEMBERS = [Buffer.from(membersOf(ASK_USAGE)), Buffer.from(`${membersOf(ASK_USAGE)},`)];

function lacksAll(body: Record<string, unknown>, fields: Record<string, unknown>): boolean {
  for (const key in fields) if (key in body) return false;
  return true;
}

/**
 * The client's bytes when nothing changes, or when the changes only add fields the body lacks (asking a
 * stream for its usage: added to the bytes, not re-serialised, ~10 µs less per streamed request); otherwise
 * the body re-serialised with the changes.
 */
function buildJsonBody(input: JsonRequestInput, changes: Record<string, unknown> | null): string | Buffer {
  if (!input.isModelMapped && changes === null) return input.rawBody;
  if (!input.isModelMapped && changes !== null && lacksAll(input.body, changes)) {
    const added = withFieldsAdded(input.rawBody, changes);
    if (added) return added;
  }
  return JSON.stringify({ ...input.body, model: input.upstreamModel, ...changes });
}

/**
 * The layout's headers with the body's type. Copied and added to, not `{ ...headers, 'content-type': type }`:
 * V8 builds a spread followed by more fields on a slow path (~0.5 µs per request against ~0.03).
 */
function headersWithType(
  layout: OpenAICompatibleLayout,
  channel: ChannelCredentials,
  contentType: string,
): Record<string, string> {
  const headers = Object.assign({}, layout.buildHeaders(channel));
  headers['content-type'] = contentType;
  return headers;
}

/** The JSON requests' headers, by layout and channel: they depend on nothing else (see jsonHeaders). */
const jsonHeadersByLayout = new WeakMap<
  OpenAICompatibleLayout,
  WeakMap<ChannelCredentials, Readonly<Record<string, string>>>
>();

/**
 * headersWithType for a JSON body, made once per channel and shared (frozen) by its requests. Credentials
 * with an access token are a new object per request (channel-credentials.ts): theirs are made each time.
 */
function jsonHeaders(
  layout: OpenAICompatibleLayout,
  channel: ChannelCredentials,
): Readonly<Record<string, string>> {
  if (channel.accessToken !== undefined) return headersWithType(layout, channel, 'application/json');
  const byChannel = entryOf(jsonHeadersByLayout, layout, newWeakMap);
  let headers = byChannel.get(channel);
  if (!headers) {
    headers = Object.freeze(headersWithType(layout, channel, 'application/json'));
    byChannel.set(channel, headers);
  }
  return headers;
}

/** OpenAI's chat translated from and to the canonical types, for clients of every other protocol. */
function createOpenAIChatTranslator(layout: OpenAICompatibleLayout): ChatTranslator {
  return {
    buildRequest(input) {
      const body = convertToOpenAIRequest(input.request, {
        upstreamModel: input.upstreamModel,
        isStream: input.isStream,
        askStreamUsage: layout.supportsStreamUsage(input.channel),
        vendor: layout.wireFormat,
        toolCallIds: layout.toolCallIds,
      });
      return {
        url: layout.buildUrl(input.channel, openAIPaths.chat, input.upstreamModel),
        headers: headersWithType(layout, input.channel, 'application/json'),
        body: JSON.stringify(body),
      };
    },
    readResponse: readOpenAIChatAnswer,
    createStreamDecoder: createOpenAIChatStreamDecoder,
  };
}

/** An OpenAI-compatible adapter always has the pass-through lane: its clients are OpenAI's. */
export type OpenAICompatibleAdapter = ProviderAdapter & { readonly passThrough: PassThroughCapability };

export function createOpenAICompatibleAdapter(layout: OpenAICompatibleLayout): OpenAICompatibleAdapter {
  const omitted = new Set(layout.omit ?? []);

  function jsonRequest(
    path: OpenAIPath,
    input: JsonRequestInput,
    changes: Record<string, unknown> | null = null,
  ): UpstreamRequest {
    return {
      url: layout.buildUrl(input.channel, path, input.upstreamModel),
      headers: jsonHeaders(layout, input.channel),
      body: buildJsonBody(input, changes),
    };
  }

  function passThrough(path: OpenAIPath): PassThroughCapability {
    return {
      buildRequest(input: PassThroughRequestInput) {
        // Usage in the stream saves counting tokens locally; the extra chunk is removed for clients that
        // did not ask for it (https://platform.openai.com/docs/api-reference/chat/create#stream_options).
        const askUsage =
          input.isStream && !wantsUsage(input.body) && layout.supportsStreamUsage(input.channel);
        if (!askUsage) return jsonRequest(path, input, null);
        const streamOptions = input.body.stream_options;
        return jsonRequest(
          path,
          input,
          typeof streamOptions === 'object' && streamOptions !== null
            ? { stream_options: { ...streamOptions, include_usage: true } }
            : ASK_USAGE,
        );
      },
      readResponse: readOpenAIResponse,
      createStreamReader: createOpenAIStreamReader,
      answerAsEvents: openAIAnswerAsEvents,
    };
  }

  function jsonCapability(path: OpenAIPath): JsonCapability {
    return { buildRequest: (input) => jsonRequest(path, input), readResponse: readOpenAIResponse };
  }

  function multipartCapability(path: OpenAIPath): MultipartCapability {
    return {
      buildRequest: (input: MultipartRequestInput) => ({
        url: layout.buildUrl(input.channel, path, input.upstreamModel),
        headers: headersWithType(layout, input.channel, input.contentType),
        body: input.rawBody,
      }),
      readResponse: readOpenAITranscript,
    };
  }

  const when = <T>(name: OpenAIEndpoint, capability: () => T): T | undefined =>
    omitted.has(name) ? undefined : capability();

  return {
    wireFormat: layout.wireFormat,
    protocol: 'openai-chat',
    passThrough: passThrough(openAIPaths.chat),
    translator: createOpenAIChatTranslator(layout),
    completions: when('completions', () => passThrough(openAIPaths.completions)),
    embeddings: when('embeddings', () => jsonCapability(openAIPaths.embeddings)),
    moderations: when('moderations', () => jsonCapability(openAIPaths.moderations)),
    images: when('images', () => jsonCapability(openAIPaths.images)),
    audioSpeech: when('audioSpeech', () => ({
      buildRequest: (input: JsonRequestInput) => jsonRequest(openAIPaths.audioSpeech, input),
    })),
    audioTranscriptions: when('audioTranscriptions', () =>
      multipartCapability(openAIPaths.audioTranscriptions),
    ),
    audioTranslations: when('audioTranslations', () => multipartCapability(openAIPaths.audioTranslations)),
    readError: readOpenAIError,
  };
}
