import type { ChatRequest, ChatTool, ToolChoice } from '../../canonical/chat';
import { OPENAI_ONLY_SAMPLING_FIELDS } from '../../canonical/chat';
import { relayErrors } from '../../relay/relay-error';
import {
  checkOptionalBoolean,
  checkOptionalInteger,
  checkOptionalNumber,
  checkOptionalObject,
  checkOptionalString,
  emptyArray,
  invalidType,
  invalidValue,
  isJsonObject,
  missingParameter,
  requireString,
  type Json,
} from './openai-request-fields';

/**
 * Checks an OpenAI chat completions body (https://platform.openai.com/docs/api-reference/chat/create) by
 * hand: a walk over messages, parts and tools that reads each field once and copies nothing, so the
 * pass-through lane stays as cheap as without it (a 100 KB coding-agent body with 40 tools: see
 * bench/chat-validation.ts). Fields OpenAI does not define are never an error.
 */

const ROLES = ['system', 'developer', 'user', 'assistant', 'tool'] as const;
const TOOL_CHOICES = ['none', 'auto', 'required'] as const;

function checkPart(part: unknown, param: string, isTextOnly: boolean): void {
  if (!isJsonObject(part)) throw invalidType(param, 'an object', part);
  const type = requireString(part.type, `${param}.type`);
  switch (type) {
    case 'text':
      requireString(part.text, `${param}.text`);
      return;
    case 'image_url':
    case 'input_audio':
    case 'file': {
      if (isTextOnly) throw invalidValue(`${param}.type`, type, ['text']);
      const inner = part[type];
      if (!isJsonObject(inner)) throw invalidType(`${param}.${type}`, 'an object', inner);
      if (type === 'image_url') requireString(inner.url, `${param}.image_url.url`);
      if (type === 'input_audio') requireString(inner.data, `${param}.input_audio.data`);
      return;
    }
    default:
      // Other part types (refusal, thinking, a vendor's video_url …) go to the upstream as they are.
      return;
  }
}

function checkContent(
  content: unknown,
  param: string,
  options: { isTextOnly: boolean; isOptional: boolean },
) {
  if (typeof content === 'string') return;
  if (content === undefined || content === null) {
    if (options.isOptional) return;
    throw content === undefined
      ? missingParameter(param)
      : invalidType(param, 'a string or an array', content);
  }
  if (!Array.isArray(content)) throw invalidType(param, 'a string or an array', content);
  if (content.length === 0 && !options.isOptional) throw emptyArray(param);
  for (let index = 0; index < content.length; index += 1) {
    checkPart(content[index], `${param}[${index}]`, options.isTextOnly);
  }
}

function checkToolCalls(toolCalls: unknown, param: string): void {
  if (toolCalls === undefined || toolCalls === null) return;
  if (!Array.isArray(toolCalls)) throw invalidType(param, 'an array', toolCalls);
  for (let index = 0; index < toolCalls.length; index += 1) {
    const call: unknown = toolCalls[index];
    const at = `${param}[${index}]`;
    if (!isJsonObject(call)) throw invalidType(at, 'an object', call);
    requireString(call.id, `${at}.id`);
    if (requireString(call.type, `${at}.type`) !== 'function') continue;
    if (!isJsonObject(call.function)) throw invalidType(`${at}.function`, 'an object', call.function);
    requireString(call.function.name, `${at}.function.name`);
    requireString(call.function.arguments, `${at}.function.arguments`);
  }
}

function checkMessage(message: unknown, param: string): void {
  if (!isJsonObject(message)) throw invalidType(param, 'an object', message);
  const role = requireString(message.role, `${param}.role`);
  checkOptionalString(message.name, `${param}.name`);
  switch (role) {
    case 'system':
    case 'developer':
      checkContent(message.content, `${param}.content`, { isTextOnly: true, isOptional: false });
      return;
    case 'user':
      checkContent(message.content, `${param}.content`, { isTextOnly: false, isOptional: false });
      return;
    case 'assistant':
      checkContent(message.content, `${param}.content`, { isTextOnly: false, isOptional: true });
      checkToolCalls(message.tool_calls, `${param}.tool_calls`);
      return;
    case 'tool':
      requireString(message.tool_call_id, `${param}.tool_call_id`);
      checkContent(message.content, `${param}.content`, { isTextOnly: false, isOptional: false });
      return;
    case 'function':
      throw relayErrors.invalidRequest(
        `Invalid value for '${param}.role': 'function': the deprecated function-calling messages are not ` +
          "supported by this gateway; send the result as a 'tool' message with its tool_call_id.",
        `${param}.role`,
        'invalid_value',
      );
    default:
      throw invalidValue(`${param}.role`, role, ROLES);
  }
}

function checkTools(tools: unknown): void {
  if (tools === undefined || tools === null) return;
  if (!Array.isArray(tools)) throw invalidType('tools', 'an array', tools);
  for (let index = 0; index < tools.length; index += 1) {
    const tool: unknown = tools[index];
    const param = `tools[${index}]`;
    if (!isJsonObject(tool)) throw invalidType(param, 'an object', tool);
    if (requireString(tool.type, `${param}.type`) !== 'function') continue;
    const fn = tool.function;
    if (!isJsonObject(fn)) throw invalidType(`${param}.function`, 'an object', fn);
    requireString(fn.name, `${param}.function.name`);
    checkOptionalString(fn.description, `${param}.function.description`);
    checkOptionalObject(fn.parameters, `${param}.function.parameters`);
  }
}

function checkToolChoice(choice: unknown): void {
  if (choice === undefined || choice === null) return;
  if (typeof choice === 'string') {
    if (!(TOOL_CHOICES as readonly string[]).includes(choice))
      throw invalidValue('tool_choice', choice, TOOL_CHOICES);
    return;
  }
  if (!isJsonObject(choice)) throw invalidType('tool_choice', 'a string or an object', choice);
  if (requireString(choice.type, 'tool_choice.type') !== 'function') return;
  if (!isJsonObject(choice.function)) {
    throw choice.function === undefined
      ? missingParameter('tool_choice.function')
      : invalidType('tool_choice.function', 'an object', choice.function);
  }
  requireString(choice.function.name, 'tool_choice.function.name');
}

function checkStop(stop: unknown): void {
  if (stop === undefined || stop === null || typeof stop === 'string') return;
  if (!Array.isArray(stop)) throw invalidType('stop', 'a string or an array of strings', stop);
  for (let index = 0; index < stop.length; index += 1) {
    if (typeof stop[index] !== 'string') throw invalidType(`stop[${index}]`, 'a string', stop[index]);
  }
}

/** A json_schema format needs its schema's object and name, as OpenAI says; other types pass. */
function checkResponseFormat(format: Json): void {
  if (requireString(format.type, 'response_format.type') !== 'json_schema') return;
  const jsonSchema = format.json_schema;
  if (!isJsonObject(jsonSchema)) {
    throw jsonSchema === undefined
      ? missingParameter('response_format.json_schema')
      : invalidType('response_format.json_schema', 'an object', jsonSchema);
  }
  requireString(jsonSchema.name, 'response_format.json_schema.name');
}

/** The checks every body gets. Throws the first problem found. */
export function checkOpenAIChatRequest(body: Json): void {
  const model = requireString(body.model, 'model');
  if (model.trim() === '') throw relayErrors.invalidRequest('You must provide a model parameter', 'model');
  const messages = body.messages;
  if (messages === undefined) throw missingParameter('messages');
  if (!Array.isArray(messages)) throw invalidType('messages', 'an array', messages);
  if (messages.length === 0) throw emptyArray('messages');
  for (let index = 0; index < messages.length; index += 1)
    checkMessage(messages[index], `messages[${index}]`);
  checkTools(body.tools);
  checkToolChoice(body.tool_choice);
  checkStop(body.stop);
  checkOptionalBoolean(body.stream, 'stream');
  checkOptionalObject(body.stream_options, 'stream_options');
  if (isJsonObject(body.stream_options)) {
    checkOptionalBoolean(body.stream_options.include_usage, 'stream_options.include_usage');
  }
  checkOptionalInteger(body.max_tokens, 'max_tokens', 1);
  checkOptionalInteger(body.max_completion_tokens, 'max_completion_tokens', 1);
  checkOptionalInteger(body.n, 'n', 1, 128);
  checkOptionalNumber(body.temperature, 'temperature', 0, 2);
  checkOptionalNumber(body.top_p, 'top_p', 0, 1);
  checkOptionalNumber(body.presence_penalty, 'presence_penalty', -2, 2);
  checkOptionalNumber(body.frequency_penalty, 'frequency_penalty', -2, 2);
  checkOptionalInteger(body.seed, 'seed', Number.MIN_SAFE_INTEGER);
  checkOptionalBoolean(body.logprobs, 'logprobs');
  checkOptionalInteger(body.top_logprobs, 'top_logprobs', 0, 20);
  checkOptionalObject(body.logit_bias, 'logit_bias');
  checkOptionalString(body.user, 'user');
  checkOptionalBoolean(body.parallel_tool_calls, 'parallel_tool_calls');
  checkOptionalObject(body.response_format, 'response_format');
  if (isJsonObject(body.response_format)) checkResponseFormat(body.response_format);
  checkOptionalString(body.reasoning_effort, 'reasoning_effort');
}

/** The optional fields OpenAI lets a client send as null, which canonical requests leave out instead. */
const NULLABLE_FIELDS = [
  'max_tokens',
  'max_completion_tokens',
  'temperature',
  'top_p',
  ...OPENAI_ONLY_SAMPLING_FIELDS,
  'user',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'response_format',
  'reasoning_effort',
  'stream',
  'stream_options',
] as const;

/**
 * Canonical extensions some OpenAI-compatible clients send too (vLLM's top_k, a thinking budget): OpenAI does
 * not define them, so a malformed one is not an error — it goes to an OpenAI upstream as sent and is left
 * out of the canonical request.
 */
function isWellFormedExtension(field: 'top_k' | 'thinking', value: unknown): boolean {
  if (field === 'top_k') return typeof value === 'number' && Number.isInteger(value) && value >= 0;
  if (!isJsonObject(value)) return false;
  return value.type === 'disabled' || (value.type === 'enabled' && typeof value.budget_tokens === 'number');
}

function toCanonicalTool(tool: Json): ChatTool {
  if (tool.type === 'function') return tool as unknown as ChatTool;
  return { type: String(tool.type), vendor_protocol: 'openai-chat', definition: tool };
}

/**
 * A tool_choice object other than a named function, for the translators, which know only the named function:
 * allowed_tools becomes its mode (every offered tool stays offered); a custom tool's choice, or a kind OpenAI
 * adds later, names nothing other vendors have, so it is left out and the model chooses. The client's own
 * body, which an OpenAI upstream gets, keeps it as sent.
 */
function toCanonicalToolChoice(choice: Json): ToolChoice | undefined {
  const mode = isJsonObject(choice.allowed_tools) ? choice.allowed_tools.mode : undefined;
  if (choice.type === 'allowed_tools' && (mode === 'auto' || mode === 'required')) return mode;
  return undefined;
}

/**
 * A checked body as the canonical request. It is the body itself unless something must change: nulls of
 * optional fields are left out, and OpenAI's own tools (web_search …) become vendor tools that only an
 * OpenAI upstream gets. Nothing is copied in the common case.
 */
export function decodeOpenAIChatRequest(body: Json): ChatRequest {
  checkOpenAIChatRequest(body);
  // The copy, once something must change (`??=`, not a helper closure made for every request).
  let changed: Json | null = null;
  for (const field of NULLABLE_FIELDS) if (body[field] === null) delete (changed ??= { ...body })[field];
  for (const field of EXTENSION_FIELDS) {
    if (body[field] !== undefined && !isWellFormedExtension(field, body[field])) {
      delete (changed ??= { ...body })[field];
    }
  }
  const choice = body.tool_choice;
  if (isJsonObject(choice) && choice.type !== 'function') {
    const canonical = toCanonicalToolChoice(choice);
    if (canonical) (changed ??= { ...body }).tool_choice = canonical;
    else delete (changed ??= { ...body }).tool_choice;
  }
  const tools = body.tools;
  if (Array.isArray(tools) && tools.some(isVendorTool)) {
    (changed ??= { ...body }).tools = tools.map(toCanonicalTool);
  }
  const messages = body.messages as Json[];
  if (messages.some(hasPartsOnlyOpenAIReads)) {
    (changed ??= { ...body }).messages = toCanonicalMessages(messages);
  }
  return (changed ?? body) as ChatRequest;
}

const isFunctionCall = (call: unknown) => isJsonObject(call) && call.type === 'function';
const isToolResultPart = (part: unknown) =>
  isJsonObject(part) && (part.type === 'text' || part.type === 'image_url');

/** A tool call other than a function's (a custom tool's), or a tool result part other than text or an image. */
function hasPartsOnlyOpenAIReads(message: Json): boolean {
  if (message.role === 'assistant') {
    return Array.isArray(message.tool_calls) && !message.tool_calls.every(isFunctionCall);
  }
  return (
    message.role === 'tool' && Array.isArray(message.content) && !message.content.every(isToolResultPart)
  );
}

/**
 * The history for the translators, which know function calls and text or image tool results only: a custom
 * tool's call and the tool message answering it are left out, as the custom tool itself is (it is a vendor
 * tool only an OpenAI upstream gets), and other parts of a tool result are dropped. The client's own body,
 * which an OpenAI upstream gets, keeps them.
 */
function toCanonicalMessages(messages: Json[]): Json[] {
  const leftOut = new Set<unknown>();
  const kept: Json[] = [];
  for (const message of messages) {
    if (message.role === 'assistant' && Array.isArray(message.tool_calls)) {
      const calls = message.tool_calls as Json[];
      for (const call of calls) if (!isFunctionCall(call)) leftOut.add(call.id);
      const functionCalls = calls.filter(isFunctionCall);
      kept.push({ ...message, tool_calls: functionCalls.length > 0 ? functionCalls : undefined });
    } else if (message.role === 'tool' && leftOut.has(message.tool_call_id)) {
      continue;
    } else if (message.role === 'tool' && Array.isArray(message.content)) {
      kept.push({ ...message, content: message.content.filter(isToolResultPart) });
    } else kept.push(message);
  }
  return kept;
}

const EXTENSION_FIELDS = ['top_k', 'thinking'] as const;

const isVendorTool = (tool: Json) => tool.type !== 'function';
