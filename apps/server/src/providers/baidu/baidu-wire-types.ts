/**
 * Baidu Qianfan's ERNIE chat and embeddings API ("wenxinworkshop", v1), as its reference describes it
 * (https://cloud.baidu.com/doc/WENXINWORKSHOP/s/jlil56u11 for ERNIE-3.5-8K; every chat model takes the same
 * body at its own endpoint).
 */

export const BAIDU = 'Baidu Wenxin';

/** A function the model may call (ERNIE's `functions`, the older OpenAI shape). */
export interface BaiduFunction {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface BaiduFunctionCall {
  name: string;
  /** JSON text */
  arguments: string;
  /** the model's reasoning before the call */
  thoughts?: string;
}

/**
 * Odd positions are user (or function results), even positions assistant; the count is odd. The system
 * prompt is not a message but the body's `system` field.
 */
export interface BaiduMessage {
  role: 'user' | 'assistant' | 'function';
  content: string;
  /** the function whose result this is (role function) */
  name?: string;
  /** the call an assistant turn made */
  function_call?: BaiduFunctionCall;
}

export interface BaiduChatRequest {
  messages: BaiduMessage[];
  system?: string;
  stream?: boolean;
  /** (0, 1.0] */
  temperature?: number;
  /** [0, 1.0] */
  top_p?: number;
  /** [1.0, 2.0], Baidu's own repetition penalty */
  penalty_score?: number;
  frequency_penalty?: number;
  presence_penalty?: number;
  /** at most 4 sequences of at most 20 characters */
  stop?: string[];
  max_output_tokens?: number;
  response_format?: 'json_object' | 'text';
  functions?: BaiduFunction[];
  tool_choice?: { type: 'function'; function: { name: string } };
  user_id?: string;
}

export interface BaiduUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
}

/**
 * A chat answer, or one event of a stream (then with sentence_id and is_end, and `result` is the new
 * text only). finish_reason: normal, stop, length, content_filter, function_call.
 */
export interface BaiduChatResponse {
  id?: string;
  object?: string;
  created?: number;
  sentence_id?: number;
  is_end?: boolean;
  is_truncated?: boolean;
  result?: string;
  need_clear_history?: boolean;
  finish_reason?: string;
  function_call?: BaiduFunctionCall;
  usage?: BaiduUsage;
}

/** A failure, which Baidu answers with HTTP 200 (https://cloud.baidu.com/doc/WENXINWORKSHOP/s/tlmyncueh). */
export interface BaiduErrorBody {
  error_code: number;
  error_msg?: string;
}

export interface BaiduEmbeddingRequest {
  input: string[];
  user_id?: string;
}

export interface BaiduEmbeddingResponse {
  id?: string;
  object?: string;
  created?: number;
  /** a base64 string only from the v2 API, when asked for */
  data?: Array<{ object?: string; embedding?: number[] | string; index?: number }>;
  usage?: BaiduUsage;
}

/** The OAuth answer of /oauth/2.0/token (https://cloud.baidu.com/doc/WENXINWORKSHOP/s/Ilkkrb0i5). */
export interface BaiduTokenAnswer {
  access_token?: string;
  /** seconds; 2592000 (30 days) */
  expires_in?: number;
  error?: string;
  error_description?: string;
}
