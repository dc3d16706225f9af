import type { ChatMessage, ChatRequest, UserMessage } from '../../canonical/chat';
import {
  UnsupportedOptionError,
  type CanonicalChatInput,
  type UpstreamHttpRequest,
} from '../../canonical/translation';
import { COZE, type CozeChatRequest, type CozeMessage, type CozeObjectItem } from './coze-wire-types';

/** The user id of calls whose channel names none and whose client sent no `user`. */
export const DEFAULT_COZE_USER_ID = 'gatehouse';

/**
 * The bot a model name calls: its id, with the `bot-` prefix the console suggests (and one-api used) taken
 * off, since Coze's bot ids are bare numbers.
 */
export function findCozeBotId(model: string): string {
  return model.startsWith('bot-') ? model.slice(4) : model;
}

const textOf = (content: string | Array<{ text: string }>): string =>
  typeof content === 'string' ? content : content.map((part) => part.text).join('');

/** Text alone stays text; images (https URLs only: Coze fetches them) make an object_string message. */
function convertUserContent(message: UserMessage): Pick<CozeMessage, 'content' | 'content_type'> {
  if (typeof message.content === 'string') return { content: message.content, content_type: 'text' };
  const items = message.content.map((part): CozeObjectItem => {
    switch (part.type) {
      case 'text':
        return { type: 'text', text: part.text };
      case 'image_url':
        if (!/^https?:\/\//i.test(part.image_url.url)) {
          throw new UnsupportedOptionError(COZE, 'inline images', 'send the image as an https URL');
        }
        return { type: 'image', file_url: part.image_url.url };
      case 'input_audio':
        throw new UnsupportedOptionError(COZE, 'audio input');
      case 'file':
        throw new UnsupportedOptionError(COZE, 'file parts', 'send the text of the file instead');
    }
  });
  if (items.every((item) => item.type === 'text')) {
    return {
      content: items.map((item) => (item.type === 'text' ? item.text : '')).join(''),
      content_type: 'text',
    };
  }
  return { content: JSON.stringify(items), content_type: 'object_string' };
}

/**
 * Canonical messages → Coze's additional_messages. Coze takes only user and assistant turns: a system or
 * developer message becomes a user turn (the bot's own persona stays the bot's). Tool turns are refused.
 */
function convertMessage(message: ChatMessage): CozeMessage {
  switch (message.role) {
    case 'system':
    case 'developer':
      return { role: 'user', type: 'question', content: textOf(message.content), content_type: 'text' };
    case 'user':
      return { role: 'user', type: 'question', ...convertUserContent(message) };
    case 'assistant':
      if (message.tool_calls?.length) {
        throw new UnsupportedOptionError(COZE, 'tool calls', 'a Coze bot calls its own plugins');
      }
      return {
        role: 'assistant',
        type: 'answer',
        content:
          typeof message.content === 'string'
            ? message.content
            : (message.content ?? []).map((part) => (part.type === 'text' ? part.text : '')).join(''),
        content_type: 'text',
      };
    case 'tool':
      throw new UnsupportedOptionError(COZE, 'tool results', 'a Coze bot calls its own plugins');
  }
}

/**
 * The bot decides its model and sampling, so temperature, max_tokens and the like are not sent; what would
 * change the answer's shape is refused.
 */
function refuseUnsupported(request: ChatRequest): void {
  if ((request.n ?? 1) > 1) throw new UnsupportedOptionError(COZE, 'n > 1');
  if (request.tools?.length)
    throw new UnsupportedOptionError(COZE, 'tools', 'a Coze bot calls its own plugins');
  if (request.response_format && request.response_format.type !== 'text') {
    throw new UnsupportedOptionError(COZE, `response_format ${request.response_format.type}`);
  }
  if (request.logprobs) throw new UnsupportedOptionError(COZE, 'logprobs');
}

/**
 * The body of POST /v3/chat. Always streamed: Coze's non-stream mode answers before the bot is done and
 * must be polled (retrieve, then message list), so a non-stream client's answer is collected from the
 * stream instead. The user id is the channel's, else the client's `user`, else DEFAULT_COZE_USER_ID.
 */
export function convertToCozeRequest(
  request: ChatRequest,
  upstreamModel: string,
  channelUserId: string,
): CozeChatRequest {
  refuseUnsupported(request);
  const userId =
    channelUserId.trim() || (typeof request.user === 'string' && request.user) || DEFAULT_COZE_USER_ID;
  return {
    bot_id: findCozeBotId(upstreamModel),
    user_id: userId,
    additional_messages: request.messages.map(convertMessage),
    stream: true,
    auto_save_history: false,
  };
}

/** POST {base}/v3/chat with the personal access token as a bearer token. */
export function buildCozeChatRequest(input: CanonicalChatInput): UpstreamHttpRequest {
  const body = convertToCozeRequest(input.request, input.upstreamModel, input.channel.config.user_id ?? '');
  return {
    url: `${input.channel.baseUrl}/v3/chat`,
    headers: {
      authorization: `Bearer ${input.channel.key}`,
      'content-type': 'application/json',
      accept: 'text/event-stream',
    },
    body: JSON.stringify(body),
  };
}
