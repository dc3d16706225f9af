import type { AssistantMessage, ChatCompletion, FinishReason, ToolCall } from '../../canonical/chat';
import { startGeminiAssistantParts } from '../../providers/gemini/convert-to-gemini-parts';
import { decodeGeminiToolCallId } from '../../providers/gemini/gemini-tool-call-id';
import type {
  GeminiCandidate,
  GeminiFinishReason,
  GeminiGenerateContentResponse,
  GeminiPart,
} from '../../providers/gemini/gemini-wire-types';
import { convertToGeminiUsageMetadata } from './convert-to-gemini-usage-metadata';

/**
 * finish_reason as Gemini's finishReason. Gemini finishes a turn of function calls with STOP; content_filter
 * is SAFETY, the reason Gemini gives most for filtered output.
 */
export function convertToGeminiFinishReason(reason: FinishReason | null): GeminiFinishReason | undefined {
  switch (reason) {
    case 'length':
      return 'MAX_TOKENS';
    case 'content_filter':
      return 'SAFETY';
    case 'stop':
    case 'tool_calls':
      return 'STOP';
    default:
      return undefined;
  }
}

function readArguments(text: string): Record<string, unknown> {
  try {
    const args: unknown = JSON.parse(text);
    return typeof args === 'object' && args !== null && !Array.isArray(args)
      ? (args as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/**
 * A tool call as a functionCall part: its id and the thought signature that rides in a canonical id made from
 * a Gemini call (gemini-tool-call-id.ts) come apart again, so the client sends both back as Gemini wants.
 */
export function convertToGeminiFunctionCall(call: Pick<ToolCall, 'id' | 'function'>): GeminiPart {
  const { id, thoughtSignature } = decodeGeminiToolCallId(call.id);
  return {
    functionCall: { id, name: call.function.name, args: readArguments(call.function.arguments) },
    ...(thoughtSignature ? { thoughtSignature } : {}),
  };
}

/**
 * An assistant message as a model turn's parts: thinking as thought parts with their signatures (a signature
 * without thinking goes on the part after it, where Gemini puts it), then text, then function calls.
 * Anthropic's redacted thinking means nothing to a Gemini client and is left out.
 */
export function convertToGeminiParts(message: AssistantMessage): GeminiPart[] {
  const { content, parts } = startGeminiAssistantParts(message);
  let signature: string | undefined;
  const withSignature = (part: GeminiPart): GeminiPart => {
    if (!signature) return part;
    const signed = { ...part, thoughtSignature: signature };
    signature = undefined;
    return signed;
  };
  for (const part of content) {
    if (part.type === 'thinking' && part.thinking === '') signature = part.signature;
    else if (part.type === 'thinking')
      parts.push({
        text: part.thinking,
        thought: true,
        ...(part.signature ? { thoughtSignature: part.signature } : {}),
      });
    else if (part.type === 'text' && part.text !== '') parts.push(withSignature({ text: part.text }));
  }
  for (const call of message.tool_calls ?? []) {
    const converted = convertToGeminiFunctionCall(call);
    parts.push(converted.thoughtSignature ? converted : withSignature(converted));
  }
  if (signature) parts.push({ text: '', thoughtSignature: signature });
  return parts;
}

function convertChoice(choice: ChatCompletion['choices'][number]): GeminiCandidate {
  const parts = convertToGeminiParts(choice.message);
  const finishReason = convertToGeminiFinishReason(choice.finish_reason);
  // Gemini leaves the content out of a candidate it blocked.
  const isBlocked = parts.length === 0 && finishReason === 'SAFETY';
  return {
    ...(isBlocked ? {} : { content: { role: 'model', parts: parts.length > 0 ? parts : [{ text: '' }] } }),
    ...(finishReason ? { finishReason } : {}),
    index: choice.index,
  };
}

/**
 * A canonical answer as a GenerateContentResponse (https://ai.google.dev/api/generate-content#generatecontentresponse).
 * modelVersion is the model that answered, or the one the client asked for when the upstream named none.
 */
export function convertToGeminiResponse(
  completion: ChatCompletion,
  model: string,
): GeminiGenerateContentResponse {
  return {
    candidates: completion.choices.map(convertChoice),
    ...(completion.usage ? { usageMetadata: convertToGeminiUsageMetadata(completion.usage) } : {}),
    modelVersion: completion.model || model,
    responseId: completion.id,
  };
}
