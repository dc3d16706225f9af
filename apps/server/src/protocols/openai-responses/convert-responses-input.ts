import type {
  AssistantContentPart,
  AssistantMessage,
  ChatMessage,
  RedactedThinkingPart,
  ThinkingPart,
  ToolCall,
  ToolMessage,
} from '../../canonical/chat';
import { convertInputPart, convertInstructionPart, convertToolOutputPart } from './convert-responses-content';
import {
  chatToolName,
  convertResponsesTools,
  customToolArguments,
  TOOL_SEARCH,
} from './convert-responses-tools';
import {
  invalidField,
  isJsonObject,
  readRequiredString,
  readString,
  type JsonObject,
} from './responses-fields';

/** An assistant turn being gathered from consecutive reasoning, message and function_call items. */
interface AssistantTurn {
  /** 0 thinking, 1 text, 2 tool calls: an item of an earlier stage starts a new turn */
  stage: 0 | 1 | 2;
  thinking: Array<ThinkingPart | RedactedThinkingPart>;
  texts: string[];
  refusal?: string;
  toolCalls: ToolCall[];
}

export interface ConvertedInput {
  messages: ChatMessage[];
  /** the tools the client's tool searches found (tool_search_output items): offered from now on */
  foundTools: unknown[];
  /** item types no chat upstream can take (built-in tool calls …), dropped: for the log */
  droppedItemTypes: string[];
}

function toAssistantMessage(turn: AssistantTurn): AssistantMessage {
  const message: AssistantMessage = { role: 'assistant' };
  if (turn.thinking.length > 0 || turn.texts.length > 1) {
    const parts: AssistantContentPart[] = [...turn.thinking];
    for (const text of turn.texts) parts.push({ type: 'text', text });
    message.content = parts;
  } else {
    message.content = turn.texts[0] ?? null;
  }
  if (turn.refusal !== undefined) message.refusal = turn.refusal;
  if (turn.toolCalls.length > 0) message.tool_calls = turn.toolCalls;
  return message;
}

/** Assistant message content: a string, or output_text / input_text / refusal parts. */
function addAssistantContent(turn: AssistantTurn, item: JsonObject, param: string): void {
  const { content } = item;
  if (typeof content === 'string') {
    turn.texts.push(content);
    return;
  }
  if (!Array.isArray(content))
    throw invalidField(`${param}.content`, `${param}.content must be a string or an array`);
  content.forEach((part, index) => {
    const partParam = `${param}.content[${index}]`;
    if (isJsonObject(part) && part.type === 'refusal') {
      turn.refusal = (turn.refusal ?? '') + readRequiredString(part, 'refusal', `${partParam}.refusal`);
      return;
    }
    const converted = convertInputPart(part, partParam);
    if (converted.type !== 'text') {
      throw invalidField(
        `${partParam}.type`,
        `${partParam}: assistant messages may hold only text and refusals`,
      );
    }
    turn.texts.push(converted.text);
  });
}

function convertUserOrSystemMessage(item: JsonObject, role: unknown, param: string): ChatMessage {
  const { content } = item;
  if (role === 'user') {
    if (typeof content === 'string') return { role, content };
    if (!Array.isArray(content))
      throw invalidField(`${param}.content`, `${param}.content must be a string or an array`);
    return {
      role,
      content: content.map((part, index) => convertInputPart(part, `${param}.content[${index}]`)),
    };
  }
  if (role === 'system' || role === 'developer') {
    if (typeof content === 'string') return { role, content };
    if (!Array.isArray(content))
      throw invalidField(`${param}.content`, `${param}.content must be a string or an array`);
    return {
      role,
      content: content.map((part, index) => convertInstructionPart(part, `${param}.content[${index}]`)),
    };
  }
  throw invalidField(`${param}.role`, `${param}.role must be one of user, assistant, system, developer`);
}

/**
 * A function_call item, or a custom_tool_call item as a call of the function tool standing in for its custom
 * tool (convert-responses-tools.ts); a namespace's tool by its namespace__name.
 */
function convertToolCall(item: JsonObject, param: string, isCustom: boolean): ToolCall {
  const callId = readRequiredString(item, 'call_id', `${param}.call_id`);
  const name = readRequiredString(item, 'name', `${param}.name`);
  const namespace = readString(item, 'namespace', `${param}.namespace`);
  const args = isCustom
    ? customToolArguments(readString(item, 'input', `${param}.input`) ?? '')
    : (readString(item, 'arguments', `${param}.arguments`) ?? '');
  return { id: callId, type: 'function', function: { name: chatToolName(name, namespace), arguments: args } };
}

/**
 * Whether a tool search item is OpenAI's own: it says so, or it has no call id (a search the client runs
 * always has one, which its output answers).
 */
const isServerToolSearch = (item: JsonObject) =>
  item.execution === 'server' || typeof item.call_id !== 'string' || item.call_id === '';

/** A client-run tool_search_call item as a call of the function standing in for the tool search. */
function convertToolSearchCall(item: JsonObject, param: string): ToolCall {
  const callId = readRequiredString(item, 'call_id', `${param}.call_id`);
  return {
    id: callId,
    type: 'function',
    function: { name: TOOL_SEARCH, arguments: JSON.stringify(item.arguments ?? {}) },
  };
}

/**
 * A client-run tool search's answer as the tool message answering its call: the names and descriptions of the
 * tools it found, which the request offers from now on (`foundTools`).
 */
function convertToolSearchOutput(item: JsonObject, param: string, foundTools: unknown[]): ToolMessage {
  const callId = readRequiredString(item, 'call_id', `${param}.call_id`);
  const tools = Array.isArray(item.tools) ? item.tools : [];
  foundTools.push(...tools);
  // Named as the request offers them (convertResponsesTools): a namespace's tools as namespace__name.
  const lines = convertResponsesTools(tools).tools.flatMap((tool) =>
    'function' in tool
      ? [
          tool.function.description
            ? `${tool.function.name}: ${tool.function.description}`
            : tool.function.name,
        ]
      : [],
  );
  return {
    role: 'tool',
    tool_call_id: callId,
    content: lines.length === 0 ? 'No tools found.' : `These tools can be called now:\n${lines.join('\n')}`,
  };
}

/** A function_call_output or custom_tool_call_output item as the tool message answering its call. */
function convertToolCallOutput(item: JsonObject, param: string): ToolMessage {
  const callId = readRequiredString(item, 'call_id', `${param}.call_id`);
  const { output } = item;
  if (typeof output === 'string') return { role: 'tool', tool_call_id: callId, content: output };
  if (!Array.isArray(output)) {
    throw invalidField(`${param}.output`, `${param}.output must be a string or an array of content parts`);
  }
  return {
    role: 'tool',
    tool_call_id: callId,
    content: output.map((part, index) => convertToolOutputPart(part, `${param}.output[${index}]`)),
  };
}

function joinTexts(parts: unknown, separator: string): string {
  if (!Array.isArray(parts)) return '';
  return parts
    .map((part) => (isJsonObject(part) && typeof part.text === 'string' ? part.text : ''))
    .filter((text) => text !== '')
    .join(separator);
}

/**
 * A reasoning item as a thinking part. Its reasoning text (or, when only a summary came, the summary) is the
 * thinking; encrypted_content is the signature that must go back to the vendor unchanged (this gateway writes
 * a thinking block's signature there, and a redacted block's data when there is no text). An item with
 * neither is a reference to reasoning OpenAI kept on its side: nothing to send, dropped.
 */
function convertReasoning(item: JsonObject, param: string): ThinkingPart | RedactedThinkingPart | null {
  const encrypted = readString(item, 'encrypted_content', `${param}.encrypted_content`);
  const text = joinTexts(item.content, '') || joinTexts(item.summary, '\n\n');
  if (text !== '')
    return encrypted
      ? { type: 'thinking', thinking: text, signature: encrypted }
      : { type: 'thinking', thinking: text };
  return encrypted ? { type: 'redacted_thinking', data: encrypted } : null;
}

/** A message item may omit its type; an item with only an id is an item_reference. */
function itemTypeOf(item: JsonObject, param: string): string {
  if (item.type === undefined || item.type === null)
    return item.role !== undefined ? 'message' : 'item_reference';
  if (typeof item.type !== 'string') throw invalidField(`${param}.type`, `${param}.type must be a string`);
  return item.type;
}

/**
 * A Responses `input` as canonical messages. Consecutive reasoning, assistant message and function_call items
 * form one assistant message (thinking, text, tool calls: the order chat and the vendors keep; a custom tool's
 * call is a call of the function standing in for it); function_call_output and custom_tool_call_output items
 * become tool messages. Items of OpenAI's built-in tools (web_search_call,
 * computer_call, mcp_call …) only an OpenAI upstream can use: they are dropped and named in the result.
 */
export function convertResponsesInput(input: unknown): ConvertedInput {
  if (typeof input === 'string')
    return { messages: [{ role: 'user', content: input }], foundTools: [], droppedItemTypes: [] };
  if (!Array.isArray(input)) throw invalidField('input', 'input must be a string or an array of items');
  const messages: ChatMessage[] = [];
  const droppedItemTypes = new Set<string>();
  const foundTools: unknown[] = [];
  let turn: AssistantTurn | null = null;
  const flush = () => {
    if (turn) messages.push(toAssistantMessage(turn));
    turn = null;
  };
  const turnAt = (stage: AssistantTurn['stage']): AssistantTurn => {
    if (!turn || turn.stage > stage) {
      flush();
      turn = { stage, thinking: [], texts: [], toolCalls: [] };
    }
    turn.stage = stage;
    return turn;
  };

  input.forEach((item, index) => {
    const param = `input[${index}]`;
    if (!isJsonObject(item)) throw invalidField(param, `${param} must be an object`);
    const type = itemTypeOf(item, param);
    switch (type) {
      case 'message':
        if (item.role === 'assistant') {
          addAssistantContent(turnAt(1), item, param);
        } else {
          flush();
          messages.push(convertUserOrSystemMessage(item, item.role, param));
        }
        return;
      case 'function_call':
      case 'custom_tool_call':
        turnAt(2).toolCalls.push(convertToolCall(item, param, type === 'custom_tool_call'));
        return;
      case 'function_call_output':
      case 'custom_tool_call_output':
        flush();
        messages.push(convertToolCallOutput(item, param));
        return;
      case 'tool_search_call':
        // OpenAI's own (server-run) search is dropped like its other built-in tools' items.
        if (isServerToolSearch(item)) droppedItemTypes.add(type);
        else turnAt(2).toolCalls.push(convertToolSearchCall(item, param));
        return;
      case 'tool_search_output':
        if (isServerToolSearch(item)) {
          droppedItemTypes.add(type);
          return;
        }
        flush();
        messages.push(convertToolSearchOutput(item, param, foundTools));
        return;
      case 'reasoning': {
        const thinking = convertReasoning(item, param);
        if (thinking) turnAt(0).thinking.push(thinking);
        return;
      }
      case 'item_reference':
        throw invalidField(
          `${param}.id`,
          `${param}: item references are not supported by this gateway; send the item itself, or continue ` +
            'a stored conversation with previous_response_id',
        );
      default:
        droppedItemTypes.add(type);
    }
  });
  flush();
  return { messages, foundTools, droppedItemTypes: [...droppedItemTypes] };
}
