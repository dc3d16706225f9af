import type { ChatChunk, ChatDelta, FinishReason } from '../../canonical/chat';
import {
  UpstreamFormatError,
  UpstreamReportedError,
  type ChatStreamDecoder,
  type TokenUsage,
  type UpstreamErrorDetails,
} from '../../canonical/translation';
import { SseEventSplitter } from '../../relay/sse-event-splitter';
import { incompleteStreamError } from '../shared/incomplete-stream-error';
import { answerIdOf, codeExecutionText, toolCallIdOf } from './convert-gemini-response';
import { parseGeminiJson } from './parse-gemini-json';
import { convertGeminiUsage } from './convert-gemini-usage';
import type { GeminiGenerateContentResponse, GeminiPart } from './gemini-wire-types';
import { mapGeminiFinishReason } from './map-gemini-finish-reason';
import { readGeminiErrorObject } from './read-gemini-error';

/** Gemini reported a failure inside a stream that had started with 200. */
export class GeminiStreamError extends UpstreamReportedError {
  constructor(details: UpstreamErrorDetails) {
    super(
      'Gemini',
      details,
      `Gemini stopped the stream with an error: ${details.type} ${details.message}`.trim(),
    );
  }
}

interface CandidateState {
  hasRole: boolean;
  toolCalls: number;
}

/** Deltas of one part, in order: a signature Gemini put on a text part closes the thinking before that text. */
function deltasOf(part: GeminiPart, toolCall: () => { index: number; id: string }): ChatDelta[] {
  if (part.functionCall) {
    const { index, id } = toolCall();
    const args = JSON.stringify(part.functionCall.args ?? {});
    return [
      {
        tool_calls: [
          { index, id, type: 'function', function: { name: part.functionCall.name, arguments: args } },
        ],
      },
    ];
  }
  if (typeof part.text === 'string' && part.thought) {
    return [
      {
        reasoning_content: part.text,
        ...(part.thoughtSignature ? { reasoning_signature: part.thoughtSignature } : {}),
      },
    ];
  }
  const text = part.text ?? codeExecutionText(part);
  if (text === null) return [];
  const deltas: ChatDelta[] = part.thoughtSignature ? [{ reasoning_signature: part.thoughtSignature }] : [];
  if (text !== '') deltas.push({ content: text });
  return deltas;
}

/** Adjacent text of one event travels as one delta; thinking, until its signature closes it. */
function appendDelta(deltas: ChatDelta[], delta: ChatDelta): void {
  const last = deltas.at(-1);
  const isText = (each: ChatDelta) => Object.keys(each).length === 1 && each.content !== undefined;
  const isOpenThought = (each: ChatDelta) =>
    each.reasoning_content !== undefined && each.reasoning_signature === undefined && !each.content;
  if (last && isText(last) && isText(delta)) last.content += delta.content ?? '';
  else if (last && isOpenThought(last) && delta.reasoning_content !== undefined && !delta.content) {
    last.reasoning_content += delta.reasoning_content;
    if (delta.reasoning_signature) last.reasoning_signature = delta.reasoning_signature;
  } else deltas.push(delta);
}

/**
 * Decodes `streamGenerateContent?alt=sse`: each event is a whole GenerateContentResponse holding the next
 * piece of each candidate (https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent).
 * Text and thought summaries arrive as deltas; function calls arrive whole, so each becomes one tool call delta
 * with its id, name and complete arguments. The first chunk of a candidate carries the role, its last the
 * finish reason. usageMetadata may come on several events; the last one counts.
 */
export function createGeminiStreamDecoder(): ChatStreamDecoder {
  const splitter = new SseEventSplitter();
  const created = Math.floor(Date.now() / 1000);
  const candidates = new Map<number, CandidateState>();
  let answerId: string | null = null;
  let model = '';
  let usage: TokenUsage | null = null;
  let isEmpty = true;

  const chunkOf = (index: number, delta: ChatDelta, finishReason: FinishReason | null): ChatChunk => ({
    id: answerId ?? '',
    object: 'chat.completion.chunk',
    created,
    model,
    choices: [{ index, delta, finish_reason: finishReason }],
  });

  function stateOf(index: number): CandidateState {
    let state = candidates.get(index);
    if (!state) candidates.set(index, (state = { hasRole: false, toolCalls: 0 }));
    return state;
  }

  function withRole(state: CandidateState, delta: ChatDelta): ChatDelta {
    if (state.hasRole) return delta;
    state.hasRole = true;
    return { role: 'assistant', ...(Object.keys(delta).length === 0 ? { content: '' } : delta) };
  }

  function decodeEvent(data: string): ChatChunk[] {
    // Gemini ends a stream by closing it; an OpenAI-style terminator from a proxy in between means nothing.
    if (data === '[DONE]') return [];
    isEmpty = false;
    const event = parseGeminiJson(data);
    if (typeof event !== 'object' || event === null || Array.isArray(event))
      throw new UpstreamFormatError('Gemini streamed an event that is not a GenerateContentResponse');
    const failure = readGeminiErrorObject(event, 200);
    if (failure) throw new GeminiStreamError(failure);
    const response = event as GeminiGenerateContentResponse;
    answerId ??= answerIdOf(response);
    if (typeof response.modelVersion === 'string') model = response.modelVersion;
    usage = convertGeminiUsage(response.usageMetadata) ?? usage;
    if (response.candidates !== undefined && !Array.isArray(response.candidates))
      throw new UpstreamFormatError('Gemini streamed candidates that are not a list');
    if (!response.candidates?.length) {
      // A blocked prompt: no candidate will come (https://ai.google.dev/api/generate-content#PromptFeedback).
      if (!response.promptFeedback?.blockReason) return [];
      return [chunkOf(0, withRole(stateOf(0), { content: '' }), 'content_filter')];
    }
    const chunks: ChatChunk[] = [];
    for (const [position, candidate] of response.candidates.entries()) {
      const index = candidate?.index ?? position;
      const state = stateOf(index);
      const parts = candidate?.content?.parts ?? [];
      if (!Array.isArray(parts))
        throw new UpstreamFormatError('Gemini streamed a candidate without a list of parts');
      const deltas: ChatDelta[] = [];
      for (const part of parts) {
        const toolCall = () => {
          const serial = state.toolCalls++;
          return { index: serial, id: toolCallIdOf(part, answerId ?? '', index, serial) };
        };
        for (const delta of deltasOf(part, toolCall)) appendDelta(deltas, delta);
      }
      for (const delta of deltas) chunks.push(chunkOf(index, withRole(state, delta), null));
      const finishReason = mapGeminiFinishReason(candidate.finishReason, state.toolCalls > 0);
      if (finishReason) chunks.push(chunkOf(index, withRole(state, {}), finishReason));
    }
    return chunks;
  }

  const decodeAll = (payloads: string[]) => payloads.flatMap(decodeEvent);

  return {
    push: (bytes) => decodeAll(splitter.push(bytes)),
    end() {
      const chunks = decodeAll(splitter.end());
      // Not one event (an empty body, a proxy's HTML page): a bad answer, not an empty success.
      if (isEmpty) throw incompleteStreamError('Gemini', false, 'its last candidate');
      return chunks;
    },
    usage: () => usage,
  };
}
