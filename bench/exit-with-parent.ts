/**
 * Preloaded (`--import`) into every bench child: the parent holds our stdin open, so end of input means the
 * parent is gone (even after SIGKILL) and this process ends too, through its own SIGTERM handler when it has
 * one (the gateway writes its CPU profile and closes the database that way).
 */
process.stdin.on('end', () => process.kill(process.pid, 'SIGTERM'));
process.stdin.on('error', () => process.kill(process.pid, 'SIGTERM'));
process.stdin.resume();
// Reading stdin must not keep a child alive that has nothing else to do.
process.stdin.unref?.();
