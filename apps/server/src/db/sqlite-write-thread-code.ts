/**
 * The SQLite write thread's own code, and the slots and timings it shares with sqlite-write-thread.ts (which
 * starts it and talks to it).
 */

// Slots of the shared Int32Array between the main thread and the write thread.
/** bumped by the main thread whenever it has something for the thread (a transaction, a write of its own) */
export const SIGNAL = 0;
export const STOP = 1;
export const CLOSED = 2;
/** 1 while the thread wants the write lock to start the WAL over: the main connection starts nothing new. */
export const RESTARTING = 3;
/** 1 when the main connection wrote since the thread last looked */
export const WRITTEN = 4;
/**
 * Transactions handed to the thread and not answered yet. The thread ends for want of work only by swapping 0
 * for ENDED, in one atomic step, so a transaction is never handed to a thread that is ending.
 */
export const PENDING = 5;
const ENDED = -1_000_000;

/**
 * How long the thread's second checkpoint tries for the write lock (the main connection finishing the
 * transaction it is in); past it the checkpoint stays passive and the next round tries again. Short, as the
 * main connection starts nothing new meanwhile (RESTARTING).
 */
const RESTART_WAIT_MS = 5;
/** Its pause between two tries, and the thread's between two tries of BEGIN while another connection writes. */
const RETRY_PAUSE_MS = 0.2;
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
export const THREAD_CODE = `
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
