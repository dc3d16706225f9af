import { StringDecoder } from 'node:string_decoder';
import type { ChatChunk, ChatDelta, FinishReason } from '../../canonical/chat';
import { convertToChatUsage } from '../../canonical/convert-token-usage';
import { UpstreamFormatError, type ChatStreamDecoder, type TokenUsage } from '../../canonical/translation';
import { ChunksBeforeFailure } from '../shared/chunks-before-failure';
import { deltaChunk, finishChunks, type ChunkHead } from '../shared/stream-chunks';
import { SPARK_CONTENT_REVIEW_CODES } from './map-spark-error-code';
import { SparkReportedError } from './spark-reported-error';
import type { SparkAnswerFrame } from './spark-wire-types';
import { convertSparkUsage } from './convert-spark-usage';

/**
 * The answer frames as the Spark transport hands them over: one JSON frame per line. (WebSocket frames are
 * whole messages; the transport joins them with newlines, which JSON text never holds raw.)
 */
export const SPARK_FRAME_SEPARATOR = '\n';

function parseFrame(line: string): SparkAnswerFrame {
  let frame: unknown;
  try {
    frame = JSON.parse(line);
  } catch {
    throw new UpstreamFormatError('iFlytek Spark sent a frame that is not JSON');
  }
  const header = (frame as { header?: { code?: unknown } } | null)?.header;
  if (typeof header !== 'object' || header === null || typeof header.code !== 'number') {
    throw new UpstreamFormatError('iFlytek Spark sent a frame without a header code');
  }
  return frame as SparkAnswerFrame;
}

/**
 * Decodes Spark's answer frames (https://www.xfyun.cn/doc/spark/Web.html) into canonical chunks: the first
 * frame → the role chunk (its sid as the completion id); each frame's text → content; a function_call →
 * a whole tool call (Spark sends it in one piece, without an id: one is made from the sid); the frame with
 * status 2 → the finish reason (tool_calls after a function call, else stop) and a usage-only chunk.
 * An error frame (header.code ≠ 0) throws SparkReportedError, except iFlytek's content review refusing the
 * output after it began (10014 …), which ends the answer with finish reason content_filter.
 */
export function createSparkFrameDecoder(): ChatStreamDecoder {
  const text = new StringDecoder('utf8');
  const created = Math.floor(Date.now() / 1000);
  let pending = '';
  let id = '';
  let usage: TokenUsage | null = null;
  let hasToolCall = false;
  let isStarted = false;
  let isEnded = false;
  const failures = new ChunksBeforeFailure();

  const head = (): ChunkHead => ({ id, created, model: '' });
  const chunk = (delta: ChatDelta, finishReason: FinishReason | null = null) =>
    deltaChunk(head(), delta, finishReason);

  function read(frame: SparkAnswerFrame): ChatChunk[] {
    const { header, payload } = frame;
    if (isEnded) return [];
    const chunks: ChatChunk[] = [];
    if (!isStarted) {
      isStarted = true;
      id = header.sid ?? '';
      if (header.code !== 0) throw SparkReportedError.of(header.code, header.message, header.sid);
      chunks.push(chunk({ role: 'assistant', content: '' }));
    }
    if (header.code !== 0) {
      if (!SPARK_CONTENT_REVIEW_CODES.has(header.code))
        throw SparkReportedError.of(header.code, header.message, header.sid);
      isEnded = true;
      return [...chunks, chunk({}, 'content_filter')];
    }
    for (const item of payload?.choices?.text ?? []) {
      if (item.content) chunks.push(chunk({ content: item.content }));
      if (item.function_call?.name) {
        hasToolCall = true;
        const call = item.function_call;
        chunks.push(
          chunk({
            tool_calls: [
              {
                index: 0,
                id: `call_${id || 'spark'}`,
                type: 'function',
                function: { name: call.name ?? '', arguments: call.arguments || '{}' },
              },
            ],
          }),
        );
      }
    }
    const status = header.status ?? payload?.choices?.status;
    if (status === 2) {
      isEnded = true;
      usage = convertSparkUsage(payload?.usage?.text);
      chunks.push(
        ...finishChunks(
          head(),
          hasToolCall ? 'tool_calls' : 'stop',
          usage ? convertToChatUsage(usage) : null,
        ),
      );
    }
    return chunks;
  }

  const readLines = (lines: string[]) =>
    failures.read(lines, (line) => (line.trim() === '' ? [] : read(parseFrame(line))));

  return {
    push(bytes) {
      const lines = (pending + text.write(bytes)).split(SPARK_FRAME_SEPARATOR);
      pending = lines.pop() ?? '';
      return readLines(lines);
    },
    end() {
      const rest = pending + text.end();
      pending = '';
      let chunks: ChatChunk[] = [];
      try {
        chunks = readLines([rest]);
      } catch (error) {
        // The half frame of a cut stream is no news: the cut is.
        if (isEnded || error instanceof SparkReportedError) throw error;
      }
      failures.throwPending();
      if (!isEnded) {
        throw new UpstreamFormatError(
          isStarted
            ? 'the iFlytek Spark answer ended before its last frame'
            : 'the iFlytek Spark answer was empty',
        );
      }
      return chunks;
    },
    usage: () => usage,
  };
}
