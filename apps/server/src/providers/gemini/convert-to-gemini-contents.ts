import type { AssistantMessage, ChatMessage, ToolCall, ToolMessage } from '../../canonical/chat';
import { UnsupportedOptionError } from '../../canonical/translation';
import {
  convertToGeminiToolImage,
  convertToGeminiUserPart,
  GEMINI,
  startGeminiAssistantParts,
} from './convert-to-gemini-parts';
import { decodeGeminiToolCallId } from './gemini-tool-call-id';
import type { GeminiContent, GeminiFunctionResponse, GeminiPart } from './gemini-wire-types';

export interface GeminiConversation {
  systemInstruction?: GeminiContent;
  contents: GeminiContent[];
}

/**
 * Google's documented stand-in for a function call that has no signature because another model (or a client
 * that dropped it) produced it; Gemini 3 refuses unsigned calls of the current turn otherwise
 * (https://ai.google.dev/gemini-api/docs/thought-signatures#faqs).
 */
export const SKIP_SIGNATURE_VALIDATION = 'skip_thought_signature_validator';

function readArguments(call: ToolCall): Record<string, unknown> {
  const text = call.function.arguments.trim();
  if (text === '') return {};
  let args: unknown;
  try {
    args = JSON.parse(text);
  } catch {
    args = undefined;
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw new UnsupportedOptionError(
      GEMINI,
      'tool call arguments that are not a JSON object',
      `the arguments of tool call ${call.id} (${call.function.name})`,
    );
  }
  return args as Record<string, unknown>;
}

/**
 * Thought summaries go back as thought parts with their signatures; a signature without text (Gemini put it on
 * a text part) goes back on the text that follows it. Reasoning without parts (reasoning_content) goes first.
 * Anthropic's redacted thinking means nothing to Gemini and is left out.
 */
function convertAssistant(message: AssistantMessage, isSignatureRequired: boolean): GeminiPart[] {
  const { content, parts } = startGeminiAssistantParts(message);
  let signature: string | undefined;
  for (const part of content) {
    if (part.type === 'thinking' && part.thinking === '') signature = part.signature;
    else if (part.type === 'thinking')
      parts.push({ text: part.thinking, thought: true, thoughtSignature: part.signature });
    else if (part.type === 'text' && (part.text !== '' || signature)) {
      parts.push({ text: part.text, thoughtSignature: signature });
      signature = undefined;
    }
  }
  const calls = (message.tool_calls ?? []).map((call): GeminiPart => {
    const { id, thoughtSignature } = decodeGeminiToolCallId(call.id);
    return { functionCall: { id, name: call.function.name, args: readArguments(call) }, thoughtSignature };
  });
  if (isSignatureRequired && calls.length > 0 && !calls.some((call) => call.thoughtSignature))
    calls[0].thoughtSignature = SKIP_SIGNATURE_VALIDATION;
  return [...parts, ...calls];
}

function readToolText(message: ToolMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}

/**
 * A tool result as a functionResponse: a JSON object result as it is, other text as `{output}`, a failure as
 * `{error}` — the keys Gemini documents (https://ai.google.dev/api/caching#FunctionResponse).
 */
function convertToolResult(message: ToolMessage, name: string): GeminiPart {
  const text = readToolText(message);
  let response: Record<string, unknown> = message.is_error ? { error: text } : { output: text };
  if (!message.is_error) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
        response = parsed as Record<string, unknown>;
    } catch {
      // not JSON: sent as output text
    }
  }
  const images =
    typeof message.content === 'string'
      ? []
      : message.content.flatMap((part) =>
          part.type === 'image_url' ? [{ inlineData: convertToGeminiToolImage(part) }] : [],
        );
  const { id } = decodeGeminiToolCallId(message.tool_call_id);
  const functionResponse: GeminiFunctionResponse = { id, name, response };
  if (images.length > 0) functionResponse.parts = images;
  return { functionResponse };
}

function systemText(content: string | Array<{ text: string }>): string[] {
  return (typeof content === 'string' ? [content] : content.map((part) => part.text)).filter(
    (text) => text !== '',
  );
}

/**
 * The conversation as Gemini contents: system and developer messages (wherever they are) become the
 * systemInstruction, assistant turns role 'model', and consecutive tool results one 'user' turn of
 * functionResponse parts, each named after the call it answers (Gemini matches them by name and id).
 * Cache marks are dropped: Gemini caches implicitly, or through cachedContents resources. A conversation of
 * system messages only is sent as the user's turn.
 */
export function convertToGeminiContents(
  messages: readonly ChatMessage[],
  isSignatureRequired: boolean,
): GeminiConversation {
  const system: GeminiPart[] = [];
  const contents: GeminiContent[] = [];
  const toolNames = new Map<string, string>();
  for (const [index, message] of messages.entries()) {
    if (message.role === 'system' || message.role === 'developer') {
      system.push(...systemText(message.content).map((text) => ({ text })));
    } else if (message.role === 'user') {
      const parts =
        typeof message.content === 'string'
          ? message.content === ''
            ? []
            : [{ text: message.content }]
          : message.content.flatMap((part) => convertToGeminiUserPart(part) ?? []);
      if (parts.length > 0) contents.push({ role: 'user', parts });
    } else if (message.role === 'assistant') {
      for (const call of message.tool_calls ?? []) toolNames.set(call.id, call.function.name);
      const parts = convertAssistant(message, isSignatureRequired);
      if (parts.length > 0) contents.push({ role: 'model', parts });
    } else if (message.role === 'tool') {
      const name = toolNames.get(message.tool_call_id);
      if (name === undefined) {
        throw new UnsupportedOptionError(
          GEMINI,
          'tool results without their tool call',
          `messages[${index}].tool_call_id ${message.tool_call_id} answers no earlier assistant tool call`,
        );
      }
      const part = convertToolResult(message, name);
      const previous = contents.at(-1);
      if (previous?.role === 'user' && previous.parts.every((each) => each.functionResponse))
        previous.parts.push(part);
      else contents.push({ role: 'user', parts: [part] });
    }
  }
  if (system.length === 0) return { contents };
  // Gemini needs at least one content; OpenAI answers a conversation of system messages alone.
  if (contents.length === 0) return { contents: [{ role: 'user', parts: system }] };
  return { systemInstruction: { parts: system }, contents };
}
