import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** True when this module is the process's entry script, not an import. */
export function isMainModule(moduleUrl: string): boolean {
  const entry = process.argv[1];
  return entry !== undefined && path.resolve(entry) === fileURLToPath(moduleUrl);
}

/** The one line a bench child writes to stdout: the parent waits for it (see child-process.ts). */
export function announceReady(details: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ ready: true, ...details })}\n`);
}
