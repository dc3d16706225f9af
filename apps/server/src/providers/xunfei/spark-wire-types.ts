import type { JsonSchema } from '../../canonical/chat';

/**
 * iFlytek Spark's WebSocket chat protocol (https://www.xfyun.cn/doc/spark/Web.html): one request frame, then
 * answer frames until one with status 2. Only the fields the gateway sends or reads are typed.
 */
export const SPARK = 'iFlytek Spark';

export interface SparkTextMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface SparkFunction {
  name: string;
  description?: string;
  parameters?: JsonSchema;
}

export interface SparkRequestFrame {
  header: { app_id: string; uid?: string };
  parameter: {
    chat: { domain: string; temperature?: number; max_tokens?: number; top_k?: number };
  };
  payload: {
    message: { text: SparkTextMessage[] };
    functions?: { text: SparkFunction[] };
  };
}

/** `prompt_tokens` counts the whole input (history included); `question_tokens` only the last question. */
export interface SparkUsage {
  question_tokens?: number;
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
}

export interface SparkAnswerText {
  content?: string;
  role?: 'assistant';
  index?: number;
  /** arguments is JSON text */
  function_call?: { name?: string; arguments?: string };
}

/** One answer frame. `header.code` ≠ 0 is an error; `header.status` 2 is the last frame. */
export interface SparkAnswerFrame {
  header: { code: number; message?: string; sid?: string; status?: number };
  payload?: {
    choices?: { status?: number; seq?: number; text?: SparkAnswerText[] };
    usage?: { text?: SparkUsage };
  };
}
