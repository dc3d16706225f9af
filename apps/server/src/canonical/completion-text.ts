import type { AssistantMessage, ChatChunk, ChatCompletion, ChatDelta } from './chat';

/**
 * The generated text of canonical answers, for counting completion tokens when the upstream reports no usage.
 * Everything the model produced counts: text, thinking, refusals and tool calls (name and arguments).
 */

function messageText(message: AssistantMessage | ChatDelta): string {
  let text = message.reasoning_content ?? '';
  const { content } = message;
  if (typeof content === 'string') text += content;
  else if (Array.isArray(content)) {
    for (const part of content) {
      if (part.type === 'text') text += part.text;
      else if (part.type === 'thinking') text += part.thinking;
    }
  }
  if (message.refusal) text += message.refusal;
  for (const call of message.tool_calls ?? [])
    text += (call.function?.name ?? '') + (call.function?.arguments ?? '');
  return text;
}

export function completionText(completion: ChatCompletion): string {
  return completion.choices.map((choice) => messageText(choice.message)).join('');
}

export function chunkText(chunk: ChatChunk): string {
  let text = '';
  for (const choice of chunk.choices) text += messageText(choice.delta);
  return text;
}

/**
 * A whole answer as the chunks of a stream, for an upstream that answered JSON to a stream request: the
 * message as one delta per choice, then the finish reason, then the usage on a choice-less chunk.
 */
export function completionToChunks(completion: ChatCompletion): ChatChunk[] {
  const head = {
    id: completion.id,
    object: 'chat.completion.chunk' as const,
    created: completion.created,
    model: completion.model,
  };
  const chunks: ChatChunk[] = completion.choices.map((choice) => {
    const { content, tool_calls: toolCalls, ...message } = choice.message;
    const delta: ChatDelta = { role: 'assistant' };
    if (typeof content === 'string') delta.content = content;
    else if (Array.isArray(content)) {
      delta.content = content.map((part) => (part.type === 'text' ? part.text : '')).join('');
      const thinking = content.map((part) => (part.type === 'thinking' ? part.thinking : '')).join('');
      if (thinking) delta.reasoning_content = (message.reasoning_content ?? '') + thinking;
    }
    if (message.reasoning_content && delta.reasoning_content === undefined) {
      delta.reasoning_content = message.reasoning_content;
    }
    if (message.refusal) delta.refusal = message.refusal;
    if (toolCalls?.length) delta.tool_calls = toolCalls.map((call, index) => ({ index, ...call }));
    return { ...head, choices: [{ index: choice.index, delta, finish_reason: choice.finish_reason }] };
  });
  if (completion.usage) chunks.push({ ...head, choices: [], usage: completion.usage });
  return chunks;
}
