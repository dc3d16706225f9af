import { randomUUID } from 'node:crypto';
import type {
  AssistantContentPart,
  AssistantMessage,
  ChatChoice,
  ChatCompletion,
  ThinkingPart,
  ToolCall,
} from '../../canonical/chat';
import { UpstreamFormatError, type ChatAnswer } from '../../canonical/translation';
import { convertGeminiChatUsage, convertGeminiUsage } from './convert-gemini-usage';
import { encodeGeminiToolCallId } from './gemini-tool-call-id';
import { parseGeminiJson } from './parse-gemini-json';
import type { GeminiCandidate, GeminiGenerateContentResponse, GeminiPart } from './gemini-wire-types';
import { mapGeminiFinishReason } from './map-gemini-finish-reason';

/** An answer's id, from Gemini's responseId when it has one. Tool call ids are made from it. */
export function answerIdOf(response: GeminiGenerateContentResponse): string {
  const id = typeof response.responseId === 'string' ? response.responseId.replace(/[^\w-]/g, '') : '';
  return id || randomUUID().replace(/-/g, '');
}

/**
 * The canonical id of a function call: Gemini's own (Gemini 3 always sends one), else one unique to the
 * answer and the same whether the answer is streamed or not.
 */
export function toolCallIdOf(
  part: GeminiPart,
  answerId: string,
  candidate: number,
  position: number,
): string {
  const id = part.functionCall?.id || `call_${answerId}${candidate > 0 ? `_${candidate}` : ''}_${position}`;
  return encodeGeminiToolCallId(id, part.thoughtSignature);
}

/** Code that Gemini's code execution tool ran, and its output, as the Markdown its own UIs show. */
export function codeExecutionText(part: GeminiPart): string | null {
  if (part.executableCode) {
    const language = (part.executableCode.language ?? '').toLowerCase().replace('language_unspecified', '');
    return `\n\`\`\`${language}\n${part.executableCode.code ?? ''}\n\`\`\`\n`;
  }
  if (part.codeExecutionResult) return `\n\`\`\`output\n${part.codeExecutionResult.output ?? ''}\n\`\`\`\n`;
  return null;
}

function appendText(parts: AssistantContentPart[], text: string): void {
  const last = parts.at(-1);
  if (last?.type === 'text') last.text += text;
  else parts.push({ type: 'text', text });
}

function appendThought(parts: AssistantContentPart[], text: string, signature: string | undefined): void {
  const last = parts.at(-1);
  if (last?.type === 'thinking' && !last.signature) {
    last.thinking += text;
    if (signature) last.signature = signature;
  } else parts.push({ type: 'thinking', thinking: text, ...(signature ? { signature } : {}) });
}

/**
 * A signature Gemini put on a text part closes the thinking just before it, as a stream's reasoning_signature
 * does; with no thinking before it, it becomes an empty thinking part, which goes back on the text after it.
 */
function closeThinking(parts: AssistantContentPart[], signature: string): void {
  const last = parts.at(-1);
  if (last?.type === 'thinking' && !last.signature) last.signature = signature;
  else parts.push({ type: 'thinking', thinking: '', signature });
}

/**
 * One candidate as an assistant message. Thought summaries become thinking parts with their signatures.
 * Content is plain text unless thinking must survive. Generated images are not carried.
 */
function convertCandidate(candidate: GeminiCandidate, answerId: string, position: number): ChatChoice {
  const index = candidate.index ?? position;
  const parts: AssistantContentPart[] = [];
  const toolCalls: ToolCall[] = [];
  for (const part of candidate.content?.parts ?? []) {
    if (part.functionCall) {
      toolCalls.push({
        id: toolCallIdOf(part, answerId, index, toolCalls.length),
        type: 'function',
        function: { name: part.functionCall.name, arguments: JSON.stringify(part.functionCall.args ?? {}) },
      });
    } else if (typeof part.text === 'string' && part.thought) {
      appendThought(parts, part.text, part.thoughtSignature);
    } else if (typeof part.text === 'string' || part.executableCode || part.codeExecutionResult) {
      if (part.thoughtSignature) closeThinking(parts, part.thoughtSignature);
      appendText(parts, part.text ?? codeExecutionText(part) ?? '');
    }
  }
  const text = parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
  const hasThinking = parts.some((part): part is ThinkingPart => part.type === 'thinking');
  const message: AssistantMessage = {
    role: 'assistant',
    content: hasThinking ? parts : text === '' && toolCalls.length > 0 ? null : text,
  };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  return {
    index,
    message,
    finish_reason: mapGeminiFinishReason(candidate.finishReason ?? 'STOP', toolCalls.length > 0),
  };
}

function checkShape(response: unknown): asserts response is GeminiGenerateContentResponse {
  if (typeof response !== 'object' || response === null || Array.isArray(response))
    throw new UpstreamFormatError('Gemini answered something other than a GenerateContentResponse object');
  const { candidates, promptFeedback } = response as GeminiGenerateContentResponse;
  if (candidates !== undefined && !Array.isArray(candidates))
    throw new UpstreamFormatError('Gemini answered candidates that are not a list');
  for (const candidate of candidates ?? []) {
    const parts = candidate?.content?.parts;
    if (typeof candidate !== 'object' || candidate === null || (parts !== undefined && !Array.isArray(parts)))
      throw new UpstreamFormatError('Gemini answered a candidate without a list of parts');
    for (const part of parts ?? []) {
      if (part?.functionCall && typeof part.functionCall.name !== 'string')
        throw new UpstreamFormatError('Gemini answered a function call without a name');
    }
  }
  if (!candidates?.length && !promptFeedback?.blockReason)
    throw new UpstreamFormatError('Gemini answered neither candidates nor a prompt block reason');
}

/**
 * A generateContent answer as a canonical chat completion and its billed usage. A prompt Gemini blocked
 * (promptFeedback.blockReason, no candidates) is an answer, not an error: the upstream call succeeded and was
 * billed, so the client gets an empty assistant message finished by content_filter, as OpenAI reports its own
 * filtered output.
 */
export function convertGeminiResponse(response: unknown): ChatAnswer {
  checkShape(response);
  const answerId = answerIdOf(response);
  const candidates = response.candidates ?? [];
  const choices: ChatChoice[] =
    candidates.length > 0
      ? candidates
          .map((candidate, position) => convertCandidate(candidate, answerId, position))
          .sort((a, b) => a.index - b.index)
      : [{ index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'content_filter' }];
  const completion: ChatCompletion = {
    id: answerId,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: response.modelVersion ?? '',
    choices,
  };
  const usage = convertGeminiChatUsage(response.usageMetadata);
  if (usage) completion.usage = usage;
  return { completion, usage: convertGeminiUsage(response.usageMetadata) };
}

export function readGeminiResponse(body: Buffer): ChatAnswer {
  return convertGeminiResponse(parseGeminiJson(body));
}
