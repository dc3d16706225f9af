import { OPENAI_TOOL_CALL_IDS, fitToolCallId, type ToolCallIdRule } from '../shared/fit-tool-call-id';
import type {
  AssistantMessage,
  ChatMessage,
  ChatRequest,
  ChatTool,
  ImagePart,
  TextPart,
  ToolMessage,
  UserContentPart,
} from '../../canonical/chat';
import { OPENAI_ONLY_SAMPLING_FIELDS } from '../../canonical/chat';
import { UnsupportedOptionError } from '../../canonical/translation';

/**
 * The fields of OpenAI's chat request this translator writes (https://platform.openai.com/docs/api-reference/chat/create).
 * Anything else a canonical request carries came from another protocol (Anthropic's top_k, Gemini's safety
 * settings …) and is dropped here on purpose: an OpenAI-compatible upstream would refuse or misread it.
 */
const OPENAI_FIELDS = [
  'max_tokens',
  'max_completion_tokens',
  'temperature',
  'top_p',
  ...OPENAI_ONLY_SAMPLING_FIELDS,
  'user',
  'tool_choice',
  'parallel_tool_calls',
  'response_format',
  'reasoning_effort',
] as const;

type Json = Record<string, unknown>;

/** Text parts without their cache marks (an extension OpenAI refuses). */
function plainText(part: TextPart): Json {
  return { type: 'text', text: part.text };
}

function convertUserPart(part: UserContentPart): Json {
  if (part.type === 'text') return plainText(part);
  if (part.type === 'image_url') return { type: 'image_url', image_url: part.image_url };
  if (part.type === 'file') return { type: 'file', file: part.file };
  return part as unknown as Json;
}

/**
 * OpenAI-compatible vendors want the assistant's earlier turns as text: thinking blocks and their signatures
 * are Anthropic's and Gemini's (DeepSeek even refuses its own reasoning_content sent back), so they are left
 * out.
 */
function convertAssistant(message: AssistantMessage, fitId: (id: string) => string): Json {
  const converted: Json = { role: 'assistant' };
  const { content } = message;
  if (Array.isArray(content)) {
    const text = content
      .filter((part): part is TextPart => part.type === 'text')
      .map((part) => part.text)
      .join('');
    converted.content = text === '' && message.tool_calls ? null : text;
  } else {
    converted.content = content ?? null;
  }
  if (message.tool_calls?.length) {
    converted.tool_calls = message.tool_calls.map((call) => {
      const id = fitId(call.id);
      return id === call.id ? call : { ...call, id };
    });
  }
  if (message.refusal) converted.refusal = message.refusal;
  if (message.name) converted.name = message.name;
  return converted;
}

/** OpenAI takes text only in a tool result; is_error has no field there, the text says what went wrong. */
function convertTool(message: ToolMessage, vendor: string, fitId: (id: string) => string): Json {
  const { content } = message;
  const toolCallId = fitId(message.tool_call_id);
  if (typeof content === 'string') {
    return { role: 'tool', tool_call_id: toolCallId, content };
  }
  if (content.some((part): part is ImagePart => part.type === 'image_url')) {
    throw new UnsupportedOptionError(vendor, 'images in tool results');
  }
  return {
    role: 'tool',
    tool_call_id: toolCallId,
    content: content.map((part) => plainText(part as TextPart)),
  };
}

function convertMessage(message: ChatMessage, vendor: string, fitId: (id: string) => string): Json {
  switch (message.role) {
    case 'system':
    case 'developer':
      return {
        role: message.role,
        content: typeof message.content === 'string' ? message.content : message.content.map(plainText),
        ...(message.name ? { name: message.name } : {}),
      };
    case 'user':
      return {
        role: 'user',
        content: typeof message.content === 'string' ? message.content : message.content.map(convertUserPart),
        ...(message.name ? { name: message.name } : {}),
      };
    case 'assistant':
      return convertAssistant(message, fitId);
    case 'tool':
      return convertTool(message, vendor, fitId);
  }
}

/** Function tools without cache marks; a vendor's own tool only when it is OpenAI's. */
function convertTools(tools: readonly ChatTool[]): Json[] {
  const converted: Json[] = [];
  for (const tool of tools) {
    if ('function' in tool) converted.push({ type: 'function', function: tool.function });
    else if (tool.vendor_protocol === 'openai-chat') converted.push(tool.definition);
  }
  return converted;
}

export interface OpenAIRequestOptions {
  upstreamModel: string;
  isStream: boolean;
  /** ask for the usage chunk at the end of a stream (when the upstream accepts stream_options) */
  askStreamUsage: boolean;
  /** the vendor's name, for UnsupportedOptionError */
  vendor: string;
  /** the tool call ids the vendor takes back (OpenAI's unless told) */
  toolCallIds?: ToolCallIdRule;
}

/** A canonical chat request as OpenAI's chat completions body. */
export function convertToOpenAIRequest(request: ChatRequest, options: OpenAIRequestOptions): Json {
  const idRule = options.toolCallIds ?? OPENAI_TOOL_CALL_IDS;
  const fitId = (id: string) => fitToolCallId(id, idRule);
  const body: Json = {
    model: options.upstreamModel,
    messages: request.messages.map((message) => convertMessage(message, options.vendor, fitId)),
  };
  for (const field of OPENAI_FIELDS) {
    if (request[field] !== undefined && request[field] !== null) body[field] = request[field];
  }
  const tools = request.tools ? convertTools(request.tools) : [];
  if (tools.length > 0) body.tools = tools;
  else delete body.tool_choice;
  if (options.isStream) {
    body.stream = true;
    if (options.askStreamUsage) body.stream_options = { include_usage: true };
  }
  return body;
}
