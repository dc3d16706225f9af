import type { ChatMessage, ChatRequest } from '../../canonical/chat';
import { OPENAI_ONLY_SAMPLING_FIELDS } from '../../canonical/chat';
import { requireModel } from '../../relay/relay-request';
import { convertResponsesInput } from './convert-responses-input';
import {
  convertResponsesTextFormat,
  convertResponsesToolChoice,
  convertResponsesTools,
  type ResponsesToolOrigins,
} from './convert-responses-tools';
import {
  invalidField,
  readArray,
  readBoolean,
  readNumber,
  readObject,
  readPositiveWholeNumber,
  readString,
  type JsonObject,
} from './responses-fields';
import type { ResponsesEcho } from './responses-types';

/** A Responses request decoded: the canonical chat request and what the Responses side keeps beside it. */
export interface ResponsesRequest {
  /** instructions first, then this request's input (previous_response_id's conversation is added later) */
  chat: ChatRequest;
  /** this request's input, without the instructions: what a stored response keeps */
  input: ChatMessage[];
  previousResponseId: string | null;
  /** the client did not say `store: false` */
  shouldStore: boolean;
  /** the request fields the response object repeats */
  echo: ResponsesEcho;
  /** fields this decoder does not read (include, max_tool_calls, newer ones than it knows …): never an error */
  extraFields: JsonObject;
  /** input item types only an OpenAI upstream can use, dropped: for the log */
  droppedItemTypes: string[];
  /** the custom and namespaced tools among the chat tools, to write the answer's calls of them back */
  toolOrigins: ResponsesToolOrigins;
  /** the tools the conversation's client-run tool searches found, earlier turns' first: what a stored one keeps */
  foundTools: unknown[];
}

/** Fields read below; any other one goes to extraFields. */
const knownFields = new Set([
  'model',
  'input',
  'instructions',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'max_output_tokens',
  'temperature',
  'top_p',
  'text',
  'reasoning',
  'stream',
  'user',
  'safety_identifier',
  'prompt_cache_key',
  'prompt_cache_retention',
  'service_tier',
  'metadata',
  'store',
  'previous_response_id',
  'truncation',
  'background',
  'conversation',
  'prompt',
]);

/**
 * Canonical fields a Responses request has no business setting (`n`, `stop`, `messages` …): an unknown field of
 * that name is not put on the chat request, where it would change what the upstream does.
 */
const chatOnlyFields = new Set([
  'messages',
  'stream_options',
  'max_tokens',
  'max_completion_tokens',
  ...OPENAI_ONLY_SAMPLING_FIELDS,
  'response_format',
  'reasoning_effort',
  'top_k',
  'thinking',
  'verbosity',
]);

/** Features that need state this gateway does not keep: refused, naming what to use instead. */
function refuseStatefulFeatures(body: JsonObject): void {
  if (body.background === true) {
    throw invalidField(
      'background',
      'background responses are not supported by this gateway: leave background unset',
    );
  }
  if (body.conversation !== undefined && body.conversation !== null) {
    throw invalidField(
      'conversation',
      'The conversations API is not supported by this gateway: continue a conversation with previous_response_id',
    );
  }
  if (body.prompt !== undefined && body.prompt !== null) {
    throw invalidField(
      'prompt',
      'Prompt templates are not supported by this gateway: send the instructions and input themselves',
    );
  }
}

type ChatReasoning = Pick<ChatRequest, 'reasoning_effort' | 'thinking'>;

/** reasoning.effort in chat's terms: 'none' turns thinking off; efforts above 'high' are 'high' there. */
function convertReasoningEffort(effort: string | undefined): ChatReasoning {
  switch (effort) {
    case undefined:
      return {};
    case 'none':
      return { thinking: { type: 'disabled' } };
    case 'minimal':
    case 'low':
    case 'medium':
    case 'high':
      return { reasoning_effort: effort };
    case 'xhigh':
    case 'max':
      return { reasoning_effort: 'high' };
    default:
      throw invalidField(
        'reasoning.effort',
        'reasoning.effort must be none, minimal, low, medium, high or xhigh',
      );
  }
}

function readMetadata(body: JsonObject): Record<string, string> {
  const metadata = readObject(body, 'metadata') ?? {};
  for (const [key, value] of Object.entries(metadata)) {
    if (typeof value !== 'string') throw invalidField(`metadata.${key}`, `metadata.${key} must be a string`);
  }
  return metadata as Record<string, string>;
}

function readTruncation(body: JsonObject): 'auto' | 'disabled' {
  const truncation = readString(body, 'truncation') ?? 'disabled';
  if (truncation !== 'auto' && truncation !== 'disabled') {
    throw invalidField('truncation', 'truncation must be auto or disabled');
  }
  return truncation;
}

function pickStrings<Name extends string>(body: JsonObject, names: Name[]): Partial<Record<Name, string>> {
  const picked: Partial<Record<Name, string>> = {};
  for (const name of names) {
    const value = readString(body, name);
    if (value !== undefined) picked[name] = value;
  }
  return picked;
}

/** Fields chat completions has under the same name and meaning: passed on as the client set them. */
function readSharedFields(body: JsonObject, text: JsonObject | undefined): JsonObject {
  const shared: JsonObject = pickStrings(body, [
    'safety_identifier',
    'prompt_cache_key',
    'prompt_cache_retention',
    'service_tier',
  ]);
  const verbosity = text && readString(text, 'verbosity', 'text.verbosity');
  if (verbosity !== undefined) shared.verbosity = verbosity;
  return shared;
}

/**
 * Decodes a Responses API request (https://platform.openai.com/docs/api-reference/responses/create) into the
 * canonical chat request. Every malformed field is a 400 naming it; unknown fields are never an error.
 * `earlierFoundTools`: what the tool searches of a stored conversation it continues found.
 */
export function convertResponsesRequest(
  body: JsonObject,
  earlierFoundTools: unknown[] = [],
): ResponsesRequest {
  const model = requireModel(body);
  refuseStatefulFeatures(body);
  const previousResponseId = readString(body, 'previous_response_id') ?? null;
  const instructions = readString(body, 'instructions') ?? null;
  const decodedInput = convertResponsesInput(body.input ?? []);
  const { messages: input, droppedItemTypes } = decodedInput;
  // each found tool once, however often it was found, so a long conversation's stored list does not grow
  const foundTools = [
    ...new Map(
      [...earlierFoundTools, ...decodedInput.foundTools].map((tool) => [JSON.stringify(tool), tool]),
    ).values(),
  ];
  if (input.length === 0 && previousResponseId === null) {
    throw invalidField('input', 'input is required: a string or a non-empty array of items');
  }

  const toolList = readArray(body, 'tools') ?? [];
  const { toolChoice, isAllowed } = convertResponsesToolChoice(body.tool_choice);
  // The tools the client's tool searches found are offered with the ones it listed.
  const converted = convertResponsesTools(foundTools.length > 0 ? [...toolList, ...foundTools] : toolList);
  const tools = converted.tools.filter((tool) => !isAllowed || isAllowed(tool));
  const text = readObject(body, 'text');
  const responseFormat = convertResponsesTextFormat(text);
  const reasoning = readObject(body, 'reasoning');
  const effort = reasoning && readString(reasoning, 'effort', 'reasoning.effort');
  const summary = reasoning && readString(reasoning, 'summary', 'reasoning.summary');
  const maxOutputTokens = readPositiveWholeNumber(body, 'max_output_tokens');
  const temperature = readNumber(body, 'temperature', { min: 0, max: 2 });
  const topP = readNumber(body, 'top_p', { min: 0, max: 1 });
  const parallelToolCalls = readBoolean(body, 'parallel_tool_calls');
  const isStream = readBoolean(body, 'stream') ?? false;
  const user = readString(body, 'user');

  const extraFields = Object.fromEntries(Object.entries(body).filter(([name]) => !knownFields.has(name)));
  // Unknown fields stay on the request, as the canonical contract has it: translators keep only the fields
  // their vendor takes, so they reach no upstream of another protocol.
  const chat: ChatRequest = {
    ...Object.fromEntries(Object.entries(extraFields).filter(([name]) => !chatOnlyFields.has(name))),
    model,
    messages: instructions === null ? input : [{ role: 'system', content: instructions }, ...input],
    ...(isStream && { stream: true, stream_options: { include_usage: true } }),
    ...(maxOutputTokens !== undefined && { max_completion_tokens: maxOutputTokens }),
    ...(temperature !== undefined && { temperature }),
    ...(topP !== undefined && { top_p: topP }),
    ...(user !== undefined && { user }),
    ...(tools.length > 0 && { tools }),
    ...(toolChoice !== undefined && { tool_choice: toolChoice }),
    ...(parallelToolCalls !== undefined && { parallel_tool_calls: parallelToolCalls }),
    ...(responseFormat !== undefined && { response_format: responseFormat }),
    ...convertReasoningEffort(effort),
    ...readSharedFields(body, text),
  };

  const echo: ResponsesEcho = {
    model,
    instructions,
    max_output_tokens: maxOutputTokens ?? null,
    metadata: readMetadata(body),
    parallel_tool_calls: parallelToolCalls ?? true,
    previous_response_id: previousResponseId,
    reasoning: reasoning ? { effort: effort ?? null, summary: summary ?? null } : null,
    temperature: temperature ?? null,
    top_p: topP ?? null,
    text: {
      format: (text?.format as Record<string, unknown> | undefined) ?? { type: 'text' },
      ...(typeof text?.verbosity === 'string' && { verbosity: text.verbosity }),
    },
    tool_choice: (body.tool_choice as ResponsesEcho['tool_choice'] | undefined) ?? 'auto',
    tools: toolList as ResponsesEcho['tools'],
    truncation: readTruncation(body),
    store: readBoolean(body, 'store') ?? true,
    ...(user !== undefined && { user }),
    ...pickStrings(body, ['safety_identifier', 'prompt_cache_key']),
  };

  return {
    chat,
    input,
    previousResponseId,
    shouldStore: echo.store,
    echo,
    extraFields,
    droppedItemTypes,
    toolOrigins: converted.origins,
    foundTools,
  };
}

/**
 * The chat request continuing a stored conversation: the new instructions (a previous response's instructions
 * are not carried over, as the API documents), then the stored conversation, then the new input.
 */
export function withPreviousConversation(request: ResponsesRequest, previous: ChatMessage[]): ChatRequest {
  const instructions = request.echo.instructions;
  const head: ChatMessage[] = instructions === null ? [] : [{ role: 'system', content: instructions }];
  return { ...request.chat, messages: [...head, ...previous, ...request.input] };
}
