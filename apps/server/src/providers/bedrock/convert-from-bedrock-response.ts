import { randomUUID } from 'node:crypto';
import type { AssistantContentPart, AssistantMessage, ToolCall } from '../../canonical/chat';
import { UpstreamFormatError, type ChatAnswer } from '../../canonical/translation';
import type { BedrockContentBlock, BedrockConverseResponse } from './bedrock-converse-types';
import { BEDROCK } from './bedrock-converse-types';
import { mapBedrockStopReason } from './map-bedrock-stop-reason';
import { mapBedrockUsage, toChatUsage } from './map-bedrock-usage';

/** Converse answers carry no id; the client gets one in OpenAI's style. */
export const createBedrockCompletionId = () => `chatcmpl-${randomUUID().replaceAll('-', '')}`;

function parseAnswer(body: Buffer): BedrockConverseResponse {
  let answer: unknown;
  try {
    answer = JSON.parse(body.toString('utf8'));
  } catch {
    throw new UpstreamFormatError(`${BEDROCK} answered something that is not JSON`);
  }
  const content = (answer as { output?: { message?: { content?: unknown } } } | null)?.output?.message
    ?.content;
  if (!Array.isArray(content))
    throw new UpstreamFormatError(`${BEDROCK} answered without output.message.content`);
  return answer as BedrockConverseResponse;
}

/**
 * The assistant's blocks → an OpenAI message. Text alone stays a string; with thinking, content becomes parts
 * so that the thinking and its signature survive for the next turn.
 */
function convertMessage(blocks: BedrockContentBlock[]): AssistantMessage {
  const parts: AssistantContentPart[] = [];
  const toolCalls: ToolCall[] = [];
  for (const block of blocks) {
    if ('text' in block) parts.push({ type: 'text', text: block.text });
    else if ('toolUse' in block) {
      const { toolUseId, name, input } = block.toolUse;
      toolCalls.push({
        id: toolUseId,
        type: 'function',
        function: { name, arguments: JSON.stringify(input ?? {}) },
      });
    } else if ('reasoningContent' in block) {
      const reasoning = block.reasoningContent;
      if ('redactedContent' in reasoning)
        parts.push({ type: 'redacted_thinking', data: reasoning.redactedContent });
      else {
        const { text, signature } = reasoning.reasoningText;
        parts.push({ type: 'thinking', thinking: text, ...(signature ? { signature } : {}) });
      }
    }
  }
  const hasThinking = parts.some((part) => part.type !== 'text');
  const text = parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
  const content = hasThinking ? parts : parts.length > 0 ? text : null;
  return { role: 'assistant', content, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) };
}

/**
 * A Converse answer → the canonical completion and its billed usage. The answer names no model: `model` is
 * left empty for the relay to fill with the name the client asked for.
 */
export function readBedrockResponse(body: Buffer): ChatAnswer {
  const answer = parseAnswer(body);
  const usage = mapBedrockUsage(answer.usage);
  return {
    completion: {
      id: createBedrockCompletionId(),
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: '',
      choices: [
        {
          index: 0,
          message: convertMessage(answer.output.message?.content ?? []),
          finish_reason: mapBedrockStopReason(answer.stopReason),
        },
      ],
      ...(usage ? { usage: toChatUsage(usage) } : {}),
    },
    usage,
  };
}
