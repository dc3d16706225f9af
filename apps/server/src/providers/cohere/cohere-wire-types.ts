import type { JsonSchema } from '../../canonical/chat';

/**
 * Cohere's v2 Chat and Embed wire format, as its API reference documents it
 * (https://docs.cohere.com/reference/chat, https://docs.cohere.com/reference/chat-stream,
 * https://docs.cohere.com/reference/embed). Only the fields the gateway sends or reads are typed.
 */
export const COHERE = 'Cohere';

export interface CohereTextContent {
  type: 'text';
  text: string;
}

/** Reasoning models (command-a-reasoning) answer their thinking as a content item of its own. */
export interface CohereThinkingContent {
  type: 'thinking';
  thinking: string;
}

export interface CohereImageContent {
  type: 'image_url';
  image_url: { url: string; detail?: 'auto' | 'low' | 'high' };
}

export interface CohereToolCall {
  id: string;
  type: 'function';
  /** arguments is JSON text */
  function: { name: string; arguments: string };
}

export type CohereMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | Array<CohereTextContent | CohereImageContent> }
  | {
      role: 'assistant';
      content?: string | Array<CohereTextContent | CohereThinkingContent>;
      /** the model's plan before its tool calls, sent back with them */
      tool_plan?: string;
      tool_calls?: CohereToolCall[];
    }
  | { role: 'tool'; tool_call_id: string; content: string | CohereTextContent[] };

export interface CohereTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: JsonSchema };
}

export interface CohereChatRequest {
  model: string;
  messages: CohereMessage[];
  stream: boolean;
  tools?: CohereTool[];
  strict_tools?: boolean;
  tool_choice?: 'REQUIRED' | 'NONE';
  max_tokens?: number;
  temperature?: number;
  /** top_p */
  p?: number;
  /** top_k */
  k?: number;
  seed?: number;
  stop_sequences?: string[];
  frequency_penalty?: number;
  presence_penalty?: number;
  response_format?: { type: 'text' } | { type: 'json_object'; json_schema?: JsonSchema };
  thinking?: { type: 'enabled'; token_budget?: number } | { type: 'disabled' };
}

export type CohereFinishReason =
  'COMPLETE' | 'STOP_SEQUENCE' | 'MAX_TOKENS' | 'TOOL_CALL' | 'ERROR' | 'TIMEOUT';

/** `billed_units` is what Cohere charges; `tokens` also counts the prompt template around the messages. */
export interface CohereUsage {
  billed_units?: { input_tokens?: number; output_tokens?: number };
  tokens?: { input_tokens?: number; output_tokens?: number };
  /** prompt tokens that hit Cohere's inference cache (https://docs.cohere.com/reference/chat, usage) */
  cached_tokens?: number;
}

export interface CohereChatResponse {
  id: string;
  finish_reason: CohereFinishReason;
  message: {
    role: 'assistant';
    content?: Array<CohereTextContent | CohereThinkingContent>;
    tool_plan?: string;
    tool_calls?: CohereToolCall[];
    citations?: unknown[];
  };
  usage?: CohereUsage;
}

/** The events of a streamed chat (https://docs.cohere.com/docs/streaming), each an SSE `data:` JSON object. */
export type CohereStreamEvent =
  | { type: 'message-start'; id?: string }
  | {
      type: 'content-start' | 'content-delta';
      index?: number;
      delta?: { message?: { content?: { type?: string; text?: string; thinking?: string } } };
    }
  | { type: 'content-end'; index?: number }
  | { type: 'tool-plan-delta'; delta?: { message?: { tool_plan?: string } } }
  | {
      type: 'tool-call-start' | 'tool-call-delta';
      index?: number;
      delta?: {
        message?: {
          tool_calls?: { id?: string; type?: 'function'; function?: { name?: string; arguments?: string } };
        };
      };
    }
  | { type: 'tool-call-end'; index?: number }
  | {
      type: 'message-end';
      id?: string;
      delta?: { finish_reason?: CohereFinishReason; usage?: CohereUsage; error?: string };
    }
  | { type: 'citation-start' | 'citation-end' | 'debug' };

export interface CohereEmbedRequest {
  model: string;
  texts: string[];
  input_type: string;
  embedding_types: ['float'];
  output_dimension?: number;
}

export interface CohereEmbedResponse {
  id?: string;
  embeddings: { float?: number[][] };
  texts?: string[];
  meta?: { billed_units?: { input_tokens?: number } };
}

/** Cohere's error body: `{"message": "…"}`, sometimes with an id. */
export interface CohereErrorBody {
  id?: string;
  message: string;
}
