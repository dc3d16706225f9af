import type { ChatChunk, ChatChunkChoice, ChatUsage, ToolCallDelta } from '../../canonical/chat';
import type {
  GeminiCandidate,
  GeminiGenerateContentResponse,
  GeminiPart,
} from '../../providers/gemini/gemini-wire-types';
import type { ClientStreamEncoder } from '../ingress-codec';
import { convertToChatUsage } from '../../canonical/convert-token-usage';
import { convertToGeminiUsageMetadata } from './convert-to-gemini-usage-metadata';
import { convertToGeminiFinishReason, convertToGeminiFunctionCall } from './encode-gemini-response';
import type { GeminiStreamFraming } from './gemini-stream-framing';

interface PendingCall {
  id: string;
  name: string;
  arguments: string;
}

/** A candidate's tool calls, gathered from their deltas: Gemini streams each function call whole. */
class CallBuffer {
  private readonly calls = new Map<number, PendingCall>();

  /** adds the deltas; answers the calls a later call's start showed complete */
  add(deltas: readonly ToolCallDelta[]): GeminiPart[] {
    const done: GeminiPart[] = [];
    for (const delta of deltas) {
      let call = this.calls.get(delta.index);
      if (!call) {
        done.push(...this.flush());
        call = { id: '', name: '', arguments: '' };
        this.calls.set(delta.index, call);
      }
      if (delta.id) call.id = delta.id;
      if (delta.function?.name) call.name += delta.function.name;
      if (delta.function?.arguments) call.arguments += delta.function.arguments;
    }
    return done;
  }

  flush(): GeminiPart[] {
    const parts = [...this.calls.values()].map((call) =>
      convertToGeminiFunctionCall({ id: call.id, function: { name: call.name, arguments: call.arguments } }),
    );
    this.calls.clear();
    return parts;
  }
}

function partsOf(choice: ChatChunkChoice, calls: CallBuffer): GeminiPart[] {
  const { delta } = choice;
  const parts: GeminiPart[] = [];
  if (delta.reasoning_content || delta.reasoning_signature) {
    parts.push({
      text: delta.reasoning_content ?? '',
      thought: true,
      ...(delta.reasoning_signature ? { thoughtSignature: delta.reasoning_signature } : {}),
    });
  }
  if (delta.content) parts.push({ text: delta.content });
  if (delta.tool_calls) parts.push(...calls.add(delta.tool_calls));
  if (choice.finish_reason) parts.push(...calls.flush());
  return parts;
}

/**
 * Canonical chunks as streamGenerateContent's responses, each a GenerateContentResponse holding the next
 * piece of each candidate. Text and thoughts go as they come; tool calls are held until whole, since Gemini
 * clients read each functionCall part as complete. The response that finishes a candidate waits for the
 * usage (OpenAI-style upstreams send it on a chunk of its own after the finish) so that, as from Gemini, the
 * last response carries both the finishReason and the usageMetadata.
 */
export function createGeminiStreamEncoder(model: string, framing: GeminiStreamFraming): ClientStreamEncoder {
  const buffers = new Map<number, CallBuffer>();
  let head: Pick<GeminiGenerateContentResponse, 'modelVersion' | 'responseId'> | null = null;
  let held: GeminiCandidate[] | null = null;
  let reportedUsage: ChatUsage | null = null;
  let isUsageSent = false;

  const write = (candidates: GeminiCandidate[] | null, usage: ChatUsage | null): string => {
    if (usage) isUsageSent = true;
    const response: GeminiGenerateContentResponse = {
      ...(candidates ? { candidates } : {}),
      ...(usage ? { usageMetadata: convertToGeminiUsageMetadata(usage) } : {}),
      ...head,
    };
    return framing.frame(JSON.stringify(response));
  };
  const release = (usage: ChatUsage | null): string => {
    if (!held) return '';
    const text = write(held, usage);
    held = null;
    return text;
  };
  const bufferOf = (index: number) => {
    let buffer = buffers.get(index);
    if (!buffer) buffers.set(index, (buffer = new CallBuffer()));
    return buffer;
  };

  return {
    encode(chunk: ChatChunk): string {
      head ??= { modelVersion: chunk.model || model, responseId: chunk.id };
      if (chunk.usage) reportedUsage = chunk.usage;
      let text = chunk.choices.length > 0 || chunk.usage ? release(chunk.usage ?? null) : '';
      const candidates: GeminiCandidate[] = [];
      let isFinishing = false;
      for (const choice of chunk.choices) {
        const parts = partsOf(choice, bufferOf(choice.index));
        const finishReason = convertToGeminiFinishReason(choice.finish_reason);
        if (parts.length === 0 && !finishReason) continue;
        isFinishing ||= finishReason !== undefined;
        candidates.push({
          content: { role: 'model', parts: parts.length > 0 ? parts : [{ text: '' }] },
          ...(finishReason ? { finishReason } : {}),
          index: choice.index,
        });
      }
      if (candidates.length === 0) return text;
      if (isFinishing && !chunk.usage) held = candidates;
      else text += write(candidates, chunk.usage ?? null);
      return text;
    },
    finish(usage) {
      const finalUsage = usage ? convertToChatUsage(usage) : reportedUsage;
      head ??= { modelVersion: model, responseId: '' };
      const pending = [...buffers.entries()].flatMap(([index, buffer]) => {
        const parts = buffer.flush();
        return parts.length > 0 ? [{ content: { role: 'model' as const, parts }, index }] : [];
      });
      if (pending.length > 0) held = [...(held ?? []), ...pending];
      const last = held ? release(finalUsage) : finalUsage && !isUsageSent ? write(null, finalUsage) : '';
      return last + framing.end();
    },
  };
}
