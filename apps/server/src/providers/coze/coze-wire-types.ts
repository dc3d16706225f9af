/**
 * Coze's chat v3 wire format (https://www.coze.com/docs/developer_guides/chat_v3,
 * https://www.coze.cn/open/docs/developer_guides/chat_v3). Only the fields the gateway sends or reads are typed.
 */
export const COZE = 'Coze';

/**
 * A message of additional_messages. `content_type: 'object_string'` carries text and images as a JSON list
 * of `{type: 'text', text}` and `{type: 'image', file_url}` in `content`.
 */
export interface CozeMessage {
  role: 'user' | 'assistant';
  type?: 'question' | 'answer';
  content: string;
  content_type: 'text' | 'object_string';
}

export type CozeObjectItem = { type: 'text'; text: string } | { type: 'image'; file_url: string };

export interface CozeChatRequest {
  bot_id: string;
  user_id: string;
  additional_messages: CozeMessage[];
  stream: true;
  /** the gateway keeps no Coze conversation: each call carries its own history */
  auto_save_history: false;
}

/** `usage` of a chat: input_count + output_count = token_count. */
export interface CozeUsage {
  token_count?: number;
  output_count?: number;
  input_count?: number;
}

/** The chat object of conversation.chat.* events. */
export interface CozeChat {
  id: string;
  conversation_id?: string;
  bot_id?: string;
  status?: 'created' | 'in_progress' | 'completed' | 'failed' | 'requires_action' | 'canceled';
  last_error?: { code?: number; msg?: string };
  usage?: CozeUsage;
}

/** The message object of conversation.message.* events. Only `type: 'answer'` is the bot's reply. */
export interface CozeChatMessage {
  id: string;
  chat_id?: string;
  role: 'user' | 'assistant';
  type: 'answer' | 'function_call' | 'tool_output' | 'tool_response' | 'follow_up' | 'verbose' | 'knowledge';
  content: string;
  content_type?: string;
  /** the thinking of reasoning models a bot runs on (DeepSeek-R1 …) */
  reasoning_content?: string;
}

/** Coze's error body `{code, msg}`: the `error` event's data, and the whole answer to a refused call. */
export interface CozeError {
  code: number;
  msg: string;
}
