/**
 * Alibaba DashScope's native API (https://help.aliyun.com/zh/model-studio/qwen-api-via-dashscope): text
 * generation, multimodal generation for the vision models, and text embeddings.
 */

export const DASHSCOPE = 'Alibaba DashScope';

/** A part of a multimodal message: one of image or text. */
export type DashScopeContentPart = { image: string } | { text: string };

export interface DashScopeToolCall {
  /** '' in the later deltas of a streamed call */
  id?: string;
  type?: 'function';
  /** the call's position, in stream deltas */
  index?: number;
  function: { name?: string; arguments?: string };
}

export interface DashScopeMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  /** text, or parts for the multimodal endpoint */
  content: string | DashScopeContentPart[];
  tool_calls?: DashScopeToolCall[];
  tool_call_id?: string;
  name?: string;
}

export interface DashScopeTool {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}

export interface DashScopeParameters {
  /** 'message': choices with messages, as OpenAI's (the older 'text' gives output.text) */
  result_format: 'message';
  /** a stream sends each piece once instead of the text so far */
  incremental_output?: boolean;
  max_tokens?: number;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  seed?: number;
  stop?: string[];
  presence_penalty?: number;
  /** DashScope's own repetition penalty (1.0 is none) */
  repetition_penalty?: number;
  tools?: DashScopeTool[];
  tool_choice?: 'auto' | 'none' | { type: 'function'; function: { name: string } };
  parallel_tool_calls?: boolean;
  response_format?: { type: 'json_object' | 'text' };
  enable_search?: boolean;
  enable_thinking?: boolean;
  thinking_budget?: number;
}

export interface DashScopeRequest {
  model: string;
  input: { messages: DashScopeMessage[] };
  parameters: DashScopeParameters;
}

export interface DashScopeUsage {
  input_tokens?: number;
  output_tokens?: number;
  total_tokens?: number;
  /** tokens read from the context cache (part of input_tokens) */
  prompt_tokens_details?: { cached_tokens?: number };
  /** thinking tokens (part of output_tokens) */
  output_tokens_details?: { reasoning_tokens?: number };
  /** the multimodal endpoint's image tokens (part of input_tokens), flat or in input_tokens_details */
  image_tokens?: number;
  input_tokens_details?: { text_tokens?: number; image_tokens?: number };
}

export interface DashScopeChoice {
  /** stop, length, tool_calls; the text "null" while a stream goes on */
  finish_reason?: string | null;
  message?: {
    role?: string;
    /** text; parts (`[{text}]`) from the multimodal endpoint */
    content?: string | Array<{ text?: string }>;
    reasoning_content?: string;
    tool_calls?: DashScopeToolCall[];
  };
}

/** An answer, and one stream event's data. */
export interface DashScopeResponse {
  output?: { choices?: DashScopeChoice[]; text?: string; finish_reason?: string };
  usage?: DashScopeUsage;
  request_id?: string;
}

/** A failure: HTTP 4xx/5xx with this body, or the data of a stream's `event:error`. */
export interface DashScopeError {
  code?: string;
  message?: string;
  request_id?: string;
}

export interface DashScopeEmbeddingRequest {
  model: string;
  input: { texts: string[] };
  parameters?: { dimension?: number };
}

export interface DashScopeEmbeddingResponse {
  output?: { embeddings?: Array<{ text_index?: number; embedding?: number[] }> };
  usage?: { total_tokens?: number };
  request_id?: string;
}
