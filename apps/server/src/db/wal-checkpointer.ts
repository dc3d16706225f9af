import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** The checkpoint runs at most this long after the first write that follows the previous one. */
const CHECKPOINT_DELAY_MS = 250;
/** A thread with nothing to do for this long ends (its memory goes back); the next write starts another. */
const IDLE_EXIT_MS = 30_000;
/** Writes that start a thread; fewer (start-up, a trickle) are checkpointed on the main connection instead. */
const START_AFTER_WRITES = 64;
/** How long a trickle of writes waits for its checkpoint on the main connection (a small WAL: quick). */
const TRICKLE_CHECKPOINT_MS = 5_000;
/** How long closing the database waits for the thread to close its own connection. */
const STOP_WAIT_MS = 2_000;
/**
 * The WAL file is cut back to this size when it starts over (SQLite's journal_size_limit): a burst may grow it,
 * an idle server does not keep the space. Above what steady load fills between two checkpoints, so the file is
 * not cut and regrown every round.
 */
const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;
/** SQLite's own default, used again when no thread can be started. */
const AUTOCHECKPOINT_PAGES = 1000;

/** Slots of the shared Int32Array between the main thread and the checkpoint thread. */
const WRITTEN = 0;
const STOP = 1;
const CLOSED = 2;
/** 1 while the thread wants the write lock to start the WAL over: the main connection starts nothing new. */
const RESTARTING = 3;
const FLAG_BYTES = 16;

/**
 * How long the thread's second checkpoint tries for the write lock (the main connection finishing the
 * transaction it is in); past it the checkpoint stays passive and the next round tries again. Short, as the
 * main connection starts nothing new meanwhile (RESTARTING).
 */
const RESTART_WAIT_MS = 5;
/** Its pause between two tries. */
const RESTART_RETRY_MS = 0.2;
/** The longest the main connection waits for the thread's restart (which ends sooner, or gives up). */
const RESTART_GATE_MS = 100;

/**
 * The thread's code (CommonJS, evaluated): its own connection to the same file; it sleeps until the main
 * thread flags a write (Atomics, no message and no timer on the main thread), lets CHECKPOINT_DELAY_MS of
 * writes gather, clears the flag and checkpoints in two steps. First a PASSIVE checkpoint: it copies what the
 * readers allow and never waits for or blocks a writer — the bulk of the work and the time. Then a RESTART
 * one, which takes the write lock, copies the few frames committed meanwhile and leaves the WAL fully copied,
 * so the next commit writes from the start of the file again. Without that second step the WAL only starts
 * over when a checkpoint ends before the next commit, which under steady load never happens: the file grew by
 * every commit (1.7 GB in 18 s at one client) and each commit cost more as it did.
 *
 * The write lock is SQLite's file lock, and a connection that finds it taken sleeps in its busy handler (1,
 * 2, 5 ms …) — on the main thread, the event loop. So the thread raises RESTARTING first: the main connection
 * starts no statement while it is up and waits for it asynchronously (whenWritable), the thread tries for the
 * lock every RESTART_RETRY_MS (no busy handler of its own) until the transaction under way ends, restarts,
 * and lowers the flag. After IDLE_EXIT_MS without a write the thread ends. A failed checkpoint is reported.
 */
const THREAD_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.libsqlPath);
const flags = new Int32Array(workerData.flags);
const database = new Database(workerData.path);
// No busy handler: the restart below tries again by itself, without holding anything in between.
database.exec('PRAGMA busy_timeout = 0');
const checkpoint = database.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const restart = database.prepare('PRAGMA wal_checkpoint(RESTART)');
const pause = new Int32Array(new SharedArrayBuffer(4));
for (;;) {
  Atomics.wait(flags, ${WRITTEN}, 0, workerData.idleExitMs);
  if (Atomics.load(flags, ${STOP}) === 1) break;
  if (Atomics.load(flags, ${WRITTEN}) === 0) break;
  Atomics.wait(pause, 0, 0, workerData.delayMs);
  if (Atomics.load(flags, ${STOP}) === 1) break;
  Atomics.store(flags, ${WRITTEN}, 0);
  try {
    checkpoint.get();
    Atomics.store(flags, ${RESTARTING}, 1);
    const giveUpAt = performance.now() + workerData.restartWaitMs;
    while (restart.get().busy !== 0 && performance.now() < giveUpAt) {
      Atomics.wait(pause, 0, 0, workerData.restartRetryMs);
    }
  } catch (error) {
    parentPort.postMessage('failed: ' + (error && error.message));
    break;
  } finally {
    Atomics.store(flags, ${RESTARTING}, 0);
    Atomics.notify(flags, ${RESTARTING});
  }
}
database.close();
Atomics.store(flags, ${CLOSED}, 1);
Atomics.notify(flags, ${CLOSED});
`;

/** Atomics.waitAsync: in every Node we run on (V8 8.7), in TypeScript's lib only from ES2024. */
const waitAsync = (
  Atomics as unknown as {
    waitAsync(
      array: Int32Array,
      index: number,
      value: number,
      timeoutMs: number,
    ): { async: false; value: string } | { async: true; value: Promise<string> };
  }
).waitAsync;

interface MainConnection {
  exec(sql: string): unknown;
}

/**
 * Moves SQLite's WAL checkpoints off the event loop. With automatic checkpoints, every thousandth page a commit
 * also copied the WAL into the database file and fsynced both — 0.4 to 13 ms measured, on the relay's thread,
 * every 30 or so requests: the p99 of a lone client. Here the main connection checkpoints only a trickle of
 * writes; under load a worker thread with its own connection does, CHECKPOINT_DELAY_MS after writes, and ends
 * when writes stop (so an idle server holds no thread: ~10 MB). The durability is SQLite's own
 * (synchronous=NORMAL: the checkpoint fsyncs). When no thread can be started or a checkpoint in it fails, the
 * main connection checkpoints by itself again.
 */
export class WalCheckpointer {
  private worker: Worker | null = null;
  private flags = new Int32Array(new SharedArrayBuffer(FLAG_BYTES));
  private isStopped = false;
  private isFallenBack = false;
  /** writes since the last checkpoint while no thread runs */
  private pendingWrites = 0;
  private trickleTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly path: string,
    private readonly main: MainConnection,
    private readonly warn: (message: string) => void = (message) => console.warn(message),
    private readonly timing = { idleExitMs: IDLE_EXIT_MS, trickleMs: TRICKLE_CHECKPOINT_MS },
  ) {
    main.exec('PRAGMA wal_autocheckpoint = 0');
    main.exec(`PRAGMA journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  }

  /**
   * A statement wrote to the WAL. With the thread running: it checkpoints within CHECKPOINT_DELAY_MS (one
   * atomic read, mostly). Without: the START_AFTER_WRITES-th write starts it; until then the main connection
   * checkpoints the few writes TRICKLE_CHECKPOINT_MS later, so an idle or lightly used server holds no thread.
   */
  written(): void {
    if (this.isStopped || this.isFallenBack) return;
    if (this.worker !== null) {
      if (Atomics.load(this.flags, WRITTEN) === 1) return;
      Atomics.store(this.flags, WRITTEN, 1);
      Atomics.notify(this.flags, WRITTEN);
      return;
    }
    this.pendingWrites += 1;
    if (this.pendingWrites >= START_AFTER_WRITES) {
      this.pendingWrites = 0;
      this.cancelTrickle();
      this.start();
      return;
    }
    if (this.trickleTimer !== null) return;
    this.trickleTimer = setTimeout(() => {
      this.trickleTimer = null;
      if (this.worker !== null || this.pendingWrites === 0 || this.isStopped) return;
      this.pendingWrites = 0;
      try {
        this.main.exec('PRAGMA wal_checkpoint(PASSIVE)');
      } catch (error) {
        this.warn(`SQLite: a checkpoint failed (${String(error)}); the next writes try again`);
      }
    }, this.timing.trickleMs);
    this.trickleTimer.unref();
  }

  private cancelTrickle(): void {
    if (this.trickleTimer !== null) clearTimeout(this.trickleTimer);
    this.trickleTimer = null;
  }

  private start(): void {
    const flags = new Int32Array(new SharedArrayBuffer(FLAG_BYTES));
    flags[WRITTEN] = 1;
    let worker: Worker;
    try {
      worker = new Worker(THREAD_CODE, {
        eval: true,
        workerData: {
          libsqlPath: createRequire(import.meta.url).resolve('libsql'),
          path: this.path,
          flags: flags.buffer,
          delayMs: CHECKPOINT_DELAY_MS,
          restartWaitMs: RESTART_WAIT_MS,
          restartRetryMs: RESTART_RETRY_MS,
          idleExitMs: this.timing.idleExitMs,
        },
        // A checkpoint allocates next to nothing: a small heap keeps the thread's memory small.
        resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 },
        stdout: false,
        stderr: false,
      });
    } catch (error) {
      this.fallBack(`could not start the checkpoint thread (${String(error)})`);
      return;
    }
    this.flags = flags;
    this.worker = worker;
    worker.unref();
    worker.on('message', (message: string) => this.fallBack(`a checkpoint in its thread ${message}`));
    worker.on('error', (error) => this.fallBack(`the checkpoint thread failed (${error.message})`));
    worker.on('exit', () => {
      if (this.worker !== worker) return;
      this.worker = null;
      // Ended for want of writes just as one came: it counts as a write of its own.
      if (Atomics.load(flags, WRITTEN) === 1) this.written();
    });
  }

  private fallBack(reason: string): void {
    if (this.isFallenBack || this.isStopped) return;
    this.isFallenBack = true;
    this.warn(`SQLite: ${reason}; checkpoints run on the main connection again`);
    this.main.exec(`PRAGMA wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    void this.worker?.terminate();
    this.worker = null;
  }

  /**
   * Null when the main connection may go on; while the thread starts the WAL over, a promise that settles when
   * it is done (or gave up), to await before the next statement instead of sleeping in SQLite's busy handler.
   */
  whenWritable(): Promise<unknown> | null {
    // A thread that ended (or was ended) in the middle of a restart left the flag up: nothing to wait for.
    if (this.worker === null || Atomics.load(this.flags, RESTARTING) === 0) return null;
    const wait = waitAsync(this.flags, RESTARTING, 1, RESTART_GATE_MS);
    return wait.async ? wait.value : null;
  }

  /** Is a checkpoint thread running (for tests)? */
  get hasThread(): boolean {
    return this.worker !== null;
  }

  /** Ends the thread after it closed its connection, so the main one closes last. */
  stop(): void {
    this.isStopped = true;
    this.cancelTrickle();
    const worker = this.worker;
    this.worker = null;
    if (worker === null) return;
    Atomics.store(this.flags, STOP, 1);
    Atomics.notify(this.flags, WRITTEN);
    Atomics.wait(this.flags, CLOSED, 0, STOP_WAIT_MS);
    void worker.terminate();
  }
}
