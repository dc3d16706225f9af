import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { createBytePairCounter } from './byte-pair-counter';

export type EncodingName = 'o200k' | 'cl100k';

/**
 * The thread's code (CommonJS, evaluated). Each encoding's counter is built from gpt-tokenizer's rank file on
 * its first use (byte-pair-counter.ts, whose function is inlined here as text), and each message is answered
 * with the sum of its texts' token counts.
 */
const THREAD_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
const { CL100K_TOKEN_SPLIT_REGEX, O200K_TOKEN_SPLIT_REGEX } = require(workerData.splitPatterns);
const patterns = { cl100k: CL100K_TOKEN_SPLIT_REGEX, o200k: O200K_TOKEN_SPLIT_REGEX };
// what esbuild's keepNames (tsx in development) calls inside a function it compiled
const __name = (target) => target;
const createBytePairCounter = ${createBytePairCounter.toString()};
const counters = new Map();
parentPort.on('message', ({ id, encoding, texts }) => {
  try {
    let count = counters.get(encoding);
    if (!count) {
      if (!Object.hasOwn(patterns, encoding)) throw new Error('unknown encoding ' + encoding);
      count = createBytePairCounter(readFileSync(workerData.rankFiles[encoding], 'latin1'), patterns[encoding]);
      counters.set(encoding, count);
    }
    let tokens = 0;
    for (const text of texts) tokens += count(text);
    parentPort.postMessage({ id, tokens });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
`;

/** With nothing to count this long, the thread ends and its tables leave memory; the next count loads them again. */
const IDLE_EXIT_MS = 5 * 60_000;

interface Waiter {
  resolve: (tokens: number) => void;
  reject: (error: Error) => void;
}

type Answer = { id: number; tokens: number } | { id: number; error: string };

/**
 * Exact token counts, off the event loop. Counting a long text takes milliseconds (~7 ms per 100 KB of code
 * on a 2-core EPYC) and building an encoding's tables ~60 ms: a worker thread, started by the first count,
 * builds the tables and does the counting; the relay's thread only posts texts and reads sums. A thread that
 * stops fails what it was counting; the next count starts another.
 */
export class TokenizerThread {
  private worker: Worker | null = null;
  private readonly waiting = new Map<number, Waiter>();
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(private readonly idleExitMs = IDLE_EXIT_MS) {}

  /** The sum of the texts' token counts in `encoding`. */
  count(encoding: EncodingName, texts: string[]): Promise<number> {
    if (texts.length === 0) return Promise.resolve(0);
    const worker = this.worker ?? this.start();
    if (this.idleTimer) {
      clearTimeout(this.idleTimer);
      this.idleTimer = null;
    }
    // Keeps the process alive while something waits for a count, and only then.
    if (this.waiting.size === 0) worker.ref();
    const id = this.nextId;
    this.nextId += 1;
    return new Promise<number>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, encoding, texts });
    });
  }

  /** Whether the thread is running (it starts with the first count and ends when idle). */
  get isRunning(): boolean {
    return this.worker !== null;
  }

  /** Ends the thread; what it was counting fails. */
  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.stopped(worker, new Error('the tokenizer thread was closed'));
    await worker.terminate();
  }

  private start(): Worker {
    const resolve = createRequire(import.meta.url).resolve;
    // Without the process's flags and preloads (an operator's --require runs on the relay's thread only).
    const worker = new Worker(THREAD_CODE, {
      eval: true,
      execArgv: [],
      workerData: {
        splitPatterns: resolve('gpt-tokenizer/cjs/encodingParams/constants'),
        rankFiles: {
          o200k: resolve('gpt-tokenizer/data/o200k_base.tiktoken'),
          cl100k: resolve('gpt-tokenizer/data/cl100k_base.tiktoken'),
        },
      },
    });
    worker.on('message', (answer: Answer) => this.answered(worker, answer));
    worker.on('error', (error) => this.stopped(worker, error));
    worker.on('exit', (code) =>
      this.stopped(worker, new Error(`the tokenizer thread exited with code ${code}`)),
    );
    this.worker = worker;
    return worker;
  }

  private answered(worker: Worker, answer: Answer): void {
    const waiter = this.waiting.get(answer.id);
    if (!waiter) return;
    this.waiting.delete(answer.id);
    if ('error' in answer) waiter.reject(new Error(`counting tokens failed: ${answer.error}`));
    else waiter.resolve(answer.tokens);
    if (this.waiting.size > 0) return;
    worker.unref();
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.worker !== worker || this.waiting.size > 0) return;
      this.worker = null;
      void worker.terminate();
    }, this.idleExitMs);
    this.idleTimer.unref();
  }

  /** The thread failed or ended: whatever waits on it fails, and the next count starts a new one. */
  private stopped(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = null;
    if (this.idleTimer) {
      clearTimeout(this.idleTimer);
      this.idleTimer = null;
    }
    const waiters = [...this.waiting.values()];
    this.waiting.clear();
    for (const waiter of waiters) waiter.reject(error);
  }
}
