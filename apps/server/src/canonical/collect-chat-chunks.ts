import type { AssistantMessage, ChatChoice, ChatChunk, ChatCompletion, ToolCall } from './chat';
import { convertToChatUsage } from './convert-token-usage';
import type { ChatAnswer, TokenUsage } from './translation';

interface ChoiceState {
  content: string;
  reasoning: string;
  refusal: string;
  toolCalls: ToolCall[];
  finishReason: ChatChoice['finish_reason'];
}

/**
 * A whole stream's chunks as one answer: the inverse of completionToChunks, for vendors that answer a
 * non-stream client only by streaming (Coze's chat v3, iFlytek Spark's WebSocket). Content, reasoning and
 * refusals are joined per choice; tool call deltas are assembled by their index (id and name from the first
 * delta, arguments joined); the last finish reason wins. `usage` is the decoder's, else the stream's own
 * usage chunk.
 */
export function collectChatChunks(chunks: readonly ChatChunk[], usage: TokenUsage | null): ChatAnswer {
  const choices = new Map<number, ChoiceState>();
  const first = chunks.find((chunk) => chunk.id) ?? chunks[0];
  let streamedUsage = null;
  for (const chunk of chunks) {
    if (chunk.usage) streamedUsage = chunk.usage;
    for (const { index, delta, finish_reason: finishReason } of chunk.choices) {
      let state = choices.get(index);
      if (!state) {
        state = { content: '', reasoning: '', refusal: '', toolCalls: [], finishReason: null };
        choices.set(index, state);
      }
      state.content += delta.content ?? '';
      state.reasoning += delta.reasoning_content ?? '';
      state.refusal += delta.refusal ?? '';
      for (const call of delta.tool_calls ?? []) {
        const known = (state.toolCalls[call.index] ??= {
          id: '',
          type: 'function',
          function: { name: '', arguments: '' },
        });
        if (call.id) known.id = call.id;
        if (call.function?.name) known.function.name = call.function.name;
        known.function.arguments += call.function?.arguments ?? '';
      }
      if (finishReason) state.finishReason = finishReason;
    }
  }
  const completion: ChatCompletion = {
    id: first?.id ?? '',
    object: 'chat.completion',
    created: first?.created ?? Math.floor(Date.now() / 1000),
    model: first?.model ?? '',
    choices: [...choices.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, state]) => {
        const toolCalls = state.toolCalls.filter(Boolean);
        const message: AssistantMessage = {
          role: 'assistant',
          content: state.content || (toolCalls.length > 0 ? null : ''),
          ...(state.reasoning ? { reasoning_content: state.reasoning } : {}),
          ...(state.refusal ? { refusal: state.refusal } : {}),
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        };
        return { index, message, finish_reason: state.finishReason };
      }),
  };
  const chatUsage = usage ? convertToChatUsage(usage) : streamedUsage;
  if (chatUsage) completion.usage = chatUsage;
  return { completion, usage };
}
