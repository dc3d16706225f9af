import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import { completionText } from '../canonical/completion-text';
import { UpstreamFormatError, UpstreamReportedError, type ChatTranslator } from '../canonical/translation';
import { reportChannelFailure } from '../channels/channel-health';
import type { IngressCodec } from '../protocols/ingress-codec';
import type { JsonCapability, ReadResponse, TokenUsage } from '../providers/provider-types';
import { forgetChannelCredential } from './channel-credentials';
import { failedChannelOf, type AttemptOutcome } from './relay-attempts';
import { RelayError } from './relay-error';
import { ClientGoneError, isClientGone, markFirstByte, type FinalWrite, type RelayJob } from './relay-job';
import type { StreamTranscoder } from './stream-transcoders';
import { readAllChunks, type StreamedUpstreamResponse } from './streamed-upstream-call';
import { readUpstreamBody, type UpstreamResponse } from './upstream-call';
import { describeConnectionFailure, describeReportedError, toRelayError } from './upstream-failure';

/** What reached the client, for billing. */
export interface Delivered {
  /** as the upstream reported it; null = count locally */
  usage: TokenUsage | null;
  /** read only when usage is null (JSON answers parse the whole answer for it) */
  readonly completionText: string;
  /** the answer parsed, for JSON answers (null for streams); parsed on first read */
  readonly answer: unknown;
  /** why the answer was cut short, when it was: billed for what was produced */
  interruption: 'client disconnected' | 'upstream stream interrupted' | null;
}

/**
 * The whole upstream body, or a failure that another channel may do better than (a connection that broke
 * while it was read).
 */
export function readWholeAnswer(job: RelayJob, response: UpstreamResponse): Promise<AttemptOutcome<Buffer>> {
  return readWhole(job, readUpstreamBody(response));
}

/** readWholeAnswer for a streamed answer (a JSON answer to a stream request). */
export function readWholeStreamedAnswer(
  job: RelayJob,
  response: StreamedUpstreamResponse,
): Promise<AttemptOutcome<Buffer>> {
  return readWhole(job, readAllChunks(response.body));
}

async function readWhole(job: RelayJob, reading: Promise<Buffer>): Promise<AttemptOutcome<Buffer>> {
  try {
    return { ok: true, value: await reading };
  } catch (error) {
    if (isClientGone(job)) throw new ClientGoneError();
    return { ok: false, failure: describeConnectionFailure(error) };
  }
}

/**
 * A whole JSON answer (read by callChannelForWhole), checked and sent in one piece: the upstream's bytes, or
 * the capability's translation of them for `input`. A failure before it is sent may be retried: a malformed
 * answer throws UpstreamFormatError from readResponse.
 */
export function deliverJsonBody<Input>(
  job: RelayJob,
  reply: FastifyReply,
  body: Buffer,
  capability: Pick<JsonCapability<Input>, 'readResponse'>,
  input?: Input,
): AttemptOutcome<Delivered> {
  const answer = capability.readResponse(body, input);
  holdWholeAnswer(job, reply, answer.body);
  return { ok: true, value: new DeliveredJson(answer) };
}

/**
 * A JSON answer as delivered, reading the text and the parsed answer from the adapter's reading only when
 * billing asks. A class, not an object literal with getters, which makes two functions per answer.
 */
class DeliveredJson implements Delivered {
  usage: TokenUsage | null;
  interruption: Delivered['interruption'] = null;

  constructor(private readonly read: ReadResponse) {
    this.usage = read.usage;
  }

  get completionText(): string {
    return this.read.completionText;
  }

  get answer(): unknown {
    return this.read.answer;
  }
}

/** A whole vendor answer (read by callChannelForWhole) translated into the client's protocol. */
export function deliverTranslatedJson(
  job: RelayJob,
  reply: FastifyReply,
  body: Buffer,
  translator: Pick<ChatTranslator, 'readResponse'>,
  codec: IngressCodec,
): AttemptOutcome<Delivered> {
  const { completion, usage } = translator.readResponse(body);
  holdWholeAnswer(job, reply, codec.encodeAnswer(completion));
  return {
    ok: true,
    value: {
      usage,
      get completionText() {
        return completionText(completion);
      },
      answer: null,
      interruption: null,
    },
  };
}

/** A whole body is the answer's end: it is sent once the settlement is committed (finishRelayJob). */
export function holdWholeAnswer(
  job: RelayJob,
  reply: FastifyReply,
  body: string | Buffer,
  contentType = 'application/json',
): void {
  job.finalWrite = new HeldBody(reply, body, contentType);
}

// The held writes are small classes: one object per answer, not an object and two closures.

class HeldBody implements FinalWrite {
  constructor(
    private readonly reply: FastifyReply,
    private readonly body: string | Buffer,
    private readonly contentType: string,
  ) {}

  end(): void {
    void this.reply.code(200).header('content-type', this.contentType).send(this.body);
  }

  /** Nothing was sent: the error handler answers. */
  abandon(): void {}
}

class HeldStreamEnd implements FinalWrite {
  constructor(
    private readonly raw: ServerResponse,
    private readonly text: string,
  ) {}

  end(): void {
    this.raw.end(this.text);
  }

  /** The events so far were sent, but without their end the client sees an unfinished answer. */
  abandon(): void {
    this.raw.destroy();
  }
}

/** A stream's last write (its end event, or an error event) waits for the settlement like a JSON body. */
function holdStreamEnd(job: RelayJob, raw: ServerResponse, text: string): void {
  job.finalWrite = new HeldStreamEnd(raw, text);
}

/**
 * Takes the answer over from Fastify and writes its head: the reply's headers (request id, nosniff, rate limits)
 * with `added`. Copied and added to: V8 builds `{ ...headers, name: value }` on a slow path, and Node then
 * reads that object slowly too (~8 µs per stream in all, against ~2.5).
 */
export function writeOwnHead(reply: FastifyReply, added: Readonly<Record<string, string>>): void {
  reply.hijack();
  const headers: Record<string, string | number | string[] | undefined> = Object.assign(
    {},
    reply.getHeaders(),
  );
  for (const name in added) headers[name] = added[name];
  reply.raw.writeHead(200, headers);
}

/** The head's additions of an event stream, by content type: the same few objects for every stream. */
const eventStreamHeads = new Map<string, Readonly<Record<string, string>>>();

function startEventStream(reply: FastifyReply, contentType = 'text/event-stream; charset=utf-8'): void {
  let added = eventStreamHeads.get(contentType);
  if (!added) {
    added = {
      'content-type': contentType,
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    };
    eventStreamHeads.set(contentType, added);
  }
  writeOwnHead(reply, added);
}

/** A stream made at once from a whole answer (an upstream that answered JSON to a stream request). */
export function deliverWholeStream(
  job: RelayJob,
  reply: FastifyReply,
  text: string,
  billing: Pick<Delivered, 'usage' | 'completionText'>,
): AttemptOutcome<Delivered> {
  startEventStream(reply);
  markFirstByte(job);
  holdStreamEnd(job, reply.raw, text);
  return {
    ok: true,
    value: { usage: billing.usage, completionText: billing.completionText, answer: null, interruption: null },
  };
}

/** Resolves when the client's socket takes writes again, or is gone. */
function waitForRoom(raw: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      raw.off('drain', done);
      raw.off('close', done);
      resolve();
    };
    raw.on('drain', done);
    raw.on('close', done);
  });
}

/**
 * Streams an answer to the client as it comes, through the lane's transcoder. Until the first byte is written
 * an upstream failure (a broken connection, a malformed event) is retried on another channel; after it, the
 * client gets an error event in its protocol and the end. A client that goes away aborts the upstream call at
 * once (the job's signal) and is billed for what was produced.
 */
export async function deliverStream(
  job: RelayJob,
  reply: FastifyReply,
  response: StreamedUpstreamResponse,
  transcoder: StreamTranscoder,
): Promise<AttemptOutcome<Delivered>> {
  const raw = reply.raw;
  let isStarted = false;

  /** Answers a promise when the client's socket is full: a slow client holds the upstream back. */
  const forward = (text: string): Promise<void> | null => {
    if (text === '') return null;
    if (!isStarted) {
      startEventStream(reply, transcoder.contentType);
      isStarted = true;
      markFirstByte(job);
    }
    return raw.write(text) || raw.destroyed ? null : waitForRoom(raw);
  };
  const stopped = (interruption: Delivered['interruption']): AttemptOutcome<Delivered> => {
    // Named fields, not `{ ...finished, answer, interruption }`: a spread followed by more fields costs ~1 µs.
    const { usage, completionText } = transcoder.finish();
    return { ok: true, value: { usage, completionText, answer: null, interruption } };
  };

  let tail: string;
  const watch = job.attempt;
  try {
    await response.body.readChunks((chunk) => {
      // The first byte stops the first-token timer: from here on the stream is the client's.
      watch?.firstByte();
      return forward(transcoder.push(chunk));
    });
    tail = transcoder.end();
  } catch (error) {
    if (isClientGone(job)) {
      if (!isStarted) throw new ClientGoneError();
      return stopped('client disconnected');
    }
    if (!isStarted) {
      if (error instanceof UpstreamFormatError) throw error;
      return { ok: false, failure: describeConnectionFailure(error) };
    }
    if (error instanceof UpstreamReportedError) {
      // The vendor said why it stopped: the client gets its words, and the channel is rested or marked as
      // refused like after an error answer of that kind.
      const failure = describeReportedError(error, failedChannelOf(job.channel));
      reportChannelFailure(job.runtime.context, job.runtime.log, job.channel, failure, job.requestId);
      if (failure.code === 'channel_auth_failed') forgetChannelCredential(job.runtime, job.channel);
      holdStreamEnd(job, raw, transcoder.error(toRelayError(failure)));
      return stopped('upstream stream interrupted');
    }
    job.runtime.log.warn({ err: error, requestId: job.requestId }, 'upstream stream broke mid-answer');
    const message =
      error instanceof UpstreamFormatError
        ? `The upstream sent a stream event this gateway cannot read (${error.message})`
        : 'The upstream stream was interrupted';
    holdStreamEnd(
      job,
      raw,
      transcoder.error(new RelayError(502, message, 'upstream_error', 'stream_interrupted')),
    );
    return stopped('upstream stream interrupted');
  }
  if (isClientGone(job)) return stopped('client disconnected');
  if (!isStarted) startEventStream(reply, transcoder.contentType);
  holdStreamEnd(job, raw, tail);
  return stopped(null);
}
