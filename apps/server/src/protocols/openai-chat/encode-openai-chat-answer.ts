import type {
  AssistantMessage,
  ChatChoice,
  ChatChunk,
  ChatChunkChoice,
  ChatCompletion,
  ChatUsage,
} from '../../canonical/chat';

/**
 * The assistant message as OpenAI clients read it: content is text. Thinking travels as reasoning_content,
 * the field DeepSeek, Qwen and most OpenAI-compatible SDKs read; signatures and redacted thinking exist only
 * to be sent back to the vendor that made them, which an OpenAI client never does, so they are dropped.
 */
function toOpenAIMessage(message: AssistantMessage): AssistantMessage {
  if (!Array.isArray(message.content)) return message;
  let text = '';
  let reasoning = message.reasoning_content ?? '';
  for (const part of message.content) {
    if (part.type === 'text') text += part.text;
    else if (part.type === 'thinking') reasoning += part.thinking;
  }
  const converted: AssistantMessage = {
    ...message,
    content: text === '' && message.tool_calls ? null : text,
  };
  if (reasoning !== '') converted.reasoning_content = reasoning;
  return converted;
}

function toOpenAIChoice(choice: ChatChoice): ChatChoice {
  const message = toOpenAIMessage(choice.message);
  return message === choice.message ? choice : { ...choice, message };
}

export function encodeOpenAIChatCompletion(completion: ChatCompletion): string {
  return JSON.stringify({ ...completion, choices: completion.choices.map(toOpenAIChoice) });
}

function hasExtensions(choice: ChatChunkChoice): boolean {
  const { delta } = choice;
  return delta.reasoning_signature !== undefined || delta.redacted_thinking !== undefined;
}

/** A delta without the extensions an OpenAI client has no use for; null when nothing is left to say. */
function toOpenAIChoiceDelta(choice: ChatChunkChoice): ChatChunkChoice | null {
  if (!hasExtensions(choice)) return choice;
  const { reasoning_signature: _signature, redacted_thinking: _redacted, ...delta } = choice.delta;
  const isEmpty = Object.keys(delta).length === 0 && choice.finish_reason === null;
  return isEmpty ? null : { ...choice, delta };
}

/**
 * Canonical chunks as OpenAI's stream: `data: {chunk}` events, then the usage chunk (`choices: []`) when the
 * client asked for it with stream_options.include_usage, then `data: [DONE]`. Usage a vendor sent on its
 * chunks is taken off them and sent once at the end, as OpenAI does.
 */
export function createOpenAIChatStreamEncoder(includeUsage: boolean) {
  let head: Pick<ChatChunk, 'id' | 'object' | 'created' | 'model'> | null = null;
  let reportedUsage: ChatUsage | null = null;

  return {
    encode(chunk: ChatChunk): string {
      head ??= { id: chunk.id, object: 'chat.completion.chunk', created: chunk.created, model: chunk.model };
      let choices = chunk.choices;
      if (choices.some(hasExtensions)) {
        choices = choices.map(toOpenAIChoiceDelta).filter((choice) => choice !== null);
        if (choices.length === 0) return '';
      }
      if (chunk.usage) reportedUsage = chunk.usage;
      if (choices.length === 0) return '';
      const { usage: _usage, ...rest } = chunk;
      return `data: ${JSON.stringify(choices === chunk.choices && !chunk.usage ? chunk : { ...rest, choices })}\n\n`;
    },
    finish(usage: ChatUsage | null): string {
      const finalUsage = reportedUsage ?? usage;
      const usageEvent =
        includeUsage && head && finalUsage
          ? `data: ${JSON.stringify({ ...head, choices: [], usage: finalUsage })}\n\n`
          : '';
      return `${usageEvent}data: [DONE]\n\n`;
    },
  };
}
