import { collectChatChunks } from '../../canonical/collect-chat-chunks';
import type { ChatAnswer } from '../../canonical/translation';
import { readOpenAIChatAnswer } from '../openai-compatible/convert-openai-response';
import { createSparkFrameDecoder, SPARK_FRAME_SEPARATOR } from './spark-frame-decoder';
import { SparkReportedError } from './spark-reported-error';

/** Whether a whole answer is WebSocket frames (each with a `header`) rather than the HTTP API's JSON. */
function isFrames(body: Buffer): boolean {
  const text = body.toString('utf8');
  const firstLine = text.trimStart().split(SPARK_FRAME_SEPARATOR, 1)[0] ?? '';
  try {
    const parsed = JSON.parse(firstLine) as { header?: unknown } | null;
    return typeof parsed?.header === 'object' && parsed.header !== null;
  } catch {
    return false;
  }
}

/** The HTTP API adds Spark's own `code` to its OpenAI-style answers; one that is not 0 and has no choices failed. */
function refuseHttpError(body: Buffer): void {
  let parsed: { code?: unknown; message?: unknown; sid?: unknown; choices?: unknown } | null;
  try {
    parsed = JSON.parse(body.toString('utf8')) as typeof parsed;
  } catch {
    return;
  }
  if (parsed && typeof parsed.code === 'number' && parsed.code !== 0 && !Array.isArray(parsed.choices)) {
    const sid = typeof parsed.sid === 'string' ? parsed.sid : '';
    throw SparkReportedError.of(parsed.code, typeof parsed.message === 'string' ? parsed.message : '', sid);
  }
}

/**
 * A non-stream client's answer. On the WebSocket Spark always streams: the frames are collected into one
 * completion. The HTTP API (APIPassword keys) answers OpenAI's JSON, read as such.
 */
export function readSparkResponse(body: Buffer): ChatAnswer {
  if (!isFrames(body)) {
    refuseHttpError(body);
    return readOpenAIChatAnswer(body);
  }
  const decoder = createSparkFrameDecoder();
  const chunks = [...decoder.push(body), ...decoder.end()];
  return collectChatChunks(chunks, decoder.usage());
}
