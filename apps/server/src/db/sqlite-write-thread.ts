import { createRequire } from 'node:module';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';

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

// Slots of the shared Int32Array between the main thread and the write thread.
/** bumped by the main thread whenever it has something for the thread (a transaction, a write of its own) */
const SIGNAL = 0;
const STOP = 1;
const CLOSED = 2;
/** 1 while the thread wants the write lock to start the WAL over: the main connection starts nothing new. */
const RESTARTING = 3;
/** 1 when the main connection wrote since the thread last looked */
const WRITTEN = 4;
/**
 * Transactions handed to the thread and not answered yet. The thread ends for want of work only by swapping 0
 * for ENDED, in one atomic step, so a transaction is never handed to a thread that is ending.
 */
const PENDING = 5;
const ENDED = -1_000_000;
const FLAG_BYTES = 32;

/**
 * How long the thread's second checkpoint tries for the write lock (the main connection finishing the
 * transaction it is in); past it the checkpoint stays passive and the next round tries again. Short, as the
 * main connection starts nothing new meanwhile (RESTARTING).
 */
const RESTART_WAIT_MS = 5;
/** Its pause between two tries, and the thread's between two tries of BEGIN while another connection writes. */
const RETRY_PAUSE_MS = 0.2;
/** The longest the main connection waits for the thread's restart (which ends sooner, or gives up). */
const RESTART_GATE_MS = 100;
/** How long a transaction of the thread tries to begin while another connection (process) writes. */
const BUSY_GIVE_UP_MS = 5_000;

/**
 * The thread's code (CommonJS, evaluated): its own connection to the same file. It sleeps on SIGNAL (Atomics,
 * no timer on the main thread) and does two things.
 *
 * Transactions: the main thread posts each as a flat list of statements — SQL text, parameters, and the
 * count of rows the statement must change (a write) or answer (a read) for the transaction to hold, or null.
 * Every script the thread finds waiting goes into one transaction (BEGIN IMMEDIATE … COMMIT: one commit for
 * them all, group commit). A script whose count differs stops the transaction: it is rolled back whole, the
 * script is answered which statement it was (the main thread then runs that transaction itself, where its code
 * sees every result), and the others run again without it; one whose statement fails is answered the error
 * the same way. The others are answered the rows of their reading statements once the commit is done.
 *
 * Checkpoints: CHECKPOINT_DELAY_MS after the first write since the last one (its own, or the main
 * connection's, which flags WRITTEN), in two steps. First a PASSIVE checkpoint: it copies what the readers
 * allow and never waits for or blocks a writer — the bulk of the work and the time. Then a RESTART one, which
 * takes the write lock, copies the few frames committed meanwhile and leaves the WAL fully copied, so the next
 * commit writes from the start of the file again. Without that second step the WAL only starts over when a
 * checkpoint ends before the next commit, which under steady load never happens: the file grew by every
 * commit (1.7 GB in 18 s at one client) and each commit cost more as it did. The write lock is SQLite's file
 * lock, and a connection that finds it taken sleeps in its busy handler — on the main thread, the event loop.
 * So the thread raises RESTARTING first: the main connection starts no statement while it is up and waits for
 * it asynchronously (whenWritable); the thread tries for the lock every RETRY_PAUSE_MS until the main
 * connection's transaction under way ends, restarts, and lowers the flag.
 *
 * After IDLE_EXIT_MS without either the thread ends. A failed checkpoint is reported on parentPort and ends it.
 */
const THREAD_CODE = `
const { parentPort, workerData, receiveMessageOnPort } = require('node:worker_threads');
const Database = require(workerData.libsqlPath);
const flags = new Int32Array(workerData.flags);
const port = workerData.port;
const database = new Database(workerData.path);
// No busy handler: BEGIN and the restart below try again by themselves, without holding anything in between.
database.exec('PRAGMA busy_timeout = 0');
database.exec('PRAGMA synchronous = NORMAL');
const checkpoint = database.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const restart = database.prepare('PRAGMA wal_checkpoint(RESTART)');
const begin = database.prepare('BEGIN IMMEDIATE');
const commit = database.prepare('COMMIT');
const rollback = database.prepare('ROLLBACK');
const pause = new Int32Array(new SharedArrayBuffer(4));
const sleep = (ms) => Atomics.wait(pause, 0, 0, ms);
// Statements by their text, prepared once.
const statements = new Map();
// The statements of a script, looked up as it arrives; one that does not prepare is kept as its error, thrown
// when the script reaches it.
function resolveStatements(script) {
  for (let at = 0; at < script.length; at += 3) {
    const text = script[at];
    let statement = statements.get(text);
    if (statement === undefined) {
      try {
        statement = database.prepare(text);
        if (statements.size >= 1000) statements.clear();
        statements.set(text, statement);
      } catch (error) {
        statement = error instanceof Error ? error : new Error(String(error));
      }
    }
    script[at] = statement;
  }
  return script;
}
function beginWrite() {
  const giveUpAt = performance.now() + ${BUSY_GIVE_UP_MS};
  for (;;) {
    try {
      begin.run();
      return;
    } catch (error) {
      if (!error || error.code !== 'SQLITE_BUSY' || performance.now() > giveUpAt) throw error;
    }
    sleep(${RETRY_PAUSE_MS});
  }
}
function rollBack() {
  try {
    if (database.inTransaction) rollback.run();
  } catch {}
}
function failure(error) {
  return { error: { message: String(error && error.message), code: error && error.code } };
}
// One script inside the open transaction: its answers, or where it stopped (a count not the one expected, a
// statement that failed). A script that stops leaves its writes so far in the transaction.
function runStatements(script) {
  try {
    const answers = [];
    for (let at = 0; at < script.length; at += 3) {
      const statement = script[at];
      if (statement instanceof Error) throw statement;
      let count;
      if (statement.reader) {
        const rows = statement.all(script[at + 1]);
        answers.push(rows);
        count = rows.length;
      } else {
        count = Number(statement.run(script[at + 1]).changes);
      }
      const expected = script[at + 2];
      if (expected !== null && count !== expected) return { mismatch: at / 3 };
    }
    return { answers };
  } catch (error) {
    return failure(error);
  }
}
// Every script taken at once in one transaction and one commit (group commit). When one stops, the whole
// transaction is rolled back, that one answered, and the others run again without it in a new one: a
// savepoint per script would keep the others, but costs each of them more than the rare redo does.
function transactAll(scripts) {
  const outcomes = new Array(scripts.length);
  let left = scripts.map((_, index) => index);
  while (left.length > 0) {
    try {
      beginWrite();
    } catch (error) {
      for (const index of left) outcomes[index] = failure(error);
      break;
    }
    let stopped = -1;
    for (let at = 0; at < left.length && stopped < 0; at += 1) {
      const outcome = runStatements(scripts[left[at]]);
      outcomes[left[at]] = outcome;
      if (outcome.answers === undefined) stopped = at;
    }
    if (stopped < 0) {
      try {
        commit.run();
      } catch (error) {
        rollBack();
        for (const index of left) outcomes[index] = failure(error);
      }
      break;
    }
    rollBack();
    left.splice(stopped, 1);
  }
  return outcomes;
}
function runCheckpoint() {
  try {
    checkpoint.get();
    Atomics.store(flags, ${RESTARTING}, 1);
    const giveUpAt = performance.now() + ${RESTART_WAIT_MS};
    while (restart.get().busy !== 0 && performance.now() < giveUpAt) sleep(${RETRY_PAUSE_MS});
  } finally {
    Atomics.store(flags, ${RESTARTING}, 0);
    Atomics.notify(flags, ${RESTARTING});
  }
}
let dirtyAt = 0;
let workedAt = performance.now();
try {
  for (;;) {
    const signal = Atomics.load(flags, ${SIGNAL});
    if (Atomics.load(flags, ${STOP}) === 1) break;
    const scripts = [];
    for (let received = receiveMessageOnPort(port); received !== undefined; received = receiveMessageOnPort(port)) {
      scripts.push(resolveStatements(received.message));
    }
    if (scripts.length > 0) {
      const outcomes = transactAll(scripts);
      // One message for all of them: one wake-up of the main thread.
      port.postMessage(outcomes);
      Atomics.sub(flags, ${PENDING}, scripts.length);
      workedAt = performance.now();
      if (dirtyAt === 0 && outcomes.some((outcome) => outcome.answers !== undefined)) dirtyAt = workedAt;
    }
    let now = performance.now();
    // The flag stays up until the checkpoint: meanwhile the main connection's writes see it and wake nobody.
    if (dirtyAt === 0 && Atomics.load(flags, ${WRITTEN}) === 1) {
      workedAt = now;
      dirtyAt = now;
    }
    if (dirtyAt !== 0 && now - dirtyAt >= workerData.delayMs) {
      Atomics.store(flags, ${WRITTEN}, 0);
      runCheckpoint();
      dirtyAt = 0;
      now = performance.now();
    }
    let timeout;
    if (dirtyAt !== 0) {
      timeout = dirtyAt + workerData.delayMs - now;
    } else {
      timeout = workedAt + workerData.idleExitMs - now;
      if (timeout <= 0) {
        if (Atomics.compareExchange(flags, ${PENDING}, 0, ${ENDED}) === 0) break;
        continue;
      }
    }
    Atomics.wait(flags, ${SIGNAL}, signal, Math.max(0, timeout));
  }
} catch (error) {
  parentPort.postMessage('failed: ' + (error && error.message));
}
Atomics.store(flags, ${PENDING}, ${ENDED});
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
