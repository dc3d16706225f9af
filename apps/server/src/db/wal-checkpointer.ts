import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** The checkpoint runs at most this long after the first write that follows the previous one. */
const CHECKPOINT_DELAY_MS = 250;
/** A thread with nothing to do for this long ends (its memory goes back); the next write starts another. */
const IDLE_EXIT_MS = 30_000;
/** How long closing the database waits for the thread to close its own connection. */
const STOP_WAIT_MS = 2_000;
/** SQLite's own default, used again when no thread can be started. */
const AUTOCHECKPOINT_PAGES = 1000;

/**
 * The thread's code (CommonJS, evaluated): its own connection to the same file, a PASSIVE checkpoint on each
 * message — it copies what the readers allow and never waits for or blocks a writer — and its end after
 * IDLE_EXIT_MS without one. `stop` closes the connection and says so through the shared flag.
 */
const THREAD_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.libsqlPath);
const database = new Database(workerData.path);
const checkpoint = database.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const stopped = new Int32Array(workerData.stopped);
let idle = setTimeout(() => process.exit(0), workerData.idleExitMs);
parentPort.on('message', (message) => {
  if (message === 'stop') {
    database.close();
    Atomics.store(stopped, 0, 1);
    Atomics.notify(stopped, 0);
    process.exit(0);
  }
  clearTimeout(idle);
  idle = setTimeout(() => process.exit(0), workerData.idleExitMs);
  try {
    checkpoint.get();
    parentPort.postMessage('done');
  } catch (error) {
    parentPort.postMessage('failed: ' + (error && error.message));
  }
});
`;

interface MainConnection {
  exec(sql: string): unknown;
}

/**
 * Moves SQLite's WAL checkpoints off the event loop. With automatic checkpoints, every thousandth page a commit
 * also copied the WAL into the database file and fsynced both — 0.4 to 13 ms measured, on the relay's thread,
 * every 30 or so requests: the p99 of a lone client. Here the main connection never checkpoints; a worker
 * thread with its own connection does, CHECKPOINT_DELAY_MS after writes, and ends when writes stop (so an idle
 * server holds no thread). The durability is SQLite's own (synchronous=NORMAL: the checkpoint fsyncs). When no
 * thread can be started or a checkpoint fails, the main connection checkpoints by itself again.
 */
export class WalCheckpointer {
  private worker: Worker | null = null;
  private timer: NodeJS.Timeout | null = null;
  private isRunning = false;
  private isAgain = false;
  private isStopped = false;
  private isFallenBack = false;
  private stoppedFlag = new Int32Array(new SharedArrayBuffer(4));

  constructor(
    private readonly path: string,
    private readonly main: MainConnection,
    private readonly warn: (message: string) => void = (message) => console.warn(message),
  ) {
    main.exec('PRAGMA wal_autocheckpoint = 0');
  }

  /** A commit wrote to the WAL: a checkpoint follows within CHECKPOINT_DELAY_MS. */
  written(): void {
    if (this.timer !== null || this.isStopped || this.isFallenBack) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.request();
    }, CHECKPOINT_DELAY_MS);
    this.timer.unref();
  }

  private request(): void {
    if (this.isRunning) {
      this.isAgain = true;
      return;
    }
    const worker = this.worker ?? this.start();
    if (worker === null) return;
    this.isRunning = true;
    worker.postMessage('checkpoint');
  }

  private start(): Worker | null {
    let worker: Worker;
    try {
      this.stoppedFlag = new Int32Array(new SharedArrayBuffer(4));
      worker = new Worker(THREAD_CODE, {
        eval: true,
        workerData: {
          libsqlPath: createRequire(import.meta.url).resolve('libsql'),
          path: this.path,
          idleExitMs: IDLE_EXIT_MS,
          stopped: this.stoppedFlag.buffer,
        },
        // A checkpoint allocates next to nothing: a small heap keeps the thread's memory small.
        resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 },
        stdout: false,
        stderr: false,
      });
    } catch (error) {
      this.fallBack(`could not start the checkpoint thread (${String(error)})`);
      return null;
    }
    worker.unref();
    worker.on('message', (message: string) => {
      this.isRunning = false;
      if (message !== 'done') this.fallBack(`a checkpoint in its thread ${message}`);
      else if (this.isAgain) {
        this.isAgain = false;
        this.written();
      }
    });
    worker.on('error', (error) => this.fallBack(`the checkpoint thread failed (${error.message})`));
    worker.on('exit', () => {
      if (this.worker !== worker) return;
      this.worker = null;
      // Ended while a checkpoint was asked for (it had just timed out): the next write asks again.
      if (this.isRunning) {
        this.isRunning = false;
        this.written();
      }
    });
    this.worker = worker;
    return worker;
  }

  private fallBack(reason: string): void {
    if (this.isFallenBack || this.isStopped) return;
    this.isFallenBack = true;
    this.warn(`SQLite: ${reason}; checkpoints run on the main connection again`);
    this.main.exec(`PRAGMA wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    void this.worker?.terminate();
    this.worker = null;
  }

  /** Ends the thread after it closed its connection, so closing the main one can fold the WAL in. */
  stop(): void {
    this.isStopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    const worker = this.worker;
    this.worker = null;
    if (worker === null) return;
    worker.postMessage('stop');
    Atomics.wait(this.stoppedFlag, 0, 0, STOP_WAIT_MS);
    void worker.terminate();
  }
}
