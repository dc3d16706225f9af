import { createRequire } from 'node:module';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { CLOSED, PENDING, RESTARTING, SIGNAL, STOP, THREAD_CODE, WRITTEN } from './sqlite-write-thread-code';

/** The checkpoint runs at most this long after the first write that follows the previous one. */
const CHECKPOINT_DELAY_MS = 250;
/** A thread with nothing to do for this long ends (its memory goes back); the next writes start another. */
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

const FLAG_BYTES = 32;

/** The longest the main connection waits for the thread's restart (which ends sooner, or gives up). */
const RESTART_GATE_MS = 100;

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
 * A transaction for the thread: statement after statement, its SQL text, its parameters, and the count of
 * rows it must change (a write) or answer (a read) for the transaction to go on, or null when any will do.
 */
export type WriteScript = unknown[];

/** What became of a script. */
export type ScriptOutcome =
  /** committed: the rows of each reading statement, in order */
  | { answers: unknown[][] }
  /** rolled back at this statement, whose count was not the one expected */
  | { mismatch: number }
  /** rolled back: the statement or the commit failed */
  | { error: { message: string; code?: string } }
  /** the thread ended before it took the script (nothing ran) */
  | { notRun: true };

/** The thread stopped while it ran the script: it may have committed or not. */
export class WriteThreadLost extends Error {
  readonly isInDoubt = true;
}

interface Sent {
  resolve: (outcome: ScriptOutcome) => void;
  reject: (error: unknown) => void;
}

/**
 * SQLite's write thread: a worker thread with its own connection that runs the relay's write transactions and
 * the WAL checkpoints, so neither runs on the event loop.
 *
 * Transactions (runScript), when `runsTransactions`: the relay's ledger builds each transaction on the main
 * thread as a script of compiled statements with the counts its usual course expects
 * (db/direct-statements.ts) and awaits the thread's answer; the statements' work, the commit and its writes
 * happen in the thread. It is off unless SQLITE_WRITE_THREAD=on: measured, the hand-over (messages,
 * wake-ups, a second connection's statements) costs more CPU than the statements it moves, and a lone
 * request waits for two hand-overs; what it buys is a shorter event-loop delay under load (bench/README.md).
 *
 * Checkpoints: with automatic checkpoints, every thousandth page a commit also copied the WAL into the database
 * file and fsynced both — 0.4 to 13 ms measured, on the relay's thread, every 30 or so requests: the p99 of a
 * lone client. Here the main connection checkpoints only a trickle of writes; under load the thread does,
 * CHECKPOINT_DELAY_MS after writes. The durability is SQLite's own (synchronous=NORMAL: the checkpoint fsyncs).
 *
 * The thread starts with the START_AFTER_WRITES-th write of the main connection and ends when writes stop
 * (so an idle server holds no thread: ~10 MB); meanwhile transactions run on the main connection as before.
 * When no thread can be started or a checkpoint in it fails, the main connection does everything by itself
 * again.
 */
export class SqliteWriteThread {
  private worker: Worker | null = null;
  private port: MessagePort | null = null;
  private flags = new Int32Array(new SharedArrayBuffer(FLAG_BYTES));
  /** scripts posted to the running thread, in order: it answers them in that order */
  private sent: Sent[] = [];
  private isStopped = false;
  private isFallenBack = false;
  /** writes since the last checkpoint while no thread runs */
  private pendingWrites = 0;
  private trickleTimer: NodeJS.Timeout | null = null;

  private readonly runsTransactions: boolean;
  private readonly warn: (message: string) => void;
  private readonly timing: { idleExitMs: number; trickleMs: number };

  /**
   * `runsTransactions`: whether runScript takes transactions (else the thread only checkpoints and the
   * relay's transactions stay on the main connection). `timing` is for tests.
   */
  constructor(
    private readonly path: string,
    private readonly main: MainConnection,
    {
      runsTransactions = true,
      warn = (message: string) => console.warn(message),
      timing = { idleExitMs: IDLE_EXIT_MS, trickleMs: TRICKLE_CHECKPOINT_MS },
    }: {
      runsTransactions?: boolean;
      warn?: (message: string) => void;
      timing?: { idleExitMs: number; trickleMs: number };
    } = {},
  ) {
    this.runsTransactions = runsTransactions;
    this.warn = warn;
    this.timing = timing;
    main.exec('PRAGMA wal_autocheckpoint = 0');
    main.exec(`PRAGMA journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  }

  /**
   * A statement of the main connection wrote to the WAL. With the thread running: it checkpoints within
   * CHECKPOINT_DELAY_MS (one atomic read, mostly). Without: the START_AFTER_WRITES-th write starts it; until
   * then the main connection checkpoints the few writes TRICKLE_CHECKPOINT_MS later, so an idle or lightly
   * used server holds no thread.
   */
  written(): void {
    if (this.isStopped || this.isFallenBack) return;
    if (this.worker !== null) {
      if (Atomics.load(this.flags, WRITTEN) === 1) return;
      Atomics.store(this.flags, WRITTEN, 1);
      this.wake();
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

  /**
   * Hands a transaction to the thread; null when no thread runs (the caller runs it on the main connection).
   * Resolves with what became of it; rejects with WriteThreadLost when the thread stopped while running it.
   */
  runScript(script: WriteScript): Promise<ScriptOutcome> | null {
    const port = this.port;
    if (port === null || this.isFallenBack || !this.runsTransactions) return null;
    // Counted before it is posted: a thread that sees none pending may end, one that sees this one may not.
    if (Atomics.add(this.flags, PENDING, 1) < 0) return null;
    return new Promise((resolve, reject) => {
      this.sent.push({ resolve, reject });
      port.postMessage(script);
      this.wake();
    });
  }

  private wake(): void {
    Atomics.add(this.flags, SIGNAL, 1);
    Atomics.notify(this.flags, SIGNAL);
  }

  private cancelTrickle(): void {
    if (this.trickleTimer !== null) clearTimeout(this.trickleTimer);
    this.trickleTimer = null;
  }

  private start(): void {
    const flags = new Int32Array(new SharedArrayBuffer(FLAG_BYTES));
    flags[WRITTEN] = 1;
    const { port1, port2 } = new MessageChannel();
    let worker: Worker;
    try {
      worker = new Worker(THREAD_CODE, {
        eval: true,
        workerData: {
          libsqlPath: createRequire(import.meta.url).resolve('libsql'),
          path: this.path,
          flags: flags.buffer,
          port: port2,
          delayMs: CHECKPOINT_DELAY_MS,
          idleExitMs: this.timing.idleExitMs,
        },
        transferList: [port2],
        // The scripts and their answers are small (a batch of a few hundred requests: tens of KB).
        resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 32 },
        stdout: false,
        stderr: false,
      });
    } catch (error) {
      port1.close();
      this.fallBack(`could not start the write thread (${String(error)})`);
      return;
    }
    this.flags = flags;
    this.worker = worker;
    this.port = port1;
    const sent: Sent[] = [];
    this.sent = sent;
    worker.unref();
    port1.unref();
    port1.on('message', (outcomes: ScriptOutcome[]) => {
      for (const outcome of outcomes) sent.shift()?.resolve(outcome);
    });
    worker.on('message', (message: string) => this.fallBack(`a checkpoint in its thread ${message}`));
    worker.on('error', (error) => this.fallBack(`the write thread failed (${error.message})`));
    worker.on('exit', () => {
      // Answers already posted are taken first. What is left was never taken when the thread ended by itself
      // (it runs a script whole before it looks at STOP or ends); when it was stopped from outside or failed,
      // the first may have been under way, even committed.
      for (
        let answer = receiveMessageOnPort(port1);
        answer !== undefined;
        answer = receiveMessageOnPort(port1)
      ) {
        for (const outcome of answer.message as ScriptOutcome[]) sent.shift()?.resolve(outcome);
      }
      if (Atomics.load(flags, CLOSED) !== 1 && sent.length > 0) {
        sent
          .shift()
          ?.reject(new WriteThreadLost('the SQLite write thread stopped while running a transaction'));
      }
      for (const left of sent.splice(0)) left.resolve({ notRun: true });
      port1.close();
      if (this.worker !== worker) return;
      this.worker = null;
      this.port = null;
      // Ended for want of writes just as one came: it counts as a write of its own.
      if (Atomics.load(flags, WRITTEN) === 1) this.written();
    });
  }

  private fallBack(reason: string): void {
    if (this.isFallenBack || this.isStopped) return;
    this.isFallenBack = true;
    this.warn(`SQLite: ${reason}; transactions and checkpoints run on the main connection again`);
    this.main.exec(`PRAGMA wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    const worker = this.worker;
    if (worker === null) return;
    // Scripts already posted are answered before the thread sees STOP; the exit handler settles the rest.
    Atomics.store(this.flags, STOP, 1);
    this.wake();
    setTimeout(() => void worker.terminate(), STOP_WAIT_MS).unref();
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

  /** Is a write thread running (for tests)? */
  get hasThread(): boolean {
    return this.worker !== null;
  }

  /** Would runScript take a transaction now (a thread runs, and it runs transactions)? */
  get takesTransactions(): boolean {
    return this.worker !== null && this.runsTransactions && !this.isFallenBack;
  }

  /**
   * Ends the thread after it closed its own connection, so the main one closes last. Callers let the
   * transactions they handed over finish first (the ledger and the reservations are flushed before the
   * database closes); any left are answered as not run.
   */
  stop(): void {
    this.isStopped = true;
    this.cancelTrickle();
    const worker = this.worker;
    if (worker === null) return;
    Atomics.store(this.flags, STOP, 1);
    this.wake();
    Atomics.wait(this.flags, CLOSED, 0, STOP_WAIT_MS);
    this.worker = null;
    this.port = null;
    void worker.terminate();
  }
}
