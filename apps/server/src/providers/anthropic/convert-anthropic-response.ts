import type { AssistantContentPart, AssistantMessage, ToolCall } from '../../canonical/chat';
import { UpstreamFormatError, type ChatAnswer } from '../../canonical/translation';
import { AnthropicReportedError } from './anthropic-reported-error';
import type { AnthropicContentBlock, AnthropicMessage } from './anthropic-wire-types';
import { convertAnthropicUsage, convertToChatUsage } from './convert-anthropic-usage';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason';
import { readAnthropicErrorObject } from './read-anthropic-error';

/** Between texts that a tool block separated. Citations also cut text into blocks; those join as they are. */
export const TEXT_SEPARATOR = '\n\n';

/**
 * Claude's answer blocks as one assistant message. Text blocks join into one text. When Claude thought, the
 * content is a list of parts, thinking blocks first with their signatures (a client that sends them back lets
 * the conversation continue with thinking on). Tool uses become tool calls with their input as JSON text.
 * Server tool blocks (web search results …) have no canonical form; a client that needs them uses the
 * Messages API itself, whose answers pass through untouched.
 */
export function convertAnthropicContent(blocks: AnthropicContentBlock[]): AssistantMessage {
  const thinking: AssistantContentPart[] = [];
  let text = '';
  let hasText = false;
  let isTextInterrupted = false;
  const toolCalls: ToolCall[] = [];
  for (const block of blocks) {
    isTextInterrupted ||= hasText && block.type !== 'text';
    switch (block.type) {
      case 'text':
        text += isTextInterrupted ? `${TEXT_SEPARATOR}${block.text}` : block.text;
        isTextInterrupted = false;
        hasText = true;
        break;
      case 'thinking':
        thinking.push({ type: 'thinking', thinking: block.thinking, signature: block.signature });
        break;
      case 'redacted_thinking':
        thinking.push({ type: 'redacted_thinking', data: block.data });
        break;
      case 'tool_use':
        toolCalls.push({
          id: block.id,
          type: 'function',
          function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) },
        });
        break;
    }
  }
  const content =
    thinking.length > 0
      ? [...thinking, ...(hasText ? [{ type: 'text' as const, text }] : [])]
      : hasText
        ? text
        : null;
  return { role: 'assistant', content, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) };
}

function isMessage(value: unknown): value is AnthropicMessage {
  if (typeof value !== 'object' || value === null) return false;
  const fields = value as Partial<AnthropicMessage>;
  return fields.type === 'message' && Array.isArray(fields.content);
}

/** A JSON answer of `POST /v1/messages` as a canonical chat completion with its billed usage. */
export function readAnthropicResponse(body: Buffer): ChatAnswer {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw new UpstreamFormatError('Anthropic answered with a body that is not JSON');
  }
  if (!isMessage(parsed)) {
    const reported = readAnthropicErrorObject(parsed);
    if (reported) throw new AnthropicReportedError(reported);
    throw new UpstreamFormatError('Anthropic answered with JSON that is not a message');
  }
  const usage = convertAnthropicUsage(parsed.usage);
  return {
    completion: {
      id: parsed.id,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: parsed.model,
      choices: [
        {
          index: 0,
          message: convertAnthropicContent(parsed.content),
          finish_reason: mapAnthropicStopReason(parsed.stop_reason),
        },
      ],
      ...(usage ? { usage: convertToChatUsage(usage) } : {}),
    },
    usage,
  };
}
